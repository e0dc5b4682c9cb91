package dev.layout.bench.sweep;

import dev.layout.bench.memory.Target;
import dev.layout.bench.sweep.SweepPoint.Shape;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The sweep's measurements: which layouts ({@link SweepPoint}), on which memory ({@link Target}), in
 * which direction. The full grid has every block width from 1 to 64 bytes and 96, 128, 256, 1024 and
 * 4096, each with every element width (1, 4, 8 bytes) that divides it, as vectors at three stride
 * classes (just above the block, four blocks, 64 KiB) on the heap; a width subset of every shape, of
 * direct and off-heap memory and of packed sizes from 4 KiB to 64 MiB. {@code quick} is a subset of
 * the same grid that runs in about a minute.
 */
public final class SweepGrid {
    private SweepGrid() {}

    /** One measurement: a layout on a kind of memory, packed or unpacked. */
    public record Item(SweepPoint point, Target target, boolean pack) {
        public String op() {
            return pack ? "pack" : "unpack";
        }

        public String label() {
            return point.label() + " " + target.label() + " " + op();
        }
    }

    /** Packed bytes of a point unless its span limits it. */
    static final long MAIN_SIZE = 1 << 20;

    /** Largest user span of a point (the far strides of narrow blocks pack less than the size asked). */
    static final long SPAN_LIMIT = 128L << 20;

    static final long[] SIZES = {4L << 10, 64L << 10, 1L << 20, 16L << 20, 64L << 20};

    /** The grid, in the order measured. */
    public static List<Item> items(boolean quick) {
        List<Item> out = new ArrayList<>();
        List<Long> all = new ArrayList<>();
        for (long w = 1; w <= 64; w++) {
            all.add(w);
        }
        all.addAll(List.of(96L, 128L, 256L, 1024L, 4096L));
        List<Long> subset = List.of(
                1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 20L, 24L, 28L, 32L, 40L, 48L,
                56L, 64L, 96L, 128L, 256L, 1024L, 4096L);
        List<Long> few = List.of(1L, 3L, 4L, 8L, 12L, 16L, 20L, 24L, 28L, 40L, 48L, 64L, 96L, 1024L);
        List<Long> vectorWidths = quick ? few : all;
        List<Long> shapeWidths = quick ? List.of(4L, 12L, 20L, 28L, 64L, 1024L) : subset;
        List<Long> targetWidths = quick ? List.of(4L, 12L, 28L, 64L) : subset;
        List<Long> sizeWidths = quick ? List.of(12L, 64L) : List.of(4L, 12L, 20L, 64L, 1024L);
        for (long w : vectorWidths) {
            for (int e : quick ? new int[] {largestElement(w)} : elements(w)) {
                for (long s : strides(w, e, 3)) {
                    add(out, point(Shape.VECTOR, e, w, s, MAIN_SIZE), Target.HEAP);
                }
            }
        }
        for (Shape shape : List.of(Shape.HVECTOR, Shape.INDEXED_BLOCK, Shape.STRUCT)) {
            for (long w : shapeWidths) {
                int e = shape == Shape.STRUCT ? 1 : largestElement(w);
                for (long s : strides(w, e, 2)) {
                    add(out, point(shape, e, w, s, MAIN_SIZE), Target.HEAP);
                }
            }
        }
        for (Target t : List.of(Target.DIRECT, Target.OFFHEAP)) {
            for (long w : targetWidths) {
                int e = largestElement(w);
                for (long s : strides(w, e, quick ? 1 : 2)) {
                    add(out, point(Shape.VECTOR, e, w, s, MAIN_SIZE), t);
                }
            }
        }
        for (long size : quick ? new long[] {4L << 10, 64L << 20} : SIZES) {
            if (size == MAIN_SIZE) {
                continue;
            }
            for (long w : sizeWidths) {
                int e = largestElement(w);
                for (Target t : quick ? List.of(Target.HEAP) : List.of(Target.HEAP, Target.OFFHEAP)) {
                    add(out, point(Shape.VECTOR, e, w, w + e, size), t);
                }
            }
        }
        return out;
    }

    private static void add(List<Item> out, SweepPoint p, Target t) {
        out.add(new Item(p, t, true));
        out.add(new Item(p, t, false));
    }

    /**
     * The items whose label ({@link Item#label}, e.g. {@code vector w4 s65536 e4 8KiB heap pack})
     * contains a match of {@code regex}: one point and its neighbours, measured alone.
     */
    public static List<Item> matching(List<Item> items, String regex) {
        java.util.regex.Pattern p;
        try {
            p = java.util.regex.Pattern.compile(regex);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("bench sweep: --match " + regex
                    + " (expected: a Java regular expression; " + e.getDescription() + ")");
        }
        List<Item> out = new ArrayList<>();
        for (Item i : items) {
            if (p.matcher(i.label()).find()) {
                out.add(i);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("bench sweep: --match " + regex
                    + " (expected: a pattern some item's label" + " matches, such as 'vector w4 s65536 .* pack')");
        }
        return out;
    }

    /** The distinct layouts of {@code items}, in order (what the native side measures). */
    public static List<SweepPoint> points(List<Item> items) {
        Set<SweepPoint> s = new LinkedHashSet<>();
        for (Item i : items) {
            s.add(i.point());
        }
        return new ArrayList<>(s);
    }

    static int largestElement(long w) {
        return w % 8 == 0 ? 8 : w % 4 == 0 ? 4 : 1;
    }

    static int[] elements(long w) {
        return w % 8 == 0 ? new int[] {1, 4, 8} : w % 4 == 0 ? new int[] {1, 4} : new int[] {1};
    }

    /** The first {@code classes} stride classes of a block: just above it (one element more), four blocks, 64 KiB. */
    static List<Long> strides(long w, int e, int classes) {
        List<Long> s = new ArrayList<>(List.of(w + e, 65536L, 4 * w));
        return s.subList(0, classes);
    }

    /** A point of about {@code size} packed bytes, fewer when the span would pass {@link #SPAN_LIMIT}. */
    static SweepPoint point(Shape shape, int e, long w, long stride, long size) {
        long blocks = Math.max(1, Math.min(size / w, SPAN_LIMIT / stride));
        return switch (shape) {
            case VECTOR -> new SweepPoint(shape, e, w, stride, blocks, 1);
            case HVECTOR ->
                new SweepPoint(
                        shape, e, w, stride, Math.max(SweepPoint.ROW, blocks / SweepPoint.ROW * SweepPoint.ROW), 1);
            case INDEXED_BLOCK -> {
                long per = Math.min(blocks, 4096);
                yield new SweepPoint(shape, e, w, stride, per, Math.max(1, blocks / per));
            }
            case STRUCT -> new SweepPoint(shape, e, w, stride, 1, blocks);
        };
    }
}
