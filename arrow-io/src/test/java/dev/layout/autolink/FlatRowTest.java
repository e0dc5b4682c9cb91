package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The compact form's flat records: node types of primitives and single references, read and written in one loop. */
class FlatRowTest {
    /** Every primitive kind and two references: a flat type. */
    static final class Prims {
        static final Prims SENTINEL = new Prims(0);
        boolean z;
        byte b;
        short s;
        char c;
        int i;
        float f;
        long l;
        double d;
        Prims next = SENTINEL; // the decoder must overwrite what the constructor set, null included
        Graphs.DNode peer;

        Prims() {}

        Prims(int i) {
            this.i = i;
            this.next = null;
        }
    }

    private static final TypeRegistry REGISTRY = TypeRegistry.of(Prims.class, Graphs.DNode.class);
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

    private static final NodeType PRIMS = REGISTRY.type(REGISTRY.types().indexOf(Prims.class));

    /** Where field {@code name} of a Prims record starts, from the record's start (fields are in name order). */
    private static int at(String name) {
        int at = 0;
        for (NodeField f : PRIMS.fieldArray) {
            if (f.name.equals(name)) {
                return at;
            }
            at += switch (f.kind) {
                case BOOLEAN, BYTE -> 1;
                case SHORT, CHAR -> 2;
                case INT, FLOAT, REF -> 4;
                default -> 8;
            };
        }
        throw new AssertionError(name);
    }

    private GraphCodec codec(boolean raw) {
        return GraphCodec.builder(REGISTRY).allocator(allocator).rawColumns(raw).build();
    }

    /** A chain of n Prims with extreme values, the last one's next null, every third sharing one DNode cycle. */
    private static Prims chain(int n) {
        Graphs.DNode a = new Graphs.DNode();
        Graphs.DNode b = new Graphs.DNode();
        a.value = Long.MIN_VALUE;
        a.next = b;
        b.prev = a;
        b.next = a;
        Prims first = null;
        Prims prev = null;
        for (int k = 0; k < n; k++) {
            Prims p = new Prims(k);
            p.z = k % 2 == 0;
            p.b = (byte) (k - 128);
            p.s = k % 3 == 0 ? Short.MIN_VALUE : (short) k;
            p.c = k % 3 == 0 ? Character.MAX_VALUE : (char) k;
            p.f = k % 4 == 0 ? Float.intBitsToFloat(0x7fc12345) : -0.0f; // a NaN with payload
            p.l = Long.MAX_VALUE - k;
            p.d = k % 4 == 1 ? Double.longBitsToDouble(0x7ff8000000abcdefL) : Double.MIN_VALUE * k;
            p.peer = k % 3 == 0 ? (k % 2 == 0 ? a : b) : null;
            if (prev == null) {
                first = p;
            } else {
                prev.next = p;
            }
            prev = p;
        }
        return first;
    }

    @Test
    void typesOfPrimitivesAndSingleReferencesAreFlat() {
        FlatRow prims = FlatRow.of(PRIMS);
        assertThat(prims).isNotNull();
        assertThat(prims.width).isEqualTo(1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 4 + 4);
        assertThat(FlatRow.of(Graphs.registry().type(Graphs.registry().types().indexOf(Graphs.DNode.class))))
                .isNotNull();
        TypeRegistry others = Graphs.registry();
        for (Class<?> c : List.of(Graphs.Node.class, Graphs.Vertex.class, Graphs.Bag.class)) {
            assertThat(FlatRow.of(others.type(others.types().indexOf(c))))
                    .as(c.getSimpleName() + " (a string, an array or list, or a record)")
                    .isNull();
        }
        assertThat(FlatRow.of(REGISTRY, false)).containsOnlyNulls();
    }

