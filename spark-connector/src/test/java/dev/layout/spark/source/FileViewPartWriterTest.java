package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.DomainOutput;
import dev.layout.spark.io.HadoopConf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tasks of a fileview write on the local file system, without Spark: they write in place into the
 * write's one shared file, which the commit only renames, and a task that outlives the write
 * touches nothing. Windows of one i0 (8 elements) and runs of 4 rows: the tasks spill.
 */
class FileViewPartWriterTest {
    @TempDir
    Path dir;

    private final Configuration conf = new Configuration();

    private FileViewPartWriter.Factory factory(FileViewSpec spec, FileDomains domains) {
        return new FileViewPartWriter.Factory(
                spec,
                spec.schema(),
                new int[] {0, 1},
                new int[] {2},
                HadoopConf.of(conf),
                "job1",
                domains,
                1 << 20,
                8,
                4);
    }

    private static InternalRow row(int i0, int i1, double v) {
        return new GenericInternalRow(new Object[] {i0, i1, v});
    }

    private FileViewSpec spec(String name) {
        return FileViewSpec.parse(Map.of("path", dir.resolve(name).toString(), "etype", "float64", "shape", "8x8"));
    }

    private static Object inode(Path p) throws Exception {
        return Files.readAttributes(p, BasicFileAttributes.class).fileKey();
    }

    @Test
    void tasksWriteInPlaceIntoTheSharedFileAndTheCommitOnlyRenamesIt() throws Exception {
        // 8 x 8 doubles = 512 bytes in domains [0, 128), [128, 384), [384, 512); rows 1 and 7 no task gives
        FileViewSpec spec = spec("a.f64");
        FileDomains domains = FileDomains.of(0, 128, 384, 512);
        FileSystem fs = FileSystem.getLocal(conf);
        org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(spec.path);
        DomainOutput.begin(fs, target, "job1", 512);
        Path shared = dir.resolve(".a.f64.job1.whole");
        Object before = inode(shared);
        DataWriter<InternalRow> t0 = factory(spec, domains).createWriter(0, 1);
        DataWriter<InternalRow> t1 = factory(spec, domains).createWriter(1, 2);
        t0.write(row(0, 5, 5));
        for (int i = 2; i <= 6; i++) { // crosses the bound at 384; row 4 with holes
            for (int j = 0; j < 8; j += (i == 4 ? 3 : 1)) {
                (i < 4 ? t0 : t1).write(row(i, j, i * 8 + j));
            }
        }
        FileViewWrite.Parts p0 = (FileViewWrite.Parts) t0.commit();
        FileViewWrite.Parts p1 = (FileViewWrite.Parts) t1.commit();
        t0.close();
        t1.close();
        assertThat(p0.parts())
                .extracting(FileViewWrite.Part::start, FileViewWrite.Part::end)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(40L, 48L), org.assertj.core.groups.Tuple.tuple(128L, 256L));
        assertThat(p1.parts())
                .extracting(FileViewWrite.Part::start, FileViewWrite.Part::end)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(256L, 384L),
                        org.assertj.core.groups.Tuple.tuple(384L, 448L));
        assertThat(Files.exists(dir.resolve("a.f64")))
                .as("nothing at the target before the commit")
                .isFalse();

        DomainOutput.commit(fs, target, "job1", FileDomains.of(0, 512));

        assertThat(inode(dir.resolve("a.f64")))
                .as("the shared file itself, not a copy")
                .isEqualTo(before);
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("a.f64"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.capacity()).isEqualTo(512);
        for (int e = 0; e < 64; e++) {
            int i = e / 8;
            int j = e % 8;
            boolean given = e == 5 || (i >= 2 && i <= 6 && (i != 4 || j % 3 == 0));
            assertThat(b.getDouble(e * 8)).as("element %d", e).isEqualTo(given ? e : 0.0);
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("a.f64");
        }
    }

    @Test
    void aCoordinateGivenTwiceIsNamedAndAnAbortLeavesNothing() throws Exception {
        FileViewSpec spec = spec("b.f64");
        FileSystem fs = FileSystem.getLocal(conf);
        org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(spec.path);
        DomainOutput.begin(fs, target, "job1", 512);
        DataWriter<InternalRow> w = factory(spec, FileDomains.of(0, 128, 512)).createWriter(0, 1);
        w.write(row(2, 0, 2.0));
        w.write(row(1, 7, 1.0));
        for (int j = 1; j < 8; j++) { // spilled runs between the two rows of (2, 0)
            w.write(row(3, j, 3.0));
        }
        w.write(row(2, 0, 3.0));
        assertThatThrownBy(w::commit) // window 1 is written before window 2 finds the coordinate again
                .hasMessage("fileview: coordinate (i0 = 2, i1 = 0) is given twice (expected: each element once)");
        w.abort();
        w.close();
        DomainOutput.abort(fs, target, "job1");
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void aTaskStartingAfterTheCommitOrAbortOpensNothingAndLeavesNothing() throws Exception {
        FileSystem fs = FileSystem.getLocal(conf);
        for (boolean commit : new boolean[] {true, false}) {
            FileViewSpec spec = spec("c-" + commit + ".f64");
            org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(spec.path);
            DomainOutput.begin(fs, target, "job1", 512);
            if (commit) {
                DomainOutput.commit(fs, target, "job1", FileDomains.of(0, 512));
            } else {
                DomainOutput.abort(fs, target, "job1");
            }
            DataWriter<InternalRow> late = factory(spec, FileDomains.of(0, 512)).createWriter(0, 9);
            late.write(row(3, 3, 1.0)); // into its runs: the output opens when the task commits
            assertThatThrownBy(late::commit).hasMessageContaining(".c-" + commit + ".f64.job1.whole is missing");
            late.abort();
            late.close();
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("c-true.f64");
        }
        assertThat(Files.readAllBytes(dir.resolve("c-true.f64"))).containsOnly(0);
    }

    /** A task's output (the writer opens it when it commits, see {@link FileOrderOutput}) holds the write's lease. */
    @Test
    void theCommitWaitsForATaskStillWritingBeforeTheFileAppears() throws Exception {
        FileViewSpec spec = spec("d.f64");
        FileSystem fs = FileSystem.getLocal(conf);
        org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(spec.path);
        DomainOutput.begin(fs, target, "job1", 512);
        FileOrderOutput stray =
                new FileOrderOutput(fs, target, "job1", "task-00000.domain-", FileDomains.of(0, 512), 1 << 20, 64);
        stray.write(0, doubleBytes(7.0), 0, 8); // its output is open: it holds the write's lease
        CompletableFuture<Long> commit = CompletableFuture.supplyAsync(() -> {
            try {
                return DomainOutput.commit(fs, target, "job1", FileDomains.of(0, 512));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        // The commit fences first: once the shared file has left its name, no writer can open it.
        while (Files.exists(dir.resolve(".d.f64.job1.whole")) && !commit.isDone()) {
            Thread.onSpinWait();
        }
        assertThat(commit.isDone()).as("the commit waits for the open writer").isFalse();
        assertThat(Files.exists(dir.resolve("d.f64"))).isFalse();
        stray.write(63 * 8, doubleBytes(9.0), 0, 8);
        stray.commit();
        stray.close(); // the lease goes: the commit may finish
        assertThat(commit.get(60, TimeUnit.SECONDS)).isEqualTo(512);
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("d.f64"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getDouble(0)).isEqualTo(7.0);
        assertThat(b.getDouble(63 * 8)).isEqualTo(9.0);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("d.f64");
        }
    }

    private static byte[] doubleBytes(double v) {
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putDouble(0, v)
                .array();
    }
}
