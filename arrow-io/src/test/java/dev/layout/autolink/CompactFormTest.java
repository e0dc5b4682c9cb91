package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The compact form of small graphs: one packet, row by row, and what a hostile one may not do. */
class CompactFormTest {
    private static final TypeRegistry NODES = TypeRegistry.of(Graphs.Node.class);
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

    private GraphCodec codec(TypeRegistry r) {
        return GraphCodec.builder(r).allocator(allocator).build();
    }

    @Test
    void smallGraphsTravelAsOneCompactPacketWithTheirSharingAndCycles() {
        for (boolean raw : new boolean[] {true, false}) {
            GraphCodec c = GraphCodec.builder(Graphs.registry())
                    .allocator(allocator)
                    .rawColumns(raw)
                    .build();
            for (Graphs.Shape s : Graphs.Shape.values()) {
                Object g = Graphs.build(s, 200, 11);
                List<Packet> packets = c.aggregateAll(g);
                assertThat(packets).as(s.toString()).hasSize(1);
                assertThat(packets.get(0).kind()).isEqualTo(Packet.Kind.COMPACT);
                Object copy = c.expand(packets.iterator());
                if (g == null) {
                    assertThat(copy).isNull();
                } else {
                    Graphs.assertIsomorphic(g, copy);
                }
            }
        }
    }

    @Test
    void aGraphAboveTheLimitTravelsInColumnarPackets() {
        GraphCodec c = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(10)
                .build();
        Object small = Graphs.build(Graphs.Shape.CYCLIC_LIST, 10, 1);
        Object big = Graphs.build(Graphs.Shape.CYCLIC_LIST, 11, 1);
        assertThat(c.aggregateAll(small)).extracting(Packet::kind).containsExactly(Packet.Kind.COMPACT);
        List<Packet> packets = c.aggregateAll(big);
        assertThat(packets.get(0).kind()).isEqualTo(Packet.Kind.HEADER);
        Graphs.assertIsomorphic(big, c.expand(packets.iterator()));
        // a columnar stream expands whatever the receiver's limit
        Graphs.assertIsomorphic(big, codec(Graphs.registry()).expand(packets.iterator()));
    }

    @Test
    void recordsReferencedBeforeTheirRecordIsReadAreLinked() {
        Graphs.Node a = new Graphs.Node();
        Graphs.Node b = new Graphs.Node();
        a.left = b;
        b.right = a;
        Graphs.Holder h = new Graphs.Holder();
        h.self = h;
        h.bag = new Graphs.Bag("bag", new ArrayList<>(List.of(a, b, a)), new Graphs.Node[] {b, null});
        GraphCodec c = codec(Graphs.registry());
        Graphs.Holder copy = c.expand(c.aggregateAll(h).iterator(), Graphs.Holder.class);
        assertThat(copy.self).isSameAs(copy);
        assertThat(copy.bag.name()).isEqualTo("bag");
        assertThat(copy.bag.items()).hasSize(3);
        assertThat(copy.bag.items().get(0))
                .isSameAs(copy.bag.items().get(2))
                .isSameAs(copy.bag.items().get(1).right);
        assertThat(copy.bag.arr()[0]).isSameAs(copy.bag.items().get(1));
        assertThat(copy.bag.arr()[1]).isNull();
    }

