package dev.layout.normalize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A type path of the paper (Träff 2014, section 2): a chain of {@code vec} and {@code idx} nodes
 * ending in exactly one {@code con} leaf, describing a homogeneous displacement sequence.
 *
 * <table>
 *   <caption>Nodes and their expansion E</caption>
 *   <tr><th>node</th><th>expands to</th></tr>
 *   <tr><td>{@code con(c)}</td><td>{@code 0, 1, …, c-1}</td></tr>
 *   <tr><td>{@code vec(c,d,C)}</td><td>{@code E(C)+0·d, E(C)+1·d, …, E(C)+(c-1)·d}</td></tr>
 *   <tr><td>{@code idx(c,<i0,…,ic-1>,C)}</td><td>{@code E(C)+i0, …, E(C)+i(c-1)}</td></tr>
 * </table>
 *
 * <p>{@link #toString()} prints the paper's notation exactly, without spaces, e.g. {@code
 * idx(3,<2,9,1>,vec(4,2,con(1)))}; {@link #parse(CharSequence)} reads it back (whitespace between
 * tokens allowed). Counts are {@code >= 1}; strides and indices are any {@code long}s.
 *
 * <pre>{@code
 * TypePath p = TypePath.parse("idx(3,<2,9,1>,vec(4,2,con(1)))");
 * p.expand();                            // 2,4,6,8,9,11,13,15,1,3,5,7
 * p.cost(CostModel.storage(1, 4, 3));    // 11
 * TypePath.construct(p.expand());        // the paper's Listing 1 path for that sequence
 * }</pre>
 *
 * <p>All operations are iterative, so deep paths do not exhaust the stack; paths are limited to
 * {@link #MAX_DEPTH} nodes.
 */
public sealed interface TypePath permits TypePath.Con, TypePath.Vec, TypePath.Idx {

    /** The most nodes a path may have (count-1 nodes make arbitrarily deep paths possible). */
    int MAX_DEPTH = 4096;

    /** The node kinds; {@link CostModel}s price nodes by kind. */
    enum Kind {
        CON,
        VEC,
        IDX
    }

    /** This node's kind. */
    Kind kind();

    /** This node's count {@code c >= 1}. */
    long count();

    /** The child of a {@code vec} or {@code idx} node; {@code null} for the {@code con} leaf. */
    TypePath childOrNull();

    /** A {@code con(count)} leaf. @throws IllegalArgumentException if {@code count < 1} */
    static Con con(long count) {
        return new Con(count);
    }

    /**
     * A {@code vec(count,stride,child)} node.
     *
     * @throws IllegalArgumentException if {@code count < 1} or the path gets deeper than {@link
     *     #MAX_DEPTH}
     */
    static Vec vec(long count, long stride, TypePath child) {
        return new Vec(count, stride, child);
    }

    /**
     * An {@code idx(indices.length,<indices>,child)} node; the array is copied.
     *
     * @throws IllegalArgumentException if {@code indices} is empty or the path gets deeper than
     *     {@link #MAX_DEPTH}
     */
    static Idx idx(long[] indices, TypePath child) {
        return new Idx(indices, child);
    }

    /**
     * Parses the paper's notation (grammar in {@code spec/notation.md}, last section).
     *
     * @throws IllegalArgumentException with the column and what was expected, if the text is not a
     *     path, a count is below 1, an {@code idx} lists a different number of indices than its
     *     count, or the path is deeper than {@link #MAX_DEPTH}
     */
    static TypePath parse(CharSequence text) {
        return TypePathParser.parse(text.toString());
    }

    /**
     * The path the paper's {@code TypePath} procedure (Listing 1, with Listing 2's {@code
     * LongestVector} and {@code Repeat}) builds for {@code x}, literally: from the {@code con(1)}
     * leaf upwards a {@code vec} node for the longest regularly strided repeated prefix, else an
     * {@code idx} node for the shortest repeated prefix over the divisors of n, and {@code x[0]} on
     * the top node (an extra {@code idx(1,<x[0]>,…)} unless the top node is an {@code idx}, even
     * when {@code x[0] = 0}). Not least-cost in general; see {@link Normalizer#reconstruct}.
     */
    static TypePath construct(DisplacementSequence x) {
        return Reconstruction.paperTypePath(x.array());
    }

    /** The number of nodes. */
    default int depth() {
        int d = 0;
        for (TypePath p = this; p != null; p = p.childOrNull()) {
            d++;
        }
        return d;
    }

    /** The nodes from this root to the leaf. */
    default List<TypePath> nodes() {
        List<TypePath> out = new ArrayList<>();
        for (TypePath p = this; p != null; p = p.childOrNull()) {
            out.add(p);
        }
        return out;
    }

    /**
     * The length of the expansion: the product of all counts.
     *
     * @throws IllegalArgumentException if it overflows a {@code long}
     */
    default long size() {
        long s = 1;
        for (TypePath p = this; p != null; p = p.childOrNull()) {
            s = Arith.mul("size", s, p.count());
        }
        return s;
    }

    /**
     * The displacement sequence this path describes.
     *
     * @throws IllegalArgumentException if the expansion has more than {@code Integer.MAX_VALUE - 8}
     *     elements or a displacement overflows 64 bits
     */
    default DisplacementSequence expand() {
        long size = size();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "expand: size " + size + " (expected: <= " + (Integer.MAX_VALUE - 8) + ")");
        }
        List<TypePath> nodes = nodes();
        long[] out = new long[(int) size];
        Con leaf = (Con) nodes.get(nodes.size() - 1);
        int len = (int) leaf.count();
        for (int i = 0; i < len; i++) {
            out[i] = i;
        }
        // Bottom-up: the sub-sequence of length len is out[0, len); node k repeats it c_k times.
        for (int k = nodes.size() - 2; k >= 0; k--) {
            TypePath node = nodes.get(k);
            int c = (int) node.count();
            for (int j = c - 1; j >= 0; j--) {
                long off = node instanceof Vec v ? Arith.mul("expand", j, v.stride()) : ((Idx) node).index(j);
                int base = j * len;
                for (int t = 0; t < len; t++) {
                    out[base + t] = Arith.add("expand", out[t], off);
                }
            }
            len *= c;
        }
        return DisplacementSequence.wrap(out);
    }

    /**
     * The cost of this path under {@code model}: the sum of {@code model.nodeCost(kind_k, c_k, M_k)}
     * with {@code M_k} the product of the counts above node k.
     *
     * @throws IllegalArgumentException if the cost overflows a {@code long}
     */
    default long cost(CostModel model) {
        long total = 0;
        long multiplier = 1;
        for (TypePath p = this; p != null; p = p.childOrNull()) {
            total = Arith.add("cost", total, model.nodeCost(p.kind(), p.count(), multiplier));
            if (p.childOrNull() != null) {
                multiplier = Arith.mul("cost", multiplier, p.count());
            }
        }
        return total;
    }

    /** Appends the paper's notation of the whole path to {@code sb}. */
    private static String print(TypePath root) {
        StringBuilder sb = new StringBuilder();
        int open = 0;
        for (TypePath p = root; p != null; p = p.childOrNull()) {
            switch (p.kind()) {
                case CON -> sb.append("con(").append(p.count()).append(')');
                case VEC -> {
                    Vec v = (Vec) p;
                    sb.append("vec(")
                            .append(v.count())
                            .append(',')
                            .append(v.stride())
                            .append(',');
                    open++;
                }
                case IDX -> {
                    Idx x = (Idx) p;
                    sb.append("idx(").append(x.count()).append(",<");
                    for (int i = 0; i < x.count(); i++) {
                        if (i > 0) {
                            sb.append(',');
                        }
                        sb.append(x.index(i));
                    }
                    sb.append(">,");
                    open++;
                }
            }
        }
        sb.append(")".repeat(open));
        return sb.toString();
    }

    private static void checkCount(String op, long count) {
        if (count < 1) {
            throw new IllegalArgumentException(op + ": count " + count + " (expected: >= 1)");
        }
    }

    private static void checkChild(String op, TypePath child) {
        Objects.requireNonNull(child, op + ": child");
        int d = child.depth();
        if (d + 1 > MAX_DEPTH) {
            throw new IllegalArgumentException(op + ": depth " + (d + 1) + " (expected: <= " + MAX_DEPTH + ")");
        }
    }

    private static boolean equalPaths(TypePath a, TypePath b) {
        while (a != null && b != null) {
            if (a.kind() != b.kind() || a.count() != b.count()) {
                return false;
            }
            if (a instanceof Vec va && va.stride() != ((Vec) b).stride()) {
                return false;
            }
            if (a instanceof Idx ia && !Arrays.equals(ia.indices, ((Idx) b).indices)) {
                return false;
            }
            a = a.childOrNull();
            b = b.childOrNull();
        }
        return a == null && b == null;
    }

    private static int hashPath(TypePath p) {
        int h = 1;
        for (; p != null; p = p.childOrNull()) {
            h = 31 * h + p.kind().hashCode();
            h = 31 * h + Long.hashCode(p.count());
            if (p instanceof Vec v) {
                h = 31 * h + Long.hashCode(v.stride());
            } else if (p instanceof Idx x) {
                h = 31 * h + Arrays.hashCode(x.indices);
            }
        }
        return h;
    }

    /** The leaf {@code con(count)}: the sequence {@code 0..count-1}. */
    record Con(long count) implements TypePath {
        /** @throws IllegalArgumentException if {@code count < 1} */
        public Con {
            checkCount("con", count);
        }

        @Override
        public Kind kind() {
            return Kind.CON;
        }

        @Override
        public TypePath childOrNull() {
            return null;
        }

        @Override
        public String toString() {
            return print(this);
        }
    }

    /** {@code vec(count,stride,child)}: {@code count} copies of the child at {@code 0, d, 2d, …}. */
    record Vec(long count, long stride, TypePath child) implements TypePath {
        /** @throws IllegalArgumentException if {@code count < 1} or the path is too deep */
        public Vec {
            checkCount("vec", count);
            checkChild("vec", child);
        }

        @Override
        public Kind kind() {
            return Kind.VEC;
        }

        @Override
        public TypePath childOrNull() {
            return child;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TypePath p && equalPaths(this, p);
        }

        @Override
        public int hashCode() {
            return hashPath(this);
        }

        @Override
        public String toString() {
            return print(this);
        }
    }

    /** {@code idx(c,<i0,…>,child)}: {@code c} copies of the child at the given indices. */
    record Idx(long[] indices, TypePath child) implements TypePath {
        /** @throws IllegalArgumentException if {@code indices} is empty or the path is too deep */
        public Idx {
            Objects.requireNonNull(indices, "idx: indices");
            checkCount("idx", indices.length);
            checkChild("idx", child);
            indices = indices.clone();
        }

        @Override
        public Kind kind() {
            return Kind.IDX;
        }

        @Override
        public long count() {
            return indices.length;
        }

        @Override
        public TypePath childOrNull() {
            return child;
        }

        /** A copy of the indices. */
        @Override
        public long[] indices() {
            return indices.clone();
        }

        /** The {@code i}-th index, without copying. */
        public long index(int i) {
            return indices[i];
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TypePath p && equalPaths(this, p);
        }

        @Override
        public int hashCode() {
            return hashPath(this);
        }

        @Override
        public String toString() {
            return print(this);
        }
    }
}
