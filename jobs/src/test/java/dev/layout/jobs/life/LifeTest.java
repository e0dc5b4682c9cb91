package dev.layout.jobs.life;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.InProcessLauncher;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.GridFiles;
import dev.layout.spark.io.CollectiveFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LifeTest {
    @Test
    void blinkerOscillatesAndGliderCrossesTheTorus() {
        boolean[] b = new boolean[25];
        b[11] = b[12] = b[13] = true;
        boolean[] v = SequentialLife.step(b, 5, 5, false);
        assertThat(v[7]).isTrue();
        assertThat(v[12]).isTrue();
        assertThat(v[17]).isTrue();
        assertThat(SequentialLife.live(v)).isEqualTo(3);
        assertThat(SequentialLife.step(v, 5, 5, false)).isEqualTo(b);

        boolean[] g = new boolean[64];
        int[][] glider = {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
        for (int[] c : glider) {
            g[c[0] * 8 + c[1]] = true;
        }
        boolean[] x = g;
        for (int i = 0; i < 32; i++) {
            x = SequentialLife.step(x, 8, 8, true);
            assertThat(SequentialLife.live(x)).isEqualTo(5);
        }
        assertThat(x).isEqualTo(g); // 4 generations per diagonal cell, 8 cells around the torus
    }

    /** A P4 file of {@code cells}, with a comment in its header. */
    static byte[] p4(boolean[] cells, int rows, int cols) throws IOException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.write("P4\n# made by LifeTest\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        Pbm.writeP4(cells, rows, cols, body);
        byte[] all = body.toByteArray();
        b.write(all, 3, all.length - 3); // after "P4\n"
        return b.toByteArray();
    }

    @ParameterizedTest(name = "{0}x{1} over {2}x{3}")
    @CsvSource({"13, 21, 2, 3", "9, 8, 3, 1", "7, 30, 1, 4", "16, 17, 4, 2", "5, 3, 1, 1"})
    void eachRankReadsItsBlockOfAP4FileThroughASubarrayViewOfTheBitRows(
            int rows, int cols, int pr, int pc, @TempDir Path dir) throws IOException {
        boolean[] cells = SequentialLife.random(rows, cols, 17L * rows + cols, 0.45);
        Path file = dir.resolve("board.pbm");
        byte[] bytes = p4(cells, rows, cols);
        Files.write(file, bytes);
        Pbm.Header h =
                Pbm.header(java.util.Arrays.copyOf(bytes, Math.min(bytes.length, 40)), bytes.length, "board.pbm");
        assertThat(h.raw()).isTrue();
        assertThat(h.dataOffset()).isEqualTo(bytes.length - (long) rows * ((cols + 7) / 8));
        DistributedGrid grid =
                DistributedGrid.of(new int[] {rows, cols}, new int[] {pr, pc}, 1, new boolean[] {false, false});
        GridFiles.RankRead read = Pbm.p4Blocks(grid, h);
        CollectiveFile cf = CollectiveFile.of(new org.apache.hadoop.conf.Configuration(), file.toString());
        List<GridBlock> blocks = InProcessLauncher.run(grid.ranks(), Duration.ofSeconds(30), world -> {
            GridBlock b = grid.newBlock(world.rank(), at -> 0.0);
            try {
                read.read(world, cf, b);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return b;
        });
        double[] field = grid.assemble(blocks);
        boolean[] got = new boolean[field.length];
        for (int k = 0; k < field.length; k++) {
            got[k] = field[k] != 0;
        }
        assertThat(got).isEqualTo(cells).isEqualTo(Pbm.parse(bytes, "board.pbm").cells());
    }

    @Test
    void plainPbmIsForSmallBoardsOnly() {
        assertThatThrownBy(() -> Pbm.header("P1 2048 2048\n0 1\n".getBytes(), 14, "big.pbm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "big.pbm: P1 2048 x 2048 = 4194304 cells (expected: at most 1048576 in a plain PBM; use P4, the raw PBM, which the"
                                + " ranks read in parallel)");
        assertThat(Pbm.header("P1\n1024 1024\n".getBytes(), 13 + (1 << 20), "ok.pbm")
                        .dataOffset())
                .isEqualTo(12);
    }

    @Test
    void pbmRoundTripsAndReadsRawP4(@TempDir Path dir) throws IOException {
        boolean[] cells = SequentialLife.random(5, 11, 7, 0.4);
        Path p1 = dir.resolve("b.pbm");
        try (var o = Files.newOutputStream(p1)) {
            Pbm.writeP1(cells, 5, 11, o);
        }
        Pbm.Board back = Pbm.read(p1);
        assertThat(back.rows()).isEqualTo(5);
        assertThat(back.cols()).isEqualTo(11);
        assertThat(back.cells()).isEqualTo(cells);

        Path p4 = dir.resolve("b4.pbm");
        byte[] header = "P4\n# comment\n10 2\n".getBytes();
        byte[] data = {(byte) 0b10000000, (byte) 0b01000000, 0, (byte) 0b11000000};
        byte[] all = new byte[header.length + data.length];
        System.arraycopy(header, 0, all, 0, header.length);
        System.arraycopy(data, 0, all, header.length, data.length);
        Files.write(p4, all);
        Pbm.Board b4 = Pbm.read(p4);
        assertThat(b4.cells()[0]).isTrue();
        assertThat(b4.cells()[9]).isTrue();
        assertThat(b4.cells()[18]).isTrue();
        assertThat(b4.cells()[19]).isTrue();
        assertThat(SequentialLife.live(b4.cells())).isEqualTo(4);
    }

    @Test
    void badPbmNamesFileAndOffset(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.pbm");
        Files.writeString(bad, "P1\n2 2\n0 1 2 0\n");
        assertThatThrownBy(() -> Pbm.read(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad.pbm")
                .hasMessageContaining("offset 11");
    }

    @Test
    void pbmHeadersAreCheckedAgainstTheDataBeforeTheBoardIsAllocated() {
        assertThatThrownBy(() -> Pbm.parse("P4 46340 46340\n".getBytes(), "big.pbm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("big.pbm: P4 46340 x 46340 needs 268447620 data bytes, the file has 0 after the header");
        assertThatThrownBy(() -> Pbm.parse("P1 65536 65536\n0 1\n".getBytes(), "huge.pbm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("huge.pbm: P1 65536 x 65536 = 4294967296 cells (expected: at most 2147483639)");
        assertThatThrownBy(() -> Pbm.parse("P1 4 4\n0 1 1 0\n".getBytes(), "short.pbm"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("short.pbm: P1 4 x 4 needs at least 16 data bytes, the file has 8 after the header");
    }

    @Test
    void theAllreduceMethodNeedsBarrierModeAndNoCheckpoints() {
        assertThatThrownBy(() -> LifeJob.run(
                        LifeJob.options().parse(new String[] {"--method", "allreduce", "--mode", "shuffle"})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "life: --method allreduce with --mode shuffle (expected: --mode barrier; the sparse allreduce runs on the communicator"
                                + " of the barrier tasks)");
        assertThatThrownBy(() -> LifeJob.run(
                        LifeJob.options().parse(new String[] {"--method", "allreduce", "--checkpoint-interval", "10"})))
                .hasMessage(
                        "life: --checkpoint-interval 10 with --method allreduce (expected: 0; checkpoints are implemented for --method halo)");
        assertThatThrownBy(() -> LifeJob.run(LifeJob.options().parse(new String[] {"--method", "reduce"})))
                .hasMessage("life: --method reduce (expected one of: halo, allreduce)");
    }
}
