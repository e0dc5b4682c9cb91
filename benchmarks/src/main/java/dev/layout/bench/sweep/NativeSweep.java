package dev.layout.bench.sweep;

import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * MPICH's side of the sweep: builds {@code benchmarks/native/sweep.c} with {@code mpicc} (once, and
 * again when the source is newer than the program) and runs it over the sweep's points in a process
 * of its own. Every point's packed bytes are checked (by hash) against the engine's, so both sides
 * are known to move the same bytes.
 */
final class NativeSweep {
    private NativeSweep() {}

    static final String INSTALL = "install MPICH (Debian/Ubuntu: sudo apt-get install -y mpich), then run again";

    /** MPICH's MB/s for one point, pack and unpack. */
    record Speeds(double pack, double unpack) {}

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

    /** Runs {@code program} over {@code points}; one {@link Speeds} per point, in order. */
    static List<Speeds> run(Path program, List<SweepPoint> points, double sliceMs, int slices)
            throws IOException, InterruptedException {
        Path file = Files.createTempFile("layout-sweep-points-", ".txt");
        try {
            List<String> lines = new ArrayList<>();
            for (SweepPoint p : points) {
                lines.add(p.nativeLine());
            }
            Files.write(file, lines, StandardCharsets.UTF_8);
            Process proc = new ProcessBuilder(
                            program.toString(),
                            file.toString(),
                            String.format(Locale.ROOT, "%.1f", sliceMs),
                            "" + slices)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            List<Speeds> out = new ArrayList<>();
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    String[] f = line.trim().split(" ");
                    int i = Integer.parseInt(f[0]);
                    SweepPoint p = points.get(i);
                    long want = hash(p);
                    if (Long.parseUnsignedLong(f[3], 16) != want) {
                        proc.destroyForcibly();
                        throw new IllegalStateException(
                                "bench sweep --native: " + p.label() + ": MPICH packed other bytes than the engine");
                    }
                    out.add(new Speeds(Double.parseDouble(f[1]), Double.parseDouble(f[2])));
                }
            }
            if (!proc.waitFor(10, TimeUnit.MINUTES)) {
                proc.destroyForcibly();
                throw new IllegalStateException(
                        "bench sweep --native: the native sweep was still running after 10 minutes (killed)");
            }
            if (proc.exitValue() != 0 || out.size() != points.size()) {
                throw new IllegalStateException("bench sweep --native: the native sweep exited with " + proc.exitValue()
                        + " after " + out.size() + " of " + points.size() + " points");
            }
            return out;
        } finally {
            Files.deleteIfExists(file);
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
