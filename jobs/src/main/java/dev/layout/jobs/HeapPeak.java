package dev.layout.jobs;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The driver JVM's peak heap use during a run, sampled every 10 ms by a daemon thread (the sum of
 * the heap pools' own peaks overstates it: they peak at different moments). A spike shorter than
 * the period can be missed; the heap limit ({@link Runtime#maxMemory}) bounds it anyway.
 */
public final class HeapPeak implements AutoCloseable {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private final Thread sampler;
    private volatile long peak;
    private volatile boolean stopped;

    private HeapPeak() {
        sampler = new Thread(
                () -> {
                    while (!stopped) {
                        sample();
                        try {
                            Thread.sleep(10); // a sampling period, not a synchronization
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "layout-heap-peak");
        sampler.setDaemon(true);
    }

    /** Starts sampling. */
    public static HeapPeak start() {
        HeapPeak h = new HeapPeak();
        h.sample();
        h.sampler.start();
        return h;
    }

    private void sample() {
        long used = MEMORY.getHeapMemoryUsage().getUsed();
        if (used > peak) {
            peak = used;
        }
    }

    /** The largest heap use seen so far, in bytes. */
    public long peakBytes() {
        sample();
        return peak;
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
    }
}