    @Test
    void flatRecordsRoundTripAndMatchThePortableBytesExactly() {
        Prims g = chain(50);
        byte[] raw = codec(true).aggregateAll(g).get(0).bytes();
        byte[] portable = codec(false).aggregateAll(g).get(0).bytes();
        assertThat(raw).isEqualTo(portable);
        for (boolean readRaw : new boolean[] {true, false}) {
            Prims copy = codec(readRaw).expand(List.of(Packet.wrap(raw)).iterator(), Prims.class);
            Prims x = g;
            Prims y = copy;
            Graphs.DNode peer0 = y.peer;
            for (int k = 0; k < 50; k++, x = x.next, y = y.next) {
                assertThat(y).isNotSameAs(x);
                assertThat(new Object[] {y.z, y.b, y.s, y.c, y.i, y.l})
                        .as("node %d", k)
                        .containsExactly(x.z, x.b, x.s, x.c, x.i, x.l);
                assertThat(Float.floatToRawIntBits(y.f)).isEqualTo(Float.floatToRawIntBits(x.f));
                assertThat(Double.doubleToRawLongBits(y.d)).isEqualTo(Double.doubleToRawLongBits(x.d));
                assertThat(y.peer == null).isEqualTo(x.peer == null);
                if (y.peer != null) {
                    assertThat(y.peer.next.next).isSameAs(y.peer); // the shared two-node cycle
                    assertThat(y.peer == peer0 || y.peer == peer0.next).isTrue();
                }
            }
            assertThat(x).isNull();
            assertThat(y)
                    .as("the last node's next, set by the constructor, is restored to null")
                    .isNull();
        }
    }

    @Test
    void aHostileFlatRecordIsRefusedWithTheReason() {
        Prims one = new Prims(7);
        one.next = one;
        byte[] whole = codec(true).aggregateAll(one).get(0).bytes();
        int record = Packet.COMPACT_FIXED;
        byte[] bool = whole.clone();
        bool[record + at("z")] = 2;
        assertThatThrownBy(() -> codec(true).expand(List.of(Packet.wrap(bool)).iterator()))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("boolean byte 2 (expected: 0 or 1)");
        int next = record + at("next");
        for (int[] bad : new int[][] {{1, 1}, {-2, -2}, {5, 5}}) {
            byte[] b = whole.clone();
            CompactEncoder.I32.set(b, next, bad[0]);
            assertThatThrownBy(() -> codec(true).expand(List.of(Packet.wrap(b)).iterator()))
                    .isInstanceOf(GraphFormatException.class)
                    .hasMessageContaining("Prims.next of node 0 reference " + bad[1]);
        }
        byte[] peer = whole.clone();
        CompactEncoder.I32.set(peer, record + at("peer"), 0); // node 0 is a Prims, not a DNode
        assertThatThrownBy(() -> codec(true).expand(List.of(Packet.wrap(peer)).iterator()))
                .hasMessageContaining("Prims.peer of node 0 reference 0 to a Prims");
        for (int len = Packet.COMPACT_FIXED; len < whole.length; len++) {
            Packet p = Packet.wrap(Arrays.copyOf(whole, len));
            assertThatThrownBy(() -> codec(true).expand(List.of(p).iterator()))
                    .isInstanceOf(GraphFormatException.class)
                    .hasMessageContaining("truncated at byte " + Packet.COMPACT_FIXED);
        }
    }

    @Test
    void everyTruncationAndFlippedByteOfAFlatGraphFailsCleanlyOrGivesAWholeGraph() {
        GraphCodec c = codec(true);
        byte[] whole = c.aggregateAll(chain(12)).get(0).bytes();
        for (int len = 0; len < whole.length; len++) {
            Packet p = Packet.wrap(Arrays.copyOf(whole, len));
            assertThatThrownBy(() -> c.expand(List.of(p).iterator())).isInstanceOf(GraphFormatException.class);
        }
        for (int i = 0; i < whole.length; i++) {
            byte[] b = whole.clone();
            b[i] ^= (byte) 0x41;
            Object copy;
            try {
                copy = c.expand(List.of(Packet.wrap(b)).iterator());
            } catch (GraphFormatException expected) {
                continue;
            }
            // what expanded is a graph the codec sends again as the same bytes (the prefix's two unused bytes aside)
            byte[] again = c.aggregateAll(copy).get(0).bytes();
            assertThat(Arrays.copyOfRange(again, 8, again.length))
                    .as("byte %d", i)
                    .isEqualTo(Arrays.copyOfRange(b, 8, b.length));
        }
    }
}
