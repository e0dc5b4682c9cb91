package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** A flat type whose reference field's class is not final: the generated writer keeps the class check. */
    static class Open {
        int v;
        Open next;
    }

    /** A registered subclass: a node type of its own, which Open.next may not hold. */
    static final class Sealed extends Open {}

    /** Not registered. */
    static final class Stray extends Open {}

    @Test
    void aReferenceFieldOfANonFinalClassStillRefusesSubclassesAndWritesTheLoopsBytes() {
        TypeRegistry r = TypeRegistry.of(Open.class, Sealed.class);
        Open a = new Open();
        a.v = 1;
        a.next = new Open();
        a.next.v = 2;
        a.next.next = a;
        byte[] generated = null;
        for (boolean raw : new boolean[] {true, false}) {
            GraphCodec codec =
                    GraphCodec.builder(r).allocator(allocator).rawColumns(raw).build();
            List<Packet> packets = codec.aggregateAll(a);
            assertThat(packets).hasSize(1);
            if (raw) {
                generated = packets.get(0).bytes();
            } else {
                assertThat(packets.get(0).bytes())
                        .as("same bytes as the field-by-field path")
                        .isEqualTo(generated);
            }
            Open copy = codec.expand(packets.iterator(), Open.class);
            assertThat(copy.v).isEqualTo(1);
            assertThat(copy.next.v).isEqualTo(2);
            assertThat(copy.next.next).isSameAs(copy);
            assertThat(copy.next.getClass()).isEqualTo(Open.class);
        }
        GraphCodec codec = GraphCodec.builder(r).allocator(allocator).build();
        a.next = new Sealed();
        assertThatThrownBy(() -> codec.aggregateAll(a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Open.next holds a " + Sealed.class.getName())
                .hasMessageContaining("subclasses need their own field type");
        a.next = new Stray();
        assertThatThrownBy(() -> codec.aggregateAll(a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Stray.class.getName() + " (not registered)");
    }

    /** Two node types alternating along a chain, every node pointing at one shared hub. */
    static final class Link {
        long v;
        Knot next;
        Hub hub;
    }

    static final class Knot {
        int v;
        Link next;
        Hub hub;
    }

    static final class Hub {
        int size;
        Link first;
    }

    @Test
    void aChainOfAMillionNodesOfTwoTypesSharingOneHubRoundTripsInBothForms() {
        int n = 1_000_000; // even: Link, Knot, Link, ... Knot
        Hub hub = new Hub();
        hub.size = n;
        Link first = new Link();
        hub.first = first; // a cycle back to the start
        Link link = first;
        for (int k = 0; k < n; k += 2) {
            link.v = k;
            link.hub = hub;
            Knot knot = new Knot();
            knot.v = k + 1;
            knot.hub = hub;
            link.next = knot;
            if (k + 2 < n) {
                knot.next = new Link();
                link = knot.next;
            }
        }
        TypeRegistry r = TypeRegistry.of(Link.class, Knot.class, Hub.class);
        for (int compactMax : new int[] {GraphCodec.DEFAULT_COMPACT_MAX_NODES, 1 << 21}) {
            GraphCodec codec = GraphCodec.builder(r)
                    .allocator(allocator)
                    .compactMaxNodes(compactMax)
                    .build();
            List<Packet> packets = codec.aggregateAll(first);
            assertThat(packets.size() == 1 && packets.get(0).kind() == Packet.Kind.COMPACT)
                    .as("compact form up to %d nodes", compactMax)
                    .isEqualTo(compactMax > n);
            Link copy = codec.expand(packets.iterator(), Link.class);
            Hub h = copy.hub;
            assertThat(h.size).isEqualTo(n);
            assertThat(h.first).as("the hub's cycle back to the first node").isSameAs(copy);
            Link x = copy;
            int seen = 0;
            while (x != null) {
                assertThat(x.v).isEqualTo(seen);
                assertThat(x.next.v).isEqualTo(seen + 1);
                assertThat(x.hub == h && x.next.hub == h).as("one shared hub").isTrue();
                seen += 2;
                x = x.next.next;
            }
            assertThat(seen).isEqualTo(n);
        }
    }
}
