package dev.layout.dataloop.kernel;

import dev.layout.memory.Memory;

/**
 * Unchecked kernels for the dataloop engine, which has checked the whole footprint of an operation
 * before calling them. Not for general use: a wrong offset here is a wrong memory access.
 */
public final class MemoryAccess {
  private MemoryAccess() {}

  /** The kernels' handle on {@link sun.misc.Unsafe} (also read by the generated kernels). */
  static final sun.misc.Unsafe U = unsafe();

  private static sun.misc.Unsafe unsafe() {
    try {
      java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError("kernels need sun.misc.Unsafe: " + e);
    }
  }

  /**
   * When true (system property {@code layout.memory.checkEveryAccess}), every kernel access is
   * bounds-checked too. For debugging the engine; the up-front footprint check is always on.
   */
  public static final boolean CHECK_EVERY_ACCESS = Boolean.getBoolean("layout.memory.checkEveryAccess");

  /**
   * Copies one block. Small blocks (the common case in strided layouts: 4 or 8 bytes) move as single
   * words so the JIT can keep them in registers; large ones go to the bulk copy intrinsic.
   */
  public static void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long length) {
    if (CHECK_EVERY_ACCESS) {
      src.checkRange("kernel", srcOffset, length);
      dst.checkRange("kernel", dstOffset, length);
    }
    Object sb = src.base();
    long sa = src.address() + srcOffset;
    Object db = dst.base();
    long da = dst.address() + dstOffset;
    copyRaw(sb, sa, db, da, length);
  }

  /**
   * One block, by width: the widths that are whole words (a float, a double, a complex double, a
   * 3-vector of doubles) as exactly their words, other widths under 64 bytes in a bounded number of
   * overlapping word moves ({@link #copySmall}), from 64 bytes the bulk copy intrinsic.
   */
  static void copyRaw(Object sb, long sa, Object db, long da, long length) {
    if (length == 8) {
      U.putLong(db, da, U.getLong(sb, sa));
    } else if (length == 4) {
      U.putInt(db, da, U.getInt(sb, sa));
    } else if (length == 16) {
      U.putLong(db, da, U.getLong(sb, sa));
      U.putLong(db, da + 8, U.getLong(sb, sa + 8));
    } else if (length == 24) {
      U.putLong(db, da, U.getLong(sb, sa));
      U.putLong(db, da + 8, U.getLong(sb, sa + 8));
      U.putLong(db, da + 16, U.getLong(sb, sa + 16));
    } else if (length < 64) {
      copySmall(sb, sa, db, da, length);
    } else {
      MemoryAccess.U.copyMemory(sb, sa, db, da, length);
    }
  }

  /**
   * Under 64 bytes, any width, in at most eight word moves and no loop, as good {@code memcpy}
   * implementations move short sizes: a width between two powers of two is covered by two
   * overlapping moves of the lower power (9-16 bytes: the first and the last 8; 17-32: the first
   * and the last 16; 33-63: the first and the last 32). All loads come before the stores, so the
   * bytes written twice are written with the same values.
   */
  static void copySmall(Object sb, long sa, Object db, long da, long length) {
    sun.misc.Unsafe u = MemoryAccess.U;
    if (length >= 8) {
      long e = length - 8;
      if (length <= 16) {
        long a = u.getLong(sb, sa);
        long b = u.getLong(sb, sa + e);
        u.putLong(db, da, a);
        u.putLong(db, da + e, b);
      } else if (length <= 32) {
        long e2 = length - 16;
        long a0 = u.getLong(sb, sa);
        long a1 = u.getLong(sb, sa + 8);
        long b0 = u.getLong(sb, sa + e2);
        long b1 = u.getLong(sb, sa + e);
        u.putLong(db, da, a0);
        u.putLong(db, da + 8, a1);
        u.putLong(db, da + e2, b0);
        u.putLong(db, da + e, b1);
      } else {
        long e4 = length - 32;
        long a0 = u.getLong(sb, sa);
        long a1 = u.getLong(sb, sa + 8);
        long a2 = u.getLong(sb, sa + 16);
        long a3 = u.getLong(sb, sa + 24);
        long b0 = u.getLong(sb, sa + e4);
        long b1 = u.getLong(sb, sa + e4 + 8);
        long b2 = u.getLong(sb, sa + e4 + 16);
        long b3 = u.getLong(sb, sa + e);
        u.putLong(db, da, a0);
        u.putLong(db, da + 8, a1);
        u.putLong(db, da + 16, a2);
        u.putLong(db, da + 24, a3);
        u.putLong(db, da + e4, b0);
        u.putLong(db, da + e4 + 8, b1);
        u.putLong(db, da + e4 + 16, b2);
        u.putLong(db, da + e, b3);
      }
    } else if (length >= 4) {
      int a = u.getInt(sb, sa);
      int b = u.getInt(sb, sa + length - 4);
      u.putInt(db, da, a);
      u.putInt(db, da + length - 4, b);
    } else if (length >= 2) {
      short a = u.getShort(sb, sa);
      short b = u.getShort(sb, sa + length - 2);
      u.putShort(db, da, a);
      u.putShort(db, da + length - 2, b);
    } else if (length == 1) {
      u.putByte(db, da, u.getByte(sb, sa));
    }
  }

  /**
   * Gathers {@code count} blocks of {@code blockBytes} at {@code srcOffset + i * srcStride} into
   * {@code dst} at {@code dstOffset + i * dstStride}. This one loop is both pack (dstStride =
   * blockBytes) and unpack (srcStride = blockBytes) of a vector leaf. Exploits: a constant block
   * width hoisted out of the loop, so the 4-, 8- and 16-byte cases (strided floats, doubles and
   * complex doubles) become a plain load/store loop with an {@code int} counter the JIT unrolls;
   * blocks of 64 bytes and more are bulk copies.
   */
  public static void strided(Memory src, long srcOffset, long srcStride, Memory dst, long dstOffset, long dstStride, long blockBytes,
      long count) {
    if (CHECK_EVERY_ACCESS) {
      for (long i = 0; i < count; i++) {
        src.checkRange("kernel", srcOffset + i * srcStride, blockBytes);
        dst.checkRange("kernel", dstOffset + i * dstStride, blockBytes);
      }
    }
    Object sb = src.base();
    long sa = src.address() + srcOffset;
    Object db = dst.base();
    long da = dst.address() + dstOffset;
    StridedLoops loops = StridedLoops.forKinds(sb, db);
    while (count > 0) {
      int n = (int) Math.min(count, 1 << 30);
      loops.strided(sb, sa, srcStride, db, da, dstStride, blockBytes, n);
      count -= n;
      sa += n * srcStride;
      da += n * dstStride;
    }
  }

  /**
   * Two nested strided loops in one call: {@code outer} rows of {@code inner} blocks of {@code
   * blockBytes}, block (i, j) at {@code srcOffset + i * srcOuter + j * srcInner} going to {@code
   * dstOffset + i * dstOuter + j * dstInner}. This is a vector of vector leaves (a 3D face's YZ
   * plane, the two innermost loops of the Flash I/O type, FFT columns) handled without returning
   * to the dataloop walk per row. Exploits: the block width is tested once per call, so the 4-,
   * 8- and 16-byte cases are two plain nested load/store loops; other widths fall back to one
   * {@link #strided} call per row.
   */
  public static void strided2(Memory src, long srcOffset, long srcOuter, long srcInner, Memory dst, long dstOffset, long dstOuter,
      long dstInner, long blockBytes, long outer, long inner) {
    if (CHECK_EVERY_ACCESS || inner > Integer.MAX_VALUE || outer > Integer.MAX_VALUE
        || (blockBytes != 4 && blockBytes != 8 && blockBytes != 16)) {
      for (long i = 0; i < outer; i++) {
        strided(src, srcOffset + i * srcOuter, srcInner, dst, dstOffset + i * dstOuter, dstInner, blockBytes, inner);
      }
      return;
    }
    int no = (int) outer;
    int ni = (int) inner;
    Object sb = src.base();
    long sa = src.address() + srcOffset;
    Object db = dst.base();
    long da = dst.address() + dstOffset;
    StridedLoops.forKinds(sb, db).rows(sb, sa, srcOuter, srcInner, db, da, dstOuter, dstInner, blockBytes, no, ni);
  }

  /**
   * A transpose tile: {@link #strided2} of 16-byte blocks, {@code outer} rows of a few ({@code inner})
   * blocks each, through a loop of its own (see {@link StridedLoops#columnTiles16}); other widths
   * and shapes go to {@link #strided2}.
   */
  public static void stridedTile(Memory src, long srcOffset, long srcOuter, long srcInner, Memory dst, long dstOffset, long dstOuter,
      long dstInner, long blockBytes, long outer, long inner) {
    if (blockBytes != 16 || CHECK_EVERY_ACCESS || inner > Integer.MAX_VALUE || outer > Integer.MAX_VALUE) {
      strided2(src, srcOffset, srcOuter, srcInner, dst, dstOffset, dstOuter, dstInner, blockBytes, outer, inner);
      return;
    }
    Object sb = src.base();
    Object db = dst.base();
    StridedLoops.forKinds(sb, db).columnTiles16(sb, src.address() + srcOffset, srcOuter, srcInner, db, dst.address() + dstOffset, dstOuter,
        dstInner, (int) outer, (int) inner);
  }

  /**
   * Packs ({@code pack}) or unpacks the leading blocks of {@code count} blocks of a strided run (block
   * i at {@code userOffset + i * stride}, packed contiguously from {@code packedOffset}) through the
   * generated {@link PlaneKernel#strip} {@code kernel}. Returns how many blocks it moved: all of them,
   * a multiple of {@link PlaneKernel#MAX_ROW} for a strip in rows form (the caller moves the tail),
   * or 0 when the kernel cannot run here (see {@link #planes}).
   */
  public static long strip(PlaneKernel kernel, Memory user, long userOffset, long stride, long count, Memory packed, long packedOffset,
      boolean pack) {
    if (kernel == null) {
      return 0;
    }
    int row = kernel.stripRow;
    if (row == 1) {
      // count and stride go through as they are: with count / row computed in front of the (inlined)
      // loop, C2 compiles a slower loop.
      return planes(kernel, user, userOffset, stride, count, packed, packedOffset, pack) ? count : 0;
    }
    long planes = count / row;
    return planes(kernel, user, userOffset, row * stride, planes, packed, packedOffset, pack) ? planes * row : 0;
  }

  /**
   * Which kinds of memory a kernel call joins, 0 to 3: bit 0 set when the user memory is off-heap,
   * bit 1 when the packed memory is. Generated kernels are made per kinds, so each sees one.
   */
  public static int baseKinds(Memory user, Memory packed) {
    return (user.base() == null ? 1 : 0) | (packed.base() == null ? 2 : 0);
  }

  /**
   * Packs ({@code pack}) or unpacks {@code count} planes through a generated {@link PlaneKernel}: plane
   * i at {@code userOffset + i * spacing} in {@code user}, packed contiguously from {@code
   * packedOffset}; for a one-loop {@link PlaneKernel#strip}, {@code count} blocks at the strip's own
   * stride ({@code spacing} unread; use {@link #strip}). Returns false, doing nothing, when the kernel
   * cannot run here (none, every-access checking on, or more planes than an int counts); the caller
   * then uses the strided loops ({@link #strided3}, {@link #strided}).
   */
  public static boolean planes(PlaneKernel kernel, Memory user, long userOffset, long spacing, long count, Memory packed, long packedOffset,
      boolean pack) {
    if (kernel == null || CHECK_EVERY_ACCESS || count > Integer.MAX_VALUE) {
      return false;
    }
    if (pack) {
      kernel.gather(user.base(), user.address() + userOffset, spacing, (int) count, packed.base(), packed.address() + packedOffset);
    } else {
      kernel.scatter(user.base(), user.address() + userOffset, spacing, (int) count, packed.base(), packed.address() + packedOffset);
    }
    return true;
  }

  /**
   * Three nested strided loops in one call: {@code n3} planes of {@code n2} rows of {@code n1} blocks,
   * block (i, j, k) at {@code srcOffset + i * s3 + j * s2 + k * s1} going to {@code dstOffset + i *
   * d3 + j * d2 + k * d1}. The Flash I/O type's z, y and x loops (8 x 8 x 8 doubles of a block's
   * interior) in one kernel call instead of eight. Exploits: the width test and the int-range checks
   * are done once per call, not once per plane; each plane then runs the width's row kernel.
   */
  public static void strided3(Memory src, long srcOffset, long s3, long s2, long s1, Memory dst, long dstOffset, long d3, long d2, long d1,
      long blockBytes, long n3, long n2, long n1) {
    if (CHECK_EVERY_ACCESS || n1 > Integer.MAX_VALUE || n2 > Integer.MAX_VALUE || (blockBytes != 4 && blockBytes != 8 && blockBytes != 16)) {
      for (long i = 0; i < n3; i++) {
        strided2(src, srcOffset + i * s3, s2, s1, dst, dstOffset + i * d3, d2, d1, blockBytes, n2, n1);
      }
      return;
    }
    int no = (int) n2;
    int ni = (int) n1;
    Object sb = src.base();
    long sa = src.address() + srcOffset;
    Object db = dst.base();
    long da = dst.address() + dstOffset;
    StridedLoops.forKinds(sb, db).planes(sb, sa, s3, s2, s1, db, da, d3, d2, d1, blockBytes, n3, no, ni);
  }

  /**
   * Packs blocks {@code [from, to)} of an indexed leaf: block b is {@code lengths[b]} bytes (or
   * {@code uniform} when {@code lengths} is null) at {@code src[srcBase + offsets[b]]}, written
   * back to back from {@code dst[dstOffset]}. Exploits: for uniform blocks the width test is hoisted
   * out of the loop (4/8/16/24-byte blocks are straight word moves: scalars, doubles, complex and
   * 3-vectors of a gather list); for varying lengths each block takes the width switch of {@link
   * #copyRaw}, which branch prediction learns for repeating patterns. Returns the bytes moved.
   */
  public static long gather(Memory src, long srcBase, long[] offsets, long[] lengths, long uniform, int from, int to, Memory dst,
      long dstOffset) {
    if (CHECK_EVERY_ACCESS) {
      long p = dstOffset;
      for (int b = from; b < to; b++) {
        long len = lengths == null ? uniform : lengths[b];
        src.checkRange("kernel", srcBase + offsets[b], len);
        dst.checkRange("kernel", p, len);
        p += len;
      }
    }
    Object sb = src.base();
    long sa = src.address() + srcBase;
    Object db = dst.base();
    long da = dst.address() + dstOffset;
    long d0 = da;
    if (lengths == null) {
      if (uniform == 8) {
        for (int b = from; b < to; b++, da += 8) {
          MemoryAccess.U.putLong(db, da, MemoryAccess.U.getLong(sb, sa + offsets[b]));
        }
      } else if (uniform == 4) {
        for (int b = from; b < to; b++, da += 4) {
          MemoryAccess.U.putInt(db, da, MemoryAccess.U.getInt(sb, sa + offsets[b]));
        }
      } else if (uniform == 16) {
        for (int b = from; b < to; b++, da += 16) {
          long s = sa + offsets[b];
          MemoryAccess.U.putLong(db, da, MemoryAccess.U.getLong(sb, s));
          MemoryAccess.U.putLong(db, da + 8, MemoryAccess.U.getLong(sb, s + 8));
        }
      } else if (uniform == 24) {
        for (int b = from; b < to; b++, da += 24) {
          long s = sa + offsets[b];
          MemoryAccess.U.putLong(db, da, MemoryAccess.U.getLong(sb, s));
          MemoryAccess.U.putLong(db, da + 8, MemoryAccess.U.getLong(sb, s + 8));
          MemoryAccess.U.putLong(db, da + 16, MemoryAccess.U.getLong(sb, s + 16));
        }
      } else if (uniform < 64) {
        listed(sb, sa, offsets, from, to, db, da, uniform, true);
        da += (to - from) * uniform;
      } else {
        for (int b = from; b < to; b++, da += uniform) {
          U.copyMemory(sb, sa + offsets[b], db, da, uniform);
        }
      }
    } else {
      for (int b = from; b < to; b++) {
        long len = lengths[b];
        copyRaw(sb, sa + offsets[b], db, da, len);
        da += len;
      }
    }
    return da - d0;
  }

  /**
   * Blocks of one width {@code w} under 64 bytes at listed offsets {@code ua + offsets[b]}, to or
   * from ({@code gather}) the contiguous side at {@code pa}: the overlapping word moves of {@link
   * #copySmall}, the width class chosen once per call, one loop per class and no branch per block.
   */
  static void listed(Object ub, long ua, long[] offsets, int from, int to, Object pb, long pa, long w, boolean gather) {
    Object sb = gather ? ub : pb;
    Object db = gather ? pb : ub;
    sun.misc.Unsafe u = U;
    long p = pa;
    if (w > 32) {
      long e = w - 32;
      for (int b = from; b < to; b++, p += w) {
        long x = ua + offsets[b];
        long s = gather ? x : p;
        long d = gather ? p : x;
        long a0 = u.getLong(sb, s);
        long a1 = u.getLong(sb, s + 8);
        long a2 = u.getLong(sb, s + 16);
        long a3 = u.getLong(sb, s + 24);
        long b0 = u.getLong(sb, s + e);
        long b1 = u.getLong(sb, s + e + 8);
        long b2 = u.getLong(sb, s + e + 16);
        long b3 = u.getLong(sb, s + e + 24);
        u.putLong(db, d, a0);
        u.putLong(db, d + 8, a1);
        u.putLong(db, d + 16, a2);
        u.putLong(db, d + 24, a3);
        u.putLong(db, d + e, b0);
        u.putLong(db, d + e + 8, b1);
        u.putLong(db, d + e + 16, b2);
        u.putLong(db, d + e + 24, b3);
      }
    } else if (w > 16) {
      long e = w - 16;
      for (int b = from; b < to; b++, p += w) {
        long x = ua + offsets[b];
        long s = gather ? x : p;
        long d = gather ? p : x;
        long a0 = u.getLong(sb, s);
        long a1 = u.getLong(sb, s + 8);
        long b0 = u.getLong(sb, s + e);
        long b1 = u.getLong(sb, s + e + 8);
        u.putLong(db, d, a0);
        u.putLong(db, d + 8, a1);
        u.putLong(db, d + e, b0);
        u.putLong(db, d + e + 8, b1);
      }
    } else if (w >= 8) {
      long e = w - 8;
      for (int b = from; b < to; b++, p += w) {
        long x = ua + offsets[b];
        long s = gather ? x : p;
        long d = gather ? p : x;
        long a = u.getLong(sb, s);
        long c = u.getLong(sb, s + e);
        u.putLong(db, d, a);
        u.putLong(db, d + e, c);
      }
    } else if (w >= 4) {
      long e = w - 4;
      for (int b = from; b < to; b++, p += w) {
        long x = ua + offsets[b];
        long s = gather ? x : p;
        long d = gather ? p : x;
        int a = u.getInt(sb, s);
        int c = u.getInt(sb, s + e);
        u.putInt(db, d, a);
        u.putInt(db, d + e, c);
      }
    } else {
      for (int b = from; b < to; b++, p += w) {
        long x = ua + offsets[b];
        long s = gather ? x : p;
        long d = gather ? p : x;
        copySmall(sb, s, db, d, w);
      }
    }
  }

  /** Unpacks blocks {@code [from, to)} of an indexed leaf: the mirror of {@link #gather}, same exploits. */
  public static long scatter(Memory src, long srcOffset, Memory dst, long dstBase, long[] offsets, long[] lengths, long uniform, int from,
      int to) {
    if (CHECK_EVERY_ACCESS) {
      long p = srcOffset;
      for (int b = from; b < to; b++) {
        long len = lengths == null ? uniform : lengths[b];
        dst.checkRange("kernel", dstBase + offsets[b], len);
        src.checkRange("kernel", p, len);
        p += len;
      }
    }
    Object sb = src.base();
    long sa = src.address() + srcOffset;
    Object db = dst.base();
    long da = dst.address() + dstBase;
    long s0 = sa;
    if (lengths == null) {
      if (uniform == 8) {
        for (int b = from; b < to; b++, sa += 8) {
          MemoryAccess.U.putLong(db, da + offsets[b], MemoryAccess.U.getLong(sb, sa));
        }
      } else if (uniform == 4) {
        for (int b = from; b < to; b++, sa += 4) {
          MemoryAccess.U.putInt(db, da + offsets[b], MemoryAccess.U.getInt(sb, sa));
        }
      } else if (uniform == 16) {
        for (int b = from; b < to; b++, sa += 16) {
          long d = da + offsets[b];
          MemoryAccess.U.putLong(db, d, MemoryAccess.U.getLong(sb, sa));
          MemoryAccess.U.putLong(db, d + 8, MemoryAccess.U.getLong(sb, sa + 8));
        }
      } else if (uniform == 24) {
        for (int b = from; b < to; b++, sa += 24) {
          long d = da + offsets[b];
          MemoryAccess.U.putLong(db, d, MemoryAccess.U.getLong(sb, sa));
          MemoryAccess.U.putLong(db, d + 8, MemoryAccess.U.getLong(sb, sa + 8));
          MemoryAccess.U.putLong(db, d + 16, MemoryAccess.U.getLong(sb, sa + 16));
        }
      } else if (uniform < 64) {
        listed(db, da, offsets, from, to, sb, sa, uniform, false);
        sa += (to - from) * uniform;
      } else {
        for (int b = from; b < to; b++, sa += uniform) {
          U.copyMemory(sb, sa, db, da + offsets[b], uniform);
        }
      }
    } else {
      for (int b = from; b < to; b++) {
        long len = lengths[b];
        copyRaw(sb, sa, db, da + offsets[b], len);
        sa += len;
      }
    }
    return sa - s0;
  }

  /**
   * Packs {@code count} instances of a small indexed pattern repeating every {@code srcStride}
   * bytes (a vector of an indexed leaf: the Indexed test, struct members), or, when {@code outer}
   * is not null, at {@code srcBase + outer[outerFrom + i]} (a list of records: atoms). Exploits:
   * the pattern's offsets and lengths are loaded into locals once when it has at most four blocks,
   * so each instance is a fixed sequence of width-switched moves with no index-array traffic; the
   * packed side is written sequentially. Returns the bytes moved.
   */
  public static long gatherRepeated(Memory src, long srcBase, long srcStride, long[] outer, int outerFrom, long count, long[] offsets,
      long[] lengths, long uniform, Memory dst, long dstOffset) {
    int nb = offsets.length;
    long size = 0;
    for (int b = 0; b < nb; b++) {
      size += lengths == null ? uniform : lengths[b];
    }
    if (CHECK_EVERY_ACCESS || nb > 4 || count > Integer.MAX_VALUE) {
      long p = dstOffset;
      for (long i = 0; i < count; i++) {
        long at = outer == null ? srcBase + i * srcStride : srcBase + outer[(int) (outerFrom + i)];
        p += gather(src, at, offsets, lengths, uniform, 0, nb, dst, p);
      }
      return p - dstOffset;
    }
    Object sb = src.base();
    long sa = src.address() + srcBase;
    Object db = dst.base();
    long da = dst.address() + dstOffset;
    long o0 = offsets[0];
    long o1 = nb > 1 ? offsets[1] : 0;
    long o2 = nb > 2 ? offsets[2] : 0;
    long o3 = nb > 3 ? offsets[3] : 0;
    long l0 = lengths == null ? uniform : lengths[0];
    long l1 = nb > 1 ? (lengths == null ? uniform : lengths[1]) : 0;
    long l2 = nb > 2 ? (lengths == null ? uniform : lengths[2]) : 0;
    long l3 = nb > 3 ? (lengths == null ? uniform : lengths[3]) : 0;
    long p1 = l0;
    long p2 = p1 + l1;
    long p3 = p2 + l2;
    int n = (int) count;
    for (int i = 0; i < n; i++) {
      long s = outer == null ? sa + i * srcStride : sa + outer[outerFrom + i];
      long d = da + i * size;
      copyRaw(sb, s + o0, db, d, l0);
      if (nb > 1) {
        copyRaw(sb, s + o1, db, d + p1, l1);
        if (nb > 2) {
          copyRaw(sb, s + o2, db, d + p2, l2);
          if (nb > 3) {
            copyRaw(sb, s + o3, db, d + p3, l3);
          }
        }
      }
    }
    return count * size;
  }

  /** Unpacks {@code count} instances of a small repeating indexed pattern: the mirror of {@link #gatherRepeated}, same exploits. */
  public static long scatterRepeated(Memory src, long srcOffset, Memory dst, long dstBase, long dstStride, long[] outer, int outerFrom,
      long count, long[] offsets, long[] lengths, long uniform) {
    int nb = offsets.length;
    long size = 0;
    for (int b = 0; b < nb; b++) {
      size += lengths == null ? uniform : lengths[b];
    }
    if (CHECK_EVERY_ACCESS || nb > 4 || count > Integer.MAX_VALUE) {
      long p = srcOffset;
      for (long i = 0; i < count; i++) {
        long at = outer == null ? dstBase + i * dstStride : dstBase + outer[(int) (outerFrom + i)];
        p += scatter(src, p, dst, at, offsets, lengths, uniform, 0, nb);
      }
      return p - srcOffset;
    }
    Object sb = src.base();
    long sa = src.address() + srcOffset;
    Object db = dst.base();
    long da = dst.address() + dstBase;
    long o0 = offsets[0];
    long o1 = nb > 1 ? offsets[1] : 0;
    long o2 = nb > 2 ? offsets[2] : 0;
    long o3 = nb > 3 ? offsets[3] : 0;
    long l0 = lengths == null ? uniform : lengths[0];
    long l1 = nb > 1 ? (lengths == null ? uniform : lengths[1]) : 0;
    long l2 = nb > 2 ? (lengths == null ? uniform : lengths[2]) : 0;
    long l3 = nb > 3 ? (lengths == null ? uniform : lengths[3]) : 0;
    long p1 = l0;
    long p2 = p1 + l1;
    long p3 = p2 + l2;
    int n = (int) count;
    for (int i = 0; i < n; i++) {
      long d = outer == null ? da + i * dstStride : da + outer[outerFrom + i];
      long s = sa + i * size;
      copyRaw(sb, s, db, d + o0, l0);
      if (nb > 1) {
        copyRaw(sb, s + p1, db, d + o1, l1);
        if (nb > 2) {
          copyRaw(sb, s + p2, db, d + o2, l2);
          if (nb > 3) {
            copyRaw(sb, s + p3, db, d + o3, l3);
          }
        }
      }
    }
    return count * size;
  }

  /**
   * Packs {@code count} instances of a small pattern given as word moves (see {@code
   * Dataloop.words}: pairs of user and packed offsets, 8-byte moves then 4-byte moves) through its
   * generated {@code kernel}, instance i at {@code userBase + i * userStride} or, when {@code outer}
   * is not null, at {@code userBase + outer[outerFrom + i]}. Returns the bytes moved.
   */
  public static long gatherWords(WordKernel kernel, Memory user, long userBase, long userStride, long[] outer, int outerFrom, long count,
      long size, Memory packed, long packedOffset) {
    Object ub = user.base();
    long ua = user.address() + userBase;
    Object pb = packed.base();
    long pa = packed.address() + packedOffset;
    if (outer == null) {
      kernel.gather(ub, ua, userStride, (int) count, pb, pa);
    } else {
      kernel.gatherList(ub, ua, outer, outerFrom, (int) count, pb, pa);
    }
    return count * size;
  }

  /** Unpacks {@code count} instances of a word pattern: the mirror of {@link #gatherWords}. */
  public static long scatterWords(WordKernel kernel, Memory user, long userBase, long userStride, long[] outer, int outerFrom, long count,
      long size, Memory packed, long packedOffset) {
    Object ub = user.base();
    long ua = user.address() + userBase;
    Object pb = packed.base();
    long pa = packed.address() + packedOffset;
    if (outer == null) {
      kernel.scatter(ub, ua, userStride, (int) count, pb, pa);
    } else {
      kernel.scatterList(ub, ua, outer, outerFrom, (int) count, pb, pa);
    }
    return count * size;
  }

  /** Reverses the bytes of each {@code unit}-byte element in {@code [offset, offset + length)} (external32). */
  public static void swapInPlace(Memory m, long offset, long length, int unit) {
    if (CHECK_EVERY_ACCESS) {
      m.checkRange("kernel", offset, length);
    }
    Object b = m.base();
    long a = m.address() + offset;
    switch (unit) {
      case 2 -> {
        for (long i = 0; i + 2 <= length; i += 2) {
          MemoryAccess.U.putShort(b, a + i, Short.reverseBytes(MemoryAccess.U.getShort(b, a + i)));
        }
      }
      case 4 -> {
        for (long i = 0; i + 4 <= length; i += 4) {
          MemoryAccess.U.putInt(b, a + i, Integer.reverseBytes(MemoryAccess.U.getInt(b, a + i)));
        }
      }
      case 8 -> {
        for (long i = 0; i + 8 <= length; i += 8) {
          MemoryAccess.U.putLong(b, a + i, Long.reverseBytes(MemoryAccess.U.getLong(b, a + i)));
        }
      }
      default -> {}
    }
  }

  public static byte getByte(Memory m, long offset) {
    if (CHECK_EVERY_ACCESS) {
      m.checkRange("kernel", offset, 1);
    }
    return MemoryAccess.U.getByte(m.base(), m.address() + offset);
  }

  public static void putByte(Memory m, long offset, byte v) {
    if (CHECK_EVERY_ACCESS) {
      m.checkRange("kernel", offset, 1);
    }
    MemoryAccess.U.putByte(m.base(), m.address() + offset, v);
  }
}
