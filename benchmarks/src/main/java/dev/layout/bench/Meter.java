package dev.layout.bench;

import java.lang.management.ManagementFactory;

/**
 * A small in-process timer for the {@code bench} commands: runs an operation repeatedly for a time
 * budget and reports packed megabytes (10^6 bytes) per second. Not JMH: the numbers are for ratios
 * measured side by side in one run, on a machine that may be shared.
 *
 * <p>Time is the measuring thread's CPU time where the JVM provides it (else wall-clock time): on a
 * shared machine, the time the thread spends descheduled is not charged to whichever side
 * happened to be running. Memory stalls still count, as they should.
 */
public final class Meter {
    private Meter() {}

    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported();

    /** Which clock {@link #mbPerSecond} uses. */
    public static String clock() {
        return CPU_TIME ? "thread CPU time" : "wall-clock time";
    }

    private static long now() {
        return CPU_TIME ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    private static final java.lang.management.CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    /**
     * Milliseconds the JIT has spent compiling in this JVM so far (0 throughout where the JVM does not
     * report it): when it moves between two reads, the JIT finished some compilation in between.
     */
    public static long jitMillis() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
    }

    /**
     * Whether the JIT has nothing to do: no compilation running and both compile queues empty (the
     * {@code Compiler.queue} diagnostic command); true where the JVM does not provide the command. A
     * method the JIT has queued runs in the interpreter or C1's profiling code until its turn, which
     * on a machine with one C2 thread can wait behind a long compilation of other code for longer than
     * an item's measurement.
     */
    public static boolean jitIdle() {
        javax.management.ObjectName command = Diagnostics.COMMAND;
        if (command == null) {
            return true;
        }
        String queue;
        try {
            queue = (String) ManagementFactory.getPlatformMBeanServer().invoke(command, "compilerQueue", null, null);
        } catch (javax.management.JMException | RuntimeException e) {
            return true;
        }
        return idle(queue);
    }

    /** Whether {@code Compiler.queue}'s report lists no compilation: only its headings and "Empty". */
    static boolean idle(String queue) {
        for (String line : queue.split("\n")) {
            String l = line.trim();
            if (!l.isEmpty() && !l.equals("Empty") && !l.equals("Current compiles:") && !l.endsWith("compile queue:")) {
                return false;
            }
        }
        return true;
    }

    /** The diagnostic commands' MBean, or null; in a holder, so that only {@link #jitIdle} starts the platform's MBean server. */
    private static final class Diagnostics {
        static final javax.management.ObjectName COMMAND = command();

        private static javax.management.ObjectName command() {
            try {
                javax.management.ObjectName n =
                        new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand");
                return ManagementFactory.getPlatformMBeanServer().isRegistered(n) ? n : null;
            } catch (javax.management.JMException | RuntimeException e) {
                return null;
            }
        }
    }

    /** Runs between two clock reads last at least this long (see {@link #mbPerSecond}). */
    static final long BATCH_NANOS = 200_000L;

    /**
     * Runs {@code op} for at least {@code nanos} (and at least once); returns MB/s for {@code bytes} per run.
     * The clock is read once per batch of runs lasting about {@link #BATCH_NANOS}, not once per run: a
     * thread-CPU-time read is a system call (about 0.55 us on the reference machine), which would
     * otherwise add some 10% and its own noise to both sides of a row whose runs take a few
     * microseconds (the 3D faces).
     */
    public static double mbPerSecond(Runnable op, long bytes, long nanos) {
        long wall0 = System.nanoTime();
        long t0 = now();
        // The first run, timed on its own, sizes the batches; it counts like the others.
        long w = System.nanoTime();
        op.run();
        long one = Math.max(System.nanoTime() - w, 1);
        int batch = (int) Math.max(1, Math.min(1 << 20, BATCH_NANOS / one));
        long runs = 1;
        long t = now();
        while (t - t0 < nanos && System.nanoTime() - wall0 < 20 * nanos) {
            for (int i = 0; i < batch; i++) {
                op.run();
            }
            runs += batch;
            t = now();
        }
        return (double) bytes * runs / (Math.max(t - t0, 1) / 1e9) / 1e6;
    }

    /**
     * Warms up {@code ops} before a side-by-side measurement: {@code rounds} rounds, each running every
     * op in turn for {@code sliceNanos}, so each is compiled as it will run when measured.
     */
    public static void warm(long bytes, long sliceNanos, int rounds, Runnable... ops) {
        for (int w = 0; w < rounds; w++) {
            for (Runnable op : ops) {
                mbPerSecond(op, bytes, sliceNanos);
            }
        }
    }

    /**
     * Blocks an engine moves in {@link #warmSteady} before its speed may count as steady: past the
     * back-edge counts at which HotSpot's tiers compile a loop (tens of thousands of iterations, more
     * while the compile queue is long), so that a kernel still run by the interpreter or by C1's
     * profiling code, whose slices agree with each other as well as compiled ones do, is not taken as
     * warm.
     */
    public static final long WARM_BLOCKS = 1L << 20;

