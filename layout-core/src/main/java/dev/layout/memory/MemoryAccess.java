package dev.layout.memory;

import java.nio.ByteOrder;

/**
 * Unchecked kernels for the dataloop engine, which has checked the whole footprint of an operation
 * before calling them. Not for general use: a wrong offset here is a wrong memory access.
 */
public final class MemoryAccess {
  private MemoryAccess() {}

  private static final boolean BIG_ENDIAN_HOST = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

  /**
   * When true (system property {@code layout.memory.checkEveryAccess}), every kernel access is
   * bounds-checked too. For debugging the engine; the up-front footprint check is always on.
   */
  public static final boolean CHECK_EVERY_ACCESS = Boolean.getBoolean("layout.memory.checkEveryAccess");

  static short le(short v) {
    return BIG_ENDIAN_HOST ? Short.reverseBytes(v) : v;
  }

  static int le(int v) {
    return BIG_ENDIAN_HOST ? Integer.reverseBytes(v) : v;
  }

  static long le(long v) {
    return BIG_ENDIAN_HOST ? Long.reverseBytes(v) : v;
  }

  /**
   * Copies one block. Small blocks (the common case in strided layouts: 4 or 8 bytes) move as single
   * words so the JIT can keep them in registers; large ones go to the bulk copy intrinsic.
   */
  public static void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long length) {
    if (CHECK_EVERY_ACCESS) {
      src.checkRange("kernel", srcOffset, length);
      dst.checkRange("kernel", dstOffset, length);
    }
    Object sb = src.base;
    long sa = src.address + srcOffset;
    Object db = dst.base;
    long da = dst.address + dstOffset;
    copyRaw(sb, sa, db, da, length);
  }

  static void copyRaw(Object sb, long sa, Object db, long da, long length) {
    if (length == 8) {
      Memory.U.putLong(db, da, Memory.U.getLong(sb, sa));
    } else if (length == 4) {
      Memory.U.putInt(db, da, Memory.U.getInt(sb, sa));
    } else if (length <= 32) {
      long i = 0;
      for (; i + 8 <= length; i += 8) {
        Memory.U.putLong(db, da + i, Memory.U.getLong(sb, sa + i));
      }
      for (; i < length; i++) {
        Memory.U.putByte(db, da + i, Memory.U.getByte(sb, sa + i));
      }
    } else {
      Memory.U.copyMemory(sb, sa, db, da, length);
    }
  }

  /**
   * Gathers {@code count} blocks of {@code blockBytes} at {@code srcOffset + i * srcStride} into
   * {@code dst} at {@code dstOffset + i * dstStride}. This one loop is both pack (dstStride =
   * blockBytes) and unpack (srcStride = blockBytes) of a vector leaf; the 4- and 8-byte cases are
   * split out because they dominate strided numerical layouts and become a plain load/store loop.
   */
  public static void strided(Memory src, long srcOffset, long srcStride, Memory dst, long dstOffset, long dstStride, long blockBytes,
      long count) {
    if (CHECK_EVERY_ACCESS) {
      for (long i = 0; i < count; i++) {
        src.checkRange("kernel", srcOffset + i * srcStride, blockBytes);
        dst.checkRange("kernel", dstOffset + i * dstStride, blockBytes);
      }
    }
    Object sb = src.base;
    long sa = src.address + srcOffset;
    Object db = dst.base;
    long da = dst.address + dstOffset;
    if (blockBytes == 8) {
      for (long i = 0; i < count; i++) {
        Memory.U.putLong(db, da, Memory.U.getLong(sb, sa));
        sa += srcStride;
        da += dstStride;
      }
    } else if (blockBytes == 4) {
      for (long i = 0; i < count; i++) {
        Memory.U.putInt(db, da, Memory.U.getInt(sb, sa));
        sa += srcStride;
        da += dstStride;
      }
    } else {
      for (long i = 0; i < count; i++) {
        copyRaw(sb, sa, db, da, blockBytes);
        sa += srcStride;
        da += dstStride;
      }
    }
  }

  /** Reverses the bytes of each {@code unit}-byte element in {@code [offset, offset + length)} (external32). */
  public static void swapInPlace(Memory m, long offset, long length, int unit) {
    if (CHECK_EVERY_ACCESS) {
      m.checkRange("kernel", offset, length);
    }
    Object b = m.base;
    long a = m.address + offset;
    switch (unit) {
      case 2 -> {
        for (long i = 0; i + 2 <= length; i += 2) {
          Memory.U.putShort(b, a + i, Short.reverseBytes(Memory.U.getShort(b, a + i)));
        }
      }
      case 4 -> {
        for (long i = 0; i + 4 <= length; i += 4) {
          Memory.U.putInt(b, a + i, Integer.reverseBytes(Memory.U.getInt(b, a + i)));
        }
      }
      case 8 -> {
        for (long i = 0; i + 8 <= length; i += 8) {
          Memory.U.putLong(b, a + i, Long.reverseBytes(Memory.U.getLong(b, a + i)));
        }
      }
      default -> {}
    }
  }

  public static byte getByte(Memory m, long offset) {
    if (CHECK_EVERY_ACCESS) {
      m.checkRange("kernel", offset, 1);
    }
    return Memory.U.getByte(m.base, m.address + offset);
  }

  public static void putByte(Memory m, long offset, byte v) {
    if (CHECK_EVERY_ACCESS) {
      m.checkRange("kernel", offset, 1);
    }
    Memory.U.putByte(m.base, m.address + offset, v);
  }
}
