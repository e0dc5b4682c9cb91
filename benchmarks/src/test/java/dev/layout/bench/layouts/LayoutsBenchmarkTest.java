package dev.layout.bench.layouts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.bench.memory.Target;
import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The drawn layouts are valid and the same per seed; the hand loop moves the engine's bytes; a small run reports. */
class LayoutsBenchmarkTest {
    @Test
    void aSeedDrawsTheSameValidLayoutsOfEveryKind() {
        List<Datatype> a = LayoutDraws.draw(7, 2 * LayoutDraws.KINDS.length);
        assertThat(a).isEqualTo(LayoutDraws.draw(7, 2 * LayoutDraws.KINDS.length));
        assertThat(a).isNotEqualTo(LayoutDraws.draw(8, 2 * LayoutDraws.KINDS.length));
        for (Datatype t : a) {
            assertThat(t.byteSize()).as("%s", t).isPositive();
        }
    }

    @Test
    void theHandLoopPacksAndUnpacksWhatTheEnginePacks() {
        for (Datatype t : LayoutDraws.draw(3, LayoutDraws.KINDS.length)) {
            long count = 2;
            long n = t.byteSize() * count;
            long origin = dev.layout.bench.PackModes.origin(t, count);
            long userBytes = dev.layout.bench.PackModes.userBytes(t, count);
            try (Target.Buf user = Target.HEAP.allocate(userBytes);
                    Target.Buf engine = Target.HEAP.allocate(n);
                    Target.Buf hand = Target.HEAP.allocate(n);
                    Target.Buf back = Target.HEAP.allocate(userBytes)) {
                user.fillPattern();
                Segment.of(t, count, user.memory, origin).pack(engine.memory, 0, n);
                List<Piece> pieces = Segment.of(t, count, user.memory, origin).flatten(Integer.MAX_VALUE);
                long[] offs = pieces.stream()
                        .mapToLong(p -> user.address + origin + p.offset())
                        .toArray();
                long[] lens = pieces.stream().mapToLong(Piece::length).toArray();
                for (boolean words : new boolean[] {false, true}) {
                    LayoutsBenchmark.pieces(user.base, offs, lens, hand.base, hand.address, true, words);
                    assertThat(hand.memory.toArray(0, (int) n))
                            .as("%s words %s", t, words)
                            .isEqualTo(engine.memory.toArray(0, (int) n));
                }
                long[] backOffs = pieces.stream()
                        .mapToLong(p -> back.address + origin + p.offset())
                        .toArray();
                LayoutsBenchmark.pieces(back.base, backOffs, lens, hand.base, hand.address, false, true);
                assertThat(Segment.of(t, count, back.memory, origin).pack(engine.memory, 0, n))
                        .isEqualTo(n);
                assertThat(engine.memory.toArray(0, (int) n))
                        .as("%s unpacked and packed again", t)
                        .isEqualTo(hand.memory.toArray(0, (int) n));
            }
        }
    }

    @Test
    void aSmallRunEndsWithItsSummaryAndWritesItsTable(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = LayoutsBenchmark.run(
                new String[] {
                    "--layouts", "2", "--bytes", "4096", "--rounds", "1", "--slice-ms", "1", "--out", dir.toString()
                },
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(code).isZero();
        assertThat(out)
                .contains("engine >= 0.95 hand: ")
                .contains(" of 4")
                .containsPattern("median engine/hand: \\d+\\.\\d\\d");
        assertThat(out.strip().lines().reduce((x, y) -> y).orElseThrow()).startsWith("min engine/hand: ");
        assertThat(Files.readString(dir.resolve("LAYOUTS.md")))
                .contains("| # | op |")
                .contains("0. `");
    }

    @Test
    void badArgumentsAreRefusedByName() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> LayoutsBenchmark.run(new String[] {"--layouts", "0"}, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("layouts");
    }
}
