package dev.layout.dataloop;

import dev.layout.bench.memory.Raw;
import dev.layout.bench.memory.Target;
import java.util.concurrent.TimeUnit;
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
 * The Ross et al. suite in JMH: for every {@link RossCase}, target and direction, the engine (a
 * reused {@link Segment}), the hand-written loop, and the bulk-copy ceiling for the same byte count.
 * Throughput is in operations per second; multiply by the case's packed bytes (printed by {@code
 * layout bench pack}) for MB/s, or read the ratio engine/manual directly.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar PackBenchmark -p rossCase=INDEXED_F32 -p target=heap -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx4g"})
public class PackBenchmark {
    @Param
    public RossCase rossCase;

    @Param({"heap", "direct", "offheap"})
    public String target;

    @Param({"pack", "unpack"})
    public String op;

    private RossCase.Instance inst;
    private Target.Buf user;
    private Target.Buf packed;
    private Segment segment;
    private boolean pack;

    @Setup(Level.Trial)
    public void setup() {
        inst = rossCase.create(RossCase.Size.FULL);
        Target t = Target.parse(target);
        user = t.allocate(inst.userBytes);
        packed = t.allocate(inst.packedBytes);
        user.fillPattern();
        segment = Segment.of(inst.type, inst.count, user.memory, inst.origin);
        segment.pack(packed.memory, 0, inst.packedBytes);
        pack = op.equals("pack");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        user.close();
        packed.close();
    }

    @Benchmark
    public long engine() {
        segment.seek(0);
        return pack
                ? segment.pack(packed.memory, 0, inst.packedBytes)
                : segment.unpack(packed.memory, 0, inst.packedBytes);
    }

    @Benchmark
    public void manual() {
        if (pack) {
            inst.pack(user.base, user.address, packed.base, packed.address);
        } else {
            inst.unpack(packed.base, packed.address, user.base, user.address);
        }
    }

    @Benchmark
    public void ceiling() {
        if (pack) {
            Raw.U.copyMemory(user.base, user.address, packed.base, packed.address, inst.packedBytes);
        } else {
            Raw.U.copyMemory(packed.base, packed.address, user.base, user.address, inst.packedBytes);
        }
    }
}
