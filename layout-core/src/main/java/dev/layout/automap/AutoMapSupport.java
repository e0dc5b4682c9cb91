package dev.layout.automap;

import dev.layout.memory.Memory;

/**
 * Static helpers called by the generated codecs (array fields, null checks, boolean decoding).
 * Public only because generated classes live in the mapped class's package.
 */
public final class AutoMapSupport {
    private AutoMapSupport() {}

    /** boolean is stored as one byte, 0 or 1; any non-zero byte reads as true. */
    public static boolean toBoolean(byte b) {
        return b != 0;
    }

    public static Object nonNull(Object value, String field) {
        if (value == null) {
            throw new NullPointerException("write: " + field + " is null");
        }
        return value;
    }

    static void checkLength(int actual, int expected, String field) {
        if (actual != expected) {
            if (actual < 0) {
                throw new NullPointerException("write: " + field + " is null");
            }
            throw new IllegalArgumentException(
                    "write: " + field + " length " + actual + " (expected: " + expected + ")");
        }
    }

    public static void putBooleans(boolean[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 1) {
            m.putByte(o, (byte) (a[i] ? 1 : 0));
        }
    }

    public static boolean[] getBooleans(int length, Memory m, long offset) {
        boolean[] a = new boolean[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 1) {
            a[i] = m.getByte(o) != 0;
        }
        return a;
    }

    public static void putBytes(byte[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 1) {
            m.putByte(o, a[i]);
        }
    }

    public static byte[] getBytes(int length, Memory m, long offset) {
        byte[] a = new byte[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 1) {
            a[i] = m.getByte(o);
        }
        return a;
    }

    public static void putShorts(short[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 2) {
            m.putShort(o, a[i]);
        }
    }

    public static short[] getShorts(int length, Memory m, long offset) {
        short[] a = new short[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 2) {
            a[i] = m.getShort(o);
        }
        return a;
    }

    public static void putChars(char[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 2) {
            m.putShort(o, (short) a[i]);
        }
    }

    public static char[] getChars(int length, Memory m, long offset) {
        char[] a = new char[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 2) {
            a[i] = (char) m.getShort(o);
        }
        return a;
    }

    public static void putInts(int[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 4) {
            m.putInt(o, a[i]);
        }
    }

    public static int[] getInts(int length, Memory m, long offset) {
        int[] a = new int[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 4) {
            a[i] = m.getInt(o);
        }
        return a;
    }

    public static void putLongs(long[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 8) {
            m.putLong(o, a[i]);
        }
    }

    public static long[] getLongs(int length, Memory m, long offset) {
        long[] a = new long[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 8) {
            a[i] = m.getLong(o);
        }
        return a;
    }

    public static void putFloats(float[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 4) {
            m.putFloat(o, a[i]);
        }
    }

    public static float[] getFloats(int length, Memory m, long offset) {
        float[] a = new float[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 4) {
            a[i] = m.getFloat(o);
        }
        return a;
    }

    public static void putDoubles(double[] a, int length, Memory m, long offset, String field) {
        checkLength(a == null ? -1 : a.length, length, field);
        long o = offset;
        for (int i = 0; i < length; i++, o += 8) {
            m.putDouble(o, a[i]);
        }
    }

    public static double[] getDoubles(int length, Memory m, long offset) {
        double[] a = new double[length];
        long o = offset;
        for (int i = 0; i < length; i++, o += 8) {
            a[i] = m.getDouble(o);
        }
        return a;
    }
}