    @Test
    void anUnregisteredOrMistypedNodeIsRefusedWhenAggregating() {
        GraphCodec c = codec(NODES);
        assertThatThrownBy(() -> c.aggregate(new Graphs.DNode()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DNode")
                .hasMessageContaining("expected: a registered type");
    }

    /** Two Nodes: 0 (id 7) whose left introduces 1 (id 8), whose left is 0 and right itself. */
    private static int[] validBody() {
        return new int[] {7, -1, 1, -1, 8, -1, 0, 1};
    }

    private static Packet compact(TypeRegistry r, int nodes, int entryType, int... body) {
        ByteBuffer b =
                ByteBuffer.allocate(Packet.COMPACT_FIXED + 4 * body.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(Packet.MAGIC).put((byte) 2).put(Packet.VERSION).putShort((short) 0);
        b.putLong(r.fingerprint()).putInt(nodes).putInt(entryType);
        for (int v : body) {
            b.putInt(v);
        }
        return Packet.wrap(b.array());
    }

    private Object expand(TypeRegistry r, Packet p) {
        return codec(r).expand(List.of(p).iterator());
    }

    @Test
    void aHandcraftedPacketExpands() {
        Graphs.Node n = (Graphs.Node) expand(NODES, compact(NODES, 2, 0, validBody()));
        assertThat(n.id).isEqualTo(7);
        assertThat(n.left.id).isEqualTo(8);
        assertThat(n.left.left).isSameAs(n);
        assertThat(n.left.right).isSameAs(n.left);
        assertThat(n.right).isNull();
    }

    @Test
    void hostilePacketsAreRefusedWithTheReason() {
        int[] body = validBody();
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 1_000_000, 0, body)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("node count 1000000")
                .hasMessageContaining("4 bytes per further node");
        assertThatThrownBy(() -> codec(NODES).expander().accept(compact(NODES, 3, 0, body)))
                .hasMessageContaining("node 2 of 3 is referenced by no node before it");
        int[] forward = body.clone();
        forward[2] = 5;
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 2, 0, forward)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("Node.left of node 0 reference 5");
        int[] negative = body.clone();
        negative[7] = -2;
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 2, 0, negative))).hasMessageContaining("reference -2");
        int[] label = body.clone();
        label[1] = 1000;
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 2, 0, label)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("Node.label length 1000");
        int[] trailing = Arrays.copyOf(body, body.length + 1);
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 2, 0, trailing))).hasMessageContaining("trailing bytes");
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 2, 1, body))).hasMessageContaining("entry type 1");
        assertThatThrownBy(() -> expand(NODES, compact(NODES, 0, 0))).hasMessageContaining("entry type 0 of 0 nodes");
        assertThatThrownBy(() -> expand(Graphs.registry(), compact(NODES, 2, 0, body)))
                .hasMessageContaining("registry fingerprint");
        GraphCodec limited =
                GraphCodec.builder(NODES).allocator(allocator).maxNodes(1).build();
        assertThatThrownBy(
                        () -> limited.expand(List.of(compact(NODES, 2, 0, body)).iterator()))
                .hasMessageContaining("maxNodes 1");
    }

    @Test
    void aReferenceToANodeOfAnotherTypeIsRefused() {
        TypeRegistry r = Graphs.registry();
        int holder = r.types().indexOf(Graphs.Holder.class);
        // Holder 0: bag -> node 0 (a Holder, not a Bag)
        assertThatThrownBy(() -> expand(r, compact(r, 1, holder, 0, -1)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("Holder.bag of node 0 reference 0 to a Holder");
    }

    @Test
    void everyTruncationAndEveryFlippedByteFailsCleanlyOrGivesAWholeGraph() {
        GraphCodec c = codec(Graphs.registry());
        Object g = Graphs.build(Graphs.Shape.MESH, 12, 5);
        byte[] whole = c.aggregateAll(g).get(0).bytes();
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
            if (copy != null) {
                Graphs.assertIsomorphic(copy, c.expand(c.aggregateAll(copy).iterator()));
            }
        }
    }

    @Test
    void aReusedEncoderWritesWhatAFreshOneWritesAndKeepsNoLargeBuffer() {
        CompactEncoder reused = new CompactEncoder(Graphs.registry(), true);
        Graphs.Vertex big = new Graphs.Vertex();
        big.blob = new byte[2 * CompactEncoder.RETAINED_BYTES];
        assertThat(reused.encode(big, 1000, 1L << 30)).hasSizeGreaterThan(2 * CompactEncoder.RETAINED_BYTES);
        assertThat(reused.bufferCapacity()).isLessThanOrEqualTo(CompactEncoder.RETAINED_BYTES);
        for (Graphs.Shape s : Graphs.Shape.values()) {
            Object g = Graphs.build(s, 300, 9);
            assertThat(reused.encode(g, 1000, 1L << 30))
                    .as(s.toString())
                    .isEqualTo(new CompactEncoder(Graphs.registry(), true).encode(g, 1000, 1L << 30));
        }
        assertThat(reused.encode(Graphs.build(Graphs.Shape.CYCLIC_LIST, 300, 9), 10, 1L << 30))
                .as("over the node limit")
                .isNull();
        Object after = Graphs.build(Graphs.Shape.TREE, 50, 1);
        assertThat(reused.encode(after, 1000, 1L << 30))
                .as("after giving up")
                .isEqualTo(new CompactEncoder(Graphs.registry(), true).encode(after, 1000, 1L << 30));
    }

    @Test
    void aReusedEncoderFollowsGraphsGrowingAndShrinkingAcrossPowersOfTwo() {
        CompactEncoder reused = new CompactEncoder(Graphs.registry(), true);
        GraphCodec c = codec(Graphs.registry());
        for (int n : new int[] {255, 256, 257, 1024, 1024, 1025, 2048, 3, 4096, 4095, 1, 20_000, 512}) {
            Object g = Graphs.build(Graphs.Shape.CYCLIC_LIST, n, 3);
            byte[] b = reused.encode(g, 1 << 20, 1L << 30);
            assertThat(b)
                    .as("%d nodes", n)
                    .isEqualTo(new CompactEncoder(Graphs.registry(), true).encode(g, 1 << 20, 1L << 30));
            Graphs.assertIsomorphic(g, c.expand(List.of(Packet.wrap(b)).iterator()));
        }
    }

    @Test
    void aReusedDecoderAfterRefusedPacketsDecodesLikeAFreshOne() {
        GraphCodec c = codec(Graphs.registry());
        CompactDecoder reused = new CompactDecoder(Graphs.registry(), true);
        for (Graphs.Shape s : Graphs.Shape.values()) {
            Object g = Graphs.build(s, 300, 9);
            byte[] whole = c.aggregateAll(g).get(0).bytes();
            // a truncated packet fails half-way through; the decoder must be clean for the next one
            assertThatThrownBy(() -> reused.decode(Packet.wrap(Arrays.copyOf(whole, whole.length - 3)), Long.MAX_VALUE))
                    .isInstanceOf(GraphFormatException.class);
            Object copy = reused.decode(Packet.wrap(whole), Long.MAX_VALUE).entry();
            if (g == null) {
                assertThat(copy).isNull();
            } else {
                Graphs.assertIsomorphic(g, copy);
            }
        }
    }

    @Test
    void aCompactPacketAfterAHeaderIsRefused() {
        GraphCodec columnar = GraphCodec.builder(NODES)
                .allocator(allocator)
                .compactMaxNodes(0)
                .build();
        GraphExpander e = codec(NODES).expander();
        Graphs.Node two = new Graphs.Node();
        two.left = new Graphs.Node();
        e.accept(columnar.aggregateAll(two).get(0));
        assertThatThrownBy(() -> e.accept(compact(NODES, 2, 0, validBody())))
                .hasMessageContaining("compact packet after a header");
    }
}
