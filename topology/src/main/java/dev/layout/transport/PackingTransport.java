package dev.layout.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Another transport's messages with the interface's default posted-receive pair: typed messages are
 * packed, sent and unpacked as a network transport moves them, even between endpoints of one JVM.
 * For comparing {@link InProcessTransport}'s single-copy path with the packed one on the same fabric.
 */
public record PackingTransport(Transport transport) implements Transport {

    public PackingTransport {
        Objects.requireNonNull(transport, "packingTransport: transport null (expected: a Transport)");
    }

    /** An in-process fabric of {@code size} endpoints whose posted receives go through pack, send and unpack. */
    public static List<Transport> inProcess(int size) {
        return InProcessTransport.create(size).stream()
                .<Transport>map(PackingTransport::new)
                .toList();
    }

    @Override
    public int process() {
        return transport.process();
    }

    @Override
    public String host() {
        return transport.host();
    }

    @Override
    public int size() {
        return transport.size();
    }

    @Override
    public void send(int dest, long context, int tag, byte[] payload) throws IOException {
        transport.send(dest, context, tag, payload);
    }

    @Override
    public void sendOwned(int dest, long context, int tag, byte[] payload) throws IOException {
        transport.sendOwned(dest, context, tag, payload);
    }

    @Override
    public byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
        return transport.receive(source, context, tag, timeout);
    }

    @Override
    public long sentMessages() {
        return transport.sentMessages();
    }

    @Override
    public long sentBytes() {
        return transport.sentBytes();
    }

    @Override
    public void close() {
        transport.close();
    }
}
