package dev.layout.dataloop;

import static dev.layout.bench.memory.Raw.U;

import dev.layout.dataloop.RossCase.Instance;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;

/**
 * The layouts several {@link RossCase}s share (contiguous runs, every-other element, indexed blocks,
 * the three 3D faces), each with its hand-written loops. Each builder returns a fresh anonymous
 * class, so every case has its own loop and its own JIT profile.
 */
final class RossShapes {
    private RossShapes() {}

    static Instance contig(int n, int w) {
        Datatype t = Datatype.contiguous(n, w == 4 ? Primitive.FLOAT32 : Primitive.FLOAT64);
        long bytes = (long) n * w;
        return new Instance(t, 1, bytes, 0) {
            // One bulk copy, as anyone would write it.
            @Override
            public void pack(Object ub, long ua, Object pb, long pa) {
                U.copyMemory(ub, ua, pb, pa, bytes);
            }

            @Override
            public void unpack(Object pb, long pa, Object ub, long ua) {
                U.copyMemory(pb, pa, ub, ua, bytes);
            }
        };
    }

    /** Every other element of an array of 2n elements of width w (Vector and Struct Vector tests). */
    static Instance everyOther(Datatype t, long count, int n, int w) {
        if (w == 4) {
            return new Instance(t, count, 8L * n, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    for (int i = 0; i < n; i++) {
                        U.putInt(pb, pa + 4L * i, U.getInt(ub, ua + 8L * i));
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    for (int i = 0; i < n; i++) {
                        U.putInt(ub, ua + 8L * i, U.getInt(pb, pa + 4L * i));
                    }
                }
            };
        }
        return new Instance(t, count, 16L * n, 0) {
            @Override
            public void pack(Object ub, long ua, Object pb, long pa) {
                for (int i = 0; i < n; i++) {
                    U.putLong(pb, pa + 8L * i, U.getLong(ub, ua + 16L * i));
                }
            }

            @Override
            public void unpack(Object pb, long pa, Object ub, long ua) {
                for (int i = 0; i < n; i++) {
                    U.putLong(ub, ua + 16L * i, U.getLong(pb, pa + 8L * i));
                }
            }
        };
    }

    /** Indexed test: n blocks of one element, block j at element 8*(j/4) + P[j%4], P = {0, 1, 3, 6}. */
    static Instance indexed(int n, Primitive p) {
        long[] bl = new long[n];
        long[] disp = new long[n];
        int[] pat = {0, 1, 3, 6};
        for (int j = 0; j < n; j++) {
            bl[j] = 1;
            disp[j] = 8L * (j / 4) + pat[j % 4];
        }
        Datatype t = Datatype.indexed(bl, disp, p);
        int groups = n / 4;
        // One loop per element width, as written by hand: the baseline the engine is measured against.
        if (p.byteSize() == 4) {
            return new Instance(t, 1, 8L * n, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    for (int g = 0; g < groups; g++) {
                        long s = ua + 32L * g;
                        long d = pa + 16L * g;
                        U.putInt(pb, d, U.getInt(ub, s));
                        U.putInt(pb, d + 4, U.getInt(ub, s + 4));
                        U.putInt(pb, d + 8, U.getInt(ub, s + 12));
                        U.putInt(pb, d + 12, U.getInt(ub, s + 24));
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    for (int g = 0; g < groups; g++) {
                        long s = ua + 32L * g;
                        long d = pa + 16L * g;
                        U.putInt(ub, s, U.getInt(pb, d));
                        U.putInt(ub, s + 4, U.getInt(pb, d + 4));
                        U.putInt(ub, s + 12, U.getInt(pb, d + 8));
                        U.putInt(ub, s + 24, U.getInt(pb, d + 12));
                    }
                }
            };
        }
        return new Instance(t, 1, 16L * n, 0) {
            @Override
            public void pack(Object ub, long ua, Object pb, long pa) {
                for (int g = 0; g < groups; g++) {
                    long s = ua + 64L * g;
                    long d = pa + 32L * g;
                    U.putLong(pb, d, U.getLong(ub, s));
                    U.putLong(pb, d + 8, U.getLong(ub, s + 8));
                    U.putLong(pb, d + 16, U.getLong(ub, s + 24));
                    U.putLong(pb, d + 24, U.getLong(ub, s + 48));
                }
            }

            @Override
            public void unpack(Object pb, long pa, Object ub, long ua) {
                for (int g = 0; g < groups; g++) {
                    long s = ua + 64L * g;
                    long d = pa + 32L * g;
                    U.putLong(ub, s, U.getLong(pb, d));
                    U.putLong(ub, s + 8, U.getLong(pb, d + 8));
                    U.putLong(ub, s + 24, U.getLong(pb, d + 16));
                    U.putLong(ub, s + 48, U.getLong(pb, d + 24));
                }
            }
        };
    }

