package dev.layout.spark.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.autolink.GraphCodec;
import dev.layout.autolink.GraphFormatException;
import dev.layout.autolink.TypeRegistry;
import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** Graphs with sharing and cycles over point-to-point and collectives between in-process ranks. */
class GraphTransferTest {
    static final class Node {
        int id;
        Node left;
        Node right;
    }

    /** A ring of n nodes (left = previous, right = next) with node 0 shared as every third node's left. */
    static Node ring(int n, int base) {
        Node[] ns = new Node[n];
        for (int i = 0; i < n; i++) {
            ns[i] = new Node();
            ns[i].id = base + i;
        }
        for (int i = 0; i < n; i++) {
            ns[i].right = ns[(i + 1) % n];
            ns[i].left = i % 3 == 0 ? ns[0] : ns[(i + n - 1) % n];
        }
        return ns[0];
    }

    /** The graph as a canonical list: (id, index of left, index of right) in discovery order. */
    static List<List<Integer>> shape(Node root) {
        Map<Node, Integer> index = new IdentityHashMap<>();
        List<Node> order = new ArrayList<>();
        List<List<Integer>> out = new ArrayList<>();
        if (root == null) {
            return out;
        }
        index.put(root, 0);
        order.add(root);
        for (int k = 0; k < order.size(); k++) {
            Node n = order.get(k);
            for (Node m : new Node[] {n.left, n.right}) {
                if (m != null && !index.containsKey(m)) {
                    index.put(m, order.size());
                    order.add(m);
                }
            }
            out.add(List.of(n.id, n.left == null ? -1 : index.get(n.left), n.right == null ? -1 : index.get(n.right)));
        }
        return out;
    }

    static <T> List<T> onRanks(int n, Function<GraphTransferContext, T> body) {
        return InProcessLauncher.run(n, Duration.ofSeconds(30), comm -> {
            try (RootAllocator a = new RootAllocator()) {
                GraphTransfer t = GraphTransfer.of(GraphCodec.builder(TypeRegistry.of(Node.class))
                        .allocator(a)
                        .packetRows(7)
                        .build());
                T out = body.apply(new GraphTransferContext(comm, t));
                assertThat(a.getAllocatedMemory()).isZero();
                return out;
            }
        });
    }

    record GraphTransferContext(Communicator comm, GraphTransfer t) {}

    @Test
    void pointToPointKeepsSharingAndCycles() {
        List<List<List<Integer>>> got = onRanks(2, c -> {
            if (c.comm().rank() == 0) {
                c.t().send(c.comm(), 1, 5, ring(40, 100));
                return null;
            }
            return shape(c.t().recv(c.comm(), 0, 5, Node.class));
        });
        assertThat(got.get(1)).isEqualTo(shape(ring(40, 100)));
    }

    @Test
    void bcastGatherAndAlltoallCarryGraphs() {
        int n = 4;
        List<List<Object>> results = onRanks(n, c -> {
            int me = c.comm().rank();
            Node fromRoot = c.t().bcast(c.comm(), 2, me == 2 ? ring(25, 7) : null, Node.class);
            List<Node> gathered = c.t().gather(c.comm(), 0, ring(3 + me, 1000 * me), Node.class);
            List<Node> mine = new ArrayList<>();
            for (int d = 0; d < n; d++) {
                mine.add(d == me ? null : ring(2 + d + me, 10 * me + d));
            }
            List<Node> exchanged = c.t().alltoall(c.comm(), mine, Node.class);
            List<Object> r = new ArrayList<>();
            r.add(shape(fromRoot));
            r.add(gathered.stream().map(GraphTransferTest::shape).toList());
            r.add(exchanged.stream().map(GraphTransferTest::shape).toList());
            return r;
        });
        for (int me = 0; me < n; me++) {
            assertThat(results.get(me).get(0)).isEqualTo(shape(ring(25, 7)));
            List<Object> expectGathered = new ArrayList<>();
            if (me == 0) {
                for (int r = 0; r < n; r++) {
                    expectGathered.add(shape(ring(3 + r, 1000 * r)));
                }
            }
            assertThat(results.get(me).get(1)).isEqualTo(expectGathered);
            List<Object> expectExchanged = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                expectExchanged.add(s == me ? shape(null) : shape(ring(2 + me + s, 10 * s + me)));
            }
            assertThat(results.get(me).get(2)).isEqualTo(expectExchanged);
        }
    }

    @Test
    void truncatedStreamIsAFormatErrorNotAHalfGraph() {
        try (RootAllocator a = new RootAllocator()) {
            GraphTransfer t = GraphTransfer.of(GraphCodec.builder(TypeRegistry.of(Node.class))
                    .allocator(a)
                    .packetRows(5)
                    .build());
            byte[] stream = t.encode(ring(30, 0));
            byte[] cut = java.util.Arrays.copyOf(stream, stream.length - 9);
            assertThatThrownBy(() -> t.decode(cut, Node.class)).isInstanceOf(GraphFormatException.class);
            byte[] extra = java.util.Arrays.copyOf(stream, stream.length + 3);
            assertThatThrownBy(() -> t.decode(extra, Node.class))
                    .isInstanceOf(GraphFormatException.class)
                    .hasMessageContaining("after a complete graph");
            assertThat(shape(t.decode(stream, Node.class))).isEqualTo(shape(ring(30, 0)));
        }
    }
}
