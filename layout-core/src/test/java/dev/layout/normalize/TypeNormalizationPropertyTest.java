package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Contiguous;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.Resized;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Vector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Type normalization on random nested types: the type map (flattened primitive byte offsets) and
 * the bounds are preserved, the cost never rises, and for chains over {@code byte} the symbolic
 * program reaches the same optimum as reconstruction from the fully expanded type map.
 */
class TypeNormalizationPropertyTest {

    static final Primitive[] PRIMS = {Primitive.BYTE, Primitive.INT16, Primitive.INT32, Primitive.FLOAT64};

    /** The type map by a naive interpreter: pairs (primitive ordinal, byte offset). */
    static List<Long> flatten(Datatype t) {
        List<Long> out = new ArrayList<>();
        flatten(t, 0, out);
        return out;
    }

    private static void flatten(Datatype t, long base, List<Long> out) {
        if (t instanceof Primitive p) {
            out.add((long) p.ordinal());
            out.add(base);
        } else if (t instanceof Contiguous c) {
            for (long i = 0; i < c.count(); i++) {
                flatten(c.oldType(), base + i * c.oldType().extent(), out);
            }
        } else if (t instanceof Vector v) {
            for (long i = 0; i < v.count(); i++) {
                for (long j = 0; j < v.blocklength(); j++) {
                    flatten(
                            v.oldType(),
                            base + i * v.byteStride() + j * v.oldType().extent(),
                            out);
                }
            }
        } else if (t instanceof Indexed x) {
            for (int i = 0; i < x.blockCount(); i++) {
                for (long j = 0; j < x.blocklength(i); j++) {
                    flatten(
                            x.oldType(),
                            base + x.byteDisplacement(i) + j * x.oldType().extent(),
                            out);
                }
            }
        } else if (t instanceof Struct s) {
            for (int i = 0; i < s.memberCount(); i++) {
                for (long j = 0; j < s.blocklength(i); j++) {
                    flatten(
                            s.type(i),
                            base + s.byteDisplacement(i) + j * s.type(i).extent(),
                            out);
                }
            }
        } else if (t instanceof Resized r) {
            flatten(r.oldType(), base, out);
        } else {
            throw new AssertionError("unexpected " + t);
        }
    }

    @Property(tries = 600)
    void normalizationPreservesTypeMapAndBoundsAndNeverRaisesCost(
            @ForAll("types") Datatype t, @ForAll("models") CostModel model) {
        Normalizer.Report r = Normalizer.of(model).report(t);
        Datatype n = r.after();
        assertThat(flatten(n)).as(t + " -> " + n).isEqualTo(flatten(t));
        assertThat(n.lb()).as(t + " -> " + n).isEqualTo(t.lb());
        assertThat(n.extent()).as(t + " -> " + n).isEqualTo(t.extent());
        assertThat(n.byteSize()).isEqualTo(t.byteSize());
        assertThat(r.costAfter()).as(t + " -> " + n).isLessThanOrEqualTo(r.costBefore());
    }

    @Property(tries = 600)
    void chainOverBytesReachesTheReconstructionOptimum(
            @ForAll("byteChains") Datatype t, @ForAll("models") CostModel model) {
        TypePath p = TypeNormalization.optimalPath(t, model);
        List<Long> map = flatten(t);
        long[] offsets = new long[map.size() / 2];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = map.get(2 * i + 1);
        }
        // indexed nodes with few long blocks stay indexed (section 6): not a chain
        Assume.that(p != null);
        assertThat(p.expand().toArray()).as(t + " -> " + p).containsExactly(offsets);
        long optimum =
                Normalizer.reconstruct(DisplacementSequence.of(offsets), model).cost(model);
        assertThat(p.cost(model)).as(t + " -> " + p).isEqualTo(optimum);
    }

    // ------------------------------------------------------------------ generators

    @Provide
    Arbitrary<Datatype> types() {
        return Arbitraries.randomValue(r -> randomType(r, 3, PRIMS[r.nextInt(PRIMS.length)], true));
    }

    @Provide
    Arbitrary<Datatype> byteChains() {
        return Arbitraries.randomValue(r -> randomType(r, 4, Primitive.BYTE, false));
    }

    @Provide
    Arbitrary<CostModel> models() {
        return new NormalizerPropertyTest().models();
    }

    /** A random type with at most ~256 entries; heterogeneous members only if allowed. */
    static Datatype randomType(Random r, int depth, Primitive prim, boolean mixed) {
        Datatype t = prim;
        int levels = 1 + r.nextInt(depth);
        long entries = 1;
        for (int l = 0; l < levels; l++) {
            int kind = r.nextInt(mixed ? 9 : 7);
            long c = 1 + r.nextInt(4);
            if (entries * c * 3 > 256) {
                break;
            }
            long ext = Math.max(1, Math.abs(t.extent()));
            switch (kind) {
                case 0 -> t = Datatype.contiguous(c, t);
                case 1 -> t = Datatype.vector(c, 1 + r.nextInt(2), r.nextInt(7) - 2, t);
                case 2 ->
                    t = Datatype.hvector(
                            c, 1 + r.nextInt(2), (r.nextInt(7) - 2) * ext + (r.nextBoolean() ? 0 : r.nextInt(3)), t);
                case 3 -> t = Datatype.indexedBlock(1 + r.nextInt(2), disps(r, (int) c, 12), t);
                case 4 -> t = Datatype.hindexedBlock(1 + r.nextInt(2), scaled(disps(r, (int) c, 12), ext), t);
                case 5 -> {
                    long[] bl = new long[(int) c];
                    for (int i = 0; i < c; i++) {
                        bl[i] = r.nextInt(4);
                    }
                    t = Datatype.indexed(bl, disps(r, (int) c, 12), t);
                }
                case 6 -> {
                    // homogeneous struct (struct-to-indexed)
                    List<Datatype> ts = new ArrayList<>();
                    long[] bl = new long[(int) c];
                    for (int i = 0; i < c; i++) {
                        ts.add(t);
                        bl[i] = 1 + (r.nextInt(3) == 0 ? 1 : 0);
                    }
                    t = Datatype.struct(bl, scaled(disps(r, (int) c, 8), ext), ts);
                }
                case 7 -> t = Datatype.resized(r.nextInt(5) - 2, t.extent() + r.nextInt(9), t);
                default -> {
                    // heterogeneous struct: the current type beside another primitive
                    Primitive other = PRIMS[r.nextInt(PRIMS.length)];
                    long a = Math.max(0, t.trueUb()) + r.nextInt(4);
                    t = Datatype.struct(new long[] {1, 1 + r.nextInt(2)}, new long[] {0, a}, List.of(t, other));
                }
            }
            entries *= c * 2;
        }
        return t;
    }

    private static long[] disps(Random r, int c, int range) {
        long[] d = new long[c];
        int mode = r.nextInt(3);
        long stride = r.nextInt(5) - 1;
        for (int i = 0; i < c; i++) {
            d[i] = mode == 0 ? r.nextInt(range) - 2 : mode == 1 ? 3 + i * stride : i * 2 + (i >= 2 ? 5 : 0);
        }
        return d;
    }

    private static long[] scaled(long[] d, long ext) {
        long[] out = new long[d.length];
        for (int i = 0; i < d.length; i++) {
            out[i] = d[i] * ext;
        }
        return out;
    }
}
