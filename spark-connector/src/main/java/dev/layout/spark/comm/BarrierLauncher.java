package dev.layout.spark.comm;

import dev.layout.spark.shim.SparkShim;
import org.apache.spark.SparkContext;

/**
 * Checks before a barrier stage is launched, so a job that cannot get all its slots fails at once
 * with the reason instead of hanging: barrier stages need every task running at the same time
 * and refuse dynamic allocation.
 */
public final class BarrierLauncher {
    private BarrierLauncher() {}

    /**
     * @throws IllegalArgumentException if dynamic allocation is on, or the cluster has fewer task
     *     slots than {@code ranks}
     */
    public static void check(SparkContext sc, int ranks) {
        if (sc.conf().getBoolean("spark.dynamicAllocation.enabled", false)) {
            throw new IllegalArgumentException(
                    "barrier: spark.dynamicAllocation.enabled=true (expected: false; a barrier stage of " + ranks
                            + " ranks needs all its executors at once)");
        }
        int slots = SparkShim.maxConcurrentTasks(sc);
        if (slots >= 0 && slots < ranks) {
            throw new IllegalArgumentException(
                    "barrier: " + ranks + " ranks but the cluster runs only " + slots + " tasks at once (master "
                            + sc.master() + ", spark.task.cpus " + sc.conf().get("spark.task.cpus", "1")
                            + "; expected: ranks <= slots, use fewer partitions or more executor cores)");
        }
    }
}
