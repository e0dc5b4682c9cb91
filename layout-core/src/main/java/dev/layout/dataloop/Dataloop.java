package dev.layout.dataloop;

import java.util.Arrays;
import java.util.Locale;

/**
 * A compiled datatype (Ross, Miller, Gropp 2003): a small tree of loops the engine walks with an
 * explicit stack. Every node is a list of blocks; a block is {@code blocklength} instances of the
 * child at {@code blockOffset(b) + j * childExtent}. In a <em>leaf</em> the child is a contiguous
 * run of bytes, so a block is one contiguous run and a whole leaf is handled by one kernel call
 * (a vector leaf is one strided copy loop).
 *
 * <p>Kinds: {@code CONTIG} (one block), {@code VECTOR} (equal blocks at a constant stride), {@code
 * BLOCK_INDEXED} (equal blocks at listed offsets), {@code INDEXED} (listed lengths and offsets) and
 * {@code STRUCT} (one instance of each child, at listed offsets). Blocks and children are never empty: the
 * compiler drops what carries no data, so every block advances the packed stream.
 *
 * <p>Immutable; built by {@link DataloopCompiler}.
 */
public final class Dataloop {
    /** The shape of a dataloop's block list. */
    public enum Kind {
        CONTIG,
        VECTOR,
        BLOCK_INDEXED,
        INDEXED,
        STRUCT
    }

    final Kind kind;
    final boolean leaf;
    /** Added to the base address when the loop is entered. */
    final long disp;

    final long nblocks;
    /** Uniform kinds: bytes per block in a leaf, child instances per block otherwise. */
    final long blocklen;
    /** INDEXED and STRUCT: per-block lengths (bytes in a leaf, child instances otherwise). */
    final long[] blocklens;
    /** VECTOR: bytes between block starts. */
    final long stride;
    /** BLOCK_INDEXED, INDEXED, STRUCT: block start offsets in bytes. */
    final long[] offsets;
    /** Non-leaf: bytes between consecutive child instances in a block. */
    final long ext;

    final Dataloop child;
    final Dataloop[] children;
    /** Packed bytes of one instance of this loop. */
    final long size;
    /** INDEXED and STRUCT: packed bytes before block b (length nblocks + 1). */
    final long[] prefix;
    /** Leaf: the external32 swap unit of its bytes (1 when nothing is swapped). */
    final int swapUnit;
    /** Extent of the type this loop stands for (the distance between instances in a count). */
    final long extent;
    /** The lowest and one-past-highest byte one instance touches, relative to its base (the walk's footprint guard). */
    final long lo;

    final long hi;

