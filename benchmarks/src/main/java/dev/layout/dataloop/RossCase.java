package dev.layout.dataloop;

import static dev.layout.bench.memory.Raw.U;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The pack suite of Ross, Miller and Gropp (2003, section 3; exact layouts in {@code
 * shared/bench/ross-suite.md}) plus application layouts real codes exchange. Each constant builds
 * the layout as a {@link Datatype} <em>and</em> the hand-written pack and unpack loops for the same
 * bytes, so one run measures engine and manual side by side (JMH {@link PackBenchmark}, {@code
 * layout bench pack}) and {@code RossCaseTest} checks they agree byte for byte.
 *
 * <p>Manual loops are written the way a performance-minded Java engineer writes them without a
 * datatype engine: {@code Unsafe} loads and stores on a (base, address) pair (one loop for heap,
 * direct and off-heap buffers), {@code int} loop counters, element-width moves, bulk copies for
 * contiguous rows, constant offsets folded into the loop. The Struct Array loop copies member by
 * member, as the paper's manual code does.
 *
 * <pre>{@code
 * RossCase.Instance v = RossCase.VECTOR_F64.create(RossCase.Size.FULL);
 * Segment.of(v.type, v.count, userMemory, v.origin).pack(packedMemory, 0, v.packedBytes);
 * v.pack(userBase, userAddress, packedBase, packedAddress); // the same bytes, by hand
 * }</pre>
 */
