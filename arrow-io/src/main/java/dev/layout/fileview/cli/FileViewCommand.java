package dev.layout.fileview.cli;

import dev.layout.cli.LayoutCli;
import dev.layout.cli.Subcommand;
import dev.layout.datatype.Datatype;
import dev.layout.fileview.FileView;
import dev.layout.fileview.ReadMode;
import dev.layout.fileview.ReadOptions;
import dev.layout.fileview.ReadStats;
import dev.layout.fileview.SievingPolicy;
import dev.layout.fileview.ViewReader;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code layout fileview read}: reads a file through a view and writes the packed bytes.
 *
 * <pre>
 * layout fileview read --file PATH --etype float64 --disp BYTES --view "&lt;notation&gt;"
 *                      [--offset N] [--count M] --out PATH
 *                      [--mode auto|vectored|positioned] [--hole-threshold BYTES] [--debug]
 * </pre>
 *
 * <p>{@code --offset} and {@code --count} are in etypes (default: offset 0, one whole tile of the
 * filetype). {@code --mode} picks the {@link ReadMode} (default {@code auto}); {@code
 * --hole-threshold} the {@link SievingPolicy} hole threshold (-1: one range per piece). {@code
 * --help} prints every option. Paths are Hadoop paths ({@code hdfs://...}, {@code file:...}, or local). The last line
 * printed is {@code read B bytes in R ranges (M merged) in T ms}, where R is the number of file
 * ranges issued and M the number of contiguous view pieces merged into another piece's range.
 * Exit status: 0 on success, 2 for bad arguments ({@code layout: error: ...}), 1 for I/O errors and
 * anything else (one line; the stack trace only with {@code --debug}).
 *
 * <p>{@code --out} is written under a temporary name beside it and renamed once the read is
 * complete: a failed read leaves an existing file as it was and nothing new behind, and no {@code
 * .crc} side file is written on a local file system.
 */
public final class FileViewCommand implements Subcommand {
    static final String USAGE = "usage: layout fileview read --file PATH --etype TYPE --disp BYTES --view NOTATION"
            + " [--offset N] [--count M] --out PATH [--mode auto|vectored|positioned] [--hole-threshold BYTES] [--debug]";

    /** What {@code layout fileview --help} and {@code layout fileview read --help} print. */
    static final String HELP = USAGE + "\n"
            + "Reads a file through an MPI-IO style view and writes the packed bytes; the last line is\n"
            + "'read B bytes in R ranges (M merged) in T ms' (R file ranges issued, M view pieces merged into another's range).\n"
            + "  --file PATH            the file to read (Hadoop path: hdfs://..., file:..., or local)\n"
            + "  --etype TYPE           unit of offsets and building block of the view, e.g. float64\n"
            + "  --disp BYTES           bytes from the start of the file to the first tile of the view (default 0)\n"
            + "  --view NOTATION        the filetype in layout notation, e.g. \"subarray([256,256,256],[256,256,1],[0,0,0],C,float64)\"\n"
            + "  --offset N             first etype of the view to read (default 0)\n"
            + "  --count M              etypes to read (default: one whole tile of the view)\n"
            + "  --out PATH             where the packed bytes go (replaced once the read is complete)\n"
            + "  --mode MODE            how the planned file ranges are read (default auto):\n"
            + "                           auto        vectored where the file system has a native vectored read and is not\n"
            + "                                       local (object stores), else positioned (HDFS, local file system)\n"
            + "                           vectored    PositionedReadable.readVectored, all ranges of a batch in one call\n"
            + "                           positioned  one readFully(position) per range, in file order, into one reused buffer\n"
            + "  --hole-threshold BYTES data sieving: view pieces at most BYTES apart are read as one range, holes included\n"
            + "                         (default " + SievingPolicy.DEFAULT_HOLE_THRESHOLD
            + "; 0 merges only adjacent pieces; -1 reads one range per piece)\n"
            + "  --debug                print stack traces of errors";

    @Override
    public String name() {
        return "fileview";
    }

    @Override
    public String summary() {
        return "read an array file through an MPI-IO style view: fileview read --file P --etype float64 --disp B --view \"<type>\" --out P";
    }

    /** Runs the command; returns the exit status. */
    @Override
    public int run(String[] args, PrintStream out, PrintStream err) {
        boolean debug = false;
        for (String a : args) {
            debug |= a.equals("--debug");
        }
        try {
            return read(args, out);
        } catch (IllegalArgumentException e) {
            return LayoutCli.fail(err, "layout: error: " + e.getMessage(), e, debug, 2);
        } catch (IOException e) {
            return LayoutCli.fail(err, "layout: error: " + e.getMessage(), e, debug, 1);
        } catch (RuntimeException | Error e) {
            return LayoutCli.fail(err, "layout: internal error: " + e, e, debug, 1);
        }
    }

    private static int read(String[] args, PrintStream out) throws IOException {
        int i = 0;
        if (i < args.length && args[i].equals("fileview")) {
            i++;
        }
        if (i < args.length && (args[i].equals("--help") || args[i].equals("-h"))
                || i + 1 < args.length
                        && args[i].equals("read")
                        && java.util.Arrays.asList(args).subList(i + 1, args.length).stream()
                                .anyMatch(a -> a.equals("--help") || a.equals("-h"))) {
            out.println(HELP);
            return 0;
        }
        if (i >= args.length || !args[i].equals("read")) {
            throw new IllegalArgumentException(
                    "fileview: subcommand " + (i < args.length ? args[i] : "(none)") + " (expected: read); " + USAGE);
        }
        Map<String, String> opts = new HashMap<>();
        for (i++; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--debug")) {
                continue;
            }
            if (!a.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        "fileview read: argument " + a + " (expected: --option value); " + USAGE);
            }
            if (!java.util.Set.of(
                            "--file",
                            "--etype",
                            "--disp",
                            "--view",
                            "--offset",
                            "--count",
                            "--out",
                            "--mode",
                            "--hole-threshold")
                    .contains(a)) {
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
        ReadMode mode =
                switch (opts.getOrDefault("--mode", "auto")) {
                    case "auto" -> ReadMode.AUTO;
                    case "vectored" -> ReadMode.VECTORED;
                    case "positioned" -> ReadMode.POSITIONED;
                    default ->
                        throw new IllegalArgumentException("fileview read: --mode " + opts.get("--mode")
                                + " (expected: auto, vectored or positioned)");
                };
        SievingPolicy sieving = SievingPolicy.defaults()
                .withHoleThreshold(number(opts, "--hole-threshold", SievingPolicy.DEFAULT_HOLE_THRESHOLD));
        ReadOptions options = ReadOptions.defaults().withMode(mode).withSieving(sieving);

        Configuration conf = new Configuration();
        Path in = new Path(file);
        Path dst = new Path(outPath);
        FileSystem inFs = in.getFileSystem(conf);
        FileSystem outFs = dst.getFileSystem(conf);
        checkInput(inFs, in);
        long esize = etype.byteSize();
        long chunk = Math.max(1, (64L << 20) / esize);
        byte[] buf = new byte[(int) Math.min(Math.multiplyExact(count, esize), chunk * esize)];
        long t0 = System.nanoTime();
        ReadStats total = new ReadStats(0, 0, 0, 0, 0);
        outFs.setWriteChecksum(false); // no .crc beside the output on a local file system
        Path tmp = new Path(dst.getParent(), "." + dst.getName() + ".tmp-" + Long.toHexString(System.nanoTime()));
        boolean done = false;
        try {
            try (ViewReader r = ViewReader.open(inFs, in, view, options);
                    OutputStream o = outFs.create(tmp, false)) {
                for (long k = 0; k < count; ) {
                    long n = Math.min(chunk, count - k);
                    int bytes = (int) (n * esize);
                    total = total.plus(r.readPacked(Math.addExact(offset, k), Memory.ofArray(buf), 0, bytes));
                    o.write(buf, 0, bytes);
                    k += n;
                }
            }
            if (outFs.exists(dst) && !outFs.delete(dst, false)) {
                throw new IOException("fileview read: --out " + dst + ": cannot replace it");
            }
            if (!outFs.rename(tmp, dst)) {
                throw new IOException("fileview read: --out " + dst + ": cannot rename " + tmp + " to it");
            }
            done = true;
        } finally {
            if (!done) {
                outFs.delete(tmp, false);
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        out.println("read " + total.bytes() + " bytes in " + total.ranges() + " ranges (" + total.merged()
                + " merged) in " + ms + " ms");
        return 0;
    }

    /** Fails naming the path and why if it cannot be read (a missing file, a directory). */
    private static void checkInput(FileSystem fs, Path in) throws IOException {
        FileStatus st;
        try {
            st = fs.getFileStatus(in);
        } catch (FileNotFoundException e) {
            throw new IOException("fileview read: --file " + in + ": not found", e);
        }
        if (st.isDirectory()) {
            throw new IOException("fileview read: --file " + in + ": is a directory");
        }
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
