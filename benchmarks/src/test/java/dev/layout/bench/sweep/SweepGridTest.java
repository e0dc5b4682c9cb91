package dev.layout.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.layout.bench.memory.Target;
import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SweepGridTest {
    @Test
    void fullGridHasEveryBlockWidthAtEveryStrideClassBothWays() {
        List<SweepGrid.Item> items = SweepGrid.items(false);
        Set<String> seen = new HashSet<>();
        for (SweepGrid.Item i : items) {
            if (i.point().shape() == SweepPoint.Shape.VECTOR && i.target() == Target.HEAP) {
                seen.add(i.point().blockBytes() + " " + i.point().strideClass() + " " + i.op());
            }
        }
        List<Long> widths = new java.util.ArrayList<>();
        for (long w = 1; w <= 64; w++) {
            widths.add(w);
        }
        widths.addAll(List.of(96L, 128L, 256L, 1024L, 4096L));
        for (long w : widths) {
            for (String c : List.of("just above", "4x block", "64 KiB")) {
                for (String op : List.of("pack", "unpack")) {
                    assertTrue(seen.contains(w + " " + c + " " + op), "missing vector " + w + " " + c + " " + op);
                }
            }
        }
        Set<SweepPoint.Shape> shapes = new HashSet<>();
        Set<Target> targets = new HashSet<>();
        Set<Integer> elements = new TreeSet<>();
        Set<Long> sizes = new TreeSet<>();
        for (SweepGrid.Item i : items) {
            shapes.add(i.point().shape());
            targets.add(i.target());
            elements.add(i.point().elemBytes());
            sizes.add(i.point().packedBytes());
            assertTrue(i.point().stride() > i.point().blockBytes(), i.label());
            assertTrue(i.point().userBytes() <= 2 * SweepGrid.SPAN_LIMIT, i.label());
        }
        assertEquals(Set.of(SweepPoint.Shape.values()), shapes);
        assertEquals(Set.of(Target.values()), targets);
        assertEquals(Set.of(1, 4, 8), elements);
        assertTrue(sizes.contains(4L << 10) && sizes.contains(64L << 20), sizes.toString());
    }

    @Test
    void matchSelectsItemsByLabel() {
        List<SweepGrid.Item> all = SweepGrid.items(false);
        List<SweepGrid.Item> m = SweepGrid.matching(all, "^vector w[1-4] s65536 e1 .* heap pack");
        assertEquals(4, m.size(), m.toString());
        for (SweepGrid.Item i : m) {
            assertTrue(i.pack() && i.point().stride() == 65536 && i.point().blockBytes() <= 4, i.label());
        }
        IllegalArgumentException none = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> SweepGrid.matching(all, "^nothing"));
        assertTrue(none.getMessage().contains("--match ^nothing"), none.getMessage());
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> SweepGrid.matching(all, "(["));
        assertTrue(bad.getMessage().contains("--match (["), bad.getMessage());
    }

    @Test
    void quickGridIsASmallSubsetOfTheFullOne() {
        List<SweepGrid.Item> quick = SweepGrid.items(true);
        Set<SweepGrid.Item> full = new HashSet<>(SweepGrid.items(false));
        assertTrue(quick.size() <= 200, "quick items " + quick.size());
        for (SweepGrid.Item i : quick) {
            assertTrue(full.contains(i), "not in the full grid: " + i.label());
        }
    }

    @Test
    void everyShapeDescribesTheBytesItsHandLoopMoves() {
        for (SweepPoint.Shape shape : SweepPoint.Shape.values()) {
            for (long w : new long[] {1, 12, 20, 64}) {
                int e = shape == SweepPoint.Shape.STRUCT ? 1 : SweepGrid.largestElement(w);
                SweepPoint p = SweepGrid.point(shape, e, w, w + e + 3 * e, 2048);
                var t = p.type();
                assertEquals(p.packedBytes(), t.byteSize() * p.count(), p.label());
                long userBytes = (p.count() - 1) * t.extent() + t.trueUb();
                byte[] user = new byte[(int) userBytes];
                for (int k = 0; k < user.length; k++) {
                    user[k] = (byte) (k * 31 + 7);
                }
                byte[] engine = new byte[(int) p.packedBytes()];
                Segment.of(t, p.count(), Memory.ofArray(user), 0).pack(Memory.ofArray(engine), 0, engine.length);
                for (HandLoops.Move m : HandLoops.Move.values()) {
                    byte[] hand = new byte[engine.length];
                    new HandLoops(p)
                            .run(
                                    user,
                                    dev.layout.bench.memory.Raw.BYTE_ARRAY_BASE,
                                    hand,
                                    dev.layout.bench.memory.Raw.BYTE_ARRAY_BASE,
                                    m,
                                    true);
                    assertArrayEquals(engine, hand, p.label() + " " + m);
                    byte[] back = new byte[user.length];
                    new HandLoops(p)
                            .run(
                                    back,
                                    dev.layout.bench.memory.Raw.BYTE_ARRAY_BASE,
                                    hand,
                                    dev.layout.bench.memory.Raw.BYTE_ARRAY_BASE,
                                    m,
                                    false);
                    byte[] engineBack = new byte[user.length];
                    Segment.of(t, p.count(), Memory.ofArray(engineBack), 0)
                            .unpack(Memory.ofArray(engine), 0, engine.length);
                    assertArrayEquals(engineBack, back, p.label() + " " + m + " unpack");
                }
            }
        }
    }

    @Test
    void permutationIsSeededAndComplete() {
        long[] a = SweepPoint.permutation(1000, SweepPoint.SEED);
        assertArrayEquals(a, SweepPoint.permutation(1000, SweepPoint.SEED));
        long[] sorted = a.clone();
        java.util.Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(i, sorted[i]);
        }
        assertTrue(!java.util.Arrays.equals(a, sorted), "not shuffled");
    }

    @Test
    void structMembersAddUpToTheRecord() {
        for (long w = 1; w <= 64; w++) {
            long[] m = SweepPoint.members(w);
            assertEquals(w, m[0] + m[1] + m[2]);
            assertEquals(0, m[0] % 8);
            assertEquals(0, m[1] % 4);
        }
    }
}
