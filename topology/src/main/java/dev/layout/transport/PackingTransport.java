package dev.layout.transport;

import java.util.List;

/**
 * Another transport's messages with the interface's default posted-receive pair: typed messages are
 * packed, sent and unpacked as a network transport moves them, even between endpoints of one JVM.
 * For comparing {@link InProcessTransport}'s single-copy path with the packed one on the same fabric.
 */
public final class PackingTransport extends ForwardingTransport {

    public PackingTransport(Transport transport) {
        super(transport);
    }

    /** An in-process fabric of {@code size} endpoints whose posted receives go through pack, send and unpack. */
    public static List<Transport> inProcess(int size) {
        return InProcessTransport.create(size).stream()
                .<Transport>map(PackingTransport::new)
                .toList();
    }
}
