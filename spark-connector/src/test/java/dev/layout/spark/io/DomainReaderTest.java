package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.fileview.ViewIntersection;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An aggregator's mapped domain reads when another process truncates the file under them. */
class DomainReaderTest {
    private static final int HALF = 32 << 10;

    @TempDir
    java.nio.file.Path dir;

    /** Two ranks, each reading one contiguous half of a 64 KiB file of float64. */
    private static RankAccess[] halves() {
        RankAccess[] all = new RankAccess[2];
        for (int r = 0; r < 2; r++) {
            all[r] = new RankAccess(
                    null,
                    0,
                    "float64",
                    "float64",
                    (long) r * HALF,
                    HALF,
                    (long) r * HALF,
                    (r + 1L) * HALF,
                    1,
                    2L * HALF,
                    HALF,
                    "host",
                    "");
        }
        return all;
    }

    @Test
    void aFileTruncatedAfterACycleWasMappedFailsTheCycleNamingTheFileAndBytesWithoutTouchingIt() throws IOException {
        java.nio.file.Path file = dir.resolve("field.f64");
        Files.write(file, new byte[2 * HALF]);
        FileSystem fs = FileSystem.getLocal(new Configuration());
        Path path = new Path(file.toUri());
        RankAccess[] all = halves();
        IoPlan plan = IoPlan.forRead(all, new PlanOptions(Strategy.TWO_PHASE, 1 << 20, 1, 0, true));
        assertThat(plan.domains().count()).isEqualTo(2);
        ViewIntersection[] theirs = new ViewIntersection[2];
        for (int r = 0; r < 2; r++) {
            theirs[r] = ViewIntersection.of(all[r].view(), all[r].streamStart(), all[r].length());
        }
        try (DomainReader reader = DomainReader.open(fs, path, plan, 1, theirs, Duration.ofSeconds(10))) {
            DomainReader.Cycle cycle = reader.take(0);
            assertThat(cycle.failure()).isNull();
            assertThat(cycle.mapping()).as("the local file is mapped").isNotNull();

            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength(HALF + 100); // another process truncates the file
            }
            DomainReader.Cycle checked = reader.stillMapped(cycle);

            assertThat(checked.failure())
                    .isInstanceOf(IOException.class)
                    .hasMessage("readAll: reading bytes [" + HALF + ", " + 2 * HALF + ") of " + path + ": the file has "
                            + (HALF + 100) + " bytes (expected: at least " + 2 * HALF
                            + "; was it truncated during the read?)");
            assertThat(checked.mapping()).as("unmapped, never touched").isNull();
            assertThat(checked.buffer().byteSize()).isZero();
            assertThat(checked.runs()).as("the runs stay, to exchange in step").isSameAs(cycle.runs());
        }
    }
}
