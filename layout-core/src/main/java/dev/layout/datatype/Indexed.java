package dev.layout.datatype;

import java.util.Arrays;
import java.util.List;

/**
 * {@code indexed}, {@code hindexed}, {@code indexed_block} and {@code hindexed_block}: blocks of old
 * elements at displacements counted in old extents (plain forms) or bytes ({@code h} forms).
 */
public final class Indexed extends DerivedType {
    private final Combiner combiner;
    private final long[] blocklengths;
    private final long[] displacements;
    private final long[] byteDisplacements;
    private final Datatype oldType;

    private final long uniformBlocklength;

    Indexed(Combiner combiner, long[] blocklengths, long[] displacements, Datatype oldType) {
        this(combiner, checked(combiner, blocklengths, displacements, oldType), displacements, oldType, -1L);
    }

    /** The block forms: one blocklength for every displacement. */
    Indexed(Combiner combiner, long blocklength, long[] displacements, Datatype oldType) {
        this(
                combiner,
                checked(
                        combiner,
                        repeat(Checks.nonNegative(combiner.notationName(), "blocklength", blocklength), displacements),
                        displacements,
                        oldType),
                displacements,
                oldType,
                blocklength);
    }

    private Indexed(Combiner combiner, long[] bl, long[] displacements, Datatype oldType, long uniformBlocklength) {
        super(
                combiner.notationName(),
                props(combiner, bl, displacements, oldType),
                contiguousByStructure(combiner, bl, displacements, oldType),
                List.of(oldType));
        this.combiner = combiner;
        this.uniformBlocklength = uniformBlocklength;
        this.blocklengths = bl;
        this.displacements = displacements.clone();
        this.oldType = oldType;
        this.byteDisplacements = byteDisplacements(combiner, displacements, oldType);
    }

    static long[] repeat(long blocklength, long[] displacements) {
        if (displacements == null) {
            return null;
        }
        long[] bl = new long[displacements.length];
        Arrays.fill(bl, blocklength);
        return bl;
    }

    private static long[] checked(Combiner combiner, long[] bl, long[] disps, Datatype oldType) {
        String op = combiner.notationName();
        Checks.notNull(op, "blocklengths", bl);
        Checks.notNull(op, "displacements", disps);
        Checks.notNull(op, "oldType", oldType);
        boolean block = combiner == Combiner.INDEXED_BLOCK || combiner == Combiner.HINDEXED_BLOCK;
        if (!block && bl.length != disps.length) {
            throw new IllegalArgumentException(op + ": blocklengths length " + bl.length
                    + " (expected: equal to displacements length " + disps.length + ")");
        }
        TypeLimits.checkListLength(op, "displacements", disps.length);
        for (int i = 0; i < bl.length; i++) {
            if (bl[i] < 0) {
                throw new IllegalArgumentException(
                        block
                                ? op + ": blocklength " + bl[i] + " (expected: >= 0)"
                                : op + ": blocklengths[" + i + "] " + bl[i] + " (expected: >= 0)");
            }
        }
        return bl.clone();
    }

    private static boolean isBytes(Combiner c) {
        return c == Combiner.HINDEXED || c == Combiner.HINDEXED_BLOCK;
    }

    private static long[] byteDisplacements(Combiner combiner, long[] disps, Datatype old) {
        if (isBytes(combiner)) {
            return disps.clone();
        }
        long[] b = new long[disps.length];
        for (int i = 0; i < disps.length; i++) {
            b[i] = Checks.mul(combiner.notationName(), disps[i], old.extent());
        }
        return b;
    }

    private static Props props(Combiner combiner, long[] bl, long[] disps, Datatype oldType) {
        String op = combiner.notationName();
        long[] bd = byteDisplacements(combiner, disps, oldType);
        BoundsAccumulator acc = new BoundsAccumulator(op);
        for (int i = 0; i < bl.length; i++) {
            if (bl[i] == 0) {
                continue;
            }
            long[] s = acc.span(bd[i], bd[i], bl[i], oldType.extent());
            acc.add(oldType, bl[i], s[0], s[1]);
        }
        return acc.finish();
    }

    private static boolean contiguousByStructure(Combiner combiner, long[] bl, long[] disps, Datatype old) {
        if (!old.isDense()) {
            return false;
        }
        long[] bd = byteDisplacements(combiner, disps, old);
        RunCheck r = new RunCheck();
        for (int i = 0; i < bl.length && r.ok(); i++) {
            r.copies(old, bd[i], bl[i], old.extent());
        }
        return r.ok();
    }

    /** Number of blocks (the length of the displacement list). */
    public int blockCount() {
        return displacements.length;
    }

    public long blocklength(int i) {
        return blocklengths[i];
    }

    /** Displacement {@code i} as given: in old extents for the plain forms, bytes for the {@code h} forms. */
    public long displacement(int i) {
        return displacements[i];
    }

    public long byteDisplacement(int i) {
        return byteDisplacements[i];
    }

    /** The single blocklength of the block forms ({@code indexed_block}, {@code hindexed_block}); -1 otherwise. */
    public long uniformBlocklength() {
        return uniformBlocklength;
    }

    public long[] blocklengths() {
        return blocklengths.clone();
    }

    public long[] displacements() {
        return displacements.clone();
    }

    public long[] byteDisplacements() {
        return byteDisplacements.clone();
    }

    public Datatype oldType() {
        return oldType;
    }

    @Override
    public Combiner combiner() {
        return combiner;
    }

    @Override
    public Envelope envelope() {
        List<Long> ints = new java.util.ArrayList<>();
        List<Long> addrs = new java.util.ArrayList<>();
        ints.add((long) displacements.length);
        switch (combiner) {
            case INDEXED -> {
                for (long b : blocklengths) ints.add(b);
                for (long d : displacements) ints.add(d);
            }
            case HINDEXED -> {
                for (long b : blocklengths) ints.add(b);
                for (long d : displacements) addrs.add(d);
            }
            case INDEXED_BLOCK -> {
                ints.add(uniformBlocklength);
                for (long d : displacements) ints.add(d);
            }
            default -> {
                ints.add(uniformBlocklength);
                for (long d : displacements) addrs.add(d);
            }
        }
        return new Envelope(combiner, ints, addrs, List.of(oldType));
    }

    @Override
    public List<Datatype> children() {
        return List.of(oldType);
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Indexed x = (Indexed) o;
        return uniformBlocklength == x.uniformBlocklength
                && Arrays.equals(blocklengths, x.blocklengths)
                && Arrays.equals(displacements, x.displacements)
                && oldType.equals(x.oldType);
    }

    @Override
    int argumentHash() {
        return (Arrays.hashCode(blocklengths) * 31 + Arrays.hashCode(displacements)) * 31 + oldType.hashCode();
    }
}
