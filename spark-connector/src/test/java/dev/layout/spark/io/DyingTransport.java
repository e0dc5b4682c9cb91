package dev.layout.spark.io;

import dev.layout.transport.ForwardingTransport;
import dev.layout.transport.Transport;
import dev.layout.transport.TypedRegion;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An endpoint whose process dies at its {@code n}-th single-copy send of data (counting from 1;
 * data: a region whose text contains {@code marker}, e.g. its memory type's name, so that the
 * collectives' own messages do not count): the endpoint closes, as a dead rank's would, and the
 * send fails. Everything else is the wrapped endpoint's, its posted receives included.
 */
final class DyingTransport extends ForwardingTransport {
    private final String marker;
    private final int n;
    private final AtomicInteger sends = new AtomicInteger();

    DyingTransport(Transport transport, String marker, int n) {
        super(transport);
        this.marker = marker;
        this.n = n;
    }

    @Override
    public void sendToPosted(int dest, long context, int tag, TypedRegion from, Duration timeout) throws IOException {
        if (from.toString().contains(marker) && sends.incrementAndGet() == n) {
            transport.close();
            throw new IOException("process " + process() + " died at its send " + n);
        }
        transport.sendToPosted(dest, context, tag, from, timeout);
    }

    @Override
    public PostedReceive postReceive(int source, long context, int tag, TypedRegion into) throws IOException {
        return transport.postReceive(source, context, tag, into);
    }
}
