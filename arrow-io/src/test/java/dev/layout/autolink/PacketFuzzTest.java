package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Fuzzes AutoLink's packet decoder ({@link GraphExpander} through {@link GraphCodec#expand}): the
 * packets of a random valid graph (shape, size and seed fuzzed) are mutated (bytes overwritten,
 * packets truncated, dropped, duplicated, swapped, or replaced by raw fuzzed bytes) and expanded
 * under a node limit and a bounded allocator. The only exception allowed is {@link
 * GraphFormatException}; no Arrow memory may be left allocated; an unmutated stream must give back
 * an isomorphic graph; and a graph that is returned from a mutated stream must be complete and
 * consistent: it encodes again and expands to an isomorphic copy (never half-linked). Small graphs
 * travel in the compact form or in the columnar one, depending on the fuzzed packet size. Runs the
 * committed corpus in every build; {@code JAZZER_FUZZ=1} fuzzes for real.
 */
class PacketFuzzTest {
    private static final TypeRegistry REGISTRY = Graphs.registry();
    private static final Graphs.Shape[] SHAPES = Graphs.Shape.values();

    @FuzzTest(maxDuration = "2m")
    void expand(FuzzedDataProvider data) {
        Graphs.Shape shape = SHAPES[data.consumeInt(0, SHAPES.length - 1)];
        int n = data.consumeInt(0, 40);
        long seed = data.consumeLong();
        int packetRows = data.consumeInt(1, 16);
        try (BufferAllocator allocator = new RootAllocator(16L << 20)) {
            // odd packetRows: graphs of up to 24 nodes in one compact packet (larger ones fall back to columnar); even:
            // columnar only
            int compactMaxNodes = (packetRows & 1) == 1 ? 24 : 0;
            GraphCodec codec = GraphCodec.builder(REGISTRY)
                    .allocator(allocator)
                    .packetRows(packetRows)
                    .maxNodes(10_000)
                    .compactMaxNodes(compactMaxNodes)
                    .build();
            Object original = Graphs.build(shape, n, seed);
            List<byte[]> wire = new ArrayList<>();
            for (Packet p : codec.aggregateAll(original)) {
                wire.add(p.bytes().clone());
            }
            boolean mutated = mutate(data, wire);
            List<Packet> packets = new ArrayList<>();
            for (byte[] b : wire) {
                packets.add(Packet.wrap(b));
            }
            Object copy;
            try {
                copy = codec.expand(packets.iterator());
            } catch (GraphFormatException expected) {
                assertThat(expected.getMessage()).isNotBlank();
                assertThat(allocator.getAllocatedMemory())
                        .as("Arrow memory after a failed expand")
                        .isZero();
                return;
            }
            assertThat(allocator.getAllocatedMemory())
                    .as("Arrow memory after expand")
                    .isZero();
            if (!mutated) {
                Graphs.assertIsomorphic(original, copy);
            } else if (copy != null) {
                Object again = codec.expand(codec.aggregateAll(copy).iterator());
                Graphs.assertIsomorphic(copy, again);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /** Applies fuzzed mutations to the packet list; returns whether any byte or packet changed. */
    private static boolean mutate(FuzzedDataProvider data, List<byte[]> wire) {
        boolean changed = false;
        int ops = data.consumeInt(0, 6);
        for (int k = 0; k < ops && !wire.isEmpty(); k++) {
            int i = data.consumeInt(0, wire.size() - 1);
            byte[] p = wire.get(i);
            switch (data.consumeInt(0, 6)) {
                case 0, 1 -> { // overwrite a run of bytes
                    if (p.length > 0) {
                        int at = data.consumeInt(0, p.length - 1);
                        byte[] with = data.consumeBytes(Math.min(8, p.length - at));
                        for (int j = 0; j < with.length; j++) {
                            changed |= p[at + j] != with[j];
                            p[at + j] = with[j];
                        }
                    }
                }
                case 2 -> { // overwrite an aligned int with an interesting value
                    if (p.length >= 4) {
                        int at = data.consumeInt(0, (p.length - 4) / 4) * 4;
                        int v = data.pickValue(
                                new int[] {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 20, data.consumeInt()});
                        java.nio.ByteBuffer.wrap(p)
                                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                                .putInt(at, v);
                        changed = true;
                    }
                }
                case 3 -> { // truncate
                    wire.set(i, java.util.Arrays.copyOf(p, data.consumeInt(0, p.length)));
                    changed = true;
                }
                case 4 -> { // drop
                    wire.remove(i);
                    changed = true;
                }
                case 5 -> { // duplicate or swap
                    int j = data.consumeInt(0, wire.size() - 1);
                    if (data.consumeBoolean()) {
                        wire.add(j, p.clone());
                    } else {
                        wire.set(i, wire.get(j));
                        wire.set(j, p);
                    }
                    changed = true;
                }
                default -> { // replace by raw bytes
                    wire.set(i, data.consumeBytes(data.consumeInt(0, 512)));
                    changed = true;
                }
            }
        }
        return changed;
    }
}
