package dev.layout.bench.sweep;

import dev.layout.bench.Meter;
import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * MPICH's side of the sweep: builds {@code benchmarks/native/sweep.c} with {@code mpicc} (once, and
 * again when the source is newer than the program) and runs it in a process of its own beside the
 * JVM that measures the engine ({@link Server}). Every point's packed bytes are checked (by hash)
 * against the engine's, so both sides are known to move the same bytes.
 */
final class NativeSweep {
    private NativeSweep() {}

    static final String INSTALL = "install MPICH (Debian/Ubuntu: sudo apt-get install -y mpich), then run again";

    /** The program, built if needed, from {@code module/native/sweep.c} into {@code module/target/native/}. */
    static Path build(Path module) throws IOException, InterruptedException {
        Path src = module.resolve("native").resolve("sweep.c");
        if (!Files.isRegularFile(src)) {
            throw new IllegalStateException(
                    "bench sweep --native: " + src + " not found (expected: the benchmarks module's native/sweep.c)");
        }
        Path bin = module.resolve("target").resolve("native").resolve("sweep");
        if (Files.isExecutable(bin) && Files.getLastModifiedTime(bin).compareTo(Files.getLastModifiedTime(src)) >= 0) {
            return bin;
        }
        if (!onPath("mpicc")) {
            throw new IllegalStateException("bench sweep --native: mpicc not found on the PATH; " + INSTALL);
        }
        Files.createDirectories(bin.getParent());
        Process p = new ProcessBuilder("mpicc", "-O2", "-o", bin.toString(), src.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("bench sweep --native: mpicc failed on " + src + ":\n" + log);
        }
        return bin;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** {@code mpichversion}'s first line as "MPICH 4.0.2", or "MPICH (version unknown)". */
    static String version() {
        try {
            Process p =
                    new ProcessBuilder("mpichversion").redirectErrorStream(true).start();
            String first = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .findFirst()
                    .orElse("");
            p.waitFor(30, TimeUnit.SECONDS);
            return first.isBlank()
                    ? "MPICH (version unknown)"
                    : first.replaceAll("\\s+", " ")
                            .replace("MPICH Version:", "MPICH")
                            .trim();
        } catch (IOException e) {
            return "MPICH (version unknown)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "MPICH (version unknown)";
        }
    }

    /**
     * The program running beside this JVM (a fresh process per JVM), measuring one slice of MPICH's
     * pack or unpack per request, so that its slice is taken right next to the engine's. The first
     * request on each point checks MPICH's packed bytes (by hash) against the engine's.
     */
    static final class Server implements AutoCloseable {
        /** Longest wait for one answer: building a point of 64 MiB and its warm-up slices included. */
        static final Duration ANSWER = Duration.ofMinutes(2);

        /** The glibc tunable (2.35 and later) by which malloc madvises its memory onto transparent huge pages. */
        static final String HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1";

        private final Process proc;
        private final BufferedReader in;
        private final Writer outToProgram;
        private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "native sweep reader");
            t.setDaemon(true);
            return t;
        });
        private SweepPoint checked;

        Server(Path program) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(program.toString()).redirectError(ProcessBuilder.Redirect.INHERIT);
            if (Meter.hugePages() && !Meter.mallocHugePages()) {
                // the same pages on both sides: glibc's malloc asks for transparent huge pages as the JVM's heap does
                pb.environment().merge("GLIBC_TUNABLES", HUGE_PAGES_TUNABLE, (a, b) -> a + ":" + b);
            }
            proc = pb.start();
            in = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8));
            outToProgram = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.UTF_8);
        }

        /** MPICH's MB/s over one slice of {@code sliceMs} on {@code p}, packing or unpacking. */
        double slice(SweepPoint p, boolean pack, double sliceMs) {
            try {
                outToProgram.write(
                        p.nativeLine() + (pack ? " 1 " : " 0 ") + String.format(Locale.ROOT, "%.3f", sliceMs) + "\n");
                outToProgram.flush();
                Future<String> f = reader.submit(in::readLine);
                String line = f.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
                if (line == null) {
                    throw new IllegalStateException("bench sweep --native: the native sweep ended (exit "
                            + (proc.waitFor(10, TimeUnit.SECONDS) ? proc.exitValue() : "none") + ") at " + p.label());
                }
                String[] v = line.trim().split(" ");
                if (!p.equals(checked)) {
                    if (Long.parseUnsignedLong(v[1], 16) != hash(p)) {
                        throw new IllegalStateException(
                                "bench sweep --native: " + p.label() + ": MPICH packed other bytes than the engine");
                    }
                    checked = p;
                }
                return Double.parseDouble(v[0]);
            } catch (TimeoutException e) {
                throw new IllegalStateException("bench sweep --native: no answer from the native sweep within "
                        + ANSWER.toSeconds() + " s at " + p.label());
            } catch (IOException | ExecutionException e) {
                throw new IllegalStateException("bench sweep --native: talking to the native sweep at " + p.label(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("bench sweep --native: interrupted at " + p.label(), e);
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            outToProgram.close();
            if (!proc.waitFor(1, TimeUnit.MINUTES)) {
                proc.destroyForcibly();
                throw new IllegalStateException(
                        "bench sweep --native: the native sweep did not end within a minute of its input (killed)");
            }
            reader.shutdownNow();
        }
    }

    /** FNV-1a 64 of the engine's packed bytes of {@code p} over the pattern {@code (k*31+7) & 0xFF}, as {@code sweep.c} computes it. */
    static long hash(SweepPoint p) {
        var t = p.type();
        long userBytes = (p.count() - 1) * t.extent() + t.trueUb();
        byte[] user = new byte[Math.toIntExact(userBytes)];
        for (int k = 0; k < user.length; k++) {
            user[k] = (byte) ((k * 31L + 7) & 0xFF);
        }
        byte[] packed = new byte[Math.toIntExact(p.packedBytes())];
        Segment.of(t, p.count(), Memory.ofArray(user), 0).pack(Memory.ofArray(packed), 0, packed.length);
        long h = 0xcbf29ce484222325L;
        for (byte b : packed) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
