package dev.layout.dataloop;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.datatype.Contiguous;
import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.DerivedType;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.datatype.Vector;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles datatypes into {@link Dataloop}s. A type is first normalized ({@code EngineNormalization}:
 * its least-cost description under the processing model, within bounds), which finds vectors hidden
 * in index lists and merges nested vectors; the build-time optimizations of Ross, Miller and Gropp
 * (2003) then run on the result, and do all the work beyond the bounds:
 *
 * <ul>
 *   <li>a type whose data is one contiguous run becomes a single byte run ("bytes" leaf);
 *   <li>a loop over a byte run becomes a leaf: consecutive elements merge into one run, elements
 *       spaced apart (resized, padded structs) are a block each;
 *   <li>structs whose members are all byte runs become an indexed leaf; others keep a struct loop;
 *   <li>adjacent blocks of an indexed leaf coalesce; equal lengths make it block-indexed, even
 *       spacing a vector, a repeated pattern a vector of records ({@link #periodic});
 *   <li>a loop whose instance is a few runs becomes one indexed leaf of them, a record ({@link #asRecord});
 *   <li>at segment creation a count of a type becomes a longer run or vector where the extent allows
 *       it ({@code resized(0, 8, float32)} with count n is a vector leaf of n 4-byte blocks at stride 8).
 * </ul>
 *
 * For {@link Representation#EXTERNAL32} runs only merge across primitives of one size, so that a
 * leaf has a single byte-swap unit.
 */
public final class DataloopCompiler {
    private DataloopCompiler() {}

    private static final int CACHE_LIMIT = 4096;
    private static final Map<Datatype, Dataloop> NATIVE_CACHE = new ConcurrentHashMap<>();
    private static final Map<Datatype, Dataloop> EXTERNAL_CACHE = new ConcurrentHashMap<>();
    /** Struct-to-indexed expands members element by element only up to this many blocks. */
    private static final int MAX_EXPANDED_BLOCKS = 1 << 16;

    /**
     * The dataloop of one element of {@code type}, positions relative to the type's origin; {@code
     * null} for a type with no data.
     */
    public static Dataloop compile(Datatype type, Representation representation) {
        Objects.requireNonNull(type, "compile: type is null");
        Map<Datatype, Dataloop> cache = representation == Representation.NATIVE ? NATIVE_CACHE : EXTERNAL_CACHE;
        if (type.isEmpty()) {
            return null;
        }
        Dataloop d = cache.get(type);
        if (d == null) {
            d = compileNormalized(type, representation).loop();
            if (cache.size() >= CACHE_LIMIT) {
                cache.clear();
            }
            cache.put(type, d);
        }
        return d;
    }

    /**
     * The description {@link #compile} compiles for {@code type} (what {@code layout describe} prints
     * as "compiled from"): its normalized form, or {@code type} itself (see {@code
     * EngineNormalization}). Same type map, lb and extent as {@code type}.
     */
    public static Datatype compiledDescription(Datatype type, Representation representation) {
        Objects.requireNonNull(type, "compile: type is null");
        return type.isEmpty() ? type : compileNormalized(type, representation).description();
    }

    /** A description and its dataloop. */
    private record Compiled(Datatype description, Dataloop loop) {}

    /**
     * The normalized description's dataloop, unless it is not a fixed-width leaf and the type as given
     * compiles to one (see {@link EngineNormalization}).
     */
    private static Compiled compileNormalized(Datatype type, Representation representation) {
        Datatype n = EngineNormalization.normalized(type);
        Dataloop normalized = new Run(representation).compile(n);
        if (n == type || EngineNormalization.isFixedWidthLeaf(normalized)) {
            return new Compiled(n, normalized);
        }
        Dataloop direct = new Run(representation).compile(type);
        return EngineNormalization.isFixedWidthLeaf(direct) ? new Compiled(type, direct) : new Compiled(n, normalized);
    }

    /**
     * The dataloop of {@code count} consecutive elements (one extent apart): the root a segment walks.
     * Returns null when there is nothing to move.
     */
    public static Dataloop compileCount(Datatype type, long count, Representation representation) {
        if (count < 0) {
            throw new IllegalArgumentException("compile: count " + count + " (expected: >= 0)");
        }
        Dataloop one = compile(type, representation);
        if (one == null || count <= 1) {
            return count == 0 ? null : one;
        }
        return over(Dataloop.contig(count, type.extent(), one, 0, Math.multiplyExact(count, type.extent())));
    }

    /** Compilation state for one representation (memoizes shared subtypes by identity). */
    private static final class Run {
        final Representation rep;
        final Map<Datatype, Dataloop> memo = new IdentityHashMap<>();
        final Map<Datatype, Integer> units = new IdentityHashMap<>();

        Run(Representation rep) {
            this.rep = rep;
        }

        Dataloop compile(Datatype t) {
            if (t.isEmpty()) {
                return null;
            }
            Dataloop d = memo.get(t);
            if (d == null) {
                d = asRecord(build(t));
                memo.put(t, d);
            }
            return d;
        }

        /** The swap unit for external32: the one primitive size in t's type map, or 0 if sizes mix. */
        int unit(Datatype t) {
            if (rep == Representation.NATIVE) {
                return 1;
            }
            if (t instanceof Primitive p) {
                return p.swapUnit();
            }
            Integer u = units.get(t);
            if (u == null) {
                int found = -1; // the unit of the members so far: -1 none yet, 0 mixed
                for (Datatype c : ((DerivedType) t).children()) {
                    if (!c.isEmpty()) {
                        int cu = unit(c);
                        found = found < 0 || found == cu ? cu : 0;
                    }
                }
                u = Math.max(found, 0);
                units.put(t, u);
            }
            return u;
        }

        private Dataloop build(Datatype t) {
            int u = unit(t);
            if (t.isDense() && u > 0) {
                return Dataloop.bytes(t.byteSize(), t.trueLb(), u, t.extent());
            }
            switch (t.combiner()) {
                case CONTIGUOUS: {
                    Contiguous c = (Contiguous) t;
                    return over(Dataloop.contig(c.count(), c.oldType().extent(), compile(c.oldType()), 0, t.extent()));
                }
                case VECTOR:
                case HVECTOR: {
                    // One block is a count of the old type (its stride never applies).
                    Vector v = (Vector) t;
                    Dataloop c = compile(v.oldType());
                    long ext = v.oldType().extent();
                    return over(
                            v.count() == 1
                                    ? Dataloop.contig(v.blocklength(), ext, c, 0, t.extent())
                                    : Dataloop.vector(
                                            v.count(), v.blocklength(), v.byteStride(), ext, c, 0, t.extent()));
                }
                case INDEXED:
                case HINDEXED:
                case INDEXED_BLOCK:
                case HINDEXED_BLOCK: {
                    Indexed x = (Indexed) t;
                    long[] bl = new long[x.blockCount()];
                    long[] off = new long[x.blockCount()];
                    int n = 0;
                    for (int i = 0; i < x.blockCount(); i++) {
                        if (x.blocklength(i) > 0) {
                            bl[n] = x.blocklength(i);
                            off[n++] = x.byteDisplacement(i);
                        }
                    }
                    Dataloop c = compile(x.oldType());
                    long ext = x.oldType().extent();
                    return over(Dataloop.indexed(Arrays.copyOf(bl, n), Arrays.copyOf(off, n), ext, c, 0, t.extent()));
                }
                case STRUCT:
                    return struct((Struct) t);
                case RESIZED:
                    return compile(((DerivedType) t).children().get(0)).shifted(0, t.extent());
                case SUBARRAY:
                    return compile(((Subarray) t).lowered()).shifted(0, t.extent());
                case DARRAY:
                    return compile(((Darray) t).lowered()).shifted(0, t.extent());
                default:
                    throw new AssertionError(t.combiner());
            }
        }

        private Dataloop struct(Struct s) {
            int n = s.memberCount();
            long[] bls = new long[n];
            long[] offs = new long[n];
            long[] exts = new long[n];
            Dataloop[] kids = new Dataloop[n];
            int m = 0;
            boolean allRuns = true;
            int commonUnit = -1;
            long expanded = 0;
            for (int i = 0; i < n; i++) {
                Datatype t = s.type(i);
                if (s.blocklength(i) == 0 || t.isEmpty()) {
                    continue;
                }
                Dataloop c = compile(t);
                bls[m] = s.blocklength(i);
                offs[m] = s.byteDisplacement(i);
                exts[m] = t.extent();
                kids[m++] = c;
                if (isRun(c) && (commonUnit < 0 || commonUnit == c.swapUnit)) {
                    commonUnit = c.swapUnit;
                    expanded += c.blocklen == t.extent() ? 1 : s.blocklength(i);
                } else {
                    allRuns = false;
                }
            }
            if (allRuns && expanded <= MAX_EXPANDED_BLOCKS) {
                // Struct to indexed: every member is a byte run, so the struct is a list of runs (a member's
                // elements one run when they are back to back, else one each).
                long[] lens = new long[(int) expanded];
                long[] at = new long[(int) expanded];
                int k = 0;
                for (int i = 0; i < m; i++) {
                    boolean whole = kids[i].blocklen == exts[i];
                    for (long j = 0; j < (whole ? 1 : bls[i]); j++) {
                        lens[k] = whole ? Math.multiplyExact(bls[i], kids[i].blocklen) : kids[i].blocklen;
                        at[k++] = Math.addExact(Math.addExact(offs[i], Math.multiplyExact(j, exts[i])), kids[i].disp);
                    }
                }
                return optimizeLeaf(Dataloop.leafIndexed(lens, at, 0, commonUnit, s.extent()));
            }
            for (int i = 0; i < m; i++) {
                kids[i] = over(Dataloop.contig(bls[i], exts[i], kids[i], 0, Math.multiplyExact(bls[i], exts[i])));
            }
            if (m == 1) {
                return kids[0].shifted(offs[0], s.extent());
            }
            return Dataloop.struct(Arrays.copyOf(offs, m), Arrays.copyOf(kids, m), 0, s.extent());
        }
    }

    /** Most runs of a loop's instance that {@link #asRecord} lists as one leaf. */
    static final int MAX_RECORD_RUNS = 16;

    /**
     * Most runs of an instance {@link #asRecord} lists when every run is wider than {@link
     * MemoryAccess#WORD_BLOCK_BYTES}: each is then one bulk copy, against which the listed loop's offset
     * load is small, and the record saves the walk's descent into the instance.
     */
    static final int MAX_WIDE_RECORD_RUNS = 64;

    /**
     * A loop whose instance is at most {@link #MAX_RECORD_RUNS} runs of one swap unit (or {@link
     * #MAX_WIDE_RECORD_RUNS} runs each a bulk copy), as one listed leaf
     * of those runs in packed order (adjacent runs merged, equal ones evenly spaced a vector), else
     * {@code d}. A record generated word moves cannot move ({@link GeneratedKernel#moves}: runs that
     * overlap, or many words) may instead become a vector of a repeated pattern ({@link #periodic}),
     * whose instances the strided loops move. Exploits: a loop over such instances (a count, an outer
     * vector or list) moves them in one kernel call, where a loop of a few blocks cost the walk a descent
     * and a kernel call per instance, and a nest of short vectors (a small subarray) a loop per level. A
     * vector or list whose blocks are several instances gets a record per block where that is few runs.
     */
    static Dataloop asRecord(Dataloop d) {
        if (d != null
                && !d.leaf
                && d.blocklen > 1
                && (d.kind == Dataloop.Kind.VECTOR || d.kind == Dataloop.Kind.BLOCK_INDEXED)) {
            // Blocks of several instances: each block one record where it is few runs.
            Dataloop block =
                    asRecord(Dataloop.contig(d.blocklen, d.ext, d.child, 0, Math.multiplyExact(d.blocklen, d.ext)));
            if (block.leaf) {
                d = d.kind == Dataloop.Kind.VECTOR
                        ? Dataloop.vector(d.nblocks, 1, d.stride, block.extent, block, d.disp, d.extent)
                        : Dataloop.blockIndexed(1, d.offsets, block.extent, block, d.disp, d.extent);
            }
        }
        int n = d == null || d.leaf ? 0 : runs(d, MAX_WIDE_RECORD_RUNS + 1);
        if (n < 1 || n > MAX_WIDE_RECORD_RUNS) {
            return d;
        }
        long[] offs = new long[n];
        long[] lens = new long[n];
        int[] at = {0, -1}; // the next run, and the runs' swap unit (-1: none yet, 0: mixed)
        list(d, 0, offs, lens, at);
        if (at[1] <= 0
                || n > MAX_RECORD_RUNS && Arrays.stream(lens).anyMatch(l -> l <= MemoryAccess.WORD_BLOCK_BYTES)) {
            return d;
        }
        Dataloop listed = Dataloop.leafIndexed(lens, offs, 0, at[1], d.extent);
        Dataloop r = optimizeLeaf(listed, false);
        return r.offsets == null || GeneratedKernel.moves(r.offsets, r.blocklens, r.blocklen) != null
                ? r
                : optimizeLeaf(listed, true);
    }

    /** The runs of one instance of {@code d}, or {@code limit} once there are that many. */
    private static int runs(Dataloop d, int limit) {
        long n = 0;
        for (long b = 0; b < d.nblocks && n < limit; b++) {
            n += d.leaf ? 1 : Math.min(d.blockLen(b), limit) * runs(d.childOf(b), limit);
        }
        return (int) Math.min(n, limit);
    }

    /** Lists the runs of the instance of {@code d} based at {@code base}, in packed order, from run {@code at[0]}. */
    private static void list(Dataloop d, long base, long[] offs, long[] lens, int[] at) {
        long u = base + d.disp;
        for (long b = 0; b < d.nblocks; b++) {
            if (d.leaf) {
                offs[at[0]] = u + d.blockOffset(b);
                lens[at[0]++] = d.blockLen(b);
                at[1] = at[1] < 0 || at[1] == d.swapUnit ? d.swapUnit : 0;
            } else {
                for (long j = 0; j < d.blockLen(b); j++) {
                    list(d.childOf(b), u + d.blockOffset(b) + j * d.ext, offs, lens, at);
                }
            }
        }
    }

    /** A leaf made of one contiguous run. */
    static boolean isRun(Dataloop d) {
        return d.leaf && d.kind == Dataloop.Kind.CONTIG;
    }

    /**
     * Simplifies a non-leaf loop over a uniform child: turns loops over byte runs into leaves and
     * applies the count/regularity rewrites. The argument's {@code disp} is 0 and its child is non-null.
     */
    static Dataloop over(Dataloop n) {
        Dataloop c = n.child;
        if (isRun(c)) {
            long el = c.blocklen;
            long at = Math.addExact(n.disp, c.disp);
            int u = c.swapUnit;
            boolean dense = n.ext == el;
            if (n.kind == Dataloop.Kind.CONTIG) {
                return dense
                        ? Dataloop.bytes(Math.multiplyExact(n.blocklen, el), at, u, n.extent)
                        : optimizeLeaf(Dataloop.leafVector(n.blocklen, el, n.ext, at, u, n.extent));
            }
            if (n.kind == Dataloop.Kind.VECTOR && (dense || n.blocklen == 1)) {
                long width = Math.multiplyExact(n.blocklen, el);
                return optimizeLeaf(Dataloop.leafVector(n.nblocks, width, n.stride, at, u, n.extent));
            }
            if ((n.kind == Dataloop.Kind.BLOCK_INDEXED || n.kind == Dataloop.Kind.INDEXED) && (dense || allOnes(n))) {
                long[] lens = new long[(int) n.nblocks];
                for (int b = 0; b < lens.length; b++) {
                    lens[b] = Math.multiplyExact(n.blockLen(b), el);
                }
                return optimizeLeaf(Dataloop.leafIndexed(lens, n.offsets, at, u, n.extent));
            }
            // Elements spaced apart and several per block: the inner loop is a vector leaf per block.
            if (n.kind == Dataloop.Kind.VECTOR || n.kind == Dataloop.Kind.BLOCK_INDEXED) {
                Dataloop inner = optimizeLeaf(
                        Dataloop.leafVector(n.blocklen, el, n.ext, c.disp, u, Math.multiplyExact(n.blocklen, n.ext)));
                return n.kind == Dataloop.Kind.VECTOR
                        ? Dataloop.vector(n.nblocks, 1, n.stride, 0, inner, n.disp, n.extent)
                        : Dataloop.blockIndexed(1, n.offsets, 0, inner, n.disp, n.extent);
            }
            return regularize(n);
        }
        // A count of a vector leaf whose extent is a whole number of its strides, or a vector of single
        // vector leaves spaced exactly one leaf apart (subarray faces: rows of a plane, planes of a volume,
        // volumes of a 4D array), is one longer vector leaf; the same for a vector of single instances of
        // a leaf (a count of a record, a periodic pattern found in an indexed leaf): one longer such vector.
        long repeats = n.kind == Dataloop.Kind.CONTIG
                ? n.blocklen
                : n.kind == Dataloop.Kind.VECTOR && n.blocklen == 1 ? n.nblocks : -1;
        long spacing = n.kind == Dataloop.Kind.CONTIG ? n.ext : n.stride;
        if (repeats >= 0
                && c.kind == Dataloop.Kind.VECTOR
                && (c.leaf || c.blocklen == 1 && c.child.leaf)
                && spacing == Math.multiplyExact(c.nblocks, c.stride)) {
            long blocks = Math.multiplyExact(repeats, c.nblocks);
            long at = Math.addExact(n.disp, c.disp);
            return c.leaf
                    ? Dataloop.leafVector(blocks, c.blocklen, c.stride, at, c.swapUnit, n.extent)
                    : Dataloop.vector(blocks, 1, c.stride, c.ext, c.child, at, n.extent);
        }
        return regularize(n);
    }

    /** Non-leaf rewrites: single instances collapse, equal blocks become block-indexed, even spacing a vector. */
    private static Dataloop regularize(Dataloop n) {
        if (n.nblocks == 1 && n.blockLen(0) == 1) {
            Dataloop c = n.childOf(0);
            return c.shifted(Math.addExact(n.disp, n.blockOffset(0)), n.extent);
        }
        if (n.kind == Dataloop.Kind.INDEXED && allEqual(n.blocklens, n.blocklens.length)) {
            n = Dataloop.blockIndexed(n.blocklens[0], n.offsets, n.ext, n.child, n.disp, n.extent);
        }
        if (n.kind == Dataloop.Kind.BLOCK_INDEXED && n.nblocks >= 2 && evenlySpaced(n.offsets)) {
            long step = n.offsets[1] - n.offsets[0];
            n = Dataloop.vector(
                    n.nblocks, n.blocklen, step, n.ext, n.child, Math.addExact(n.disp, n.offsets[0]), n.extent);
        }
        if (n.kind == Dataloop.Kind.VECTOR && n.stride == Math.multiplyExact(n.blocklen, n.ext)) {
            n = Dataloop.contig(Math.multiplyExact(n.nblocks, n.blocklen), n.ext, n.child, n.disp, n.extent);
        }
        if (n.kind == Dataloop.Kind.CONTIG && n.child.leaf) {
            // A count of a leaf as the vector of single instances it is: the walk moves those (planes) in
            // one kernel call, and a count of this loop fuses with it into a longer one (over).
            n = Dataloop.vector(n.blocklen, 1, n.ext, n.ext, n.child, n.disp, n.extent);
        }
        return n;
    }

    private static boolean allEqual(long[] values, int n) {
        for (int i = 1; i < n; i++) {
            if (values[i] != values[0]) {
                return false;
            }
        }
        return true;
    }

    /** Whether every block of {@code n} is one child instance. */
    private static boolean allOnes(Dataloop n) {
        return n.blockLen(0) == 1 && (n.blocklens == null || allEqual(n.blocklens, n.blocklens.length));
    }

    /** Whether the offsets (two or more) are a constant step apart. */
    private static boolean evenlySpaced(long[] offsets) {
        for (int b = 2; b < offsets.length; b++) {
            if (offsets[b] - offsets[b - 1] != offsets[1] - offsets[0]) {
                return false;
            }
        }
        return true;
    }

    /** Longest repeating pattern (in blocks) {@link #periodic} looks for. */
    static final int MAX_PERIOD = 16;

    /**
     * Regularity in an indexed leaf (the normalization Ross et al. call "particularly clever"): when
     * its blocks are a pattern of p blocks repeated at a constant shift (the Indexed test: lengths 2,
     * 1, 1 at elements 0, 3, 6 of every 8), the leaf becomes a vector of a p-block leaf. The engine
     * then keeps the pattern in registers instead of reading two index arrays per block, and a
     * count of the type extends the vector. Found in O(n) per candidate period, p up to {@link
     * #MAX_PERIOD}; the packed order is unchanged.
     */
    static Dataloop periodic(Dataloop d) {
        long[] offs = d.offsets;
        long[] lens = d.blocklens;
        int n = offs.length;
        for (int p = 2; p <= MAX_PERIOD && p <= n / 2; p++) {
            if (n % p != 0) {
                continue;
            }
            long shift = offs[p] - offs[0];
            boolean ok = true;
            for (int b = p; b < n && ok; b++) {
                ok = offs[b] - offs[b - p] == shift && (lens == null || lens[b] == lens[b - p]);
            }
            if (!ok) {
                continue;
            }
            long[] io = new long[p];
            for (int b = 0; b < p; b++) {
                io[b] = offs[b] - offs[0];
            }
            long[] il = lens == null ? null : Arrays.copyOf(lens, p);
            Dataloop inner = il == null
                    ? Dataloop.leafBlockIndexed(d.blocklen, io, 0, d.swapUnit, shift)
                    : Dataloop.leafIndexed(il, io, 0, d.swapUnit, shift);
            return Dataloop.vector(
                    n / p, 1, shift, shift, optimizeLeaf(inner), Math.addExact(d.disp, offs[0]), d.extent);
        }
        return d;
    }

    /** Leaf rewrites: coalesce adjacent runs, then indexed to block-indexed to vector to one run, or to a vector of a pattern. */
    static Dataloop optimizeLeaf(Dataloop d) {
        return optimizeLeaf(d, true);
    }

    /** {@link #optimizeLeaf}, finding a repeated pattern ({@link #periodic}) only when {@code patterns}. */
    private static Dataloop optimizeLeaf(Dataloop d, boolean patterns) {
        if (d.kind == Dataloop.Kind.INDEXED) {
            long[] lens = d.blocklens;
            long[] offs = d.offsets;
            int n = 0;
            long[] nl = new long[lens.length];
            long[] no = new long[lens.length];
            for (int b = 0; b < lens.length; b++) {
                if (n > 0 && no[n - 1] + nl[n - 1] == offs[b]) {
                    nl[n - 1] += lens[b];
                } else {
                    nl[n] = lens[b];
                    no[n++] = offs[b];
                }
            }
            no = Arrays.copyOf(no, n);
            if (!allEqual(nl, n)) {
                Dataloop merged = Dataloop.leafIndexed(Arrays.copyOf(nl, n), no, d.disp, d.swapUnit, d.extent);
                merged = patterns ? periodic(merged) : merged;
                if (merged.leaf && allEqual(lens, lens.length) && n > lens.length / 2) {
                    // Equal blocks of which only a few touch, with no pattern (a random gather list): merging
                    // those few would trade the uniform-width kernel for a per-block width switch on every
                    // block. Keep the blocks as they are; pieces (flatten) still merge adjacent runs.
                    return Dataloop.leafBlockIndexed(lens[0], offs, d.disp, d.swapUnit, d.extent);
                }
                return merged;
            }
            d = Dataloop.leafBlockIndexed(nl[0], no, d.disp, d.swapUnit, d.extent);
        }
        if (d.kind == Dataloop.Kind.BLOCK_INDEXED) {
            if (d.nblocks == 1) {
                return Dataloop.bytes(d.blocklen, Math.addExact(d.disp, d.offsets[0]), d.swapUnit, d.extent);
            }
            if (!evenlySpaced(d.offsets)) {
                return patterns ? periodic(d) : d;
            }
            long step = d.offsets[1] - d.offsets[0];
            d = Dataloop.leafVector(
                    d.nblocks, d.blocklen, step, Math.addExact(d.disp, d.offsets[0]), d.swapUnit, d.extent);
        }
        if (d.kind == Dataloop.Kind.VECTOR && (d.nblocks == 1 || d.stride == d.blocklen)) {
            return Dataloop.bytes(Math.multiplyExact(d.nblocks, d.blocklen), d.disp, d.swapUnit, d.extent);
        }
        return d;
    }
}
