package dev.layout.arrow.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.arrow.grid.HaloTypes.Halo;
import dev.layout.arrow.grid.HaloTypes.Kind;
import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.ViewReader;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridTest {
    private static final long[] GLOBAL = {6, 7, 8};
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    private static byte[] global() {
        byte[] b = new byte[6 * 7 * 8 * 8];
        Memory m = Memory.ofArray(b);
        for (int i = 0; i < 6 * 7 * 8; i++) {
            m.putDouble(8L * i, i + 1);
        }
        return b;
    }

    @Test
    void decompositionMatchesDarrayBlocks() {
        BlockDecomposition d = new BlockDecomposition(GLOBAL, new long[] {2, 3, 2});
        long total = 0;
        for (long r = 0; r < d.size(); r++) {
            assertThat(Packing.flatten(d.fileType(r, Primitive.FLOAT64), 1))
                    .isEqualTo(Packing.flatten(d.darray(r, Primitive.FLOAT64), 1));
            assertThat(d.rankAt(d.coords(r))).isEqualTo(r);
            total += d.fileType(r, Primitive.FLOAT64).byteSize();
        }
        assertThat(total).isEqualTo(6 * 7 * 8 * 8);
        assertThat(d.blockSizes(5)).containsExactly(3, 1, 4);
        assertThat(d.blockStarts(5)).containsExactly(0, 6, 4);
    }

    @Test
    void twentySixHalosOfA3dBlock() {
        HaloTypes h = new HaloTypes(new long[] {4, 5, 6}, 2, Primitive.FLOAT64);
        List<Halo> all = h.all();
        Map<Kind, Long> kinds = all.stream().collect(Collectors.groupingBy(Halo::kind, Collectors.counting()));
        assertThat(all).hasSize(26);
        assertThat(kinds)
                .containsEntry(Kind.FACE, 6L)
                .containsEntry(Kind.EDGE, 12L)
                .containsEntry(Kind.CORNER, 8L);
        Halo east = h.halo(new int[] {0, 0, 1});
        assertThat(east.send().toString()).isEqualTo("subarray([8,9,10], [4,5,2], [2,2,6], C, float64)");
        assertThat(east.receive().toString()).isEqualTo("subarray([8,9,10], [4,5,2], [2,2,8], C, float64)");
        assertThat(h.halo(new int[] {-1, 1, -1}).send().byteSize()).isEqualTo(2 * 2 * 2 * 8);
    }

    @Test
    void twoDimensionalHalosAreRowsColumnsAndCorners() {
        List<Halo> all = new HaloTypes(new long[] {4, 4}, 1, Primitive.FLOAT64).all();
        assertThat(all).hasSize(8);
        assertThat(all.stream().filter(x -> x.kind() == Kind.CORNER)).hasSize(4);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new HaloTypes(new long[] {4, 1, 4}, 2, Primitive.FLOAT64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HaloTypes: interior[1] 1 (expected: >= ghost 2)");
        assertThatThrownBy(() -> new HaloTypes(new long[] {4, 4}, 1, Primitive.FLOAT64).halo(new int[] {0, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("all zeros");
        assertThatThrownBy(() -> new BlockDecomposition(GLOBAL, new long[] {2, 8, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("procs[1] 8 (expected: 1 <= procs <= globalSizes[1] 7)");
    }

    @Test
    void readFromAFileAndExchangeHalosFillsEveryGhostCell(@TempDir Path temp) throws IOException {
        byte[] global = global();
        FileSystem fs = FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path file =
                new org.apache.hadoop.fs.Path(temp.resolve("global.bin").toUri());
        try (OutputStream out = fs.create(file)) {
            out.write(global);
        }
        BlockDecomposition d = new BlockDecomposition(GLOBAL, new long[] {2, 2, 2});
        List<GhostedBlock> blocks = new ArrayList<>();
        try {
            for (long r = 0; r < d.size(); r++) {
                GhostedBlock b = GhostedBlock.allocate(allocator, d, r, 1);
                blocks.add(b);
                try (ViewReader reader = ViewReader.open(fs, file, b.fileView())) {
                    reader.readAt(0, b.memory(), 0, b.halos().interior(), 1);
                }
            }
            // Exchange: each block's receive(dir) gets its neighbour's send(-dir).
            for (GhostedBlock b : blocks) {
                for (Halo h : b.halos().all()) {
                    long n = b.neighbour(h.direction());
                    if (n < 0) {
                        continue;
                    }
                    GhostedBlock nb = blocks.get((int) n);
                    int[] back = h.direction();
                    for (int i = 0; i < back.length; i++) {
                        back[i] = -back[i];
                    }
                    Segment send = Segment.of(nb.halos().halo(back).send(), 1, nb.memory(), 0);
                    byte[] packed = new byte[(int) send.byteSize()];
                    send.pack(Memory.ofArray(packed), 0, packed.length);
                    Packing.unpack(h.receive(), 1, Memory.ofArray(packed), 0, b.memory(), 0);
                }
            }
            Memory g = Memory.ofArray(global);
            for (GhostedBlock b : blocks) {
                long[] sizes = b.halos().ghostedSizes();
                long[] starts = d.blockStarts(b.rank());
                for (long z = 0; z < sizes[0]; z++) {
                    for (long y = 0; y < sizes[1]; y++) {
                        for (long x = 0; x < sizes[2]; x++) {
                            long gz = starts[0] + z - 1;
                            long gy = starts[1] + y - 1;
                            long gx = starts[2] + x - 1;
                            double got = b.vector().get((int) ((z * sizes[1] + y) * sizes[2] + x));
                            boolean inside = gz >= 0 && gz < 6 && gy >= 0 && gy < 7 && gx >= 0 && gx < 8;
                            double want = inside ? g.getDouble(8 * ((gz * 7 + gy) * 8 + gx)) : 0;
                            assertThat(got)
                                    .as("rank %d cell (%d,%d,%d)", b.rank(), z, y, x)
                                    .isEqualTo(want);
                        }
                    }
                }
            }
        } finally {
            blocks.forEach(GhostedBlock::close);
        }
    }
}
