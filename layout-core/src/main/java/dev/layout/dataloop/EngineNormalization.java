package dev.layout.dataloop;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.DerivedType;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.normalize.CostModel;
import dev.layout.normalize.Normalizer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * How {@link DataloopCompiler} uses the normalizer (Träff 2014): which description it compiles.
 *
 * <p><b>Model.</b> The processing model of section 4 with the constants of {@code
 * conf/normalizer.properties} ({@code normalizer.processing.*}, identical to {@link
 * CostModel#DEFAULTS}): a node visited M times costs {@code M·(K + c·C)}, so the normalized form
 * minimizes loop entries and per-element work. The storage model (right for what ships to other
 * processes) ignores visits and would split a flat list of equal blocks into a nest of short loops.
 *
 * <p><b>No list growth.</b> Under the processing model alone a vector of short vectors is cheaper as
 * one index list, and a list of small records as one list of all their blocks. Normalization is
 * therefore limited ({@link CostModel#withIdxLimit}) to index nodes no longer than the longest list
 * the description already stores: a compiled type's memory stays proportional to its description,
 * and a list of records keeps its record pattern, which the word kernels hold in registers.
 *
 * <p><b>Bounds.</b> Normalization reads every index list, in {@code O(n·d(n))} for a list of n
 * entries (d(n) divisors). Descriptions storing more than {@link #MAX_LIST_ENTRIES} list entries in
 * all are compiled as given, with the compiler's own O(n) regularity detection, so committing an
 * n-block type stays O(n); types of more than {@link #MAX_BYTES} bytes too (their processing cost
 * could overflow 64 bits).
 *
 * <p><b>Which dataloop is kept.</b> The normalized description is compiled, unless the description
 * as given compiles to a single fixed-width leaf (one strided or gather loop over blocks of one
 * width, or a record of words, {@link #isFixedWidthLeaf}) and the normalized one does not: a kernel
 * effect the cost model cannot see (a loop over short strided rows pays a set-up per row, a leaf of
 * varying widths a width switch per block, where the gather loop moves a block at a time).
 */
final class EngineNormalization {
    private EngineNormalization() {}

    /** Descriptions storing more list entries than this (all lists together) are compiled as given. */
    static final int MAX_LIST_ENTRIES = 1 << 16;

    /** Types larger than this are compiled as given (their processing cost could overflow). */
    static final long MAX_BYTES = 1L << 48;

    /** The processing model of {@code conf/normalizer.properties}. */
    static final CostModel PROCESSING = CostModel.fromProperties(CostModel.DEFAULTS, "processing");

    /** {@code t}'s normalized form under {@link #PROCESSING} without list growth, or {@code t} itself when out of bounds or already optimal. */
    static Datatype normalized(Datatype t) {
        if (t.byteSize() == 0 || t.byteSize() > MAX_BYTES || !(t instanceof DerivedType)) {
            return t;
        }
        Lists lists = new Lists();
        lists.count(t);
        if (lists.total > MAX_LIST_ENTRIES) {
            return t;
        }
        Datatype n = Normalizer.of(CostModel.withIdxLimit(PROCESSING, Math.max(1, lists.longest)))
                .normalize(t);
        return n.equals(t) ? t : n;
    }

    /** One kernel loop over blocks of a single width: a run, a vector, equal blocks, or a record of words. */
    static boolean isFixedWidthLeaf(Dataloop d) {
        return d.leaf
                && (d.kind != Dataloop.Kind.INDEXED
                        || GeneratedKernel.moves(d.offsets, d.blocklens, d.blocklen) != null);
    }

    /**
     * The list entries a description stores, as {@code DatatypeCost} counts them (indexed: lengths
     * and displacements; struct: three arrays; subarray and darray: their parameter arrays, then
     * their lowering), each distinct node once.
     */
    private static final class Lists {
        final Map<Datatype, Boolean> seen = new IdentityHashMap<>();
        long total;
        long longest;

        void count(Datatype t) {
            if (!(t instanceof DerivedType d) || seen.put(t, Boolean.TRUE) != null) {
                return;
            }
            long entries = 0;
            if (t instanceof Indexed x) {
                entries = x.uniformBlocklength() >= 0 ? x.blockCount() : 2L * x.blockCount();
            } else if (t instanceof Struct s) {
                entries = 3L * s.memberCount();
            } else if (t instanceof Subarray s) {
                entries = 3L * s.sizes().length;
                count(s.lowered());
            } else if (t instanceof Darray a) {
                entries = 4L * a.gsizes().length + 2;
                count(a.lowered());
            }
            total += entries;
            longest = Math.max(longest, entries);
            for (Datatype c : d.children()) {
                count(c);
            }
        }
    }
}
