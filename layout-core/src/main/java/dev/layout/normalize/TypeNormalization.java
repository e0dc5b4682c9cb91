package dev.layout.normalize;

import dev.layout.datatype.Contiguous;
import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.Resized;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.datatype.Vector;
import java.util.ArrayList;
import java.util.List;

/**
 * Type normalization (Träff 2014, section 5, Theorem 2) of a {@link Datatype}, without expanding
 * its type map.
 *
 * <p>A homogeneous datatype whose constructors form a chain (primitive, contiguous, vector,
 * hvector, indexed_block, hindexed_block, indexed with equal blocklengths, homogeneous structs
 * converted to hindexed, resized, and subarray/darray through their lowering) is read as a
 * symbolic path over byte displacements with the primitive as unit. It is then canonicalized as
 * the paper prescribes: every index list is made relative (its first index joins the start
 * offset) and split with {@code TypePath}, so regularly strided lists become vectors; nested
 * vectors that continue each other's stride merge; count-1 nodes disappear. The cut points of the
 * canonical path (its boundaries and the divisors inside its vector nodes) are the repeated
 * divisors of the type map, so {@link CutProgram} finds the same least-cost path as full
 * expansion would, reading displacements only where an output {@code idx} node needs them.
 * Memory stays proportional to the description plus the output.
 *
 * <p>Section 6: an {@code indexed} node with k blocks of c elements becomes an index-block node
 * when {@code 2k > c} (its list is expanded: it is shorter than the two arrays), and an output
 * {@code idx} node whose list consists of k runs of adjacent children becomes {@code indexed}
 * when that is cheaper ({@code 2k < c} under storage). Heterogeneous structs and indexed nodes
 * with long varying blocks are kept, with their members normalized one by one.
 *
 * <p>The result has the identical type map and the identical lb and extent (a {@code resized}
 * wrapper is added where the normalized form's natural bounds differ), and never a higher cost
 * under the model ({@link DatatypeCost}): where normalization would not pay, the input is kept.
 */
final class TypeNormalization {
    private TypeNormalization() {}

    /** A level of the symbolic path: vec(count, stride) or idx(list), in bytes. */
    private record Lv(boolean vec, long count, long stride, long[] list) {
        static Lv vec(long c, long d) {
            return new Lv(true, c, d, null);
        }

        static Lv idx(long[] list) {
            return new Lv(false, list.length, 0, list);
        }
    }

    /** A symbolic path: primitive unit, levels bottom-up (above an implicit con(1)), start offset. */
    private static final class Chain {
        final Primitive unit;
        final List<Lv> levels = new ArrayList<>();
        long offset;

        Chain(Primitive unit) {
            this.unit = unit;
        }
    }

    /** Largest index list expanded from an {@code indexed} node with varying blocklengths. */
    static final int MAX_EXPANDED_LIST = 1 << 20;

    // ------------------------------------------------------------------------------ entry points

    static Datatype normalize(Datatype t, CostModel model) {
        Datatype r = normalizeNode(t, model);
        r = withBoundsOf(t, r);
        return DatatypeCost.cost(r, model) <= DatatypeCost.cost(t, model) ? r : t;
    }

    /** The least-cost path (byte units, leaf con(m) = m primitives) of a chain type, or null. */
    static TypePath optimalPath(Datatype t, CostModel model) {
        if (t.byteSize() == 0) {
            return null;
        }
        Chain ch = chain(t);
        if (ch == null) {
            return null;
        }
        return solve(ch, model);
    }

    // ------------------------------------------------------------------------------ recursion

