package dev.layout.jobs.life;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    assertThatThrownBy(() -> Pbm.read(bad)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad.pbm").hasMessageContaining("offset 11");
  }

  @Test
  void pbmHeadersAreCheckedAgainstTheDataBeforeTheBoardIsAllocated() {
    assertThatThrownBy(() -> Pbm.parse("P4 46340 46340\n".getBytes(), "big.pbm")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("big.pbm: P4 46340 x 46340 needs 268447620 data bytes, the file has 0 after the header");
    assertThatThrownBy(() -> Pbm.parse("P1 65536 65536\n0 1\n".getBytes(), "huge.pbm")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("huge.pbm: P1 65536 x 65536 = 4294967296 cells (expected: at most 2147483639)");
    assertThatThrownBy(() -> Pbm.parse("P1 4 4\n0 1 1 0\n".getBytes(), "short.pbm")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("short.pbm: P1 4 x 4 needs at least 16 data bytes, the file has 8 after the header");
  }

  @Test
  void theAllreduceMethodNeedsBarrierModeAndNoCheckpoints() {
    assertThatThrownBy(() -> LifeJob.run(new String[] {"--method", "allreduce", "--mode", "shuffle"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("life: --method allreduce with --mode shuffle (expected: --mode barrier; the sparse allreduce runs on the communicator"
            + " of the barrier tasks)");
    assertThatThrownBy(() -> LifeJob.run(new String[] {"--method", "allreduce", "--checkpoint-interval", "10"}))
        .hasMessage("life: --checkpoint-interval 10 with --method allreduce (expected: 0; checkpoints are implemented for --method halo)");
    assertThatThrownBy(() -> LifeJob.run(new String[] {"--method", "reduce"}))
        .hasMessage("life: --method reduce (expected one of: halo, allreduce)");
  }
}
