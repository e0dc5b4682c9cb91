package dev.layout.fileview;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code layout fileview read}: reads a file through a view and writes the packed bytes.
 *
 * <pre>
 * layout fileview read --file PATH --etype float64 --disp BYTES --view "&lt;notation&gt;"
 *                      [--offset N] [--count M] --out PATH
 *                      [--mode vectored|positioned] [--hole-threshold BYTES] [--debug]
 * </pre>
 *
 * <p>{@code --offset} and {@code --count} are in etypes (default: offset 0, one whole tile of the
 * filetype). Paths are Hadoop paths ({@code hdfs://...}, {@code file:...}, or local). The last line
 * printed is {@code read B bytes in R ranges (M merged) in T ms}, where R is the number of file
 * ranges issued and M the number of contiguous view pieces merged into another piece's range.
 * Exit status: 0 on success, 2 for bad arguments ({@code layout: error: ...}), 1 for I/O errors and
 * anything else (one line; the stack trace only with {@code --debug}).
 */
public final class FileViewCommand {
  static final String USAGE = "usage: layout fileview read --file PATH --etype TYPE --disp BYTES --view NOTATION"
      + " [--offset N] [--count M] --out PATH [--mode vectored|positioned] [--hole-threshold BYTES] [--debug]";

  private FileViewCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean debug = false;
    for (String a : args) {
      debug |= a.equals("--debug");
    }
    try {
      return read(args, out);
    } catch (IllegalArgumentException e) {
      err.println("layout: error: " + e.getMessage());
      if (debug) {
        e.printStackTrace(err);
      }
      return 2;
    } catch (IOException e) {
      err.println("layout: error: " + e.getMessage());
      if (debug) {
        e.printStackTrace(err);
      }
      return 1;
    } catch (RuntimeException | Error e) {
      err.println("layout: internal error: " + e);
      if (debug) {
        e.printStackTrace(err);
      }
      return 1;
    }
  }

  private static int read(String[] args, PrintStream out) throws IOException {
    int i = 0;
    if (i < args.length && args[i].equals("fileview")) {
      i++;
    }
    if (i < args.length && (args[i].equals("--help") || args[i].equals("-h"))) {
      out.println(USAGE);
      return 0;
    }
    if (i >= args.length || !args[i].equals("read")) {
      throw new IllegalArgumentException("fileview: subcommand " + (i < args.length ? args[i] : "(none)") + " (expected: read); " + USAGE);
    }
    Map<String, String> opts = new HashMap<>();
    for (i++; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--debug")) {
        continue;
      }
      if (!a.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("fileview read: argument " + a + " (expected: --option value); " + USAGE);
      }
      if (!java.util.Set.of("--file", "--etype", "--disp", "--view", "--offset", "--count", "--out", "--mode", "--hole-threshold").contains(a)) {
        throw new IllegalArgumentException("fileview read: unknown option " + a + "; " + USAGE);
      }
      opts.put(a, args[++i]);
    }
    String file = required(opts, "--file");
    String outPath = required(opts, "--out");
    Datatype etype = LayoutParser.parse(required(opts, "--etype"));
    Datatype filetype = LayoutParser.parse(required(opts, "--view"));
    long disp = number(opts, "--disp", 0);
    FileView view = new FileView(disp, etype, filetype);
    long offset = number(opts, "--offset", 0);
    long count = number(opts, "--count", view.etypesPerTile());
    if (count < 0) {
      throw new IllegalArgumentException("fileview read: --count " + count + " (expected: >= 0)");
    }
    ReadMode mode = switch (opts.getOrDefault("--mode", "vectored")) {
      case "vectored" -> ReadMode.VECTORED;
      case "positioned" -> ReadMode.POSITIONED;
      default -> throw new IllegalArgumentException("fileview read: --mode " + opts.get("--mode") + " (expected: vectored or positioned)");
    };
    SievingPolicy sieving = SievingPolicy.defaults().withHoleThreshold(number(opts, "--hole-threshold", SievingPolicy.DEFAULT_HOLE_THRESHOLD));
    ReadOptions options = ReadOptions.defaults().withMode(mode).withSieving(sieving);

    Configuration conf = new Configuration();
    Path in = new Path(file);
    Path dst = new Path(outPath);
    FileSystem inFs = in.getFileSystem(conf);
    FileSystem outFs = dst.getFileSystem(conf);
    long esize = etype.byteSize();
    long chunk = Math.max(1, (64L << 20) / esize);
    byte[] buf = new byte[(int) Math.min(Math.multiplyExact(count, esize), chunk * esize)];
    long t0 = System.nanoTime();
    ReadStats total = new ReadStats(0, 0, 0, 0, 0);
    try (ViewReader r = ViewReader.open(inFs, in, view, options); OutputStream o = outFs.create(dst, true)) {
      for (long done = 0; done < count; ) {
        long n = Math.min(chunk, count - done);
        int bytes = (int) (n * esize);
        total = total.plus(r.readPacked(Math.addExact(offset, done), Memory.ofArray(buf), 0, bytes));
        o.write(buf, 0, bytes);
        done += n;
      }
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    out.println("read " + total.bytes() + " bytes in " + total.ranges() + " ranges (" + total.merged() + " merged) in " + ms + " ms");
    return 0;
  }

  private static String required(Map<String, String> opts, String name) {
    String v = opts.get(name);
    if (v == null) {
      throw new IllegalArgumentException("fileview read: missing " + name + "; " + USAGE);
    }
    return v;
  }

  private static long number(Map<String, String> opts, String name, long dflt) {
    String v = opts.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("fileview read: " + name + " " + v + " (expected: an integer)");
    }
  }
}
