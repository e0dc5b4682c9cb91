package dev.layout.bench.io;

import dev.layout.cli.Options;
import dev.layout.collective.Collectives;
import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.spark.io.CollectiveFile;
import dev.layout.spark.io.IoResult;
import dev.layout.spark.io.Strategy;
import dev.layout.transport.PackingTransport;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * MB/s of {@link CollectiveFile#writeAll} and {@link CollectiveFile#readAll} (two-phase, and the
 * independent read beside it) for a 2D and a 3D float64 field over 4 and 9 in-process ranks, each
 * rank a {@code subarray} view of its block, on a MiniDFSCluster of 2 datanodes and on the local file
 * system, against the ceiling: the same bytes written and read as one sequential file by one
 * thread. A collective call's time is its slowest rank's, from a barrier just before the call (as
 * IOR times its phases). Each figure is the median of {@code --reps} runs taken in turn, so that the ratios
 * compare runs under the same load. File system blocks of 8 MiB (the two-phase domains are aligned
 * to them); reads follow the writes, so both sides read from the page cache, each rank into the same
 * array every time (as the ceiling reads into one reused chunk). The two-phase read runs
 * twice per rep, alternating: over the in-process transport's single-copy path, and over the same
 * transport with its pack, send and unpack (what a network transport does) for comparison. The
 * write runs twice per rep the same way (the last column, into a second file deleted at once; the
 * two writes take turns going first).
 *
 * <pre>
 *   bin/layout bench io [--quick] [--reps N] [--mb M]     (default 5 reps of 64 MiB fields; --quick: 3 of 16)
 * </pre>
 */
public final class CollectiveIoBenchmark {
    private static final long BLOCK = 8L << 20;
    private static final String USAGE =
            "usage: layout bench io [--quick] [--reps N] [--mb M]   (collective writeAll/readAll vs one sequential "
                    + "stream, MiniDFS and local; defaults 5 reps, 64 MiB; --quick 3 reps, 16 MiB)";

    private CollectiveIoBenchmark() {}

    /** A C-order field of {@code sizes} doubles split into blocks over the process grid {@code procs}. */
    private record Split(long[] sizes, int[] procs) {
        int ranks() {
            return Arrays.stream(procs).reduce(1, (a, b) -> a * b);
        }

        long cells() {
            return Arrays.stream(sizes).reduce(1, (a, b) -> a * b);
        }

        Datatype filetype(int rank) {
            long[] sub = new long[sizes.length];
            long[] start = new long[sizes.length];
            for (int d = sizes.length - 1; d >= 0; d--) {
                int c = rank % procs[d];
                rank /= procs[d];
                start[d] = sizes[d] * c / procs[d];
                sub[d] = sizes[d] * (c + 1) / procs[d] - start[d];
            }
            return Datatype.subarray(sizes, sub, start, Order.C, Primitive.FLOAT64);
        }
    }

    public static int run(String[] args, PrintStream out) throws IOException {
        Options o = Options.parse("bench io", args, Set.of("reps", "mb"), Set.of("quick", "help"));
        if (o.has("help")) {
            out.println(USAGE);
            return 0;
        }
        boolean quick = o.has("quick");
        int reps = (int) o.getLong("reps", quick ? 3 : 5, 1);
        int mb = (int) o.getLong("mb", quick ? 16 : 64, 1);
        if (mb > 1024) {
            throw new IllegalArgumentException("bench io: --mb " + mb + " (expected: 1 .. 1024 MiB)");
        }
        long cells = mb * (1L << 20) / 8;
        long side2 = (long) Math.sqrt(cells);
        long side3 = Math.round(Math.cbrt(cells));
        List<Split> splits = List.of(
                new Split(new long[] {side2, cells / side2}, new int[] {2, 2}),
                new Split(new long[] {side2, cells / side2}, new int[] {3, 3}),
                new Split(new long[] {side3, side3, cells / side3 / side3}, new int[] {2, 2, 1}),
                new Split(new long[] {side3, side3, cells / side3 / side3}, new int[] {3, 3, 1}));
        File base = Files.createTempDirectory("bench-io").toFile();
        Configuration dconf = new Configuration();
        dconf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getAbsolutePath());
        dconf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(dconf).numDataNodes(2).build();
        try {
            dfs.waitActive();
            out.printf(
                    Locale.ROOT,
                    "java %s, %d cores, load %.1f at the start, %d MiB fields, block %d MiB, median of %d%n",
                    System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors(),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    mb,
                    BLOCK >> 20,
                    reps);
            out.println(
                    "fs     field              ranks  ceiling w/r MB/s   writeAll MB/s (ratio)   readAll 2-phase (ratio)   readAll indep (ratio)   2-phase packed (ratio)   writeAll packed (ratio)");
            String[] roots = {
                dfs.getFileSystem().getUri() + "/bench",
                new File(base, "local").toURI().toString()
            };
            Configuration[] confs = {dfs.getConfiguration(0), new Configuration()};
            for (int f = 0; f < 2; f++) {
                for (Split s : splits) {
                    row(out, f == 0 ? "hdfs" : "local", confs[f], roots[f], s, reps);
                }
            }
            out.printf(
                    Locale.ROOT,
                    "load %.1f at the end%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        } finally {
            dfs.shutdown();
            FileUtil.fullyDelete(base);
        }
        return 0;
    }

