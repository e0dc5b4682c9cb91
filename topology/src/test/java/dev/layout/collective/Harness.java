package dev.layout.collective;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import dev.layout.transport.Transport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Test helpers: run ranks as threads, encode numbers little-endian. */
final class Harness {
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** TCP options of the suite's runs (in one JVM or several): a small eager threshold, so rendezvous is exercised too. */
    static final TcpOptions TCP_OPTIONS = TcpOptions.defaults().withEagerThresholdBytes(4096);

    private Harness() {}

    /** When set (by the TCP subclasses of the collective tests), ranks run over these fabrics instead of in-process. */
    static volatile IntFunction<List<? extends Transport>> fabric;

    /**
     * Runs body on n ranks and returns the results in rank order: as threads over in-process
     * transports, over {@link #fabric} when set, or spread over several JVMs in process mode
     * ({@link ProcessRanks}, set by {@link ClusterSuiteChild}).
     */
    static <T> List<T> run(int n, Function<Communicator, T> body) {
        ProcessRanks processes = ProcessRanks.current;
        if (processes != null) {
            return processes.run(n, TIMEOUT, body);
        }
        IntFunction<List<? extends Transport>> f = fabric;
        return f == null ? InProcessLauncher.run(n, TIMEOUT, body) : InProcessLauncher.runOn(f.apply(n), TIMEOUT, body);
    }

    /** A loopback TCP fabric of n processes with a fresh secret. */
    static List<? extends Transport> tcp(int n) {
        try {
            return TcpTransport.loopbackFabric(n, JobSecret.random(), TCP_OPTIONS);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static byte[] longs(long... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : v) {
            b.putLong(x);
        }
        return b.array();
    }

    static long[] toLongs(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long[] out = new long[bytes.length / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getLong();
        }
        return out;
    }

    static byte[] ints(int... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) {
            b.putInt(x);
        }
        return b.array();
    }

    static int[] toInts(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[bytes.length / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getInt();
        }
        return out;
    }

    static byte[] doubles(double... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            b.putDouble(x);
        }
        return b.array();
    }

    static double[] toDoubles(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[bytes.length / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getDouble();
        }
        return out;
    }

    /** A deterministic byte pattern for (rank, block). */
    static byte[] pattern(int rank, int block, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (rank * 31 + block * 7 + i);
        }
        return b;
    }
}
