package dev.layout.cli;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Set;

/**
 * {@code layout pack "<type>" [--count N] [--in FILE] [--origin B] [--out FILE] [--external32]}:
 * packs elements from a raw file (or, without {@code --in}, from the test pattern {@code
 * (k*31+7)&0xFF} the conformance vectors use) and writes or prints the packed bytes.
 */
public final class PackCommand implements Subcommand {
    @Override
    public String name() {
        return "pack";
    }

    @Override
    public String summary() {
        return "pack elements of a type from a raw file (or a test pattern) into a contiguous stream";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        Options o = Options.parse("pack", args, Set.of("count", "in", "origin", "out"), Set.of("external32", "help"));
        if (o.has("help") || o.positional().size() != 1) {
            out.println(
                    "usage: layout pack \"<layout notation>\" [--count N] [--in FILE] [--origin BYTES] [--out FILE] [--external32]");
            return o.has("help") ? 0 : 2;
        }
        Datatype t = LayoutParser.parse(o.positional().get(0));
        long count = o.getLong("count", 1, 0);
        byte[] src;
        long origin;
        if (o.has("in")) {
            src = Files.readAllBytes(InputFiles.readable("pack: --in", o.get("in", null)));
            origin = o.getLong("origin", 0, 0);
        } else {
            long span = count == 0 ? 0 : (count - 1) * t.extent();
            long lo = Math.min(0, t.trueLb() + Math.min(0, span));
            long hi = Math.max(0, t.trueUb() + Math.max(0, span));
            origin = o.has("origin") ? o.getLong("origin", 0, 0) : -lo;
            long n = Math.max(origin + hi, 0);
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(
                        "pack: test buffer of " + n + " bytes (expected: <= 2 GiB; use --in FILE)");
            }
            src = new byte[(int) n];
            for (int k = 0; k < src.length; k++) {
                src[k] = (byte) ((k * 31 + 7) & 0xFF);
            }
        }
        Memory user = Memory.ofArray(src);
        Segment s =
                o.has("external32") ? Segment.external32(t, count, user, origin) : Segment.of(t, count, user, origin);
        if (s.byteSize() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("pack: packed size " + s.byteSize() + " bytes (expected: <= 2 GiB)");
        }
        byte[] packed = new byte[(int) s.byteSize()];
        s.pack(Memory.ofArray(packed), 0, packed.length);
        if (o.has("out")) {
            Path p = Path.of(o.get("out", null));
            Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
            Files.write(tmp, packed);
            Files.move(
                    tmp,
                    p,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } else {
            String hex = HexFormat.of().formatHex(packed);
            for (int i = 0; i < hex.length(); i += 64) {
                out.println(hex.substring(i, Math.min(hex.length(), i + 64)));
            }
        }
        out.println("packed " + packed.length + " bytes (" + count + " element(s) of " + t.byteSize() + " bytes"
                + (o.has("external32") ? ", external32" : "") + ") from a " + src.length + "-byte buffer at origin "
                + origin);
        return 0;
    }
}
