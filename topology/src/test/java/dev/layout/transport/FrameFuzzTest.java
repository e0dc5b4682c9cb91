package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes the TCP transport's handshake and frame decoder through a loopback socket (the decoder
 * has no entry point of its own: it is the connection's read loop). A raw peer plays process 1 of a
 * two-process job:
 *
 * <ul>
 *   <li>handshake mode: fuzzed bytes as hello and response, without the secret. The peer never
 *       gets a verdict (at most the challenge comes back), and the refusal is recorded.
 *   <li>frame mode: after a correct handshake, a fuzzed sequence of frames (type, source, context,
 *       tag, sequence, length, id and body fuzzed, mostly plausible), then the peer dies. A
 *       reference model of the protocol says which eager messages were complete and valid before
 *       the first violation: exactly those are received, in order per key, and the next receive
 *       on each key is an {@link IOException} naming the peer, not a timeout and never data that
 *       was not sent.
 * </ul>
 *
 * Runs the committed corpus in every build; {@code JAZZER_FUZZ=1} fuzzes for real.
 */
class FrameFuzzTest {
    private static final TcpOptions OPTS = TcpOptions.defaults()
            .withEagerThresholdBytes(1024)
            .withPeerBufferBytes(8192)
            .withMaxMessageBytes(1 << 20)
            .withConnectTimeout(Duration.ofSeconds(5))
            .withCloseTimeout(Duration.ofSeconds(2));
    private static final Duration BOUND = Duration.ofSeconds(10);

    @FuzzTest(maxDuration = "2m")
    void frames(FuzzedDataProvider data) throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        try (TcpTransport t = l.open(0, List.of(l.endpoint(), new Endpoint("127.0.0.1", 1)), secret, OPTS)) {
            if (data.consumeBoolean()) {
                handshake(t, data);
            } else {
                frames(t, secret, data);
            }
        }
    }

    private static void handshake(TcpTransport t, FuzzedDataProvider data) throws IOException {
        try (RawPeer p = RawPeer.connect(t.endpoints().get(0))) {
            byte[] hello = data.consumeBytes(Handshake.HELLO_BYTES);
            if (hello.length >= 16 && data.consumeBoolean()) {
                // a plausible hello (right magic, version, processes) so the fuzzed response is what is tested
                ByteBuffer.wrap(hello)
                        .putInt(Handshake.MAGIC)
                        .putInt(Handshake.VERSION)
                        .putInt(1)
                        .putInt(0);
            }
            try {
                p.write(hello);
                p.write(data.consumeRemainingAsBytes());
                p.ch.shutdownOutput();
            } catch (IOException dropped) {
                // the transport already refused the hello and closed the connection (broken pipe / reset)
            }
            ByteBuffer answer = ByteBuffer.allocate(Handshake.CHALLENGE_BYTES + 1);
            p.readFully(answer); // until the transport drops us
            assertThat(answer.position())
                    .as("bytes answered to a peer without the secret")
                    .isLessThanOrEqualTo(Handshake.CHALLENGE_BYTES);
        }
        assertThat(t.rejections()).isNotEmpty();
        assertThatThrownBy(() -> t.receive(1, 0L, 0, Duration.ofMillis(1))).isInstanceOf(IOException.class);
    }

    private record Key(long context, int tag) {}

    private static void frames(TcpTransport t, JobSecret secret, FuzzedDataProvider data) throws IOException {
        Map<Key, List<byte[]>> expected = new HashMap<>();
        try (RawPeer p = RawPeer.connect(t.endpoints().get(0))) {
            assertThat(p.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
            long seq = 0;
            long buffered = 0;
            boolean alive = true; // the reference model: false after the first frame the transport must refuse
            boolean bye = false;
            int frames = data.consumeInt(0, 8);
            for (int i = 0; i < frames; i++) {
                byte type = data.pickValue(new byte[] {
                    Frame.EAGER,
                    Frame.EAGER,
                    Frame.EAGER,
                    Frame.RTS,
                    Frame.CTS,
                    Frame.DATA,
                    Frame.CREDIT,
                    Frame.BYE,
                    Frame.ABORT,
                    data.consumeByte()
                });
                int source = data.consumeInt(0, 15) == 0 ? data.consumeInt() : 1;
                Key key = new Key(data.consumeInt(0, 1), data.consumeInt(0, 1));
                long s = data.consumeInt(0, 15) == 0 ? data.consumeLong() : seq;
                long length = data.consumeInt(0, 7) == 0 ? data.consumeLong() : data.consumeInt(0, 64);
                int id = data.consumeInt(0, 3);
                byte[] body = new byte[0];
                if ((type == Frame.EAGER || type == Frame.DATA) && length > 0 && length <= 64) {
                    body = data.consumeBytes((int) length);
                }
                try {
                    p.write(RawPeer.header(type, source, key.context, key.tag, s, length, id));
                    p.write(body);
                } catch (IOException dropped) {
                    // only after a frame the transport had to refuse may it have closed the connection
                    assertThat(alive)
                            .as("connection dropped although every frame so far was valid")
                            .isFalse();
                    break;
                }
                if ((type == Frame.EAGER || type == Frame.DATA) && length > 0 && body.length != length) {
                    // A body shorter than its header claims: the peer dies here, so the stream really ends
                    // inside the body. Writing more frames would hand the transport their bytes as the rest
                    // of this body, a valid message the model below does not expect (Jazzer found this).
                    break;
                }
                if (!alive) {
                    continue;
                }
                if (source != 1 || s != seq || bye || length < 0) {
                    alive = false;
                    continue;
                }
                seq++;
                switch (type) {
                    case Frame.EAGER -> {
                        if (length > OPTS.maxMessageBytes()
                                || buffered + length > OPTS.peerBufferBytes()
                                || body.length != length) {
                            alive = false; // refused, or truncated: the stream ends inside the body
                        } else {
                            buffered += length;
                            expected.computeIfAbsent(key, k -> new ArrayList<>())
                                    .add(body);
                        }
                    }
                    case Frame.RTS -> {
                        if (length > OPTS.maxMessageBytes()) {
                            alive = false;
                        } else {
                            expected.computeIfAbsent(key, k -> new ArrayList<>())
                                    .add(null); // a rendezvous: fails once the peer is dead
                        }
                    }
                    case Frame.CREDIT, Frame.ABORT -> {}
                    case Frame.BYE -> bye = true;
                    default -> alive = false; // CTS/DATA for no message, unknown types
                }
            }
        } // the peer dies
        for (long context = 0; context <= 1; context++) {
            for (int tag = 0; tag <= 1; tag++) {
                long c = context;
                int g = tag;
                for (byte[] want : expected.getOrDefault(new Key(context, tag), List.of())) {
                    if (want == null) {
                        break; // a rendezvous with a dead peer: the receive below must fail
                    }
                    assertThat(t.receive(1, context, tag, BOUND))
                            .as("eager message on (%d,%d)", context, tag)
                            .isEqualTo(want);
                }
                assertThatThrownBy(() -> t.receive(1, c, g, BOUND))
                        .isInstanceOf(IOException.class)
                        .isNotInstanceOf(TransportTimeoutException.class)
                        .hasMessageContaining("process 1");
            }
        }
    }
}
