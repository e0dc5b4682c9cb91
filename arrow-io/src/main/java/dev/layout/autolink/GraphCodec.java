package dev.layout.autolink;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.arrow.memory.BufferAllocator;

/**
 * AutoLink's communication-independent part: {@link #aggregate} turns an object graph into a
 * sequence of bounded {@link Packet}s (breadth-first traversal with marks, address abstraction
 * object -> (type, index), per-type columnar Arrow batches), {@link #expand} turns packets back into
 * an isomorphic graph (same sharing, same cycles). A transport only moves packets: point-to-point,
 * broadcast (send the same packets to all), gather/alltoall (one packet sequence per peer), a
 * Spark broadcast variable, a byte stream ({@link Packet#writeTo}/{@link Packet#readFrom}).
 *
 * <pre>{@code
 * try (BufferAllocator alloc = new RootAllocator()) {
 *   GraphCodec codec = GraphCodec.builder(TypeRegistry.of(Node.class)).allocator(alloc).packetRows(4096).build();
 *   List<Packet> packets = codec.aggregateAll(root);
 *   Node copy = codec.expand(packets.iterator(), Node.class);
 * }
 * }</pre>
 *
 * <p>Memory: encoding keeps the traversal's mark table and per-type node lists (a few references
 * per node) and builds one packet at a time, releasing its Arrow buffers before returning it;
 * decoding keeps the nodes and their pending reference indices, and one packet's Arrow buffers at a
 * time. Counts, indices and lengths in received packets are validated before anything is allocated
 * for them.
 *
 * <p>A codec is immutable and thread-safe; each aggregate/expand call has its own state (the compact
 * form's encoder tables are kept per thread between calls, cleared).
 */
public final class GraphCodec {
    /** Default rows (nodes) per data packet. */
    public static final int DEFAULT_PACKET_ROWS = 1 << 16;
    /** Default limit on the nodes of one expanded graph. */
    public static final long DEFAULT_MAX_NODES = 1L << 25;
    /** Default ZSTD level of packet bodies (fast; the reference columns compress to almost nothing at any level). */
    public static final int DEFAULT_COMPRESSION_LEVEL = 1;
    /** Default limit on one packet's uncompressed Arrow buffers, in bytes (both directions). */
    public static final long DEFAULT_MAX_PACKET_BYTES = 256L << 20;
    /**
     * Default largest graph sent as one {@link Packet.Kind#COMPACT} packet, in nodes: the compact form
     * is well ahead at 10^5 nodes on every benchmark shape, the columnar one at 10^6, where its batched
     * traversal and compression pay and its memory stays bounded by {@code packetRows} (figures in
     * benchmarks/graph-and-pingpong.md).
     */
    public static final int DEFAULT_COMPACT_MAX_NODES = 1 << 17;

    private final TypeRegistry registry;
    private final BufferAllocator allocator;
    private final int packetRows;
    private final long maxNodes;
    private final int compressionLevel;
    private final long maxPacketBytes;
    private final boolean rawColumns;
    private final int compactMaxNodes;
    private final ThreadLocal<CompactEncoder> compactEncoders;
    private final ThreadLocal<CompactDecoder> compactDecoders;

    private GraphCodec(Builder b) {
        this.registry = b.registry;
        this.allocator = b.allocator;
        this.packetRows = b.packetRows;
        this.maxNodes = b.maxNodes;
        this.compressionLevel = b.compressionLevel;
        this.maxPacketBytes = b.maxPacketBytes;
        this.rawColumns = b.rawColumns;
        this.compactMaxNodes = b.compactMaxNodes;
        this.compactEncoders = ThreadLocal.withInitial(() -> new CompactEncoder(registry, rawColumns));
        this.compactDecoders = ThreadLocal.withInitial(() -> new CompactDecoder(registry, rawColumns));
    }

    public static Builder builder(TypeRegistry registry) {
        if (registry == null) {
            throw new NullPointerException("GraphCodec: registry is null");
        }
        return new Builder(registry);
    }

    /** Options of a {@link GraphCodec}. */
    public static final class Builder {
        private final TypeRegistry registry;
        private BufferAllocator allocator;
        private int packetRows = DEFAULT_PACKET_ROWS;
        private long maxNodes = DEFAULT_MAX_NODES;
        private int compressionLevel = DEFAULT_COMPRESSION_LEVEL;
        private long maxPacketBytes = DEFAULT_MAX_PACKET_BYTES;
        private boolean rawColumns = true;
        private int compactMaxNodes = DEFAULT_COMPACT_MAX_NODES;

        private Builder(TypeRegistry registry) {
            this.registry = registry;
        }

        /** The allocator for packet buffers (required); the caller owns and closes it. */
        public Builder allocator(BufferAllocator allocator) {
            this.allocator = allocator;
            return this;
        }

