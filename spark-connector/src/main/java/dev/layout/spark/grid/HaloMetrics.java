package dev.layout.spark.grid;

/**
 * What one {@link HaloExchange#run} moved and where its time went, summed over ranks (collected
 * with Spark accumulators).
 *
 * @param iterations iterations run (not counting those restored from a checkpoint)
 * @param messages halo messages sent
 * @param bytes halo payload bytes sent
 * @param packNanos time packing and unpacking halos with their datatypes (both modes)
 * @param wireNanos time moving the packed halos: barrier mode, the alltoallw's time outside pack
 *     and unpack (sends, waits for the neighbours, receives); shuffle mode, the reduce tasks' time
 *     pulling halos out of the shuffle (fetch and deserialization; the map side's shuffle write is
 *     inside Spark's writer and not counted)
 * @param computeNanos time in the kernel
 * @param wallNanos driver-side time of the exchange loop alone (printed as "exchange loop"; a job's
 *     wall time also counts reading, set-up and writing)
 * @param descriptorBytesBefore shipped region descriptors, notation bytes before normalization
 * @param descriptorBytesAfter the same after normalization
 */
public record HaloMetrics(
        long iterations,
        long messages,
        long bytes,
        long packNanos,
        long wireNanos,
        long computeNanos,
        long wallNanos,
        long descriptorBytesBefore,
        long descriptorBytesAfter) {

    /** Exchange-loop time per iteration in milliseconds. */
    public double millisPerIteration() {
        return iterations == 0 ? 0 : wallNanos / 1e6 / iterations;
    }

    @Override
    public String toString() {
        return String.format(
                "iterations %d, messages %d (%.1f/iter), bytes %d (%.0f/iter), pack %.1f ms, wire %.1f ms, compute %.1f ms,"
                        + " exchange loop %.1f ms (%.3f ms/iter), descriptors %d -> %d bytes",
                iterations,
                messages,
                iterations == 0 ? 0.0 : (double) messages / iterations,
                bytes,
                iterations == 0 ? 0.0 : (double) bytes / iterations,
                packNanos / 1e6,
                wireNanos / 1e6,
                computeNanos / 1e6,
                wallNanos / 1e6,
                millisPerIteration(),
                descriptorBytesBefore,
                descriptorBytesAfter);
    }
}