    private static Datatype normalizeNode(Datatype t, CostModel model) {
        if (t.byteSize() == 0 || t instanceof Primitive) {
            return t;
        }
        Chain ch = chain(t);
        TypePath p = ch == null ? null : solve(ch, model);
        if (p != null) {
            return toDatatype(p, ch.unit, model);
        }
        // Not a chain (or a chain whose loops a path cannot hold): normalize the children, keep the node.
        if (t instanceof Contiguous c) {
            return Datatype.contiguous(c.count(), normalize(c.oldType(), model));
        }
        if (t instanceof Vector v) {
            Datatype child = normalize(v.oldType(), model);
            return v.combiner() == dev.layout.datatype.Combiner.VECTOR
                    ? Datatype.vector(v.count(), v.blocklength(), v.stride(), child)
                    : Datatype.hvector(v.count(), v.blocklength(), v.stride(), child);
        }
        if (t instanceof Indexed x) {
            Datatype child = normalize(x.oldType(), model);
            return switch (x.combiner()) {
                case INDEXED -> Datatype.indexed(x.blocklengths(), x.displacements(), child);
                case HINDEXED -> Datatype.hindexed(x.blocklengths(), x.displacements(), child);
                case INDEXED_BLOCK -> Datatype.indexedBlock(x.uniformBlocklength(), x.displacements(), child);
                default -> Datatype.hindexedBlock(x.uniformBlocklength(), x.displacements(), child);
            };
        }
        if (t instanceof Struct s) {
            List<Datatype> members = new ArrayList<>();
            for (Datatype m : s.types()) {
                members.add(normalize(m, model));
            }
            return Datatype.struct(s.blocklengths(), s.byteDisplacements(), members);
        }
        if (t instanceof Resized r) {
            return Datatype.resized(r.lb(), r.extent(), normalize(r.oldType(), model));
        }
        if (t instanceof Subarray s) {
            return normalize(s.lowered(), model);
        }
        if (t instanceof Darray d) {
            return normalize(d.lowered(), model);
        }
        return t;
    }

    /** r with t's lb and extent (and marker status), adding a resized node only if needed. */
    private static Datatype withBoundsOf(Datatype t, Datatype r) {
        boolean sameBounds = r.lb() == t.lb() && r.extent() == t.extent();
        if (sameBounds && (r.hasExplicitBounds() || !t.hasExplicitBounds())) {
            return r;
        }
        // resized replaces any markers below it, so an inner resized can go
        Datatype inner = r instanceof Resized rr ? rr.oldType() : r;
        return Datatype.resized(t.lb(), t.extent(), inner);
    }

    // ------------------------------------------------------------------------------ reading

    /** The symbolic path of t, or null if t is not a homogeneous chain. Never expands t. */
    private static Chain chain(Datatype t) {
        if (t.byteSize() == 0) {
            return null;
        }
        if (t instanceof Primitive p) {
            return new Chain(p);
        }
        if (t instanceof Contiguous c) {
            return push(chain(c.oldType()), Lv.vec(c.count(), c.oldType().extent()));
        }
        if (t instanceof Vector v) {
            Chain ch =
                    push(chain(v.oldType()), Lv.vec(v.blocklength(), v.oldType().extent()));
            return push(ch, Lv.vec(v.count(), v.byteStride()));
        }
        if (t instanceof Indexed x) {
            return blocks(x.oldType(), x.blocklengths(), x.byteDisplacements());
        }
        if (t instanceof Struct s) {
            // struct-to-indexed: all non-empty members of the same type make an hindexed
            Datatype member = null;
            List<Long> bl = new ArrayList<>();
            List<Long> disp = new ArrayList<>();
            for (int i = 0; i < s.memberCount(); i++) {
                if (s.blocklength(i) == 0 || s.type(i).byteSize() == 0) {
                    continue;
                }
                if (member == null) {
                    member = s.type(i);
                } else if (!member.equals(s.type(i))) {
                    return null;
                }
                bl.add(s.blocklength(i));
                disp.add(s.byteDisplacement(i));
            }
            if (member == null) {
                return null;
            }
            return blocks(
                    member,
                    bl.stream().mapToLong(Long::longValue).toArray(),
                    disp.stream().mapToLong(Long::longValue).toArray());
        }
        if (t instanceof Resized r) {
            return chain(r.oldType());
        }
        if (t instanceof Subarray s) {
            return chain(s.lowered());
        }
        if (t instanceof Darray d) {
            return chain(d.lowered());
        }
        return null;
    }

