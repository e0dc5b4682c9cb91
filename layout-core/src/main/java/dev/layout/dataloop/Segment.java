package dev.layout.dataloop;

import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Partial processing of {@code count} elements of a datatype (Ross, Miller, Gropp 2003, section 2):
 * pack, unpack, flatten or visit any byte range of the packed stream, resumable across calls.
 *
 * <pre>{@code
 * Datatype column = LayoutParser.parse("vector(4, 1, 4, float32)");
 * Segment s = Segment.of(column, 1, Memory.ofArray(matrix), 0);
 * s.pack(Memory.ofArray(out), 0, 8);    // the first two floats
 * s.pack(Memory.ofArray(out), 8, 8);    // the next two
 * }</pre>
 *
 * <p>The walk uses an explicit stack (no recursion); leaves are handled whole by action-specific
 * kernels. {@link #seek} positions at any packed byte in time proportional to the type's depth
 * (a binary search per indexed level, a division per regular one).
 *
 * <p>Before any byte moves, creation checks that the type's true footprint for the count lies in
 * the user memory, and every call checks the packed-side range: a violation is an {@link
 * IndexOutOfBoundsException} naming the type, count, needed and available bytes, and nothing has
 * been written.
 */
public final class Segment {
    static final String USER_NULL = "segment: user memory is null";
    private final Datatype type;
    private final long count;
    private final Representation representation;
    private final Dataloop root;
    private final long total;
    /** The user memory and origin, and the footprint checked in them; re-aimed by segments kept for reuse ({@link #aim}). */
    private Memory user;

    private long origin;
    private long footLo;
    private long footHi;

    private final Dataloop[] node;
    private final long[] base;
    private final long[] blk;
    private final long[] elem;
    private long inner;
    private int top;
    private long position;
    /** The native pack and unpack kernels, re-aimed per call: a steady-state call allocates nothing. */
    private final NativeKernel[] kernels = {new NativeKernel(true), new NativeKernel(false)};
    /** Per memory kinds ({@link MemoryAccess#baseKinds}): the kernels native pack and unpack run, made at first use. */
    private final Plan[] plans = new Plan[4];

    Segment(Datatype type, long count, Representation rep, Memory user, long origin) {
        Objects.requireNonNull(type, "segment: type is null");
        if (count < 0) {
            throw new IllegalArgumentException("segment: count " + count + " (expected: >= 0)");
        }
        this.type = type;
        this.count = count;
        this.representation = rep;
        try {
            this.total = Math.multiplyExact(type.byteSize(), count);
        } catch (ArithmeticException e) {
            throw overflow(type, count);
        }
        this.root = total == 0 ? null : DataloopCompiler.compileCount(type, count, rep);
        int depth = root == null ? 1 : root.depth();
        this.node = new Dataloop[depth];
        this.base = new long[depth];
        this.blk = new long[depth];
        this.elem = new long[depth];
        point(user, origin);
    }

    /**
     * Points this segment at {@code user} with the origin at byte {@code origin}, at packed position 0:
     * checks the type's true footprint for the count against the memory first. A segment kept for
     * reuse (as {@link ThreadSegments}' per-thread ones) is re-aimed instead of made anew: no allocation.
     */
    public void aim(Memory user, long origin) {
        point(Objects.requireNonNull(user, USER_NULL), origin);
    }

    /** {@link #aim}, or no memory at all (a {@link #layout} segment). */
    private void point(Memory user, long origin) {
        long lo = 0;
        long hi = 0;
        if (total > 0) {
            try {
                long span = Math.multiplyExact(count - 1, type.extent());
                lo = Math.addExact(Math.addExact(origin, type.trueLb()), Math.min(0, span));
                hi = Math.addExact(Math.addExact(origin, type.trueUb()), Math.max(0, span));
            } catch (ArithmeticException e) {
                throw overflow(type, count);
            }
        }
        if (user != null && total > 0 && (lo < 0 || hi > user.byteSize())) {
            throw new IndexOutOfBoundsException("segment: type " + abbreviate(type) + " count " + count + " at origin "
                    + origin + " needs bytes [" + lo + ", " + hi + ") of the buffer (" + (hi - lo)
                    + " bytes), but the buffer has " + user.byteSize() + " bytes");
        }
        this.user = user;
        this.origin = origin;
        this.footLo = lo;
        this.footHi = hi;
        seek(0);
    }

    /** Whether {@link ThreadSegments} may re-aim this segment for an operation on {@code count} elements of {@code type}. */
    boolean serves(Datatype type, long count, Representation rep) {
        return this.count == count && representation == rep && this.type.equals(type);
    }

    /** Lets go of the memories (a segment kept for reuse, between uses). */
    public void release() {
        user = null;
        for (NativeKernel k : kernels) {
            k.aim(null, null, 0, null);
        }
    }

    /** A segment over {@code count} elements whose origin is byte {@code origin} of {@code user}, native representation. */
    public static Segment of(Datatype type, long count, Memory user, long origin) {
        return new Segment(type, count, Representation.NATIVE, Objects.requireNonNull(user, USER_NULL), origin);
    }

    /** Like {@link #of} with the external32 representation (big-endian primitives, {@code byte} untouched). */
    public static Segment external32(Datatype type, long count, Memory user, long origin) {
        return new Segment(type, count, Representation.EXTERNAL32, Objects.requireNonNull(user, USER_NULL), origin);
    }

    /** A segment without memory, for {@link #flatten} and {@link #process}: offsets are relative to the origin. */
    public static Segment layout(Datatype type, long count) {
        return new Segment(type, count, Representation.NATIVE, null, 0);
    }

    public Datatype type() {
        return type;
    }

    public long count() {
        return count;
    }

    /** Total bytes of the packed stream: {@code byteSize() * count}. */
    public long byteSize() {
        return total;
    }

    /** Current position in the packed stream. */
    public long position() {
        return position;
    }

    public long remaining() {
        return total - position;
    }

    /** The compiled dataloop this segment walks (null when there is no data). */
    public Dataloop dataloop() {
        return root;
    }

    /** Moves to packed byte {@code bytePosition} ({@code 0 <= bytePosition <= byteSize()}), in time proportional to the depth. */
    public void seek(long bytePosition) {
        if (bytePosition < 0 || bytePosition > total) {
            throw new IndexOutOfBoundsException(
                    "seek: position " + bytePosition + " (expected: 0 <= position <= " + total + ")");
        }
        position = bytePosition;
        if (bytePosition == total) {
            top = -1;
            return;
        }
        top = 0;
        push(root, origin + root.disp);
        long r = bytePosition;
        while (true) {
            Dataloop n = node[top];
            if (r == 0 && !n.leaf) {
                // At the start of an instance: the walk enters it from the top (and may run it whole, blocked).
                blk[top] = 0;
                elem[top] = 0;
                return;
            }
            long b = n.findBlock(r);
            r -= n.packedBefore(b);
            blk[top] = b;
            if (n.leaf) {
                inner = r;
                return;
            }
            Dataloop c = n.childOf(b);
            long j = r / c.size;
            r -= j * c.size;
            elem[top] = j;
            top++;
            push(c, base[top - 1] + n.blockOffset(b) + j * n.ext + c.disp);
        }
    }

    /**
     * Packs up to {@code maxBytes} from the current position into {@code dst} at {@code dstOffset};
     * returns the bytes packed and advances.
     */
    public long pack(Memory dst, long dstOffset, long maxBytes) {
        return move("pack", dst, dstOffset, maxBytes, true);
    }

    /** Unpacks up to {@code maxBytes} from {@code src} at {@code srcOffset} into the user memory; returns the bytes consumed. */
    public long unpack(Memory src, long srcOffset, long maxBytes) {
        return move("unpack", src, srcOffset, maxBytes, false);
    }

    private long move(String op, Memory packed, long packedOffset, long maxBytes, boolean pack) {
        long n = prepare(op, packed, packedOffset, maxBytes);
        (pack ? packed : user).checkWritable(op);
        if (n == 0) {
            return 0;
        }
        if (representation == Representation.EXTERNAL32) {
            return walk(new External32Kernel(user, packed, packedOffset - position, pack), n);
        }
        NativeKernel k = kernels[pack ? 0 : 1];
        k.aim(user, packed, packedOffset - position, plan(MemoryAccess.baseKinds(user, packed)));
        return walk(k, n);
    }

    /**
     * The next contiguous runs, at most {@code maxPieces}, adjacent runs merged, offsets relative to
     * the origin; resumable (the next call continues where this one stopped). Empty at the end.
     */
    public List<Piece> flatten(int maxPieces) {
        if (maxPieces < 1) {
            throw new IllegalArgumentException("flatten: maxPieces " + maxPieces + " (expected: >= 1)");
        }
        FlattenKernel k = new FlattenKernel(maxPieces, origin);
        walk(k, total - position); // to the end, or to where the kernel stops: it is full
        return k.pieces;
    }

    /** Runs a custom action over up to {@code maxBytes} of the packed stream; returns the bytes visited. */
    public long process(LeafAction action, long maxBytes) {
        Objects.requireNonNull(action, "process: action is null");
        long n = budget("process", maxBytes);
        return n == 0 ? 0 : walk(new VisitorKernel(action, origin), n);
    }

    private Plan plan(int kinds) {
        Plan p = plans[kinds];
        if (p == null) {
            p = plans[kinds] = new Plan(root, kinds);
        }
        return p;
    }

    private long prepare(String op, Memory packed, long offset, long maxBytes) {
        if (user == null) {
            throw new IllegalStateException(
                    op + ": this segment was made without memory (Segment.layout); use Segment.of");
        }
        if (packed == null) {
            throw new NullPointerException(
                    op + ": packed memory is null"); // the message built only here: no allocation per call
        }
        long n = budget(op, maxBytes);
        if (offset < 0 || offset > packed.byteSize() - n) {
            throw new IndexOutOfBoundsException(
                    op + ": type " + abbreviate(type) + " count " + count + " needs " + n + " packed bytes at offset "
                            + offset + ", but the packed buffer has " + packed.byteSize() + " bytes");
        }
        return n;
    }

    /** The bytes a call of {@code op} moves for {@code maxBytes}: what is left of them in the stream. */
    private long budget(String op, long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException(op + ": maxBytes " + maxBytes + " (expected: >= 0)");
        }
        return Math.min(maxBytes, total - position);
    }

    /** The explicit-stack walk: processes {@code n} bytes (fewer only if the kernel stops early). */
    private long walk(LeafKernel k, long n) {
        long end = position + n;
        long start = position;
        while (position < end) {
            Dataloop d = node[top];
            if (d.leaf) {
                position += leaf(k, d, end - position);
                if (blk[top] < d.nblocks) {
                    break; // the budget ends in this leaf, or the kernel stopped early (flatten is full)
                }
                top--;
                advance();
            } else {
                long b = blk[top];
                if (b >= d.nblocks) {
                    top--;
                    advance();
                    continue;
                }
                BlockedOrder order = k.order(d);
                if (order != null) {
                    NativeKernel nk = (NativeKernel) k; // only native pack and unpack have an order
                    if (b == 0 && elem[top] == 0 && d.size <= end - position) {
                        // A whole instance not yet begun: a strided nest may run in its cache-blocked order.
                        position += BlockedWalk.run(
                                nk, order, base[top], position, 0, order.moved().count());
                        blk[top] = d.nblocks;
                        continue;
                    }
                    if (order.movedIsHeadLoop() && (d.kind == Dataloop.Kind.CONTIG || elem[top] == 0)) {
                        // Whole iterations of the moved loop, the head's own (a segment in pieces): those run blocked.
                        boolean vector = d.kind == Dataloop.Kind.VECTOR;
                        long at = vector ? b : elem[top];
                        long per = vector ? d.blocklen * d.child.size : d.child.size;
                        long m = Math.min(BlockedOrder.firstCount(d) - at, (end - position) / per);
                        if (m >= 2) {
                            position += BlockedWalk.run(nk, order, base[top], position, at, m);
                            if (vector) {
                                blk[top] = b + m;
                            } else {
                                elem[top] = at + m;
                                if (elem[top] == d.blocklen) {
                                    blk[top] = 1;
                                    elem[top] = 0;
                                }
                            }
                            continue;
                        }
                    }
                }
                Dataloop c = d.childOf(b);
                if (k.whole && d.children == null && c.size <= end - position && (c.leaf || BlockedWalk.planes(c))) {
                    // Whole leaves or planes under this loop: batched into kernel calls, no stack traffic per instance.
                    position += nest(k, d, end - position);
                    continue;
                }
                top++;
                push(c, base[top - 1] + d.blockOffset(b) + elem[top - 1] * d.ext + c.disp);
                blk[top] = 0;
                elem[top] = 0;
                inner = 0;
            }
        }
        return position - start;
    }

    /**
     * Processes whole instances of the child of the loop {@code d} on top of the stack (leaves, or
     * planes: {@link BlockedWalk#planes}), from its current (block, element), for at most
     * {@code budget} bytes, in one kernel call per run of instances at a constant spacing or at listed
     * offsets; advances (block, element) and returns the bytes done.
     */
    private long nest(LeafKernel k, Dataloop d, long budget) {
        Dataloop c = d.child;
        long b = blk[top];
        long j = elem[top];
        long ub = base[top] + c.disp;
        int unit = representation == Representation.NATIVE ? 1 : (c.leaf ? c : c.child).swapUnit;
        if (d.blocklen == 1 && (d.kind == Dataloop.Kind.VECTOR || d.kind == Dataloop.Kind.BLOCK_INDEXED && c.leaf)) {
            long m = Math.min(d.nblocks - b, budget / c.size);
            blk[top] = b + m;
            if (d.kind == Dataloop.Kind.BLOCK_INDEXED) {
                return k.repeatAt(c, ub, d.offsets, (int) b, (int) (b + m), position, unit);
            }
            long first = ub + b * d.stride;
            return c.leaf
                    ? k.repeat(c, first, d.stride, m, position, unit)
                    : k.repeatPlanes(c, first, d.stride, m, position, unit);
        }
        long done = 0;
        while (b < d.nblocks && budget - done >= c.size) {
            long bl = d.blockLen(b);
            long m = Math.min(bl - j, (budget - done) / c.size);
            long u = ub + d.blockOffset(b) + j * d.ext;
            done += c.leaf
                    ? k.repeat(c, u, d.ext, m, position + done, unit)
                    : k.repeatPlanes(c, u, d.ext, m, position + done, unit);
            j += m;
            if (j == bl) {
                b++;
                j = 0;
            }
        }
        blk[top] = b;
        elem[top] = j;
        return done;
    }

    /**
     * Puts the node {@code d} with base {@code u} on top of the stack, after checking that the instance
     * lies in the checked footprint (an internal invariant: every kernel call under it then does).
     */
    private void push(Dataloop d, long u) {
        if (user != null && (u + d.lo < footLo || u + d.hi > footHi)) {
            throw new IllegalStateException("internal error: " + d + " at " + u + " outside the checked footprint ["
                    + footLo + ", " + footHi + ") of " + abbreviate(type));
        }
        node[top] = d;
        base[top] = u;
    }

    /** After a child finished: the next instance of the loop now on top of the stack. */
    private void advance() {
        if (top < 0) {
            return;
        }
        Dataloop d = node[top];
        long b = blk[top];
        if (++elem[top] == d.blockLen(b)) {
            blk[top] = b + 1;
            elem[top] = 0;
        }
    }

    /** Processes the leaf on top of the stack from (blk, inner) for at most {@code budget} bytes. */
    private long leaf(LeafKernel k, Dataloop d, long budget) {
        long b = blk[top];
        long in = inner;
        long ub = base[top];
        int unit = representation == Representation.NATIVE ? 1 : d.swapUnit;
        long done = 0;
        while (b < d.nblocks && done < budget) {
            long left = budget - done;
            long stream = position + done;
            if (in > 0 || left < d.blockLen(b)) {
                // A block entered in the middle, or one the budget ends in: a partial run.
                long len = Math.min(d.blockLen(b) - in, left);
                long got = k.run(ub + d.blockOffset(b) + in, len, stream, unit, in % unit);
                done += got;
                in += got;
                if (got < len) {
                    break;
                }
                if (in == d.blockLen(b)) {
                    b++;
                    in = 0;
                }
                continue;
            }
            // As many whole blocks as the budget holds (of varying lengths: a binary search in the prefix
            // sums), in one kernel call.
            long nb;
            if (d.prefix == null) {
                nb = Math.min(d.nblocks - b, left / d.blocklen);
            } else {
                int i = Arrays.binarySearch(d.prefix, (int) b, d.prefix.length, d.prefix[(int) b] + left);
                nb = (i >= 0 ? i : -i - 2) - b;
            }
            long got =
                    switch (d.kind) {
                        case CONTIG -> k.run(ub, d.blocklen, stream, unit, 0);
                        case VECTOR -> k.vectorLeaf(d, ub + b * d.stride, nb, stream, unit);
                        default -> k.blocks(d, ub, (int) b, (int) (b + nb), stream, unit);
                    };
            done += got;
            if (got < d.packedBefore(b + nb) - d.packedBefore(b)) {
                // Stopped inside the batch (only flatten does this): find where.
                long r = d.packedBefore(b) + got;
                b = d.findBlock(r);
                in = r - d.packedBefore(b);
                break;
            }
            b += nb;
        }
        blk[top] = b;
        inner = in;
        return done;
    }

    private static IllegalArgumentException overflow(Datatype type, long count) {
        return new IllegalArgumentException("segment: type " + abbreviate(type) + " count " + count
                + " spans more than 2^63 bytes (expected: byte counts and offsets within 64 bits)");
    }

    static String abbreviate(Datatype t) {
        String s = t.toString();
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }
}