    /** XY face of a cube a[z][y][x] (z = 0): one contiguous plane, one bulk copy. */
    static Instance faceXY(int n, Primitive p) {
        long w = p.byteSize();
        Datatype t = Datatype.vector(n, n, n, p);
        long bytes = w * n * n;
        return new Instance(t, 1, w * n * n * n, 0) {
            @Override
            public void pack(Object ub, long ua, Object pb, long pa) {
                U.copyMemory(ub, ua, pb, pa, bytes);
            }

            @Override
            public void unpack(Object pb, long pa, Object ub, long ua) {
                U.copyMemory(pb, pa, ub, ua, bytes);
            }
        };
    }

    /** XZ face (y = 0): one row of n elements per plane, a bulk copy per row. */
    static Instance faceXZ(int n, Primitive p) {
        long w = p.byteSize();
        Datatype t = Datatype.vector(n, n, (long) n * n, p);
        long row = w * n;
        long plane = row * n;
        return new Instance(t, 1, plane * n - plane + row, 0) {
            @Override
            public void pack(Object ub, long ua, Object pb, long pa) {
                for (int z = 0; z < n; z++) {
                    U.copyMemory(ub, ua + z * plane, pb, pa + z * row, row);
                }
            }

            @Override
            public void unpack(Object pb, long pa, Object ub, long ua) {
                for (int z = 0; z < n; z++) {
                    U.copyMemory(pb, pa + z * row, ub, ua + z * plane, row);
                }
            }
        };
    }

    /** YZ face (x = 0): one element per row, element-width moves in a double loop. */
    static Instance faceYZ(int n, Primitive p) {
        long w = p.byteSize();
        Datatype t = Datatype.hvector(n, 1, w * n * n, Datatype.vector(n, 1, n, p));
        long row = w * n;
        long plane = row * n;
        long userBytes = plane * (n - 1) + row * (n - 1) + w;
        if (w == 4) {
            return new Instance(t, 1, userBytes, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    for (int z = 0; z < n; z++) {
                        long s = ua + z * plane;
                        for (int y = 0; y < n; y++) {
                            U.putInt(pb, d, U.getInt(ub, s + y * row));
                            d += 4;
                        }
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    for (int z = 0; z < n; z++) {
                        long s = ua + z * plane;
                        for (int y = 0; y < n; y++) {
                            U.putInt(ub, s + y * row, U.getInt(pb, d));
                            d += 4;
                        }
                    }
                }
            };
        }
        return new Instance(t, 1, userBytes, 0) {
            @Override
            public void pack(Object ub, long ua, Object pb, long pa) {
                long d = pa;
                for (int z = 0; z < n; z++) {
                    long s = ua + z * plane;
                    for (int y = 0; y < n; y++) {
                        U.putLong(pb, d, U.getLong(ub, s + y * row));
                        d += 8;
                    }
                }
            }

            @Override
            public void unpack(Object pb, long pa, Object ub, long ua) {
                long d = pa;
                for (int z = 0; z < n; z++) {
                    long s = ua + z * plane;
                    for (int y = 0; y < n; y++) {
                        U.putLong(ub, s + y * row, U.getLong(pb, d));
                        d += 8;
                    }
                }
            }
        };
    }
}
