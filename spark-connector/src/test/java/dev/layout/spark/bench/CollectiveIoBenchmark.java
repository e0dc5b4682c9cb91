package dev.layout.spark.bench;

import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.spark.io.CollectiveFile;
import dev.layout.spark.io.FieldSplit;
import dev.layout.spark.io.IoResult;
import dev.layout.spark.io.Strategy;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * MB/s of {@link CollectiveFile#writeAll} and {@link CollectiveFile#readAll} (two-phase, and the
 * independent read beside it) for a 2D and a 3D float64 field over 4 and 9 in-process ranks, on a
 * MiniDFSCluster of 2 datanodes and on the local file system, against the ceiling: the same bytes
 * written and read as one sequential file by one thread. Each figure is the median of {@code reps}
 * runs measured in turn, so the ratios compare runs under the same load. Blocks of 8 MiB (domains
 * aligned to them). Reads follow the writes, so both sides read from the page cache. Not a test.
 *
 * <pre>
 *   ./mvnw -B -o -q -pl spark-connector -am test-compile dependency:build-classpath \
 *       -Dmdep.outputFile=/tmp/cio.cp -Dmdep.includeScope=test
 *   java -Xmx3g -cp spark-connector/target/test-classes:spark-connector/target/classes:$(cat /tmp/cio.cp) \
 *       dev.layout.spark.bench.CollectiveIoBenchmark [reps=3] [megabytes=64]
 * </pre>
 */
public final class CollectiveIoBenchmark {
  private static final long BLOCK = 8L << 20;

  private CollectiveIoBenchmark() {}

  public static void main(String[] args) throws Exception {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int mb = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    long cells = mb * (1L << 20) / 8;
    long side2 = (long) Math.sqrt(cells);
    long side3 = Math.round(Math.cbrt(cells));
    List<FieldSplit> splits = List.of(
        new FieldSplit(new long[] {side2, cells / side2}, new int[] {2, 2}),
        new FieldSplit(new long[] {side2, cells / side2}, new int[] {3, 3}),
        new FieldSplit(new long[] {side3, side3, cells / side3 / side3}, new int[] {2, 2, 1}),
        new FieldSplit(new long[] {side3, side3, cells / side3 / side3}, new int[] {3, 3, 1}));
    File base = Files.createTempDirectory("collective-bench").toFile();
    Configuration dconf = new Configuration();
    dconf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getAbsolutePath());
    dconf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(dconf).numDataNodes(2).build();
    try {
      dfs.waitActive();
      System.out.printf(Locale.ROOT, "java %s, %d cores, load %.1f, %d MiB fields, block %d MiB, median of %d%n", System.getProperty("java.version"),
          Runtime.getRuntime().availableProcessors(), java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), mb,
          BLOCK >> 20, reps);
      System.out.println("fs     field              ranks  ceiling w/r MB/s   writeAll MB/s (ratio)   readAll 2-phase (ratio)   readAll indep (ratio)");
      String[] roots = {dfs.getFileSystem().getUri() + "/bench", new File(base, "local").toURI().toString()};
      Configuration[] confs = {dfs.getConfiguration(0), new Configuration()};
      for (int f = 0; f < 2; f++) {
        for (FieldSplit s : splits) {
          run(f == 0 ? "hdfs" : "local", confs[f], roots[f], s, reps);
        }
      }
    } finally {
      dfs.shutdown();
    }
  }

  private static void run(String fsName, Configuration conf, String root, FieldSplit split, int reps) throws IOException {
    long bytes = split.cells() * 8;
    byte[][] blocks = new byte[split.ranks()][];
    for (int r = 0; r < blocks.length; r++) {
      blocks[r] = split.block(r);
    }
    double[][] t = new double[5][reps];
    for (int k = 0; k < reps; k++) {
      Path seq = new Path(root + "/seq-" + k + ".f64");
      FileSystem fs = seq.getFileSystem(conf);
      byte[] chunk = new byte[4 << 20];
      long t0 = System.nanoTime();
      try (FSDataOutputStream out = fs.create(seq, false, 1 << 16, fs.getDefaultReplication(seq), BLOCK)) {
        for (long done = 0; done < bytes; done += chunk.length) {
          out.write(chunk, 0, (int) Math.min(chunk.length, bytes - done));
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

      CollectiveFile file = CollectiveFile.of(conf, root + "/field-" + k + ".f64").withBlockSize(BLOCK);
      t[2][k] = max(InProcessLauncher.run(split.ranks(), Duration.ofSeconds(120), comm -> io(file, comm, split, blocks, true)));
      t[3][k] = max(InProcessLauncher.run(split.ranks(), Duration.ofSeconds(120),
          comm -> io(file.withStrategy(Strategy.TWO_PHASE), comm, split, blocks, false)));
      t[4][k] = max(InProcessLauncher.run(split.ranks(), Duration.ofSeconds(120),
          comm -> io(file.withStrategy(Strategy.INDEPENDENT), comm, split, blocks, false)));
      fs.delete(new Path(file.path()), false);
    }
    double[] mbs = new double[5];
    for (int i = 0; i < 5; i++) {
      Arrays.sort(t[i]);
      mbs[i] = bytes * 1e3 / t[i][reps / 2];
    }
    System.out.printf(Locale.ROOT, "%-6s %-18s %5d  %7.0f / %-7.0f   %7.0f (%.2f)          %7.0f (%.2f)            %7.0f (%.2f)%n", fsName,
        Arrays.toString(split.sizes()), split.ranks(), mbs[0], mbs[1], mbs[2], mbs[2] / mbs[0], mbs[3], mbs[3] / mbs[1], mbs[4], mbs[4] / mbs[1]);
  }

  /** One rank's write or read; returns its wall time from the collective call's start. */
  private static double io(CollectiveFile file, dev.layout.comm.Communicator comm, FieldSplit split, byte[][] blocks, boolean write) {
    byte[] mine = write ? blocks[comm.rank()] : new byte[blocks[comm.rank()].length];
    FileView view = new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank()));
    try {
      IoResult r = write ? file.writeAll(comm, view, 0, Memory.ofArray(mine), 0, Primitive.BYTE, mine.length)
          : file.readAll(comm, view, 0, Memory.ofArray(mine), 0, Primitive.BYTE, mine.length);
      if (!write && !Arrays.equals(mine, blocks[comm.rank()])) {
        throw new IllegalStateException("rank " + comm.rank() + " read wrong data (" + r.summary() + ")");
      }
      return r.nanos();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double max(List<Double> ts) {
    return ts.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }
}