    /** Most slices of {@link #warmSteady}: room for a queue of long compilations ahead of an engine's kernels. */
    public static final int WARM_SLICES = 400;

    /**
     * Runs an engine operation ({@code blocksPerRun} blocks, {@code bytes} packed bytes a run) in slices
     * until it has moved {@link #WARM_BLOCKS} blocks, two consecutive slices agree within 5% ({@link
     * #steady}) and the JIT had nothing to do throughout the second ({@link #jitIdle} before and after
     * it, no compilation finished in it), at most {@link #WARM_SLICES} slices. Its generated kernels
     * are new classes for every layout, and the one C2 thread of a small machine may still be busy with
     * a long compilation (a walk method, or code of earlier layouts) while they run in C1's profiling
     * code, whose slices agree with each other as well as compiled ones do.
     */
    public static void warmSteady(Runnable op, long bytes, long blocksPerRun, long sliceNanos) {
        warmSteady(op, bytes, blocksPerRun, sliceNanos, 0);
    }

    /**
     * {@link #warmSteady}, and at least {@code minRuns} runs: past the invocation counts at which HotSpot
     * compiles a method whole (600 to 5000), for generated kernels whose straight-line bodies move many
     * blocks per loop back-edge, so that the block count alone can be reached while they still run in
     * the interpreter, the JIT idle because no counter has reached its threshold yet.
     */
    public static void warmSteady(Runnable op, long bytes, long blocksPerRun, long sliceNanos, long minRuns) {
        double last = 0;
        double blocks = 0;
        double runs = 0;
        boolean idleBefore = false;
        for (int i = 0; i < WARM_SLICES; i++) {
            long jit = jitMillis();
            double v = mbPerSecond(op, bytes, sliceNanos);
            runs += v * 1e6 / bytes * (sliceNanos / 1e9);
            blocks += v * 1e6 / bytes * (sliceNanos / 1e9) * blocksPerRun;
            boolean idle = jitMillis() == jit && jitIdle();
            if (i > 0 && idleBefore && idle && runs >= minRuns && steady(last, v, blocks)) {
                return;
            }
            idleBefore = idle;
            last = v;
        }
    }

    /** Whether a warm-up whose last two slices ran at {@code last} and {@code v} MB/s, {@code blocks} moved in all, may stop. */
    static boolean steady(double last, double v, double blocks) {
        return blocks >= WARM_BLOCKS && Math.abs(v - last) <= 0.05 * last;
    }

    /** Bytes allocated by this thread per run of {@code op} over {@code runs} runs, or -1 if the JVM cannot tell. */
    public static long allocatedPerRun(Runnable op, int runs) {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!(mx instanceof com.sun.management.ThreadMXBean sun) || !sun.isThreadAllocatedMemorySupported()) {
            return -1;
        }
        long id = Thread.currentThread().getId();
        op.run();
        long before = sun.getThreadAllocatedBytes(id);
        for (int i = 0; i < runs; i++) {
            op.run();
        }
        long after = sun.getThreadAllocatedBytes(id);
        return (after - before) / runs;
    }

    /**
     * Number of processors and CPU model, for result headers. The family and model numbers are given
     * too: a virtual machine may name every generation alike ("AMD EPYC"), and figures from two
     * generations are not comparable.
     */
    public static String machine() {
        String name = "unknown CPU";
        String family = null;
        String model = null;
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo"))) {
                String value = line.substring(line.indexOf(':') + 1).trim();
                if (line.startsWith("model name")) {
                    name = value;
                } else if (line.startsWith("cpu family")) {
                    family = value;
                } else if (line.matches("model\\s*:.*")) {
                    model = value;
                } else if (line.isBlank()) {
                    break; // the first processor's block ends
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux: keep "unknown CPU"
        }
        String numbers = family == null || model == null ? "" : " (family " + family + ", model " + model + ")";
        return "nproc " + Runtime.getRuntime().availableProcessors() + ", " + name + numbers;
    }

    public static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB, "
                + (hugePages() ? "transparent huge pages" : "4 KiB pages")
                + (mallocHugePages() ? ", malloc on them too" : "") + ")";
    }

    /**
     * Whether glibc's malloc in this process madvises its memory onto transparent huge pages (the
     * tunable {@code glibc.malloc.hugetlb=1}, which bin/layout exports where the kernel offers them):
     * direct buffers and off-heap memory come from malloc, not from the heap that {@link #hugePages}
     * covers.
     */
    public static boolean mallocHugePages() {
        String t = System.getenv("GLIBC_TUNABLES");
        return t != null && (":" + t + ":").contains(":glibc.malloc.hugetlb=1:");
    }

    /**
     * Whether this JVM runs with {@code -XX:+UseTransparentHugePages} (bin/layout turns it on where the
     * kernel offers them): with 4 KiB pages a layout whose blocks are a page or more apart misses the
     * TLB on every block, and that, not the moves, bounds its speed.
     */
    public static boolean hugePages() {
        try {
            return Boolean.parseBoolean(
                    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                            .getVMOption("UseTransparentHugePages")
                            .getValue());
        } catch (RuntimeException e) {
            return false; // not HotSpot
        }
    }
}
