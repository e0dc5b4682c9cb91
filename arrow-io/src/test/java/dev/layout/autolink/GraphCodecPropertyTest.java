package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

class GraphCodecPropertyTest {
    private static final TypeRegistry REGISTRY = Graphs.registry();
    private BufferAllocator allocator;

    @BeforeTry
    void open() {
        allocator = new RootAllocator();
    }

    @AfterTry
    void close() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Property(tries = 300)
    void expandOfAggregateIsIsomorphic(
            @ForAll Graphs.Shape shape,
            @ForAll @IntRange(max = 300) int n,
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 64) int packetRows,
            @ForAll boolean rawEncode,
            @ForAll boolean rawDecode,
            @ForAll @IntRange(max = 400) int compactMaxNodes) {
        // raw (column addresses) and portable (Arrow's and the fields' accessors) paths, either way round;
        // compact or columnar packets (compactMaxNodes 0: always columnar; below the graph's size: columnar after a
        // try)
        GraphCodec codec = GraphCodec.builder(REGISTRY)
                .allocator(allocator)
                .packetRows(packetRows)
                .rawColumns(rawEncode)
                .compactMaxNodes(compactMaxNodes)
                .build();
        GraphCodec decoder = GraphCodec.builder(REGISTRY)
                .allocator(allocator)
                .rawColumns(rawDecode)
                .build();
        Object graph = Graphs.build(shape, n, seed);
        List<Packet> packets = codec.aggregateAll(graph);
        Object copy = decoder.expand(packets.iterator());
        if (graph == null) {
            assertThat(copy).isNull();
        } else {
            Graphs.assertIsomorphic(graph, copy);
        }
        if (packets.get(0).kind() == Packet.Kind.COMPACT) {
            assertThat(packets).hasSize(1);
            assertThat(packets.get(0).buffer().getInt(Packet.PREFIX + 8)).isBetween(0, compactMaxNodes);
            return;
        }
        java.nio.ByteBuffer h = packets.get(0).buffer();
        long total = 0;
        for (int t = 0; t < h.getInt(Packet.PREFIX + 8); t++) {
            total += h.getInt(Packet.HEADER_FIXED + 4 * t);
        }
        if (compactMaxNodes > 0) {
            assertThat(total)
                    .as("columnar only when the graph has more nodes than compactMaxNodes")
                    .isGreaterThan(compactMaxNodes);
        }
        // bounded packets: a header, then data packets of at most packetRows nodes
        assertThat(packets.get(0).kind()).isEqualTo(Packet.Kind.HEADER);
        for (Packet p : packets.subList(1, packets.size())) {
            assertThat(p.kind()).isEqualTo(Packet.Kind.DATA);
            assertThat(p.buffer().getInt(Packet.PREFIX + 8)).isBetween(1, packetRows);
        }
    }

    /** Whatever a corrupted stream holds, expand returns a fully linked graph or throws GraphFormatException: never another exception. */
    @Property(tries = 300)
    void corruptedStreamsFailCleanly(
            @ForAll Graphs.Shape shape,
            @ForAll @IntRange(max = 60) int n,
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 10_000) int where,
            @ForAll byte value,
            @ForAll boolean truncate,
            @ForAll boolean raw,
            @ForAll boolean compact) {
        GraphCodec codec = GraphCodec.builder(REGISTRY)
                .allocator(allocator)
                .packetRows(16)
                .rawColumns(raw)
                .compactMaxNodes(compact ? GraphCodec.DEFAULT_COMPACT_MAX_NODES : 0)
                .build();
        List<Packet> packets = codec.aggregateAll(Graphs.build(shape, n, seed));
        int pi = where % packets.size();
        byte[] b = packets.get(pi).bytes().clone();
        if (truncate) {
            b = java.util.Arrays.copyOf(b, (where / packets.size()) % b.length);
        } else {
            b[(where / packets.size()) % b.length] ^= (byte) (value == 0 ? 1 : value);
        }
        List<Packet> bad = new java.util.ArrayList<>(packets);
        bad.set(pi, Packet.wrap(b));
        Object copy;
        try {
            copy = codec.expand(bad.iterator());
        } catch (GraphFormatException expected) {
            return;
        }
        if (copy != null) { // whatever was decoded is a whole graph: it encodes and expands again to an isomorphic copy
            Graphs.assertIsomorphic(copy, codec.expand(codec.aggregateAll(copy).iterator()));
        }
    }
}