    private static void row(PrintStream out, String fsName, Configuration conf, String root, Split split, int reps)
            throws IOException {
        long bytes = split.cells() * 8;
        byte[][] blocks = new byte[split.ranks()][];
        Random random = new Random(42);
        for (int r = 0; r < blocks.length; r++) {
            blocks[r] = new byte[(int) split.filetype(r).byteSize()];
            random.nextBytes(blocks[r]);
        }
        // each rank reads into the same array every time (as the ceiling reads into one chunk): a
        // fresh array per call is a large object the garbage collector may collect inside a timed call
        byte[][] into = new byte[blocks.length][];
        for (int r = 0; r < blocks.length; r++) {
            into[r] = new byte[blocks[r].length];
        }
        double[][] t = new double[7][reps];
        for (int k = 0; k < reps; k++) {
            Path seq = new Path(root + "/seq-" + k + ".f64");
            FileSystem fs = seq.getFileSystem(conf);
            byte[] chunk = new byte[4 << 20];
            long t0 = System.nanoTime();
            try (FSDataOutputStream o = fs.create(seq, false, 1 << 16, fs.getDefaultReplication(seq), BLOCK)) {
                for (long done = 0; done < bytes; done += chunk.length) {
                    o.write(chunk, 0, (int) Math.min(chunk.length, bytes - done));
                }
            }
            t[0][k] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            try (FSDataInputStream in = fs.open(seq)) {
                for (long done = 0; done < bytes; done += chunk.length) {
                    in.readFully(chunk, 0, (int) Math.min(chunk.length, bytes - done));
                }
            }
            t[1][k] = System.nanoTime() - t0;
            fs.delete(seq, false);

            CollectiveFile file =
                    CollectiveFile.of(conf, root + "/field-" + k + ".f64").withBlockSize(BLOCK);
            CollectiveFile packed =
                    CollectiveFile.of(conf, root + "/packed-" + k + ".f64").withBlockSize(BLOCK);
            for (int w = 0; w < 2; w++) { // the two writes alternate which goes first
                if ((w + k) % 2 == 0) {
                    t[2][k] = slowest(InProcessLauncher.run(
                            split.ranks(), Duration.ofSeconds(120), comm -> io(file, comm, split, blocks, null)));
                } else {
                    t[6][k] = slowest(InProcessLauncher.runOn(
                            PackingTransport.inProcess(split.ranks()),
                            Duration.ofSeconds(120),
                            comm -> io(packed, comm, split, blocks, null)));
                    fs.delete(new Path(packed.path()), false);
                }
            }
            t[3][k] = slowest(InProcessLauncher.run(
                    split.ranks(),
                    Duration.ofSeconds(120),
                    comm -> io(file.withStrategy(Strategy.TWO_PHASE), comm, split, blocks, into)));
            t[4][k] = slowest(InProcessLauncher.run(
                    split.ranks(),
                    Duration.ofSeconds(120),
                    comm -> io(file.withStrategy(Strategy.INDEPENDENT), comm, split, blocks, into)));
            t[5][k] = slowest(InProcessLauncher.runOn(
                    PackingTransport.inProcess(split.ranks()),
                    Duration.ofSeconds(120),
                    comm -> io(file.withStrategy(Strategy.TWO_PHASE), comm, split, blocks, into)));
            fs.delete(new Path(file.path()), false);
        }
        double[] mbs = new double[7];
        for (int i = 0; i < 7; i++) {
            Arrays.sort(t[i]);
            mbs[i] = bytes * 1e3 / t[i][reps / 2];
        }
        out.printf(
                Locale.ROOT,
                "%-6s %-18s %5d  %7.0f / %-7.0f   %7.0f (%.2f)          %7.0f (%.2f)            %7.0f (%.2f)          %7.0f (%.2f)          %7.0f (%.2f)%n",
                fsName,
                Arrays.toString(split.sizes()),
                split.ranks(),
                mbs[0],
                mbs[1],
                mbs[2],
                mbs[2] / mbs[0],
                mbs[3],
                mbs[3] / mbs[1],
                mbs[4],
                mbs[4] / mbs[1],
                mbs[5],
                mbs[5] / mbs[1],
                mbs[6],
                mbs[6] / mbs[0]);
    }

    /**
     * One rank's write ({@code into} null) or read into {@code into[rank]} (cleared first, then checked
     * against what was written); returns its time in the collective call.
     */
    private static double io(CollectiveFile file, Communicator comm, Split split, byte[][] blocks, byte[][] into) {
        boolean write = into == null;
        byte[] mine = write ? blocks[comm.rank()] : into[comm.rank()];
        if (!write) {
            Arrays.fill(mine, (byte) 0);
        }
        FileView view = new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank()));
        try {
            // all ranks enter the timed call together (as IOR does), so a late-starting rank thread is not timed
            Collectives.on(comm).barrier();
            IoResult r = write
                    ? file.writeAll(comm, view, 0, Memory.ofArray(mine), 0, Primitive.BYTE, mine.length)
                    : file.readAll(comm, view, 0, Memory.ofArray(mine), 0, Primitive.BYTE, mine.length);
            if (!write && !Arrays.equals(mine, blocks[comm.rank()])) {
                throw new IllegalStateException(
                        "bench io: rank " + comm.rank() + " read other bytes than it wrote (" + r.summary() + ")");
            }
            return r.nanos();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double slowest(List<Double> ts) {
        return ts.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
