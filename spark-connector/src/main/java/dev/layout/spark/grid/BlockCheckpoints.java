package dev.layout.spark.grid;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Barrier-mode checkpoints on any Hadoop file system: {@code <dir>/iter-<n>/rank-<r>} written to a
 * temporary name and renamed, {@code <dir>/iter-<n>/_COMPLETE} written by rank 0 after every rank
 * has written (the caller synchronizes). Only complete iterations are ever resumed from.
 */
final class BlockCheckpoints {
  private static final int MAGIC = 0x4C43504B; // "LCPK"

  private final Path root;
  private final FileSystem fs;

  BlockCheckpoints(String directory) throws IOException {
    this.root = new Path(directory);
    this.fs = root.getFileSystem(new Configuration());
  }

  /** The last iteration with a complete checkpoint, 0 if none. */
  int latestComplete() throws IOException {
    int best = 0;
    FileStatus[] list;
    try {
      list = fs.listStatus(root);
    } catch (FileNotFoundException e) {
      return 0;
    }
    for (FileStatus s : list) {
      String name = s.getPath().getName();
      if (s.isDirectory() && name.startsWith("iter-")) {
        try {
          int n = Integer.parseInt(name.substring(5));
          if (n > best && fs.exists(new Path(s.getPath(), "_COMPLETE"))) {
            best = n;
          }
        } catch (NumberFormatException ignored) {
          // not ours
        }
      }
    }
    return best;
  }

  void save(int iteration, GridBlock b) throws IOException {
    Path dir = new Path(root, "iter-" + iteration);
    Path tmp = new Path(dir, "rank-" + b.rank() + ".tmp");
    try (FSDataOutputStream o = fs.create(tmp, true)) {
      DataOutputStream out = new DataOutputStream(o);
      out.writeInt(MAGIC);
      out.writeInt(b.rank());
      out.writeInt(b.ghost());
      out.writeInt(b.d());
      for (int x : b.start()) {
        out.writeInt(x);
      }
      for (int x : b.dims()) {
        out.writeInt(x);
      }
      out.write(b.bytes());
      out.flush();
    }
    Path fin = new Path(dir, "rank-" + b.rank());
    fs.delete(fin, false);
    if (!fs.rename(tmp, fin)) {
      throw new IOException("checkpoint: could not rename " + tmp + " to " + fin);
    }
  }

  void markComplete(int iteration) throws IOException {
    fs.create(new Path(new Path(root, "iter-" + iteration), "_COMPLETE"), true).close();
  }

  GridBlock load(int iteration, int rank) throws IOException {
    Path p = new Path(new Path(root, "iter-" + iteration), "rank-" + rank);
    try (FSDataInputStream i = fs.open(p)) {
      DataInputStream in = new DataInputStream(i);
      if (in.readInt() != MAGIC || in.readInt() != rank) {
        throw new IOException("checkpoint: " + p + " is not a block checkpoint of rank " + rank);
      }
      int ghost = in.readInt();
      int d = in.readInt();
      int[] start = new int[d];
      int[] dims = new int[d];
      long len = 8;
      for (int a = 0; a < d; a++) {
        start[a] = in.readInt();
      }
      for (int a = 0; a < d; a++) {
        dims[a] = in.readInt();
        len *= dims[a];
      }
      byte[] data = new byte[Math.toIntExact(len)];
      in.readFully(data);
      return new GridBlock(rank, ghost, start, dims, data);
    }
  }
}