    /** Blocks of copies of child at byte displacements (zero-length blocks dropped). */
    private static Chain blocks(Datatype child, long[] bl, long[] byteDisps) {
        int k = 0;
        long total = 0;
        long uniform = -1;
        boolean same = true;
        for (int i = 0; i < bl.length; i++) {
            if (bl[i] == 0) {
                continue;
            }
            k++;
            total = Arith.add("normalize", total, bl[i]);
            if (uniform < 0) {
                uniform = bl[i];
            } else if (uniform != bl[i]) {
                same = false;
            }
        }
        if (k == 0) {
            return null;
        }
        long ext = child.extent();
        if (same) {
            long[] d = new long[k];
            for (int i = 0, j = 0; i < bl.length; i++) {
                if (bl[i] != 0) {
                    d[j++] = byteDisps[i];
                }
            }
            Chain ch = push(chain(child), Lv.vec(uniform, ext));
            return push(ch, Lv.idx(d));
        }
        // Section 6: an indexed node with k blocks of total c elements becomes an index-block node
        // (one entry per element) when 2k > c; otherwise it stays indexed (not a chain).
        if (2L * k <= total || total > MAX_EXPANDED_LIST) {
            return null;
        }
        long[] d = new long[(int) total];
        int j = 0;
        for (int i = 0; i < bl.length; i++) {
            for (long e = 0; e < bl[i]; e++) {
                d[j++] = Arith.add("normalize", byteDisps[i], Arith.mul("normalize", e, ext));
            }
        }
        return push(chain(child), Lv.idx(d));
    }

    private static Chain push(Chain ch, Lv lv) {
        if (ch != null) {
            ch.levels.add(lv);
        }
        return ch;
    }

    // ------------------------------------------------------------------------------ canonical form

    /** Canonical levels bottom-up; level 0 is always vec(c0, unit size) (c0 >= 1). */
    private static List<Lv> canonical(Chain ch, long[] offsetOut) {
        List<Lv> out = new ArrayList<>();
        out.add(Lv.vec(1, ch.unit.byteSize()));
        long offset = ch.offset;
        for (Lv lv : ch.levels) {
            if (lv.vec()) {
                pushCanonical(out, lv);
            } else {
                long[] l = lv.list();
                long first = l[0];
                offset = Arith.add("normalize", offset, first);
                if (l.length == 1) {
                    continue;
                }
                long[] rel = new long[l.length];
                for (int i = 0; i < l.length; i++) {
                    rel[i] = Math.subtractExact(l[i], first);
                }
                for (Lv s : skeleton(rel)) {
                    pushCanonical(out, s);
                }
            }
        }
        offsetOut[0] = offset;
        return out;
    }

    private static void pushCanonical(List<Lv> out, Lv lv) {
        if (lv.count() == 1) {
            return;
        }
        Lv top = out.get(out.size() - 1);
        if (lv.vec() && top.vec() && lv.stride() == Arith.mul("normalize", top.count(), top.stride())) {
            out.set(out.size() - 1, Lv.vec(Arith.mul("normalize", lv.count(), top.count()), top.stride()));
            return;
        }
        out.add(lv);
    }

    /** TypePath (Listing 1) levels of a relative list (y[0] = 0), bottom-up, without the offset. */
    private static List<Lv> skeleton(long[] y) {
        List<Lv> out = new ArrayList<>();
        int m = y.length;
        while (m > 1) {
            int c = Reconstruction.longestVector(y, m);
            if (c > 1) {
                out.add(Lv.vec(c, y[1] - y[0]));
            } else {
                c = Reconstruction.shortestRepeat(y, m);
                long[] l = new long[c];
                for (int i = 0; i < c; i++) {
                    l[i] = y[i] - y[0];
                }
                out.add(Lv.idx(l));
            }
            long[] next = new long[m / c];
            for (int i = 0; i < next.length; i++) {
                next[i] = y[i * c];
            }
            y = next;
            m /= c;
        }
        return out;
    }

