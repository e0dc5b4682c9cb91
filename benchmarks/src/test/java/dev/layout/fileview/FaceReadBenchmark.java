package dev.layout.fileview;

import dev.layout.arrow.VectorRegions;
import dev.layout.dataloop.Packing;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.io.File;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Command-line benchmark (not a test): YZ and XZ faces of an n^3 float64 file read through a view
 * (default options: sieving, {@link ReadMode#AUTO}), with one vectored read of the contiguous
 * blocks (adjacent blocks merged, no sieving), with one {@code readFully(position)} per contiguous
 * block (straight, without the reader), and by
 * reading the whole file (one positioned read, or the stream from byte 0: the faster of the two
 * counts) and packing the face. Prints the medians of the timed repetitions, wall
 * and process CPU time.
 *
 * <p>In the benchmarks module's test tree (it needs a MiniDFSCluster); run from the repository root:
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=target/face-cp.txt
 * java -Xmx2g -cp benchmarks/target/test-classes:benchmarks/target/classes:$(cat benchmarks/target/face-cp.txt) \
 *     dev.layout.fileview.FaceReadBenchmark [n=256] [reps=5] [local|hdfs|both]
 * </pre>
 */
public final class FaceReadBenchmark {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String where = args.length > 2 ? args[2] : "both";
        System.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores, JVM "
                + System.getProperty("java.vm.version") + ", n=" + n + ", reps=" + reps);
        if (!where.equals("hdfs")) {
            FileSystem local = FileSystem.getLocal(new Configuration());
            Path p = new Path(new File("target/bench/cube-" + n + ".bin")
                    .getAbsoluteFile()
                    .toURI());
            run("local", local, p, n, reps);
        }
        if (!where.equals("local")) {
            Configuration conf = new Configuration();
            conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File("target/bench/minidfs").getAbsolutePath());
            MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf)
                    .numDataNodes(1)
                    .format(true)
                    .build();
            try {
                cluster.waitActive();
                run("hdfs", cluster.getFileSystem(), new Path("/bench/cube-" + n + ".bin"), n, reps);
            } finally {
                cluster.shutdown(true);
            }
        }
    }

    static void run(String label, FileSystem fs, Path p, int n, int reps) throws Exception {
        long elements = (long) n * n * n;
        if (!fs.exists(p) || fs.getFileStatus(p).getLen() != elements * 8) {
            byte[] plane = new byte[n * n * 8];
            try (OutputStream out = fs.create(p, true)) {
                for (int z = 0; z < n; z++) {
                    Arrays.fill(plane, (byte) z);
                    out.write(plane);
                }
            }
        }
        long[] sizes = {n, n, n};
        Datatype yz = VectorRegions.face(Primitive.FLOAT64, sizes, 2, 0);
        Datatype xz = VectorRegions.face(Primitive.FLOAT64, sizes, 1, 0);
        for (String face : new String[] {"YZ", "XZ"}) {
            Datatype t = face.equals("YZ") ? yz : xz;
            FileView view = new FileView(0, Primitive.FLOAT64, t);
            byte[] dst = new byte[(int) t.byteSize()];
            // One pread per 8-byte block of the YZ face is 65536 reads (seconds): one timed run of those is enough.
            Op viewOp = () -> read(fs, p, view, dst, ReadOptions.defaults());
            Op vecOp = () -> read(
                    fs,
                    p,
                    view,
                    dst,
                    ReadOptions.defaults()
                            .withSieving(SievingPolicy.adjacentOnly())
                            .withMode(ReadMode.VECTORED));
            Op perBlockOp = () -> perBlock(fs, p, view, dst);
            Op wholeOp = () -> whole(fs, p, t, elements * 8, false);
            Op wholeStreamOp = () -> whole(fs, p, t, elements * 8, true);
            // The fast candidates are timed in alternation (round-robin repetitions after two warm-ups
            // each), so JIT and heap state and the machine's load affect them alike.
            // The view with one positioned read in flight at a time: what the parallel reads add (XZ on HDFS).
            Op serialViewOp =
                    () -> read(fs, p, view, dst, ReadOptions.defaults().withParallelReads(1));
            double[][] m = face.equals("YZ")
                    ? medians(reps, viewOp, wholeOp, wholeStreamOp)
                    : medians(reps, viewOp, wholeOp, wholeStreamOp, vecOp, perBlockOp, serialViewOp);
            double[][] wall = lastWall;
            double[][] lastCpuOf = lastCpu;
            double[] viewT = m[0];
            double[] vec = face.equals("YZ") ? medians(1, vecOp)[0] : m[3];
            double[] perBlock = face.equals("YZ") ? medians(1, perBlockOp)[0] : m[4];
            if (face.equals("XZ")) {
                System.out.printf(
                        "%s XZ face: view with one positioned read in flight %.1f ms wall, %.1f ms cpu%n",
                        label, m[5][0], m[5][1]);
            }
            for (int k = 0; k < 2; k++) {
                double whole = Math.min(m[1][k], m[2][k]);
                double best = Math.min(vec[k], whole);
                System.out.printf(
                        "%s %s face (%d bytes) %s: view %.1f ms | vectored per range %.1f ms | one pread per block %.1f ms"
                                + " | whole file %.1f ms (pread %.1f, stream %.1f) | view/best(vectored,whole) %.2f | view/best(all) %.2f | per-block/view %.1fx%n",
                        label,
                        face,
                        t.byteSize(),
                        k == 0 ? "wall" : "cpu",
                        viewT[k],
                        vec[k],
                        perBlock[k],
                        whole,
                        m[1][k],
                        m[2][k],
                        viewT[k] / best,
                        viewT[k] / Math.min(best, perBlock[k]),
                        perBlock[k] / viewT[k]);
            }
            // The view against the other read with the lowest median, repetition by repetition (timed
            // next to each other, under about the same load): steadier than the ratio of medians when the
            // machine's load moves. Mean CPU times too (the process CPU clock ticks in 10 ms).
            int others = face.equals("YZ") ? 2 : 4;
            int bestOp = 1;
            for (int k = 2; k <= others; k++) {
                if (m[k][0] < m[bestOp][0]) {
                    bestOp = k;
                }
            }
            String[] names = {
                "view",
                "whole file by one pread",
                "whole file by the stream",
                "vectored per range",
                "one pread per block"
            };
            double[] paired = new double[reps];
            for (int i = 0; i < reps; i++) {
                paired[i] = wall[0][i] / wall[bestOp][i];
            }
            Arrays.sort(paired);
            System.out.printf(
                    "%s %s face: view/%s per repetition (wall, %d reps): median %.2f, quartiles %.2f-%.2f, max %.2f;"
                            + " mean cpu %.1f / %.1f ms = %.2f%n",
                    label,
                    face,
                    names[bestOp],
                    reps,
                    paired[reps / 2],
                    paired[reps / 4],
                    paired[(3 * reps) / 4],
                    paired[reps - 1],
                    mean(lastCpuOf[0]),
                    mean(lastCpuOf[bestOp]),
                    mean(lastCpuOf[0]) / mean(lastCpuOf[bestOp]));
        }
    }

    /** Wall times of the last {@link #medians} call, [op][repetition], in the order timed. */
    static double[][] lastWall;
    /** Process CPU times of the last {@link #medians} call, [op][repetition]. */
    static double[][] lastCpu;

    static double mean(double[] a) {
        return Arrays.stream(a).average().orElse(Double.NaN);
    }

    interface Op {
        void run() throws Exception;
    }

    /**
     * Medians of wall time and of process CPU time (all threads of this JVM, datanodes included for
     * MiniDFS) of each op, the ops timed in alternation: on a shared, loaded machine the CPU time is
     * the steadier figure.
     */
    static double[][] medians(int reps, Op... ops) throws Exception {
        if (reps > 1) {
            for (int w = 0; w < 2; w++) {
                for (Op op : ops) {
                    op.run(); // warm-up
                }
            }
        }
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        double[][] ms = new double[ops.length][reps];
        double[][] cpu = new double[ops.length][reps];
        for (int i = 0; i < reps; i++) {
            for (int k = 0; k < ops.length; k++) {
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                ops[k].run();
                ms[k][i] = (System.nanoTime() - t0) / 1e6;
                cpu[k][i] = (os.getProcessCpuTime() - c0) / 1e6;
            }
        }
        lastWall = new double[ops.length][];
        lastCpu = new double[ops.length][];
        for (int k = 0; k < ops.length; k++) {
            lastWall[k] = ms[k].clone();
            lastCpu[k] = cpu[k].clone();
        }
        double[][] out = new double[ops.length][];
        for (int k = 0; k < ops.length; k++) {
            Arrays.sort(ms[k]);
            Arrays.sort(cpu[k]);
            out[k] = new double[] {ms[k][reps / 2], cpu[k][reps / 2]};
        }
        return out;
    }

    static void read(FileSystem fs, Path p, FileView view, byte[] dst, ReadOptions o) throws Exception {
        try (ViewReader r = ViewReader.open(fs, p, view, o)) {
            r.readAt(0, dst, 0, Primitive.BYTE, dst.length);
        }
    }

    /** The naive baseline: one {@code readFully(position, ...)} per contiguous block of the view, straight into the packed result. */
    static void perBlock(FileSystem fs, Path p, FileView view, byte[] dst) throws Exception {
        int at = 0;
        try (FSDataInputStream in = fs.open(p)) {
            for (dev.layout.dataloop.Piece piece :
                    new RangePlanner(view, SievingPolicy.perPiece()).ranges(0, dst.length)) {
                in.readFully(piece.offset(), dst, at, (int) piece.length());
                at += (int) piece.length();
            }
        }
    }

    /** The whole file into one array, by one positioned read or by the stream ({@code readFully} from byte 0), then the face packed out of it. */
    static void whole(FileSystem fs, Path p, Datatype face, long length, boolean stream) throws Exception {
        byte[] all = new byte[(int) length];
        try (FSDataInputStream in = fs.open(p)) {
            if (stream) {
                in.readFully(all);
            } else {
                in.readFully(0, all);
            }
        }
        Packing.pack(face, 1, all, 0);
    }
}
