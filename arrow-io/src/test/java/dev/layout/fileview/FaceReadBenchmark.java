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
 * blocks (adjacent blocks merged, no sieving), with one positioned read per contiguous block, and by
 * reading the whole file and packing the face. Prints the median of the timed repetitions.
 *
 * <pre>java -cp ... dev.layout.fileview.FaceReadBenchmark [n=256] [reps=5] [local|hdfs|both]</pre>
 */
public final class FaceReadBenchmark {
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String where = args.length > 2 ? args[2] : "both";
    System.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores, JVM " + System.getProperty("java.vm.version")
        + ", n=" + n + ", reps=" + reps);
    if (!where.equals("hdfs")) {
      FileSystem local = FileSystem.getLocal(new Configuration());
      Path p = new Path(new File("target/bench/cube-" + n + ".bin").getAbsoluteFile().toURI());
      run("local", local, p, n, reps);
    }
    if (!where.equals("local")) {
      Configuration conf = new Configuration();
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File("target/bench/minidfs").getAbsolutePath());
      MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
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
      // One pread per 8-byte block of the YZ face is 65536 reads (seconds): one timed run is enough.
      int perBlockReps = face.equals("YZ") ? 1 : reps;
      double viewMs = median(reps, () -> read(fs, p, view, dst, ReadOptions.defaults()));
      double vecMs = median(perBlockReps, () -> read(fs, p, view, dst,
          ReadOptions.defaults().withSieving(SievingPolicy.adjacentOnly()).withMode(ReadMode.VECTORED)));
      double perBlockMs = median(perBlockReps,
          () -> read(fs, p, view, dst, ReadOptions.defaults().withSieving(SievingPolicy.perPiece()).withMode(ReadMode.POSITIONED)));
      double wholeMs = median(reps, () -> whole(fs, p, t, elements * 8));
      double best = Math.min(vecMs, wholeMs);
      System.out.printf("%s %s face (%d bytes): view %.1f ms | vectored per range %.1f ms | one pread per block %.1f ms | whole file %.1f ms"
              + " | view/best(vectored,whole) %.2f | view/best(all) %.2f | per-block/view %.1fx%n",
          label, face, t.byteSize(), viewMs, vecMs, perBlockMs, wholeMs, viewMs / best, viewMs / Math.min(best, perBlockMs),
          perBlockMs / viewMs);
    }
  }

  interface Op {
    void run() throws Exception;
  }

  static double median(int reps, Op op) throws Exception {
    if (reps > 1) {
      op.run();   // warm-up
    }
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      long t0 = System.nanoTime();
      op.run();
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(ms);
    return ms[reps / 2];
  }

  static void read(FileSystem fs, Path p, FileView view, byte[] dst, ReadOptions o) throws Exception {
    try (ViewReader r = ViewReader.open(fs, p, view, o)) {
      r.readAt(0, dst, 0, Primitive.BYTE, dst.length);
    }
  }

  static void whole(FileSystem fs, Path p, Datatype face, long length) throws Exception {
    byte[] all = new byte[(int) length];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, all);
    }
    Packing.pack(face, 1, all, 0);
  }
}