public enum RossCase {
    CONTIG_F32("Contig(float32)", size -> RossShapes.contig(suite(size), 4)),
    CONTIG_F64("Contig(float64)", size -> RossShapes.contig(suite(size), 8)),
    STRUCT_ARRAY("Struct Array") {
        @Override
        public Instance create(Size size) {
            int n = size.pick(65536, 256);
            Datatype s = Datatype.struct(
                    new long[] {2, 64, 2, 1},
                    new long[] {0, 8, 72, 88},
                    List.of(Primitive.INT32, Primitive.BYTE, Primitive.FLOAT64, Primitive.FLOAT32));
            Datatype t = Datatype.resized(0, 92, s);
            return new Instance(t, n, 92L * n, 0) {
                // struct {int a[2]; char c[64]; double d[2]; float f;} packed: member by member, as the paper's manual
                // code.
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    for (int i = 0; i < n; i++) {
                        long s = ua + 92L * i;
                        long d = pa + 92L * i;
                        U.putLong(pb, d, U.getLong(ub, s));
                        U.copyMemory(ub, s + 8, pb, d + 8, 64);
                        U.putLong(pb, d + 72, U.getLong(ub, s + 72));
                        U.putLong(pb, d + 80, U.getLong(ub, s + 80));
                        U.putInt(pb, d + 88, U.getInt(ub, s + 88));
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    for (int i = 0; i < n; i++) {
                        long d = ua + 92L * i;
                        long s = pa + 92L * i;
                        U.putLong(ub, d, U.getLong(pb, s));
                        U.copyMemory(pb, s + 8, ub, d + 8, 64);
                        U.putLong(ub, d + 72, U.getLong(pb, s + 72));
                        U.putLong(ub, d + 80, U.getLong(pb, s + 80));
                        U.putInt(ub, d + 88, U.getInt(pb, s + 88));
                    }
                }
            };
        }
    },
    VECTOR_F32(
            "Vector(float32)",
            size -> RossShapes.everyOther(Datatype.vector(suite(size), 1, 2, Primitive.FLOAT32), 1, suite(size), 4)),
    VECTOR_F64(
            "Vector(float64)",
            size -> RossShapes.everyOther(Datatype.vector(suite(size), 1, 2, Primitive.FLOAT64), 1, suite(size), 8)),
    STRUCT_VECTOR_F32(
            "Struct Vector(float32)",
            size -> RossShapes.everyOther(Datatype.resized(0, 8, Primitive.FLOAT32), suite(size), suite(size), 4)),
    STRUCT_VECTOR_F64(
            "Struct Vector(float64)",
            size -> RossShapes.everyOther(Datatype.resized(0, 16, Primitive.FLOAT64), suite(size), suite(size), 8)),
    INDEXED_F32("Indexed(float32)", size -> RossShapes.indexed(suite(size), Primitive.FLOAT32)),
    INDEXED_F64("Indexed(float64)", size -> RossShapes.indexed(suite(size), Primitive.FLOAT64)),
    FACE_XY_F32("3D XY face(float32)", size -> RossShapes.faceXY(size.pick(256, 16), Primitive.FLOAT32)),
    FACE_XZ_F32("3D XZ face(float32)", size -> RossShapes.faceXZ(size.pick(256, 16), Primitive.FLOAT32)),
    FACE_YZ_F32("3D YZ face(float32)", size -> RossShapes.faceYZ(size.pick(256, 16), Primitive.FLOAT32)),
    FACE_XY_F64("3D XY face(float64)", size -> RossShapes.faceXY(size.pick(256, 16), Primitive.FLOAT64)),
    FACE_XZ_F64("3D XZ face(float64)", size -> RossShapes.faceXZ(size.pick(256, 16), Primitive.FLOAT64)),
    FACE_YZ_F64("3D YZ face(float64)", size -> RossShapes.faceYZ(size.pick(256, 16), Primitive.FLOAT64)),
    FLASH_IO("Flash I/O") {
        @Override
        public Instance create(Size size) {
            // 80 blocks (4 in the small variant) of 16^3 cells x 24 float64 variables, 8^3 interior at
            // guard depth 4, packed by variable: hvector(24, 1, 8, hvector(80, 1, 786432, hvector(8, 1,
            // 49152, hvector(8, 1, 3072, vector(8, 1, 24, float64))))), origin at byte 209664.
            int blocks = size.pick(80, 4);
            Datatype x = Datatype.vector(8, 1, 24, Primitive.FLOAT64);
            Datatype y = Datatype.hvector(8, 1, 3072, x);
            Datatype z = Datatype.hvector(8, 1, 49152, y);
            Datatype b = Datatype.hvector(blocks, 1, 786432, z);
            Datatype t = Datatype.hvector(24, 1, 8, b);
            return new Instance(t, 1, 786432L * blocks, 209664) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    long o = ua + 209664;
                    for (int v = 0; v < 24; v++) {
                        for (int k = 0; k < blocks; k++) {
                            for (int iz = 0; iz < 8; iz++) {
                                for (int iy = 0; iy < 8; iy++) {
                                    long s = o + v * 8L + k * 786432L + iz * 49152L + iy * 3072L;
                                    for (int ix = 0; ix < 8; ix++) {
                                        U.putLong(pb, d, U.getLong(ub, s + ix * 192L));
                                        d += 8;
                                    }
                                }
                            }
                        }
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    long o = ua + 209664;
                    for (int v = 0; v < 24; v++) {
                        for (int k = 0; k < blocks; k++) {
                            for (int iz = 0; iz < 8; iz++) {
                                for (int iy = 0; iy < 8; iy++) {
                                    long s = o + v * 8L + k * 786432L + iz * 49152L + iy * 3072L;
                                    for (int ix = 0; ix < 8; ix++) {
                                        U.putLong(ub, s + ix * 192L, U.getLong(pb, d));
                                        d += 8;
                                    }
                                }
                            }
                        }
                    }
                }
            };
        }
    },
    WEATHER_HALO("Weather halo struct") {
        @Override
        public Instance create(Size size) {
            // A weather code's east/north/top halo of three float64 fields u, v, w[n][n][n] and the east
            // halo of a float32 tracer field q[4][n][n][n], all in one buffer, sent as one struct.
            int n = size.pick(128, 12);
            int h = 2;
            long n3 = (long) n * n * n;
            long offV = 8 * n3;
            long offW = 16 * n3;
            long offQ = 24 * n3;
            long[] s3 = {n, n, n};
            Datatype east =
                    Datatype.subarray(s3, new long[] {n, n, h}, new long[] {0, 0, n - h}, Order.C, Primitive.FLOAT64);
            Datatype north =
                    Datatype.subarray(s3, new long[] {n, h, n}, new long[] {0, n - h, 0}, Order.C, Primitive.FLOAT64);
            Datatype top =
                    Datatype.subarray(s3, new long[] {h, n, n}, new long[] {n - h, 0, 0}, Order.C, Primitive.FLOAT64);
            Datatype eastQ = Datatype.subarray(
                    new long[] {4, n, n, n},
                    new long[] {4, n, n, h},
                    new long[] {0, 0, 0, n - h},
                    Order.C,
                    Primitive.FLOAT32);
            Datatype t = Datatype.struct(
                    new long[] {1, 1, 1, 1}, new long[] {0, offV, offW, offQ}, List.of(east, north, top, eastQ));
            return new Instance(t, 1, offQ + 16 * n3, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    for (int z = 0; z < n; z++) { // u: east face, 2 doubles per row
                        for (int y = 0; y < n; y++) {
                            long s = ua + (((long) z * n + y) * n + n - h) * 8;
                            U.putLong(pb, d, U.getLong(ub, s));
                            U.putLong(pb, d + 8, U.getLong(ub, s + 8));
                            d += 16;
                        }
                    }
                    for (int z = 0; z < n; z++) { // v: north face, 2 adjacent rows per plane
                        U.copyMemory(ub, ua + offV + ((long) z * n + n - h) * n * 8, pb, d, (long) h * n * 8);
                        d += (long) h * n * 8;
                    }
                    U.copyMemory(
                            ub, ua + offW + (long) (n - h) * n * n * 8, pb, d, (long) h * n * n * 8); // w: top planes
                    d += (long) h * n * n * 8;
                    for (int c = 0; c < 4; c++) { // q: east face, 2 floats per row
                        for (int z = 0; z < n; z++) {
                            for (int y = 0; y < n; y++) {
                                long s = ua + offQ + ((((long) c * n + z) * n + y) * n + n - h) * 4;
                                U.putLong(pb, d, U.getLong(ub, s));
                                d += 8;
                            }
                        }
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    for (int z = 0; z < n; z++) {
                        for (int y = 0; y < n; y++) {
                            long s = ua + (((long) z * n + y) * n + n - h) * 8;
                            U.putLong(ub, s, U.getLong(pb, d));
                            U.putLong(ub, s + 8, U.getLong(pb, d + 8));
                            d += 16;
                        }
                    }
                    for (int z = 0; z < n; z++) {
                        U.copyMemory(pb, d, ub, ua + offV + ((long) z * n + n - h) * n * 8, (long) h * n * 8);
                        d += (long) h * n * 8;
                    }
                    U.copyMemory(pb, d, ub, ua + offW + (long) (n - h) * n * n * 8, (long) h * n * n * 8);
                    d += (long) h * n * n * 8;
                    for (int c = 0; c < 4; c++) {
                        for (int z = 0; z < n; z++) {
                            for (int y = 0; y < n; y++) {
                                long s = ua + offQ + ((((long) c * n + z) * n + y) * n + n - h) * 4;
                                U.putLong(ub, s, U.getLong(pb, d));
                                d += 8;
                            }
                        }
                    }
                }
            };
        }
    },
    MULTIGRID_FACES("Multigrid level faces") {
        @Override
        public Instance create(Size size) {
            // The six boundary faces of one level a[n][n][n] (float64, n = 2^k + 1) of a multigrid
            // hierarchy, packed in one struct: x-low, x-high, y-low, y-high, z-low, z-high.
            int n = size.pick(129, 9);
            long[] s3 = {n, n, n};
            Datatype[] faces = new Datatype[6];
            for (int side = 0; side < 2; side++) {
                long at = side == 0 ? 0 : n - 1;
                faces[side] =
                        Datatype.subarray(s3, new long[] {n, n, 1}, new long[] {0, 0, at}, Order.C, Primitive.FLOAT64);
                faces[2 + side] =
                        Datatype.subarray(s3, new long[] {n, 1, n}, new long[] {0, at, 0}, Order.C, Primitive.FLOAT64);
                faces[4 + side] =
                        Datatype.subarray(s3, new long[] {1, n, n}, new long[] {at, 0, 0}, Order.C, Primitive.FLOAT64);
            }
            Datatype t = Datatype.struct(new long[] {1, 1, 1, 1, 1, 1}, new long[6], List.of(faces));
            long row = 8L * n;
            long plane = row * n;
            return new Instance(t, 1, plane * n, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    for (int side = 0; side < 2; side++) { // x faces: one double per row
                        long s = ua + side * (row - 8);
                        for (int i = 0; i < n * n; i++) {
                            U.putLong(pb, d, U.getLong(ub, s + i * row));
                            d += 8;
                        }
                    }
                    for (int side = 0; side < 2; side++) { // y faces: one row per plane
                        long s = ua + side * (plane - row);
                        for (int z = 0; z < n; z++) {
                            U.copyMemory(ub, s + z * plane, pb, d, row);
                            d += row;
                        }
                    }
                    for (int side = 0; side < 2; side++) { // z faces: one plane
                        U.copyMemory(ub, ua + side * (plane * n - plane), pb, d, plane);
                        d += plane;
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    for (int side = 0; side < 2; side++) {
                        long s = ua + side * (row - 8);
                        for (int i = 0; i < n * n; i++) {
                            U.putLong(ub, s + i * row, U.getLong(pb, d));
                            d += 8;
                        }
                    }
                    for (int side = 0; side < 2; side++) {
                        long s = ua + side * (plane - row);
                        for (int z = 0; z < n; z++) {
                            U.copyMemory(pb, d, ub, s + z * plane, row);
                            d += row;
                        }
                    }
                    for (int side = 0; side < 2; side++) {
                        U.copyMemory(pb, d, ub, ua + side * (plane * n - plane), plane);
                        d += plane;
                    }
                }
            };
        }
    },
    MD_ATOMS("MD atom list") {
        @Override
        public Instance create(Size size) {
            // Molecular dynamics: 96-byte atom records {double pos[3]; double vel[3]; double force[3];
            // double charge; double mass; int type; pad}; a sorted list of a quarter of the atoms (the
            // halo) sends position, charge and type: indexedBlock(1, list, resized(0, 96, struct(...))).
            int atoms = size.pick(1 << 20, 1 << 10);
            Random r = new Random(42);
            int[] list = new int[atoms];
            int k = 0;
            for (int i = 0; i < atoms; i++) {
                if (r.nextInt(4) == 0) {
                    list[k++] = i;
                }
            }
            int m = k;
            long[] disp = new long[m];
            for (int i = 0; i < m; i++) {
                disp[i] = list[i];
            }
            Datatype atom = Datatype.resized(
                    0,
                    96,
                    Datatype.struct(
                            new long[] {3, 1, 1},
                            new long[] {0, 72, 88},
                            List.of(Primitive.FLOAT64, Primitive.FLOAT64, Primitive.INT32)));
            Datatype t = Datatype.indexedBlock(1, disp, atom);
            return new Instance(t, 1, 96L * atoms, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    for (int i = 0; i < m; i++) {
                        long s = ua + list[i] * 96L;
                        U.putLong(pb, d, U.getLong(ub, s));
                        U.putLong(pb, d + 8, U.getLong(ub, s + 8));
                        U.putLong(pb, d + 16, U.getLong(ub, s + 16));
                        U.putLong(pb, d + 24, U.getLong(ub, s + 72));
                        U.putInt(pb, d + 32, U.getInt(ub, s + 88));
                        d += 36;
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    for (int i = 0; i < m; i++) {
                        long s = ua + list[i] * 96L;
                        U.putLong(ub, s, U.getLong(pb, d));
                        U.putLong(ub, s + 8, U.getLong(pb, d + 8));
                        U.putLong(ub, s + 16, U.getLong(pb, d + 16));
                        U.putLong(ub, s + 72, U.getLong(pb, d + 24));
                        U.putInt(ub, s + 88, U.getInt(pb, d + 32));
                        d += 36;
                    }
                }
            };
        }
    },
    FFT_TRANSPOSE("FFT transpose") {
        @Override
        public Instance create(Size size) {
            // Distributed FFT: a slab a[n1][n2] of complex128 is sent transposed, column by column, with a
            // column type resized to one element so that a count of n2 columns walks the columns:
            // resized(0, 16, vector(n1, 1, n2, contig(2, float64))) x n2.
            int n1 = size.pick(256, 8);
            int n2 = size.pick(2048, 16);
            Datatype complex = Datatype.contiguous(2, Primitive.FLOAT64);
            Datatype column = Datatype.resized(0, 16, Datatype.vector(n1, 1, n2, complex));
            long row = 16L * n2;
            return new Instance(column, n2, row * n1, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    for (int j = 0; j < n2; j++) {
                        long s = ua + 16L * j;
                        for (int i = 0; i < n1; i++) {
                            U.putLong(pb, d, U.getLong(ub, s));
                            U.putLong(pb, d + 8, U.getLong(ub, s + 8));
                            s += row;
                            d += 16;
                        }
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    for (int j = 0; j < n2; j++) {
                        long s = ua + 16L * j;
                        for (int i = 0; i < n1; i++) {
                            U.putLong(ub, s, U.getLong(pb, d));
                            U.putLong(ub, s + 8, U.getLong(pb, d + 8));
                            s += row;
                            d += 16;
                        }
                    }
                }
            };
        }
    },
    FE_GATHER("FE random gather") {
        @Override
        public Instance create(Size size) {
            // Finite elements: gather the 3 float64 degrees of freedom of half of the mesh nodes in a
            // random order (no repeats): indexedBlock(3, 3 * node, float64).
            int nodes = size.pick(1 << 20, 1 << 10);
            int m = nodes / 2;
            int[] perm = new int[nodes];
            for (int i = 0; i < nodes; i++) {
                perm[i] = i;
            }
            Random r = new Random(7);
            for (int i = nodes - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int x = perm[i];
                perm[i] = perm[j];
                perm[j] = x;
            }
            int[] list = java.util.Arrays.copyOf(perm, m);
            long[] disp = new long[m];
            for (int i = 0; i < m; i++) {
                disp[i] = 3L * list[i];
            }
            Datatype t = Datatype.indexedBlock(3, disp, Primitive.FLOAT64);
            return new Instance(t, 1, 24L * nodes, 0) {
                @Override
                public void pack(Object ub, long ua, Object pb, long pa) {
                    long d = pa;
                    for (int i = 0; i < m; i++) {
                        long s = ua + list[i] * 24L;
                        U.putLong(pb, d, U.getLong(ub, s));
                        U.putLong(pb, d + 8, U.getLong(ub, s + 8));
                        U.putLong(pb, d + 16, U.getLong(ub, s + 16));
                        d += 24;
                    }
                }

                @Override
                public void unpack(Object pb, long pa, Object ub, long ua) {
                    long d = pa;
                    for (int i = 0; i < m; i++) {
                        long s = ua + list[i] * 24L;
                        U.putLong(ub, s, U.getLong(pb, d));
                        U.putLong(ub, s + 8, U.getLong(pb, d + 8));
                        U.putLong(ub, s + 16, U.getLong(pb, d + 16));
                        d += 24;
                    }
                }
            };
        }
    };

    private final String title;
    /** Builds the instance of the cases that are one call of {@link RossShapes}; null for those that override {@link #create}. */
    private final Function<Size, Instance> shape;

    RossCase(String title) {
        this(title, null);
    }

    RossCase(String title, Function<Size, Instance> shape) {
        this.title = title;
        this.shape = shape;
    }

    /** The suite's count of the one-dimensional cases (1 Mi elements, 4 Ki in the small variant). */
    private static int suite(Size size) {
        return size.pick(1 << 20, 1 << 12);
    }

    /** The row name used in tables (the paper's test name where there is one). */
    public String title() {
        return title;
    }

    /** Builds the layout, its count and buffer size, and its hand-written loops. */
    public Instance create(Size size) {
        return shape.apply(size);
    }

    /** Full size is the paper's; the small variant keeps each layout's shape for fast tests. */
    public enum Size {
        FULL,
        SMALL;

        int pick(int full, int small) {
            return this == FULL ? full : small;
        }
    }

    /**
     * One built case: pack {@code count} elements of {@code type} whose origin is byte {@code origin}
     * of a {@code userBytes}-byte buffer into {@code packedBytes} contiguous bytes, by the engine or
     * by {@link #pack}/{@link #unpack}. Addresses passed to the manual loops are those of byte 0 of
     * each buffer (heap: the array and its base offset; off-heap: null and the native address). The
     * manual loops are written out per case and per direction, as an engineer writes them: they are the
     * baseline the engine is measured against, so their repeats are by design.
     */
    public abstract static class Instance {
        public final Datatype type;
        public final long count;
        public final long userBytes;
        public final long origin;
        public final long packedBytes;

        Instance(Datatype type, long count, long userBytes, long origin) {
            this.type = type;
            this.count = count;
            this.userBytes = userBytes;
            this.origin = origin;
            this.packedBytes = type.byteSize() * count;
        }

        /** Hand-written pack: user buffer to packed buffer. */
        public abstract void pack(Object ub, long ua, Object pb, long pa);

        /** Hand-written unpack: packed buffer to user buffer. */
        public abstract void unpack(Object pb, long pa, Object ub, long ua);
    }
}
