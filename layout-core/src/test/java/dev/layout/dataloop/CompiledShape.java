package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.DerivedType;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.memory.Memory;
import dev.layout.testing.Buffers;
import dev.layout.testing.TypeMaps;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What the tests assert of a compiled dataloop against its datatype, each side computed on its own:
 * it moves exactly the type map's bytes (the naive interpreter, {@link TypeMaps}), and no node of it
 * lists more blocks than the description bounds ({@link #listBound}: a compiled type's memory stays
 * proportional to its description, however it was normalized).
 */
final class CompiledShape {
    private CompiledShape() {}

    /**
     * The most blocks a node of the dataloop of {@code t} may list: the longest list one node of the
     * description stores, in entries as the normalizer counts them (an indexed type its displacements,
     * and its lengths when they vary; a struct its lengths, displacements and types; subarray and
     * darray their parameter arrays and those of the type they lower to), or the member instances
     * one struct names (the compiler may give each its own block), whichever is more.
     */
    static long listBound(Datatype t) {
        return Math.max(1, listBound(t, new IdentityHashMap<>()));
    }

    private static long listBound(Datatype t, Map<Datatype, Boolean> seen) {
        if (!(t instanceof DerivedType d) || seen.put(t, Boolean.TRUE) != null) {
            return 0;
        }
        long n = 0;
        if (t instanceof Indexed x) {
            n = x.uniformBlocklength() >= 0 ? x.blockCount() : 2L * x.blockCount();
        } else if (t instanceof Struct s) {
            n = Math.max(3L * s.memberCount(), Arrays.stream(s.blocklengths()).sum());
        } else if (t instanceof Subarray s) {
            n = Math.max(3L * s.sizes().length, listBound(s.lowered(), seen));
        } else if (t instanceof Darray a) {
            n = Math.max(4L * a.gsizes().length + 2, listBound(a.lowered(), seen));
        }
        for (Datatype c : d.children()) {
            n = Math.max(n, listBound(c, seen));
        }
        return n;
    }

    /** The most blocks one node of the dataloop lists (offsets it stores; 0 for a tree of loops). */
    static long longestList(Dataloop d) {
        return longestList(d, true);
    }

    /**
     * {@link #longestList}, without ({@code wideRecords} false) the listed leaves of at most {@link
     * DataloopCompiler#MAX_WIDE_RECORD_RUNS} runs all wider than {@code WORD_BLOCK_BYTES} (wide records).
     */
    static long longestList(Dataloop d, boolean wideRecords) {
        if (d == null) {
            return 0;
        }
        long n = d.offsets == null || !wideRecords && wideRecord(d) ? 0 : d.offsets.length;
        if (d.children != null) {
            for (Dataloop c : d.children) {
                n = Math.max(n, longestList(c, wideRecords));
            }
        }
        return Math.max(n, longestList(d.child, wideRecords));
    }

    private static boolean wideRecord(Dataloop d) {
        if (!d.leaf || d.nblocks > DataloopCompiler.MAX_WIDE_RECORD_RUNS) {
            return false;
        }
        for (long b = 0; b < d.nblocks; b++) {
            if (d.blockLen(b) <= MemoryAccess.WORD_BLOCK_BYTES) {
                return false;
            }
        }
        return true;
    }

    /**
     * Packs {@code count} elements of {@code t} in {@code rep} and compares with the naive interpreter;
     * unpacks the interpreter's stream into a cleared buffer and checks that exactly the type map's
     * bytes came back (a byte the type map holds twice gets the same value either way).
     */
    static void assertMovesTheTypeMap(Datatype t, long count, Representation rep, long seed) {
        boolean x32 = rep == Representation.EXTERNAL32;
        Buffers b = Buffers.around(t, count, 3, seed);
        byte[] expect = TypeMaps.naivePack(t, count, b.bytes(), b.origin(), x32);
        byte[] packed = x32
                ? Packing.packExternal32(t, count, b.bytes(), b.origin())
                : Packing.pack(t, count, b.bytes(), b.origin());
        assertThat(packed).as("pack %s %s", rep, t).isEqualTo(expect);

        byte[] back = new byte[b.bytes().length];
        Arrays.fill(back, (byte) 0x5A);
        Memory dst = Memory.ofArray(back);
        Segment s = x32 ? Segment.external32(t, count, dst, b.origin()) : Segment.of(t, count, dst, b.origin());
        assertThat(s.unpack(Memory.ofArray(expect), 0, expect.length)).isEqualTo(expect.length);
        byte[] want = new byte[back.length];
        Arrays.fill(want, (byte) 0x5A);
        for (long o : TypeMaps.byteOffsets(t, count)) {
            want[(int) (b.origin() + o)] = b.bytes()[(int) (b.origin() + o)];
        }
        assertThat(back).as("unpack %s %s", rep, t).isEqualTo(want);
    }
}