    // ------------------------------------------------------------------------------ the program

    /** The least-cost path of a chain, or null when one of its loops (given or merged) has more than {@code Integer.MAX_VALUE} iterations (a path holds int counts). */
    private static TypePath solve(Chain ch, CostModel model) {
        long[] off = new long[1];
        List<Lv> levels = canonical(ch, off);
        for (Lv lv : levels) {
            if (lv.count() > Integer.MAX_VALUE) {
                return null;
            }
        }
        final long x0 = off[0];
        final int depth = levels.size();
        final long[] base = new long[depth + 1]; // B_k
        base[0] = 1;
        long idxTotal = 0;
        for (int k = 0; k < depth; k++) {
            base[k + 1] = Arith.mul("normalize", base[k], levels.get(k).count());
            if (!levels.get(k).vec()) {
                idxTotal += levels.get(k).count();
            }
        }
        // cut points: boundaries and divisors inside vector levels, ascending
        List<Long> cuts = new ArrayList<>();
        List<Integer> levelOf = new ArrayList<>();
        for (int k = 0; k < depth; k++) {
            Lv lv = levels.get(k);
            if (lv.vec()) {
                for (long e : Reconstruction.divisors(lv.count())) {
                    if (e < lv.count()) {
                        cuts.add(base[k] * e);
                        levelOf.add(k);
                    }
                }
            } else {
                cuts.add(base[k]);
                levelOf.add(k);
            }
        }
        if (cuts.isEmpty() || cuts.get(0) != 1L) { // level 0 is vec(1, unit): contributes no cut
            cuts.add(0, 1L);
            levelOf.add(0, depth > 1 ? 1 : 0);
        }
        cuts.add(base[depth]);
        levelOf.add(depth);
        final long[] p = cuts.stream().mapToLong(Long::longValue).toArray();
        final int[] lvOf = levelOf.stream().mapToInt(Integer::intValue).toArray();
        final long maxIdx = Math.max(1 << 20, 2 * idxTotal);
        // cut 1 with a trivial level 0 belongs to the first real level
        if (levels.get(0).count() == 1) {
            lvOf[0] = depth > 1 ? 1 : depth;
        }

        CutProgram.Plan plan = CutProgram.solve(
                new CutProgram.Structure() {
                    @Override
                    public int cuts() {
                        return p.length;
                    }

                    @Override
                    public long cut(int i) {
                        return p[i];
                    }

                    @Override
                    public boolean vec(int i, int j) {
                        int k = lvOf[i];
                        return k < depth && levels.get(k).vec() && p[j] <= base[k + 1];
                    }

                    @Override
                    public boolean con(int j) {
                        return p[j] <= base[1];
                    }

                    @Override
                    public long maxIdxCount() {
                        return Math.min(maxIdx, Integer.MAX_VALUE - 8);
                    }
                },
                x0 != 0,
                model);

        // symbolic access: displacement of element i relative to element 0
        java.util.function.LongUnaryOperator at = i -> {
            long d = 0;
            for (int k = 0; k < depth; k++) {
                Lv lv = levels.get(k);
                long digit = (i / base[k]) % lv.count();
                d = Arith.add(
                        "normalize", d, lv.vec() ? Arith.mul("normalize", digit, lv.stride()) : lv.list()[(int) digit]);
            }
            return d;
        };
        List<CutProgram.Level> chosen = plan.levels();
        TypePath path = TypePath.con(plan.leaf());
        for (int l = chosen.size() - 1; l >= 0; l--) {
            CutProgram.Level lv = chosen.get(l);
            long b = lv.lower();
            if (lv.count() > Integer.MAX_VALUE) {
                return null; // merged loops beyond a path's int count
            }
            int count = (int) lv.count();
            if (lv.kind() == TypePath.Kind.VEC) {
                path = new TypePath.Vec(count, at.applyAsLong(b), path);
            } else {
                long shift = l == plan.offsetCarrier() ? x0 : 0;
                long[] ix = new long[count];
                for (int t = 0; t < count; t++) {
                    ix[t] = Arith.add("normalize", at.applyAsLong(t * b), shift);
                }
                path = new TypePath.Idx(ix, path);
            }
        }
        if (plan.extraOffsetNode()) {
            path = new TypePath.Idx(new long[] {x0}, path);
        }
        return path;
    }

