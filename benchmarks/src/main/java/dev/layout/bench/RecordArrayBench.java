package dev.layout.bench;

import dev.layout.automap.RecordLayout;
import dev.layout.automap.RecordLayouts;
import dev.layout.memory.Memory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * AutoMap arrays of records vs hand-written code for the same layout (issue 10 target: within
 * 1.5x). Both go through the same checked {@link Memory} accessors.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecordArrayBench {
    /** struct([1,1,1,1], [0,8,16,20], [float64,float64,int32,int16]), extent 24. */
    public record Particle(double x, double y, int id, short kind) {}

    private static final int N = 10_000;
    private static final long EXTENT = 24;

    private RecordLayout<Particle> layout;
    private Particle[] particles;
    private Particle[] out;
    private Memory memory;

    @Setup
    public void setup() {
        layout = RecordLayouts.of(Particle.class);
        if (layout.extent() != EXTENT || !layout.isGenerated()) {
            throw new IllegalStateException("unexpected layout " + layout + " generated=" + layout.isGenerated());
        }
        particles = new Particle[N];
        for (int i = 0; i < N; i++) {
            particles[i] = new Particle(i * 0.5, -i, i, (short) (i & 7));
        }
        out = new Particle[N];
        memory = Memory.ofArray(new byte[(int) (N * EXTENT)]);
        layout.writeArray(particles, 0, N, memory, 0);
    }

    @Benchmark
    public Memory automapPack() {
        layout.writeArray(particles, 0, N, memory, 0);
        return memory;
    }

    @Benchmark
    public Memory handPack() {
        Memory m = memory;
        Particle[] ps = particles;
        long o = 0;
        for (int i = 0; i < N; i++, o += EXTENT) {
            Particle p = ps[i];
            m.putDouble(o, p.x());
            m.putDouble(o + 8, p.y());
            m.putInt(o + 16, p.id());
            m.putShort(o + 20, p.kind());
        }
        return m;
    }

    @Benchmark
    public Particle[] automapUnpack() {
        layout.readArray(memory, 0, out, 0, N);
        return out;
    }

    @Benchmark
    public Particle[] handUnpack() {
        Memory m = memory;
        Particle[] ps = out;
        long o = 0;
        for (int i = 0; i < N; i++, o += EXTENT) {
            ps[i] = new Particle(m.getDouble(o), m.getDouble(o + 8), m.getInt(o + 16), m.getShort(o + 20));
        }
        return ps;
    }
}
