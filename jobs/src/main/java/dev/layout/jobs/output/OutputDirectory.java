package dev.layout.jobs.output;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The {@code --out} directory of one run.
 *
 * <ul>
 *   <li>Any Hadoop path: {@code hdfs://nn/runs/1}, {@code file:/tmp/x}, {@code file:///tmp/x}, or a
 *       bare path, which is always local (relative to the working directory), whatever the
 *       cluster's default file system.
 *   <li>{@link #LOCK} is created exclusively when the run opens the directory and removed when it
 *       ends: a second run into the same directory is refused while the first holds it.
 *   <li>A directory that already holds anything is refused unless the user says to overwrite; then
 *       the outputs of earlier runs ({@link #OUTPUTS}) are deleted before this run writes.
 *   <li>{@link #write} writes to a temporary name of 128 random bits in the directory, created
 *       exclusively (never through an existing file or symbolic link), then renames it over the
 *       final name. {@link #abort} deletes the temporaries still open and the lock.
 * </ul>
 */
public final class OutputDirectory implements AutoCloseable {
    /** The lock file of a run in progress. */
    public static final String LOCK = "_LOCK";
    /** Every name a layout job writes into its output directory (deleted by an overwrite). */
    public static final Set<String> OUTPUTS =
            Set.of("field.f64", "field.png", "summary.json", "board.pbm", "board.u8", "board.png", LOCK);

    private static final String TEMP_PREFIX = "._tmp-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String job;
    private final Path dir;
    private final FileSystem fs;
    private final boolean local;
    private final List<Path> temporaries = new ArrayList<>();
    private boolean closed;

    private OutputDirectory(String job, Path dir, FileSystem fs) {
        this.job = job;
        this.dir = dir;
        this.fs = fs;
        this.local = "file".equals(dir.toUri().getScheme());
    }

    /**
     * The Hadoop path a user's location names: a path with a scheme as given, a bare path as a local
     * file (made absolute against the working directory).
     *
     * @throws IllegalArgumentException for an empty or malformed location
     */
    public static Path resolve(String option, String location) {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException(
                    "--" + option + " '" + location + "' (expected: a path, file:/... or hdfs://...)");
        }
        Path p;
        try {
            p = new Path(location);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + option + " " + location
                    + " (expected: a path, file:/... or hdfs://...; " + e.getMessage() + ")");
        }
        if (p.toUri().getScheme() == null) {
            return new Path(
                    "file",
                    null,
                    java.nio.file.Path.of(location).toAbsolutePath().normalize().toString());
        }
        return p;
    }

    /**
     * Opens (creating it if needed) and locks the directory for one run of {@code job}.
     *
     * @throws IllegalArgumentException if another run holds the lock, or the directory holds earlier
     *     outputs and {@code overwrite} is false
     * @throws IOException if the file system fails
     */
    public static OutputDirectory open(String job, String location, boolean overwrite, Configuration conf)
            throws IOException {
        Path dir = resolve("out", location);
        FileSystem fs = dir.getFileSystem(conf);
        dir = fs.makeQualified(dir);
        if (fs.exists(dir) && !fs.getFileStatus(dir).isDirectory()) {
            throw new IllegalArgumentException(
                    "--out " + location + " is a file (expected: a directory, new or empty)");
        }
        fs.mkdirs(dir);
        OutputDirectory out = new OutputDirectory(job, dir, fs);
        String lock =
                job + " pid " + ProcessHandle.current().pid() + " on " + host() + " since " + Instant.now() + "\n";
        try (OutputStream o = out.createExclusive(new Path(dir, LOCK))) {
            o.write(lock.getBytes(StandardCharsets.UTF_8));
        } catch (FileAlreadyExistsException | org.apache.hadoop.fs.FileAlreadyExistsException e) {
            throw new IllegalArgumentException(
                    "--out " + location + " is in use by another run (" + new Path(dir, LOCK) + ": " + out.readLock()
                            + "; expected: one run per directory, delete the lock if that run is gone)");
        }
        try {
            List<String> earlier = new ArrayList<>();
            for (FileStatus s : fs.listStatus(dir)) {
                if (!s.getPath().getName().equals(LOCK)) {
                    earlier.add(s.getPath().getName());
                }
            }
            if (!earlier.isEmpty()) {
                java.util.Collections.sort(earlier);
                if (!overwrite) {
                    throw new IllegalArgumentException("--out " + location + " already holds "
                            + String.join(", ", earlier.subList(0, Math.min(4, earlier.size())))
                            + (earlier.size() > 4 ? ", ..." : "")
                            + " (expected: a new or empty directory, or --overwrite true)");
                }
                for (String name : earlier) {
                    if (OUTPUTS.contains(name) || name.startsWith(TEMP_PREFIX)) {
                        fs.delete(new Path(dir, name), false);
                    }
                }
            }
        } catch (IllegalArgumentException | IOException e) {
            out.abort();
            throw e;
        }
        return out;
    }

    private String readLock() {
        try (var in = fs.open(new Path(dir, LOCK))) {
            byte[] b = in.readNBytes(200);
            return new String(b, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "unreadable";
        }
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown host";
        }
    }

    /** The directory, qualified ({@code file:/...}, {@code hdfs://...}). */
    public Path path() {
        return dir;
    }

    /** The qualified path of {@code name} in the directory. */
    public Path path(String name) {
        return new Path(dir, name);
    }

    public FileSystem fileSystem() {
        return fs;
    }

    /** What a write puts into its stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code name} through an exclusive temporary file renamed into place. */
    public void write(String name, Content content) throws IOException {
        Path tmp = temporary(name);
        try (OutputStream o = createExclusive(tmp)) {
            content.writeTo(o);
        } catch (IOException | RuntimeException e) {
            delete(tmp);
            throw e;
        }
        publish(tmp, name);
    }

    /** A fresh temporary name for {@code name} in the directory, registered for {@link #abort}. */
    public synchronized Path temporary(String name) {
        byte[] r = new byte[16];
        RANDOM.nextBytes(r);
        Path tmp = new Path(dir, TEMP_PREFIX + HexFormat.of().formatHex(r) + "-" + name);
        temporaries.add(tmp);
        return tmp;
    }

    /** Renames the finished temporary {@code tmp} to {@code name} (replacing an earlier file of that name). */
    public void publish(Path tmp, String name) throws IOException {
        Path fin = new Path(dir, name);
        if (local) {
            Files.move(
                    localPath(tmp),
                    localPath(fin),
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } else {
            fs.delete(fin, false);
            if (!fs.rename(tmp, fin)) {
                throw new IOException("output: could not rename " + tmp + " to " + fin);
            }
        }
        synchronized (this) {
            temporaries.remove(tmp);
        }
    }

    private OutputStream createExclusive(Path p) throws IOException {
        if (local) {
            // CREATE_NEW is O_EXCL: it fails on any existing name, a symbolic link included
            return Files.newOutputStream(localPath(p), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        return fs.create(p, false);
    }

    private static java.nio.file.Path localPath(Path p) {
        return java.nio.file.Path.of(p.toUri());
    }

    private void delete(Path p) {
        try {
            if (local) {
                Files.deleteIfExists(localPath(p));
            } else {
                fs.delete(p, false);
            }
        } catch (IOException e) {
            // best effort: the run is failing already
        }
        synchronized (this) {
            temporaries.remove(p);
        }
    }

    /** Deletes the temporaries not yet published and releases the lock (a run that did not finish). */
    public synchronized void abort() {
        for (Path p : new ArrayList<>(temporaries)) {
            delete(p);
        }
        close();
    }

    /** Releases the lock. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            delete(new Path(dir, LOCK));
        }
    }

    @Override
    public String toString() {
        return job + " output " + dir;
    }
}
