package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.HadoopConf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One task of a fileview write, without Spark: its rows go into one part per file domain. */
class FileViewPartWriterTest {
    @TempDir
    Path dir;

    private FileViewPartWriter.Factory factory(FileViewSpec spec, FileDomains domains) {
        return new FileViewPartWriter.Factory(
                spec,
                spec.schema(),
                new int[] {0, 1},
                new int[] {2},
                HadoopConf.of(new Configuration()),
                "job1",
                domains);
    }

    private static InternalRow row(int i0, int i1, double v) {
        return new GenericInternalRow(new Object[] {i0, i1, v});
    }

    @Test
    void aTaskWhoseRowsCrossADomainBoundWritesOnePartPerDomain() throws Exception {
        // 8 x 8 doubles = 512 bytes in domains [0, 128), [128, 384), [384, 512): rows 2..6 of the array
        FileViewSpec spec =
                FileViewSpec.parse(Map.of("path", dir.resolve("a.f64").toString(), "etype", "float64", "shape", "8x8"));
        DataWriter<InternalRow> w =
                factory(spec, FileDomains.of(0, 128, 384, 512)).createWriter(3, 7);
        for (int i = 2; i <= 6; i++) {
            for (int j = 0; j < 8; j += (i == 4 ? 3 : 1)) { // row 4 with holes: zeros written between its rows
                w.write(row(i, j, i * 8 + j));
            }
        }
        FileViewWrite.Parts parts = (FileViewWrite.Parts) w.commit();
        w.close();
        // elements 16..55: bytes [128, 448), split at the bound 384
        assertThat(parts.parts())
                .extracting(FileViewWrite.Part::start, FileViewWrite.Part::end)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(128L, 384L),
                        org.assertj.core.groups.Tuple.tuple(384L, 448L));
        assertThat(parts.parts().get(0).part()).endsWith(".a.f64.job1.task-00003.domain-00001");
        assertThat(parts.parts().get(1).part()).endsWith(".a.f64.job1.task-00003.domain-00002");
        ByteBuffer first = ByteBuffer.wrap(Files.readAllBytes(Path.of(
                        new org.apache.hadoop.fs.Path(parts.parts().get(0).part())
                                .toUri()
                                .getPath())))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(first.capacity()).isEqualTo(256);
        for (int k = 0; k < 32; k++) {
            int e = 16 + k;
            double want = e / 8 == 4 && (e % 8) % 3 != 0 ? 0 : e;
            assertThat(first.getDouble(k * 8)).as("element %d", e).isEqualTo(want);
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")))
                    .as("no temporaries left")
                    .containsExactlyInAnyOrder(
                            ".a.f64.job1.task-00003.domain-00001", ".a.f64.job1.task-00003.domain-00002");
        }
    }

    @Test
    void aCoordinateGivenTwiceIsNamedAndAnAbortLeavesNoPart() throws Exception {
        FileViewSpec spec =
                FileViewSpec.parse(Map.of("path", dir.resolve("b.f64").toString(), "etype", "float64", "shape", "8x8"));
        DataWriter<InternalRow> w = factory(spec, FileDomains.of(0, 128, 512)).createWriter(0, 1);
        w.write(row(1, 7, 1.0));
        w.write(row(2, 0, 2.0)); // a second domain: the first part is closed
        assertThatThrownBy(() -> w.write(row(2, 0, 3.0)))
                .hasMessage("fileview: coordinate (i0 = 2, i1 = 0) is given twice (expected: each" + " element once)");
        w.abort();
        w.close();
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
