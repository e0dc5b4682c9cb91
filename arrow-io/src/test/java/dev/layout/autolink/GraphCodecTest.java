package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The columnar form (header and Arrow data packets); the compact form of small graphs is CompactFormTest's. */
class GraphCodecTest {
    private BufferAllocator allocator;
    private GraphCodec codec;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
        codec = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .packetRows(4)
                .build();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void aReferenceCodedBelowZeroIsRefused() {
        GraphCodec plain = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .packetRows(4)
                .compressionLevel(0)
                .build();
        byte[] d = plain.aggregateAll(ring(3)).get(1).bytes().clone();
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
        int at = -1;
        for (int i = Packet.DATA_FIXED + 8; i + 12 <= d.length && at < 0; i += 8) {
            if (b.getInt(i) == 2 && b.getInt(i + 4) == 2 && b.getInt(i + 8) == 3) {
                at = i;
            }
        }
        assertThat(at).isPositive();
        b.putInt(at, RefCoding.zigzag(-5)); // node 0's next would be index -5
        GraphExpander e = plain.expander();
        e.accept(plain.aggregateAll(ring(3)).get(0));
        assertThatThrownBy(() -> e.accept(Packet.wrap(d)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessage("expand: reference code 9 after index 0 (expected: an index >= 0)");
    }

    @Test
    void zigzagCodesEveryDifferenceOfTwoIndicesWithoutTouchingTheNullMarker() {
        int max = Integer.MAX_VALUE - 9; // largest index
        for (int d : new int[] {0, 1, -1, 2, -2, max, -max, 1 << 30, -(1 << 30)}) {
            assertThat(RefCoding.unzigzag(RefCoding.zigzag(d))).isEqualTo(d);
            assertThat(RefCoding.zigzag(d)).isNotEqualTo(-1);
        }
        assertThat(RefCoding.zigzag(-1)).isEqualTo(1);
        assertThat(RefCoding.zigzag(1)).isEqualTo(2);
    }

    @Test
    void compressedAndPlainPacketsExpandAlikeAndCompressionShrinksRegularGraphs() {
        GraphCodec plain = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .compressionLevel(0)
                .build();
        GraphCodec zstd = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .compressionLevel(3)
                .build();
        Graphs.DNode g = ring(2000);
        List<Packet> p = plain.aggregateAll(g);
        List<Packet> z = zstd.aggregateAll(g);
        long plainBytes = p.stream().mapToLong(Packet::byteSize).sum();
        long zstdBytes = z.stream().mapToLong(Packet::byteSize).sum();
        // 2000 random longs (incompressible, stored raw) + two reference columns of constant differences
        assertThat(zstdBytes).isLessThan(plainBytes * 2 / 3);
        // either expander reads either kind of packet
        Graphs.assertIsomorphic(g, plain.expand(z.iterator()));
        Graphs.assertIsomorphic(g, zstd.expand(p.iterator()));
    }

    @Test
    void aCompressedBufferClaimingMoreThanMaxPacketBytesIsRefusedBeforeAllocation() {
        GraphCodec zstd = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .maxPacketBytes(1 << 20)
                .build();
        List<Packet> ps = zstd.aggregateAll(ring(1000));
        byte[] d = ps.get(1).bytes().clone();
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
        int at = -1;
        for (int i = Packet.DATA_FIXED + 8; i + 8 <= d.length && at < 0; i += 8) {
            if (b.getLong(i) == 4000) { // the next column's uncompressed length: 1000 int32 codes
                at = i;
            }
        }
        assertThat(at).isPositive();
        b.putLong(at, 1L << 40);
        long before = allocator.getAllocatedMemory();
        GraphExpander e = zstd.expander();
        e.accept(ps.get(0));
        assertThatThrownBy(() -> e.accept(Packet.wrap(d)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageStartingWith("expand: packet buffers of more than 1099511627")
                .hasMessageEndingWith("(expected: <= maxPacketBytes 1048576)");
        assertThat(allocator.getAllocatedMemory()).isEqualTo(before);
        b.putLong(at, 3999); // a frame that does not decompress to what it claims
        GraphExpander e2 = zstd.expander();
        e2.accept(ps.get(0));
        assertThatThrownBy(() -> e2.accept(Packet.wrap(d)))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("does not decompress to its 3999 bytes");
    }

    @Test
    void aPacketBiggerThanMaxPacketBytesIsNotBuilt() {
        GraphCodec small = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .maxPacketBytes(1024)
                .build();
        assertThatThrownBy(() -> small.aggregateAll(ring(1000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(expected: <= maxPacketBytes 1024; lower packetRows)");
    }

    /** A node type whose constructor sets its reference: expansion must still restore a null. */
    static final class Defaulted {
        static final Defaulted SENTINEL = new Defaulted(0);
        int id;
        Defaulted other = SENTINEL;

        Defaulted() {}

        Defaulted(int id) {
            this.id = id;
            this.other = null;
        }
    }

    @Test
    void aReferenceTheConstructorSetsIsRestoredToNull() {
        GraphCodec c = GraphCodec.builder(TypeRegistry.of(Defaulted.class))
                .allocator(allocator)
                .compactMaxNodes(0)
                .build();
        Defaulted a = new Defaulted(1);
        Defaulted b = new Defaulted(2);
        a.other = b; // b.other stays null
        Defaulted copy = c.expand(c.aggregate(a), Defaulted.class);
        assertThat(copy.other.id).isEqualTo(2);
        assertThat(copy.other.other).isNull();
    }

    @Test
    void graphsLargerThanATraversalChunkKeepTheirSharing() {
        GraphCodec c = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .packetRows(700)
                .build();
        // arrays and lists of thousands of elements (several lookup batches within one node), shared
        // and null elements, two node types reached from each other
        for (long seed = 1; seed <= 3; seed++) {
            Object bag = Graphs.build(Graphs.Shape.BAG, 3000, seed);
            Graphs.assertIsomorphic(bag, c.expand(c.aggregate(bag)));
            Object mesh = Graphs.build(Graphs.Shape.MESH, 5000, seed);
            Graphs.assertIsomorphic(mesh, c.expand(c.aggregate(mesh)));
            Object dag = Graphs.build(Graphs.Shape.DAG, 5000, seed);
            Graphs.assertIsomorphic(dag, c.expand(c.aggregate(dag)));
        }
        Graphs.Vertex hub = new Graphs.Vertex();
        hub.edges = new Graphs.Vertex[1500];
        for (int i = 0; i < hub.edges.length; i++) {
            hub.edges[i] = i % 7 == 0 ? null : i % 3 == 0 ? hub : new Graphs.Vertex();
            if (hub.edges[i] != null && hub.edges[i] != hub) {
                hub.edges[i].id = i;
                hub.edges[i].edges = new Graphs.Vertex[] {hub, hub.edges[i]};
            }
        }
        Graphs.assertIsomorphic(hub, c.expand(c.aggregate(hub)));
    }

    @Test
    void nodesAreNumberedInTheOrderABreadthFirstTraversalMeetsThem() {
        GraphCodec plain = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .compressionLevel(0)
                .build();
        Graphs.Node[] t = new Graphs.Node[7];
        for (int i = 6; i >= 0; i--) {
            t[i] = new Graphs.Node();
            t[i].id = i;
            t[i].left = 2 * i + 1 < 7 ? t[2 * i + 1] : null;
            t[i].right = 2 * i + 2 < 7 ? t[2 * i + 2] : null;
        }
        List<Packet> ps = plain.aggregateAll(t[0]);
        // heap order: node i's children are 2i+1 and 2i+2; ids column = 0..6
        ByteBuffer b = ps.get(1).buffer();
        boolean found = false;
        for (int i = Packet.DATA_FIXED + 8; i + 28 <= ps.get(1).byteSize() && !found; i += 8) {
            found = true;
            for (int k = 0; k < 7; k++) {
                found &= b.getInt(i + 4 * k) == k;
            }
        }
        assertThat(found).isTrue();
        Graphs.assertIsomorphic(t[0], plain.expand(ps.iterator()));
    }

    @Test
    void aNullInAColumnThatIsNotNullableIsRefused() throws Exception {
        for (boolean raw : new boolean[] {true, false}) {
            GraphCodec c = GraphCodec.builder(Graphs.registry())
                    .allocator(allocator)
                    .compactMaxNodes(0)
                    .rawColumns(raw)
                    .build();
            Packet header = c.aggregateAll(ring(3)).get(0);
            Packet data;
            try (org.apache.arrow.vector.VectorSchemaRoot root = org.apache.arrow.vector.VectorSchemaRoot.create(
                    c.registry().schema(Graphs.DNode.class), allocator)) {
                org.apache.arrow.vector.IntVector next = (org.apache.arrow.vector.IntVector) root.getVector("next");
                org.apache.arrow.vector.IntVector prev = (org.apache.arrow.vector.IntVector) root.getVector("prev");
                org.apache.arrow.vector.BigIntVector value =
                        (org.apache.arrow.vector.BigIntVector) root.getVector("value");
                next.allocateNew(3);
                prev.allocateNew(3);
                value.allocateNew(3);
                int[][] codes = {{2, 2, 3}, {4, 3, 2}}; // next = [1, 2, 0], prev = [2, 0, 1]
                for (int i = 0; i < 3; i++) {
                    next.set(i, codes[0][i]);
                    prev.set(i, codes[1][i]);
                    value.set(i, 10L * i);
                }
                value.setNull(1);
                root.setRowCount(3);
                data = dataPacket(1, 0, root);
            }
            GraphExpander e = c.expander();
            e.accept(header);
            assertThatThrownBy(() -> e.accept(data))
                    .isInstanceOf(GraphFormatException.class)
                    .hasMessage("expand: column value holds 1 nulls (expected: none)");
        }
    }

    /** A data packet as the encoder writes it, of any batch (uncompressed). */
    static Packet dataPacket(int type, int first, org.apache.arrow.vector.VectorSchemaRoot root)
            throws java.io.IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        ByteBuffer prefix = ByteBuffer.allocate(Packet.DATA_FIXED).order(ByteOrder.LITTLE_ENDIAN);
        prefix.putInt(Packet.MAGIC)
                .put((byte) 1)
                .put(Packet.VERSION)
                .putShort((short) 0)
                .putInt(type)
                .putInt(first)
                .putInt(root.getRowCount());
        bos.write(prefix.array());
        try (org.apache.arrow.vector.ipc.message.ArrowRecordBatch batch =
                new org.apache.arrow.vector.VectorUnloader(root).getRecordBatch()) {
            org.apache.arrow.vector.ipc.message.MessageSerializer.serialize(
                    new org.apache.arrow.vector.ipc.WriteChannel(java.nio.channels.Channels.newChannel(bos)), batch);
        }
        return Packet.wrap(bos.toByteArray());
    }

    @Test
    void theHandcraftedPacketOfTheNullTestIsValidWithoutTheNull() throws Exception {
        try (org.apache.arrow.vector.VectorSchemaRoot root = org.apache.arrow.vector.VectorSchemaRoot.create(
                codec.registry().schema(Graphs.DNode.class), allocator)) {
            org.apache.arrow.vector.IntVector next = (org.apache.arrow.vector.IntVector) root.getVector("next");
            org.apache.arrow.vector.IntVector prev = (org.apache.arrow.vector.IntVector) root.getVector("prev");
            org.apache.arrow.vector.BigIntVector value = (org.apache.arrow.vector.BigIntVector) root.getVector("value");
            next.allocateNew(3);
            prev.allocateNew(3);
            value.allocateNew(3);
            int[][] codes = {{2, 2, 3}, {4, 3, 2}};
            for (int i = 0; i < 3; i++) {
                next.set(i, codes[0][i]);
                prev.set(i, codes[1][i]);
                value.set(i, 10L * i);
            }
            root.setRowCount(3);
            Graphs.DNode d = (Graphs.DNode)
                    codec.expand(List.of(codec.aggregateAll(ring(3)).get(0), dataPacket(1, 0, root))
                            .iterator());
            assertThat(new long[] {d.value, d.next.value, d.next.next.value, d.prev.value, d.next.prev.value})
                    .containsExactly(0, 10, 20, 20, 0);
            assertThat(d.next.next.next).isSameAs(d);
            assertThat(d.next.prev).isSameAs(d);
            assertThat(d.prev.prev.prev).isSameAs(d);
        }
    }

    private static Graphs.DNode ring(int n) {
        return (Graphs.DNode) Graphs.build(Graphs.Shape.CYCLIC_LIST, n, 1);
    }

    @Test
    void sharingAndCyclesArePreserved() {
        Graphs.Node a = new Graphs.Node();
        Graphs.Node b = new Graphs.Node();
        a.left = b;
        a.right = b;
        b.left = a;
        b.label = "b";
        Graphs.Node c = codec.expand(codec.aggregate(a), Graphs.Node.class);
        assertThat(c.left).isSameAs(c.right);
        assertThat(c.left.left).isSameAs(c);
        assertThat(c.left.label).isEqualTo("b");
    }

    @Test
    void headerThenBoundedDataPackets() {
        List<Packet> ps = codec.aggregateAll(ring(10));
        assertThat(ps).hasSize(1 + 3);
        assertThat(ps.get(0).toString()).isEqualTo("Packet[header, 5 types, 48 bytes]");
        assertThat(ps.get(1).toString()).startsWith("Packet[data, type 1, rows 0+4, ");
        assertThat(ps.get(3).toString()).startsWith("Packet[data, type 1, rows 8+2, ");
        Graphs.assertIsomorphic(ring(10), codec.expand(ps.iterator()));
        assertThat(codec.registry().schema(Graphs.DNode.class).toString())
                .isEqualTo(
                        "Schema<next: Int(32, true) not null, prev: Int(32, true) not null, value: Int(64, true) not null>");
    }

    @Test
    void expandConsumesExactlyOneGraphFromAStream() throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        for (Packet p : codec.aggregateAll(ring(5))) {
            p.writeTo(out);
        }
        for (Packet p : codec.aggregateAll(null)) {
            p.writeTo(out);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bos.toByteArray()));
        java.util.Iterator<Packet> it = new java.util.Iterator<>() {
            Packet next = read();

            private Packet read() {
                try {
                    return Packet.readFrom(in, 1 << 20);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            public boolean hasNext() {
                return next != null;
            }

            public Packet next() {
                Packet p = next;
                next = read();
                return p;
            }
        };
        Graphs.assertIsomorphic(ring(5), codec.expand(it));
        assertThat(codec.expand(it)).isNull();
        assertThat(it.hasNext()).isFalse();
    }

    @Test
    void onlyRegisteredTypesAreEncoded() {
        GraphCodec small = GraphCodec.builder(TypeRegistry.of(Graphs.Node.class))
                .allocator(allocator)
                .compactMaxNodes(0)
                .build();
        assertThatThrownBy(() -> small.aggregate(ring(3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("aggregate: node class " + Graphs.DNode.class.getName()
                        + " (expected: a registered type, one of [Node])");
        assertThatThrownBy(() -> TypeRegistry.of(Graphs.Vertex.class))
                .hasMessage("autolink: field Vertex.payload target " + Graphs.Node.class.getName()
                        + " (expected: a registered type)");
        record WithMap(Map<String, String> m) {}
        assertThatThrownBy(() -> TypeRegistry.of(WithMap.class))
                .hasMessage(
                        "autolink: field WithMap.m type java.util.Map<java.lang.String, java.lang.String> (expected: primitive, String, byte[], "
                                + "a registered type, or an array or List<> of a registered type)");
        record Linked(Linked next) {}
        assertThatThrownBy(() -> TypeRegistry.of(Linked.class))
                .hasMessageContaining("field Linked.next kind single reference");
    }

    @Test
    void foreignRegistryIsRejected() {
        List<Packet> ps = codec.aggregateAll(ring(3));
        GraphCodec other = GraphCodec.builder(TypeRegistry.of(Graphs.Node.class))
                .allocator(allocator)
                .compactMaxNodes(0)
                .build();
        assertThatThrownBy(() -> other.expand(ps.iterator()))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("registry fingerprint");
    }

    @Test
    void truncatedStreamIsAClearError() {
        List<Packet> ps = codec.aggregateAll(ring(10));
        assertThatThrownBy(() -> codec.expand(ps.subList(0, 3).iterator()))
                .isInstanceOf(GraphFormatException.class)
                .hasMessage("expand: stream ended after 8 of 10 nodes (expected: a complete graph)");
        assertThatThrownBy(() -> codec.expand(List.<Packet>of().iterator()))
                .hasMessage("expand: stream ended after 0 of a header (expected: a complete graph)");
        byte[] cut = java.util.Arrays.copyOf(ps.get(1).bytes(), ps.get(1).byteSize() - 9);
        assertThatThrownBy(
                        () -> codec.expand(List.of(ps.get(0), Packet.wrap(cut)).iterator()))
                .isInstanceOf(GraphFormatException.class)
                .hasMessageContaining("IPC body length");
    }

    @Test
    void hugeCountsAreRejectedBeforeAllocation() {
        byte[] h = codec.aggregateAll(ring(3)).get(0).bytes().clone();
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(Packet.HEADER_FIXED + 4, Integer.MAX_VALUE - 8);
        assertThatThrownBy(() -> codec.expand(List.of(Packet.wrap(h)).iterator()))
                .isInstanceOf(GraphFormatException.class)
                .hasMessage("expand: node count 2147483639 (expected: <= maxNodes 33554432)");
        b.putInt(Packet.HEADER_FIXED + 4, -1);
        assertThatThrownBy(() -> codec.expand(List.of(Packet.wrap(h)).iterator()))
                .hasMessage("expand: count[1] -1 (expected: 0..2147483639)");
        // A generous limit still allocates nothing for nodes that never arrive.
        GraphCodec big = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .maxNodes(Long.MAX_VALUE)
                .build();
        b.putInt(Packet.HEADER_FIXED + 4, Integer.MAX_VALUE - 8);
        assertThatThrownBy(() -> big.expand(List.of(Packet.wrap(h)).iterator()))
                .hasMessageContaining("stream ended after 0 of 2147483639 nodes");
        assertThatThrownBy(() -> Packet.readFrom(
                        new DataInputStream(new ByteArrayInputStream(new byte[] {0x7f, 0, 0, 0})), 1 << 20))
                .hasMessage("readFrom: packet length 2130706432 (expected: 8..1048576)");
    }

    @Test
    void outOfRangeIndicesNeverYieldAGraph() {
        // Uncompressed packets, so that the coded references can be patched in place.
        GraphCodec plain = GraphCodec.builder(Graphs.registry())
                .allocator(allocator)
                .compactMaxNodes(0)
                .packetRows(4)
                .compressionLevel(0)
                .build();
        List<Packet> ps = plain.aggregateAll(ring(3));
        GraphExpander e = plain.expander();
        e.accept(ps.get(0));
        byte[] d = ps.get(1).bytes().clone();
        // Breadth-first from the entry: next = [1, 2, 0], coded as zigzag differences [2, 2, 3]. Make
        // node 1's difference +76, so that its next is index 77.
        boolean patched = false;
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = Packet.DATA_FIXED + 8; i + 12 <= d.length && !patched; i += 8) {
            if (b.getInt(i) == 2 && b.getInt(i + 4) == 2 && b.getInt(i + 8) == 3) {
                b.putInt(i + 4, RefCoding.zigzag(76));
                patched = true;
            }
        }
        assertThat(patched).isTrue();
        assertThat(e.accept(Packet.wrap(d))).isTrue();
        assertThatThrownBy(e::result)
                .isInstanceOf(GraphFormatException.class)
                .hasMessage("expand: DNode.next of node 1 index 77 (expected: -1..2)");
        assertThatThrownBy(e::result).hasMessageContaining("an earlier packet failed");
    }

    @Test
    void protocolViolations() {
        List<Packet> ps = codec.aggregateAll(ring(10));
        assertThatThrownBy(() -> codec.expand(List.of(ps.get(1)).iterator()))
                .hasMessage("expand: data packet before the header (expected: the header first)");
        assertThatThrownBy(() -> codec.expand(List.of(ps.get(0), ps.get(0)).iterator()))
                .hasMessage("expand: second header packet (expected: data packets)");
        assertThatThrownBy(() -> codec.expand(List.of(ps.get(0), ps.get(2)).iterator()))
                .hasMessage("expand: first row 4 of type 1 (expected: 0, packets of a type in order)");
        assertThatThrownBy(() -> codec.expand(List.of(Packet.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
                        .iterator()))
                .hasMessage("packet: magic 0x4030201 (expected: 0x4b4e4c41)");
        List<Packet> more = new ArrayList<>(ps);
        GraphExpander e = codec.expander();
        for (Packet p : more) {
            e.accept(p);
        }
        assertThat(e.isComplete()).isTrue();
        assertThatThrownBy(() -> e.accept(ps.get(1))).hasMessageContaining("after the graph is complete");
    }
}