    private Dataloop(
            Kind kind,
            long disp,
            long nblocks,
            long blocklen,
            long[] blocklens,
            long stride,
            long[] offsets,
            long ext,
            Dataloop child,
            Dataloop[] children,
            int swapUnit,
            long extent) {
        this.kind = kind;
        this.leaf = child == null && children == null;
        this.disp = disp;
        this.nblocks = nblocks;
        this.blocklen = blocklen;
        this.blocklens = blocklens;
        this.stride = stride;
        this.offsets = offsets;
        this.ext = ext;
        this.child = child;
        this.children = children;
        this.swapUnit = swapUnit;
        this.extent = extent;
        if (blocklens != null) {
            long[] p = new long[blocklens.length + 1];
            for (int b = 0; b < blocklens.length; b++) {
                long unit = leaf ? 1 : (children != null ? children[b].size : child.size);
                p[b + 1] = Math.addExact(p[b], Math.multiplyExact(blocklens[b], unit));
            }
            this.prefix = p;
            this.size = p[blocklens.length];
        } else {
            this.prefix = null;
            this.size = Math.multiplyExact(nblocks, Math.multiplyExact(blocklen, leaf ? 1 : child.size));
        }
        // Per block: its offset, the spread of its child instances, and what one of them touches; a
        // vector's first and last blocks bound the rest.
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < (kind == Kind.VECTOR ? Math.min(nblocks, 2) : nblocks); i++) {
            long b = kind == Kind.VECTOR && i == 1 ? nblocks - 1 : i;
            long at = kind == Kind.VECTOR ? Math.multiplyExact(b, stride) : blockOffset(b);
            long spread = leaf ? 0 : Math.multiplyExact(blockLen(b) - 1, ext);
            Dataloop c = childOf(b);
            lo = Math.min(lo, Math.addExact(at + Math.min(0, spread), leaf ? 0 : c.disp + c.lo));
            hi = Math.max(hi, Math.addExact(at + Math.max(0, spread), leaf ? blockLen(b) : c.disp + c.hi));
        }
        this.lo = nblocks == 0 ? 0 : lo;
        this.hi = nblocks == 0 ? 0 : hi;
    }

    static Dataloop bytes(long length, long disp, int swapUnit, long extent) {
        return new Dataloop(Kind.CONTIG, disp, 1, length, null, 0, null, 0, null, null, swapUnit, extent);
    }

    static Dataloop leafVector(long count, long blockBytes, long stride, long disp, int swapUnit, long extent) {
        return new Dataloop(Kind.VECTOR, disp, count, blockBytes, null, stride, null, 0, null, null, swapUnit, extent);
    }

    static Dataloop leafBlockIndexed(long blockBytes, long[] offsets, long disp, int swapUnit, long extent) {
        int n = offsets.length;
        return new Dataloop(Kind.BLOCK_INDEXED, disp, n, blockBytes, null, 0, offsets, 0, null, null, swapUnit, extent);
    }

    static Dataloop leafIndexed(long[] lengths, long[] offsets, long disp, int swapUnit, long extent) {
        return new Dataloop(
                Kind.INDEXED, disp, offsets.length, 0, lengths, 0, offsets, 0, null, null, swapUnit, extent);
    }

    static Dataloop contig(long count, long ext, Dataloop child, long disp, long extent) {
        return new Dataloop(Kind.CONTIG, disp, 1, count, null, 0, null, ext, child, null, 0, extent);
    }

    static Dataloop vector(long count, long blocklen, long stride, long ext, Dataloop child, long disp, long extent) {
        return new Dataloop(Kind.VECTOR, disp, count, blocklen, null, stride, null, ext, child, null, 0, extent);
    }

    static Dataloop blockIndexed(long blocklen, long[] offsets, long ext, Dataloop child, long disp, long extent) {
        int n = offsets.length;
        return new Dataloop(Kind.BLOCK_INDEXED, disp, n, blocklen, null, 0, offsets, ext, child, null, 0, extent);
    }

    static Dataloop indexed(long[] blocklens, long[] offsets, long ext, Dataloop child, long disp, long extent) {
        return new Dataloop(Kind.INDEXED, disp, offsets.length, 0, blocklens, 0, offsets, ext, child, null, 0, extent);
    }

    static Dataloop struct(long[] offsets, Dataloop[] children, long disp, long extent) {
        long[] ones = new long[offsets.length];
        Arrays.fill(ones, 1);
        return new Dataloop(Kind.STRUCT, disp, offsets.length, 0, ones, 0, offsets, 0, null, children, 0, extent);
    }

    /** The same loop entered at {@code disp + delta}, standing for a type of extent {@code extent}. */
    Dataloop shifted(long delta, long newExtent) {
        long d = Math.addExact(disp, delta);
        return new Dataloop(
                kind, d, nblocks, blocklen, blocklens, stride, offsets, ext, child, children, swapUnit, newExtent);
    }

    long blockOffset(long b) {
        return switch (kind) {
            case CONTIG -> 0;
            case VECTOR -> b * stride;
            default -> offsets[(int) b];
        };
    }

    long blockLen(long b) {
        return blocklens == null ? blocklen : blocklens[(int) b];
    }

    Dataloop childOf(long b) {
        return children != null ? children[(int) b] : child;
    }

    long packedBefore(long b) {
        return prefix != null ? prefix[(int) b] : b * (leaf ? blocklen : blocklen * child.size);
    }

    /** The block holding packed byte {@code r} of one instance ({@code 0 <= r < size}). */
    long findBlock(long r) {
        if (prefix == null) {
            return r / (leaf ? blocklen : blocklen * child.size);
        }
        int i = Arrays.binarySearch(prefix, r);
        // prefix has no repeated values (blocks are never empty), so an exact hit is the block start.
        return i >= 0 ? i : -i - 2;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isLeaf() {
        return leaf;
    }

    /** Packed bytes of one instance. */
    public long byteSize() {
        return size;
    }

    public long blockCount() {
        return nblocks;
    }

    /** How whole instances run: "blocked: " and the permuted loops (see {@link BlockedOrder}), or "packed order". */
    public String runOrder() {
        BlockedOrder b = BlockedOrder.of(this, KernelCost.CACHE_BYTES);
        return b == null ? "packed order" : "blocked: " + b;
    }

    /** Nesting depth: 1 for a leaf. */
    public int depth() {
        int d = 0;
        if (children != null) {
            for (Dataloop c : children) {
                d = Math.max(d, c.depth());
            }
        } else if (child != null) {
            d = child.depth();
        }
        return d + 1;
    }

    /**
     * Contiguous runs one instance is made of (before merging runs of consecutive blocks), by
     * arithmetic over the tree (time proportional to its description, not to the runs);
     * {@code Long.MAX_VALUE} when there are at least that many.
     */
    public long runCount() {
        if (leaf) {
            return nblocks;
        }
        if (children == null && prefix == null) {
            return saturatedProduct(saturatedProduct(nblocks, blocklen), child.runCount());
        }
        long n = 0;
        for (long b = 0; b < nblocks; b++) {
            long x = saturatedProduct(blockLen(b), childOf(b).runCount());
            if (x > Long.MAX_VALUE - n) {
                return Long.MAX_VALUE;
            }
            n += x;
        }
        return n;
    }

    private static long saturatedProduct(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }

    /** An indented, one-node-per-line rendering of the tree (what {@code layout describe} prints). */
    public String toTreeString() {
        StringBuilder sb = new StringBuilder();
        appendTree(sb, 0);
        return sb.toString();
    }

    private void appendTree(StringBuilder sb, int indent) {
        sb.append("  ".repeat(indent)).append(this).append('\n');
        if (children != null) {
            for (Dataloop c : children) {
                c.appendTree(sb, indent + 1);
            }
        } else if (child != null) {
            child.appendTree(sb, indent + 1);
        }
    }

    @Override
    public String toString() {
        String shape =
                switch (kind) {
                    case CONTIG -> leaf ? "bytes=" + blocklen : "count=" + blocklen + ", ext=" + ext;
                    case VECTOR ->
                        "count=" + nblocks + perBlock() + ", stride=" + stride + (leaf ? "" : ", ext=" + ext);
                    case BLOCK_INDEXED -> "blocks=" + nblocks + perBlock() + (leaf ? "" : ", ext=" + ext);
                    case INDEXED -> "blocks=" + nblocks + (leaf ? "" : ", ext=" + ext);
                    case STRUCT -> "members=" + nblocks;
                };
        return kind.name().toLowerCase(Locale.ROOT) + (leaf ? " leaf(" : "(") + (disp != 0 ? "disp=" + disp + ", " : "")
                + shape + (leaf && swapUnit > 1 ? ", swap=" + swapUnit : "") + ", size=" + size + ")";
    }

    private String perBlock() {
        return (leaf ? ", blockBytes=" : ", blocklen=") + blocklen;
    }
}
