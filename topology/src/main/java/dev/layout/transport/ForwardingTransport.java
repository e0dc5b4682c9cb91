package dev.layout.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

/**
 * A transport that hands its messages to another: identity, plain messages, counters and close go
 * to {@link #transport}. The typed and posted-receive methods are not forwarded: they stay the
 * interface's defaults (pack, send and unpack over the forwarded messages), so a wrapper sees every
 * byte as a network transport moves it; a subclass that wants the wrapped endpoint's own paths
 * overrides them.
 */
public abstract class ForwardingTransport implements Transport {
    /** The endpoint this one forwards to. */
    protected final Transport transport;

    protected ForwardingTransport(Transport transport) {
        this.transport =
                Objects.requireNonNull(transport, "forwardingTransport: transport null (expected: a Transport)");
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
