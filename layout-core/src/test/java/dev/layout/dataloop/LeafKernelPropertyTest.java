package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.testing.Buffers;
import dev.layout.testing.RandomTypes;
import dev.layout.testing.TypeMaps;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Every leaf kernel against the naive type-map interpreter, on heap and off-heap memory: the types
 * of {@link RandomTypes#leafTypes} (long vectors, odd widths, large counts), and a check that those
 * generators reach every kernel ({@link #kernels}).
 */
class LeafKernelPropertyTest {
    @Provide
    Arbitrary<Datatype> leafTypes() {
        return RandomTypes.leafTypes(1 << 16);
    }

    @Property(tries = 300)
    void packAndUnpackEqualTheTypeMapInterpreter(
            @ForAll("leafTypes") Datatype t,
            @ForAll @IntRange(min = 1, max = 2) int count,
            @ForAll long seed,
            @ForAll boolean offHeap) {
        Buffers b = Buffers.around(t, count, 3, seed);
        byte[] expect = TypeMaps.naivePack(t, count, b.bytes(), b.origin(), false);
        java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(b.bytes().length);
        Memory user =
                offHeap ? Memory.ofBuffer(direct) : Memory.ofArray(b.bytes().clone());
        if (offHeap) {
            direct.put(0, b.bytes());
        }
        byte[] packed = new byte[expect.length];
        assertThat(Segment.of(t, count, user, b.origin()).pack(Memory.ofArray(packed), 0, packed.length))
                .isEqualTo(packed.length);
        assertThat(packed).as(t.toString()).isEqualTo(expect);

        // Unpack into a cleared buffer: exactly the type map's bytes come back (these types do not overlap).
        byte[] cleared = new byte[b.bytes().length];
        Arrays.fill(cleared, (byte) 0x5A);
        Memory back = offHeap
                ? Memory.ofBuffer(
                        java.nio.ByteBuffer.allocateDirect(cleared.length).put(0, cleared))
                : Memory.ofArray(cleared);
        assertThat(Segment.of(t, count, back, b.origin()).unpack(Memory.ofArray(packed), 0, packed.length))
                .isEqualTo(packed.length);
        byte[] want = new byte[cleared.length];
        Arrays.fill(want, (byte) 0x5A);
        for (long o : TypeMaps.byteOffsets(t, count)) {
            want[(int) (b.origin() + o)] = b.bytes()[(int) (b.origin() + o)];
        }
        assertThat(back.toArray(0, want.length)).as(t.toString()).isEqualTo(want);
    }

    /**
     * The leaf kernels ({@link KernelCost.Kind}), the generic strided loops' width classes and the strided
     * and listed loops over blocks in one cache set (paced or not, as {@code OneSetPacing} chooses; both
     * strategies are checked in {@code StridedLoopsTest} and {@code ListedAccessTest}) a compiled type's
     * plan selects.
     */
    static final Set<String> KERNELS = Set.of(
            "RUN",
            "STRIDED 1",
            "STRIDED 2-3",
            "STRIDED 4-7",
            "STRIDED 8-16",
            "STRIDED 17-32",
            "STRIDED 33-63",
            "STRIDED 64+",
            "STRIDED ONE SET",
            "STRIP",
            "LISTED",
            "RECORDS",
            "ROWS OF WORDS",
            "WORDS",
            "ROWS",
            "PLANES");

    @Test
    void theGeneratorsReachEveryLeafKernel() {
        Set<String> seen = new TreeSet<>();
        Random r = new Random(22);
        for (int i = 0; i < 3000; i++) {
            Datatype t = RandomTypes.leafType(r);
            if (t.byteSize() > 0 && t.byteSize() <= 1 << 16 && t.trueExtent() <= 1 << 20) {
                for (long count : new long[] {1, 2}) {
                    classify(DataloopCompiler.compileCount(t, count, Representation.NATIVE), seen);
                }
            }
        }
        assertThat(seen).as("kernels the generators select").containsAll(KERNELS);
    }

    /**
     * Adds the kernels a plan picks for {@code d} and its descendants, each node for its own count, as
     * the cost model decides ({@link Plan} asks {@link KernelCost} the same questions, and generates the
     * kernels it picks; asking the model here keeps this test from filling the bounded class cache): a
     * leaf by its shape (a run, strided blocks by width class or a generated strip, listed blocks), a
     * loop repeating a small record of listed blocks (records or generated words), a row of records
     * (generated words in rows), and a vector of vector leaves (rows or generated planes).
     */
    static void classify(Dataloop d, Set<String> out) {
        if (d == null) {
            return;
        }
        if (d.leaf) {
            switch (d.kind) {
                case CONTIG -> out.add("RUN");
                case VECTOR ->
                    out.add(
                            KernelCost.vectorLeaf(d, d.nblocks) == KernelCost.Kind.STRIP
                                    ? "STRIP"
                                    : MemoryAccess.mayPace(d.stride, d.blocklen)
                                            ? "STRIDED ONE SET"
                                            : "STRIDED " + widthClass(d.blocklen));
                default -> out.add("LISTED");
            }
            return;
        }
        Dataloop c = d.child;
        if (c != null
                && c.leaf
                && c.kind != Dataloop.Kind.VECTOR
                && c.kind != Dataloop.Kind.CONTIG
                && (d.kind == Dataloop.Kind.CONTIG || d.blocklen == 1)) {
            long n = d.kind == Dataloop.Kind.CONTIG ? d.blocklen : d.nblocks;
            long[] m = GeneratedKernel.moves(c.offsets, c.blocklens, c.blocklen);
            out.add(m != null ? KernelCost.records(c, n, m.length / 3).name() : "RECORDS");
        }
        if (BlockedWalk.planes(d) && c.offsets != null) {
            // rows of records, as a loop repeating the row would run them (Plan.planes: two rows' records)
            long[] m = GeneratedKernel.moves(c.offsets, c.blocklens, c.blocklen);
            if (m != null && KernelCost.records(c, 2 * d.nblocks, m.length / 3) == KernelCost.Kind.WORDS) {
                out.add("ROWS OF WORDS");
            }
        }
        if (d.kind == Dataloop.Kind.VECTOR
                && d.blocklen == 1
                && c != null
                && c.leaf
                && c.kind == Dataloop.Kind.VECTOR) {
            out.add(KernelCost.planes(c, d.nblocks, 1, d.stride).name());
            out.add(KernelCost.planes(c, 1, d.nblocks, d.stride).name());
        }
        if (d.children != null) {
            for (Dataloop k : d.children) {
                classify(k, out);
            }
        } else {
            classify(c, out);
        }
    }

    static String widthClass(long w) {
        return w == 1
                ? "1"
                : w < 4 ? "2-3" : w < 8 ? "4-7" : w <= 16 ? "8-16" : w <= 32 ? "17-32" : w < 64 ? "33-63" : "64+";
    }
}