    // ------------------------------------------------------------------------------ writing

    /** The datatype of a byte-unit path whose leaf con(m) is m copies of unit. */
    static Datatype toDatatype(TypePath path, Primitive unit, CostModel model) {
        List<TypePath> nodes = path.nodes();
        long s = unit.byteSize();
        long leafCount = nodes.get(nodes.size() - 1).count();
        Datatype cur = leafCount == 1 ? unit : Datatype.contiguous(leafCount, unit);
        boolean leaf = true;
        for (int k = nodes.size() - 2; k >= 0; k--) {
            TypePath node = nodes.get(k);
            if (node instanceof TypePath.Vec v) {
                long d = v.stride();
                if (leaf) {
                    cur = d % s == 0
                            ? Datatype.vector(v.count(), leafCount, d / s, unit)
                            : Datatype.hvector(v.count(), leafCount, d, unit);
                } else {
                    long e = cur.extent();
                    cur = e != 0 && d % e == 0
                            ? Datatype.vector(v.count(), 1, d / e, cur)
                            : Datatype.hvector(v.count(), 1, d, cur);
                }
            } else {
                long[] ix = ((TypePath.Idx) node).indices();
                Datatype child = leaf ? unit : cur;
                long block = leaf ? leafCount : 1;
                long e = child.extent();
                Datatype asBlock = indexedBlock(block, ix, child);
                Datatype asIndexed = indexedRuns(block, ix, child, e);
                cur = asIndexed != null && DatatypeCost.cost(asIndexed, model) < DatatypeCost.cost(asBlock, model)
                        ? asIndexed
                        : asBlock;
            }
            leaf = false;
        }
        return cur;
    }

    private static Datatype indexedBlock(long block, long[] byteDisps, Datatype child) {
        long e = child.extent();
        if (e != 0 && allDivisible(byteDisps, e)) {
            long[] d = new long[byteDisps.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = byteDisps[i] / e;
            }
            return Datatype.indexedBlock(block, d, child);
        }
        return Datatype.hindexedBlock(block, byteDisps, child);
    }

    /** Section 6: entries that continue the previous block (by block·extent) join it; null if no gain. */
    private static Datatype indexedRuns(long block, long[] byteDisps, Datatype child, long e) {
        long step = Arith.mul("normalize", block, e);
        List<Long> bl = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < byteDisps.length; i++) {
            if (i > 0 && byteDisps[i] == byteDisps[i - 1] + step && step != 0) {
                bl.set(bl.size() - 1, bl.get(bl.size() - 1) + block);
            } else {
                bl.add(block);
                starts.add(byteDisps[i]);
            }
        }
        if (bl.size() == byteDisps.length) {
            return null;
        }
        long[] b = bl.stream().mapToLong(Long::longValue).toArray();
        long[] d = starts.stream().mapToLong(Long::longValue).toArray();
        if (e != 0 && allDivisible(d, e)) {
            long[] de = new long[d.length];
            for (int i = 0; i < d.length; i++) {
                de[i] = d[i] / e;
            }
            return Datatype.indexed(b, de, child);
        }
        return Datatype.hindexed(b, d, child);
    }

    private static boolean allDivisible(long[] v, long e) {
        for (long x : v) {
            if (x % e != 0) {
                return false;
            }
        }
        return true;
    }
}
