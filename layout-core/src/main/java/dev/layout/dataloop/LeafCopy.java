package dev.layout.dataloop;

import dev.layout.dataloop.kernel.ListedAccess;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.memory.Memory;

/**
 * A {@link LeafAction} that copies each leaf from a window of a source memory to a destination, by
 * the engine's kernels: user offset {@code o} is source byte {@code o + srcDelta}, stream byte
 * {@code s} goes to destination byte {@code s + dstDelta}. Every leaf is checked first, against the
 * window {@code [srcStart, srcEnd)} and the destination's bounds, so nothing outside either is
 * touched (for reading a file view: the window is the part of the file read, a leaf outside it is
 * a planning error). Aim it with {@link #source} and {@link #destination} before use; one instance
 * serves many ranges.
 */
public final class LeafCopy implements LeafAction {
    private final String op;
    private Memory src;
    private long srcDelta;
    private long srcStart;
    private long srcEnd;
    private Memory dst;
    private long dstDelta;

    /** {@code op} names the operation in error messages. */
    public LeafCopy(String op) {
        this.op = op;
    }

    public void source(Memory src, long srcDelta, long srcStart, long srcEnd) {
        this.src = src;
        this.srcDelta = srcDelta;
        this.srcStart = srcStart;
        this.srcEnd = srcEnd;
    }

    public void destination(Memory dst, long dstDelta) {
        this.dst = dst;
        this.dstDelta = dstDelta;
    }

    private void check(long lo, long hi) {
        if (lo < srcStart || hi > srcEnd) {
            throw new IllegalStateException(op + ": leaf bytes [" + lo + ", " + hi + ") outside the range read ["
                    + srcStart + ", " + srcEnd + ")");
        }
    }

    @Override
    public void run(long offset, long length, long streamOffset) {
        long a = offset + srcDelta;
        check(a, a + length);
        dst.checkRange(op, streamOffset + dstDelta, length);
        MemoryAccess.copy(src, a, dst, streamOffset + dstDelta, length);
    }

    @Override
    public void vector(long offset, long byteStride, long blockLength, long count, long streamOffset) {
        if (count <= 0) {
            return;
        }
        long first = offset + srcDelta;
        long last = first + (count - 1) * byteStride;
        check(Math.min(first, last), Math.max(first, last) + blockLength);
        dst.checkRange(op, streamOffset + dstDelta, count * blockLength);
        MemoryAccess.strided(src, first, byteStride, dst, streamOffset + dstDelta, blockLength, blockLength, count);
    }

    @Override
    public void blocks(
            long offset, long[] offsets, long[] lengths, long uniformLength, int from, int to, long streamOffset) {
        long a = offset + srcDelta;
        long total = 0;
        for (int i = from; i < to; i++) {
            long len = lengths == null ? uniformLength : lengths[i];
            check(a + offsets[i], a + offsets[i] + len);
            total += len;
        }
        dst.checkRange(op, streamOffset + dstDelta, total);
        ListedAccess.blocks(src, a, offsets, lengths, uniformLength, from, to, dst, streamOffset + dstDelta, true);
    }
}
