package dev.layout.transport;

import java.time.Duration;

/**
 * Tuning and limits of a {@link TcpTransport}; {@link #defaults()} then {@code withXxx} to change one.
 *
 * @param eagerThresholdBytes messages up to this size go eagerly (buffered at the receiver);
 *     larger ones use rendezvous (request, clear-to-send, data straight into the posted receive)
 * @param peerBufferBytes memory a receiver grants each peer for unexpected eager messages (credit
 *     flow control; a sender out of credit switches to rendezvous instead of blocking)
 * @param maxMessageBytes largest message accepted; a header claiming more is refused before allocation
 * @param connectTimeout bound on dialing and authenticating a peer
 * @param sendTimeout bound on a blocking send (waiting for clear-to-send, writing)
 * @param closeTimeout bound on the orderly shutdown of each connection
 * @param costModel the pack-or-gather model of adaptive typed sends
 */
public record TcpOptions(
        int eagerThresholdBytes,
        long peerBufferBytes,
        long maxMessageBytes,
        Duration connectTimeout,
        Duration sendTimeout,
        Duration closeTimeout,
        SendCostModel costModel) {

    public TcpOptions {
        if (eagerThresholdBytes < 0) {
            throw new IllegalArgumentException(
                    "tcpOptions: eagerThresholdBytes " + eagerThresholdBytes + " (expected: >= 0)");
        }
        if (peerBufferBytes < 0) {
            throw new IllegalArgumentException("tcpOptions: peerBufferBytes " + peerBufferBytes + " (expected: >= 0)");
        }
        if (maxMessageBytes < 1 || maxMessageBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("tcpOptions: maxMessageBytes " + maxMessageBytes + " (expected: 1.."
                    + (Integer.MAX_VALUE - 8) + ")");
        }
        positive("connectTimeout", connectTimeout);
        positive("sendTimeout", sendTimeout);
        positive("closeTimeout", closeTimeout);
        if (costModel == null) {
            throw new IllegalArgumentException("tcpOptions: costModel null (expected: a SendCostModel)");
        }
    }

    /** 64 KiB eager threshold, 4 MiB per peer, 1 GiB messages, 30 s timeouts, the model of {@code conf/}. */
    public static TcpOptions defaults() {
        return new TcpOptions(
                64 << 10,
                4L << 20,
                1L << 30,
                Duration.ofSeconds(30),
                Duration.ofSeconds(30),
                Duration.ofSeconds(5),
                SendCostModel.load());
    }

    public TcpOptions withEagerThresholdBytes(int v) {
        return new TcpOptions(
                v, peerBufferBytes, maxMessageBytes, connectTimeout, sendTimeout, closeTimeout, costModel);
    }

    public TcpOptions withPeerBufferBytes(long v) {
        return new TcpOptions(
                eagerThresholdBytes, v, maxMessageBytes, connectTimeout, sendTimeout, closeTimeout, costModel);
    }

    public TcpOptions withMaxMessageBytes(long v) {
        return new TcpOptions(
                eagerThresholdBytes, peerBufferBytes, v, connectTimeout, sendTimeout, closeTimeout, costModel);
    }

    public TcpOptions withConnectTimeout(Duration v) {
        return new TcpOptions(
                eagerThresholdBytes, peerBufferBytes, maxMessageBytes, v, sendTimeout, closeTimeout, costModel);
    }

    public TcpOptions withSendTimeout(Duration v) {
        return new TcpOptions(
                eagerThresholdBytes, peerBufferBytes, maxMessageBytes, connectTimeout, v, closeTimeout, costModel);
    }

    public TcpOptions withCloseTimeout(Duration v) {
        return new TcpOptions(
                eagerThresholdBytes, peerBufferBytes, maxMessageBytes, connectTimeout, sendTimeout, v, costModel);
    }

    public TcpOptions withCostModel(SendCostModel v) {
        return new TcpOptions(
                eagerThresholdBytes, peerBufferBytes, maxMessageBytes, connectTimeout, sendTimeout, closeTimeout, v);
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("tcpOptions: " + name + " " + d + " (expected: > 0)");
        }
    }
}
