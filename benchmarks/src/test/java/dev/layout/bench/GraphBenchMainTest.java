package dev.layout.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The graph benchmark's statistics, class path, copy checks and output, on small graphs. */
class GraphBenchMainTest {
    @Test
    void interquartileMeanDropsTheOuterQuarters() {
        assertThat(GraphBenchMain.iqm(new double[] {100, 1, 2, 3, 4, 5, 6, -50}))
                .isEqualTo(3.5);
        assertThat(GraphBenchMain.iqm(new double[] {7})).isEqualTo(7);
        assertThat(GraphBenchMain.iqm(new double[] {1, 2, 3})).isEqualTo(2);
        assertThat(GraphBenchMain.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(GraphBenchMain.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }

    @Test
    void childCommandHasAFixedHeapAndThisClass() {
        List<String> cmd = GraphBenchMain.childCommand(new String[] {"10", "1"});
        assertThat(cmd).contains("-Xms3g", "-Xmx3g", GraphBenchMain.class.getName());
        assertThat(cmd.subList(cmd.size() - 2, cmd.size())).containsExactly("10", "1");
    }

    @Test
    void processCpuTimeGrowsWithWork() {
        long t0 = GraphBenchMain.processCpuNanos();
        long x = 0;
        for (long end = System.nanoTime() + 50_000_000L; System.nanoTime() < end; ) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        long t1 = GraphBenchMain.processCpuNanos();
        assertThat(t0).isPositive();
        assertThat(t1 - t0).as("cpu after %d", x).isGreaterThan(10_000_000L);
    }

    @Test
    void testClassPathHasKryo5() {
        assertThat(GraphBenchMain.kryoVersion()).startsWith("kryo5-5");
    }

    @Test
    void everyCodecRoundTripsEveryShape() {
        try (var alloc = new org.apache.arrow.memory.RootAllocator()) {
            var al = GraphCodecs.autolink(alloc);
            var kryo = GraphCodecs.kryo();
            var fory = GraphCodecs.fory();
            for (GraphShapes.Shape s : GraphShapes.Shape.values()) {
                Object g = GraphShapes.build(s, 400);
                GraphShapes.verify(s, g, GraphCodecs.autolink(al, g).graph());
                GraphShapes.verify(s, g, GraphCodecs.kryo(kryo, g).graph());
                GraphShapes.verify(s, g, GraphCodecs.fory(fory, g).graph());
            }
        }
    }

    @Test
    void verifyAcceptsCopiesAndRejectsDifferences() {
        for (GraphShapes.Shape s : GraphShapes.Shape.values()) {
            GraphShapes.verify(s, GraphShapes.build(s, 100), GraphShapes.build(s, 100));
            assertThatThrownBy(() -> GraphShapes.verify(s, GraphShapes.build(s, 100), GraphShapes.build(s, 81)))
                    .isInstanceOf(AssertionError.class);
        }
        GraphShapes.TreeNode t = GraphShapes.tree(15);
        assertThatThrownBy(() -> GraphShapes.verify(GraphShapes.Shape.TREE, t, t))
                .isInstanceOf(AssertionError.class);
        GraphShapes.TreeNode shared = GraphShapes.tree(15);
        shared.right.left = shared.left.left; // same values below, but one node where there were two
        shared.right.left.value = shared.left.left.value;
        assertThatThrownBy(() -> GraphShapes.verify(GraphShapes.Shape.TREE, GraphShapes.tree(15), shared))
                .isInstanceOf(AssertionError.class);
        GraphShapes.ListNode l = GraphShapes.list(10);
        l.next.next.prev = l;
        assertThatThrownBy(() -> GraphShapes.verify(GraphShapes.Shape.LIST, GraphShapes.list(10), l))
                .isInstanceOf(AssertionError.class);
        GraphShapes.GridNode g = GraphShapes.grid(5);
        g.east.south.north = g;
        assertThatThrownBy(() -> GraphShapes.verify(GraphShapes.Shape.GRID, GraphShapes.grid(5), g))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void smallRunPrintsEveryGraphAndTheRatios() throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bos, true, StandardCharsets.UTF_8);
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(
                null,
                () -> {
                    try {
                        GraphBenchMain.run(1000, 3, 1, ps);
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                },
                "graph-bench-test",
                256L << 20);
        t.start();
        t.join();
        assertThat(failure[0]).isNull();
        List<String> lines = bos.toString(StandardCharsets.UTF_8).lines().toList();
        for (String shape : List.of("TREE", "LIST", "GRID")) {
            for (String codec : List.of("autolink", "kryo", "fory")) {
                assertThat(lines)
                        .anyMatch(x -> x.matches(
                                shape + " +1000 +" + codec + " +[0-9.]+ +[0-9.]+ +[0-9.]+\\.\\.[0-9.]+ +[0-9]+"));
            }
            assertThat(lines)
                    .anyMatch(x -> x.matches(
                            shape + " +1000 +ratios +kryo/autolink [0-9.]+, fory/autolink [0-9.]+ \\(time\\)"));
        }
        assertThat(lines).anyMatch(x -> x.startsWith("bytes: AutoLink compresses"));
        assertThat(lines.get(lines.size() - 2))
                .matches("min kryo/autolink time: [0-9]+\\.[0-9]{2} \\((TREE|LIST|GRID) 1000\\)");
        assertThat(lines.get(lines.size() - 1))
                .matches("min fory/autolink time: [0-9]+\\.[0-9]{2} \\((TREE|LIST|GRID) 1000\\)");
    }

    @Test
    void sizesRunFromAThousandByDecadesAndSamplesBatchSmallGraphs() {
        assertThat(GraphBenchMain.sizes(1_000_000)).containsExactly(1000, 10_000, 100_000, 1_000_000);
        assertThat(GraphBenchMain.sizes(100_000)).containsExactly(1000, 10_000, 100_000);
        assertThat(GraphBenchMain.callsPerSample(1000)).isEqualTo(200);
        assertThat(GraphBenchMain.callsPerSample(1_000_000)).isEqualTo(1);
    }
}
