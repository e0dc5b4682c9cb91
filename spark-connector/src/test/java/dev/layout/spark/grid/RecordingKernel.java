package dev.layout.spark.grid;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;

/**
 * A kernel that also records each application (which JVM, which rank, which iteration) into a
 * Spark accumulator, so a test can see where blocks were computed and which iterations Spark ran
 * again after a failure. Computes exactly what the wrapped kernel computes.
 */
final class RecordingKernel implements StencilKernel {
    private static final long serialVersionUID = 1L;

    /** One application of the kernel: the process it ran in, the block's rank, the 0-based iteration. */
    record Call(long pid, int rank, int iteration) implements Serializable {}

    private final StencilKernel kernel;
    private final CollectionAccumulator<Call> calls;

    private RecordingKernel(StencilKernel kernel, CollectionAccumulator<Call> calls) {
        this.kernel = kernel;
        this.calls = calls;
    }

    static RecordingKernel of(JavaSparkContext jsc, StencilKernel kernel) {
        return new RecordingKernel(kernel, jsc.sc().collectionAccumulator("layout.test.kernelCalls"));
    }

    @Override
    public void apply(GridBlock src, GridBlock dst) {
        kernel.apply(src, dst);
    }

    @Override
    public void apply(int iteration, GridBlock src, GridBlock dst) {
        kernel.apply(iteration, src, dst);
        calls.add(new Call(ProcessHandle.current().pid(), src.rank(), iteration));
    }

    /**
     * The applications Spark counted so far: every successful task's once, plus those of tasks run
     * again to rebuild lost blocks (shuffle map tasks report every attempt).
     */
    List<Call> calls() {
        return calls.value();
    }
}
