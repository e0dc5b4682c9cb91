package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The generated writers and readers of flat records. Their bytes, values and hostile-input checks
 * are {@link FlatRowTest}'s (its raw path goes through them); here: that they exist, so that those
 * tests measure the generated code, and that the graphs they serve may be deep, shared and cyclic.
 */
class FlatCodecTest {
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void everyFlatTypeGetsAGeneratedCodecAndOnlyFlatTypesDo() {
        TypeRegistry r = TypeRegistry.of(FlatRowTest.Prims.class, Graphs.DNode.class);
        FlatCodec[] codecs = FlatRow.codecs(FlatRow.of(r, true));
        assertThat(codecs).doesNotContainNull().hasSize(2);
        assertThat(codecs[0].getClass()).isNotSameAs(codecs[1].getClass());
        assertThat(codecs[0].getClass().isHidden()).isTrue();
        TypeRegistry others = Graphs.registry();
        FlatRow[] rows = FlatRow.of(others, true);
        FlatCodec[] mixed = FlatRow.codecs(rows);
        for (int i = 0; i < mixed.length; i++) {
            assertThat(mixed[i] != null).as(others.type(i).type.getSimpleName()).isEqualTo(rows[i] != null);
        }
        assertThat(mixed[others.types().indexOf(Graphs.DNode.class)]).isNotNull();
        assertThat(FlatRow.codecs(FlatRow.of(r, false))).containsOnlyNulls();
        assertThat(FlatRow.codecs(FlatRow.of(r, true)))
                .as("made once per type, shared by every encoder and decoder")
                .containsExactly(codecs);
    }

    /** A cyclic doubly-linked chain of n DNodes, values 0..n-1. */
    private static Graphs.DNode ring(int n) {
        Graphs.DNode first = new Graphs.DNode();
        Graphs.DNode last = first;
        for (int k = 1; k < n; k++) {
            Graphs.DNode d = new Graphs.DNode();
            d.value = k;
            d.prev = last;
            last.next = d;
            last = d;
        }
        last.next = first;
        first.prev = last;
        return first;
    }

    @Test
    void aRingOfAMillionNodesRoundTripsWithoutRecursionInEitherForm() {
        int n = 1_000_000;
        Graphs.DNode g = ring(n);
        for (int compactMax : new int[] {GraphCodec.DEFAULT_COMPACT_MAX_NODES, 1 << 20}) {
            GraphCodec codec = GraphCodec.builder(TypeRegistry.of(Graphs.DNode.class))
                    .allocator(allocator)
                    .compactMaxNodes(compactMax)
                    .build();
            List<Packet> packets = codec.aggregateAll(g);
            assertThat(packets.size() == 1 && packets.get(0).kind() == Packet.Kind.COMPACT)
                    .as("compact form up to %d nodes", compactMax)
                    .isEqualTo(compactMax >= n);
            Graphs.DNode copy = codec.expand(packets.iterator(), Graphs.DNode.class);
            Graphs.DNode x = copy;
            for (int k = 0; k < n; k++, x = x.next) {
                assertThat(x.value).isEqualTo(k);
                assertThat(x.next.prev).isSameAs(x);
            }
            assertThat(x).as("the ring closes after %d nodes", n).isSameAs(copy);
        }
    }
}
