package dev.layout.bench;

import dev.layout.autolink.GraphCodec;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * AutoLink vs Kryo 5 (references on, classes registered) vs Java serialization: encode+decode of a
 * binary tree, a doubly-linked cyclic list and a grid graph ({@code nodes} nodes each). The bytes
 * are printed by {@link GraphBenchMain} (the interleaved, same-JVM comparison behind {@code layout bench
 * graph}). A 1 GB thread stack lets the recursive baselines finish; a fixed heap keeps G1 from
 * resizing between iterations. Run with {@code -gc true} for a collection before each iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 15)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xss1g", "-Xms3g", "-Xmx3g", "--add-opens=java.base/java.nio=ALL-UNNAMED"})
public class GraphBench {
    @Param({"TREE", "LIST", "GRID"})
    public GraphShapes.Shape shape;

    @Param({"1000000"})
    public int nodes;

    private Object graph;
    private BufferAllocator allocator;
    private GraphCodec autolink;
    private GraphCodecs.KryoSession kryo;

    @Setup(Level.Trial)
    public void setup() {
        graph = GraphShapes.build(shape, nodes);
        allocator = new RootAllocator();
        autolink = GraphCodecs.autolink(allocator);
        kryo = GraphCodecs.kryo();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        allocator.close();
    }

    @Benchmark
    public Object autolink() {
        return GraphCodecs.autolink(autolink, graph);
    }

    @Benchmark
    public Object kryo() {
        return GraphCodecs.kryo(kryo, graph);
    }

    @Benchmark
    public Object javaSerialization() {
        return GraphCodecs.java(graph);
    }
}