        /** Nodes per data packet (the packet-size tuning knob); a packet holds nodes of one type. */
        public Builder packetRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("packetRows: rows " + rows + " (expected: >= 1)");
            }
            this.packetRows = rows;
            return this;
        }

        /** Largest graph {@link #expand} accepts, in nodes; a header announcing more is rejected. */
        public Builder maxNodes(long maxNodes) {
            if (maxNodes < 0) {
                throw new IllegalArgumentException("maxNodes: maxNodes " + maxNodes + " (expected: >= 0)");
            }
            this.maxNodes = maxNodes;
            return this;
        }

        /**
         * ZSTD level of the packets' Arrow IPC bodies (standard Arrow buffer compression, readable by any
         * Arrow implementation with ZSTD), or 0 for uncompressed packets. Expansion reads either.
         */
        public Builder compressionLevel(int level) {
            if (level < 0 || level > 22) {
                throw new IllegalArgumentException(
                        "compressionLevel: level " + level + " (expected: 0 (none) or a ZSTD level 1..22)");
            }
            this.compressionLevel = level;
            return this;
        }

        /**
         * Largest uncompressed packet, in bytes: aggregation refuses to build a bigger one, and
         * expansion refuses a packet announcing more before allocating anything for it (a compressed
         * body is tiny next to what it claims to unpack to).
         */
        public Builder maxPacketBytes(long bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maxPacketBytes: bytes " + bytes + " (expected: >= 1024)");
            }
            this.maxPacketBytes = bytes;
            return this;
        }

        /**
         * Graphs of at most this many nodes (and {@code maxPacketBytes}) are sent as one {@link
         * Packet.Kind#COMPACT} packet, larger ones as a header and columnar data packets; 0 sends every
         * graph in columnar packets. Expansion reads both forms whatever this is.
         */
        public Builder compactMaxNodes(int nodes) {
            if (nodes < 0) {
                throw new IllegalArgumentException("compactMaxNodes: nodes " + nodes + " (expected: >= 0)");
            }
            this.compactMaxNodes = nodes;
            return this;
        }

        /**
         * Whether fixed-width columns are read and written through their buffers' addresses ({@link
         * Columns}; the default where Unsafe is available on a little-endian machine) or through Arrow's
         * and the fields' accessors (tests of the portable path).
         */
        Builder rawColumns(boolean raw) {
            this.rawColumns = raw;
            return this;
        }

        public GraphCodec build() {
            if (allocator == null) {
                throw new NullPointerException("GraphCodec: allocator is null (expected: a BufferAllocator)");
            }
            return new GraphCodec(this);
        }
    }

    public TypeRegistry registry() {
        return registry;
    }

    public int packetRows() {
        return packetRows;
    }

    /**
     * Traverses the graph from {@code root} (may be null) and returns its packets lazily: one compact
     * packet for a graph of at most {@link Builder#compactMaxNodes} nodes, else the header first, then
     * data packets built one per {@code next()}. The traversal happens in this call, so an
     * unregistered class fails here with an {@link IllegalArgumentException}.
     */
    public Iterator<Packet> aggregate(Object root) {
        if (compactMaxNodes > 0) {
            byte[] compact = compactEncoders.get().encode(root, compactMaxNodes, maxPacketBytes);
            if (compact != null) {
                return List.of(Packet.wrap(compact)).iterator();
            }
        }
        return new GraphEncoder(
                registry, allocator, packetRows, RefCoding.codec(compressionLevel), maxPacketBytes, rawColumns, root);
    }

    /** {@link #aggregate} as a sequential stream. */
    public Stream<Packet> aggregateStream(Object root) {
        return StreamSupport.stream(
                Spliterators.spliteratorUnknownSize(aggregate(root), Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /** All packets of the graph in a list (holds them all; prefer {@link #aggregate} for streaming). */
    public List<Packet> aggregateAll(Object root) {
        List<Packet> out = new ArrayList<>();
        aggregate(root).forEachRemaining(out::add);
        return out;
    }

    /** A push-style decoder, for transports that receive packets one at a time. */
    public GraphExpander expander() {
        return new GraphExpander(registry, allocator, maxNodes, maxPacketBytes, rawColumns, compactDecoders);
    }

    /**
     * Reads packets until the graph announced by the header is complete (no further packets are
     * consumed) and returns its entry node, fully linked; a malformed, truncated or foreign stream is
     * a {@link GraphFormatException}.
     */
    public Object expand(Iterator<Packet> packets) {
        GraphExpander e = expander();
        while (!e.isComplete()) {
            if (!packets.hasNext()) {
                throw new GraphFormatException("expand: stream ended after " + e.receivedNodes() + " of "
                        + (e.hasHeader() ? e.expectedNodes() + " nodes" : "a header")
                        + " (expected: a complete graph)");
            }
            e.accept(packets.next());
        }
        return e.result();
    }

    /** {@link #expand(Iterator)} with the entry node's class checked. */
    public <T> T expand(Iterator<Packet> packets, Class<T> rootType) {
        Object r = expand(packets);
        if (r != null && !rootType.isInstance(r)) {
            throw new GraphFormatException(
                    "expand: entry node type " + r.getClass().getName() + " (expected: " + rootType.getName() + ")");
        }
        return rootType.cast(r);
    }
}
