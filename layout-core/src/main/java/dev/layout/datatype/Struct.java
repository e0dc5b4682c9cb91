package dev.layout.datatype;

import java.util.Arrays;
import java.util.List;

/**
 * {@code struct(blocklengths, byteDisplacements, types)}: member {@code i} is {@code blocklengths[i]}
 * copies of {@code types[i]} at a byte displacement.
 *
 * <p>Bounds: with marked members (resized/subarray/darray anywhere below), lb/ub come from those
 * markers only and nothing is padded (MPI 4.1). Without, MPICH's rule applies: the extent is rounded
 * up to the largest alignment among non-empty members, unless every member is the same primitive up
 * to signedness (MPICH then treats the struct as hindexed) or there is a single member.
 */
public final class Struct extends DerivedType {
    private final long[] blocklengths;
    private final long[] byteDisplacements;
    private final List<Datatype> types;

    Struct(long[] blocklengths, long[] byteDisplacements, List<? extends Datatype> types) {
        super(
                "struct",
                props(blocklengths, byteDisplacements, types),
                contiguousByStructure(blocklengths, byteDisplacements, types),
                List.copyOf(types));
        this.blocklengths = blocklengths.clone();
        this.byteDisplacements = byteDisplacements.clone();
        this.types = List.copyOf(types);
    }

    private static Props props(long[] bl, long[] disps, List<? extends Datatype> types) {
        String op = "struct";
        Checks.notNull(op, "blocklengths", bl);
        Checks.notNull(op, "byteDisplacements", disps);
        Checks.notNull(op, "types", types);
        if (bl.length != disps.length || bl.length != types.size()) {
            throw new IllegalArgumentException("struct: blocklengths, byteDisplacements and types lengths " + bl.length
                    + ", " + disps.length + ", " + types.size() + " (expected: all equal)");
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException("struct: member count 0 (expected: >= 1)");
        }
        TypeLimits.checkListLength(op, "types", types.size());
        BoundsAccumulator acc = new BoundsAccumulator(op);
        boolean samePrimitive = true;
        Primitive first = null;
        for (int i = 0; i < bl.length; i++) {
            Datatype t = types.get(i);
            if (t == null) {
                throw new NullPointerException("struct: types[" + i + "] is null");
            }
            if (bl[i] < 0) {
                throw new IllegalArgumentException("struct: blocklengths[" + i + "] " + bl[i] + " (expected: >= 0)");
            }
            if (t instanceof Primitive p) {
                if (first == null) {
                    first = p;
                } else if (!first.sameUpToSignedness(p)) {
                    samePrimitive = false;
                }
            } else {
                samePrimitive = false;
            }
            if (bl[i] > 0) {
                long[] s = acc.span(disps[i], disps[i], bl[i], t.extent());
                acc.add(t, bl[i], s[0], s[1]);
            }
        }
        Props p = acc.finish();
        if (!p.marked && acc.hasData && !samePrimitive && types.size() > 1 && p.alignment > 1) {
            long extent = p.ub - p.lb;
            long rem = Math.floorMod(extent, (long) p.alignment);
            if (rem != 0) {
                p.ub = Checks.add(op, p.ub, p.alignment - rem);
            }
        }
        return p;
    }

    private static boolean contiguousByStructure(long[] bl, long[] disps, List<? extends Datatype> types) {
        if (bl == null || disps == null || types == null || bl.length != disps.length || bl.length != types.size()) {
            return false;
        }
        RunCheck r = new RunCheck();
        for (int i = 0; i < bl.length && r.ok(); i++) {
            Datatype t = types.get(i);
            if (t != null) {
                r.copies(t, disps[i], bl[i], t.extent());
            }
        }
        return r.ok();
    }

    public int memberCount() {
        return types.size();
    }

    public long blocklength(int i) {
        return blocklengths[i];
    }

    public long byteDisplacement(int i) {
        return byteDisplacements[i];
    }

    public Datatype type(int i) {
        return types.get(i);
    }

    public long[] blocklengths() {
        return blocklengths.clone();
    }

    public long[] byteDisplacements() {
        return byteDisplacements.clone();
    }

    public List<Datatype> types() {
        return types;
    }

    @Override
    public Combiner combiner() {
        return Combiner.STRUCT;
    }

    @Override
    public Envelope envelope() {
        List<Long> ints = new java.util.ArrayList<>();
        ints.add((long) types.size());
        for (long b : blocklengths) ints.add(b);
        List<Long> addrs = new java.util.ArrayList<>();
        for (long d : byteDisplacements) addrs.add(d);
        return new Envelope(Combiner.STRUCT, ints, addrs, types);
    }

    @Override
    public List<Datatype> children() {
        return types;
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Struct s = (Struct) o;
        return Arrays.equals(blocklengths, s.blocklengths)
                && Arrays.equals(byteDisplacements, s.byteDisplacements)
                && types.equals(s.types);
    }

    @Override
    int argumentHash() {
        return (Arrays.hashCode(blocklengths) * 31 + Arrays.hashCode(byteDisplacements)) * 31 + types.hashCode();
    }
}
