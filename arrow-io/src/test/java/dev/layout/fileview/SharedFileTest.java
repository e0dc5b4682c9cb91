package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several writers filling one local file in place, each its domain, and the rename that publishes it. */
class SharedFileTest {
    private static final FileDomains DOMAINS = FileDomains.of(0, 100, 250, 300);

    @TempDir
    java.nio.file.Path dir;

    private FileSystem fs() throws IOException {
        return FileSystem.getLocal(new Configuration());
    }

    private Path target() {
        return new Path(dir.resolve("out.bin").toString());
    }

    private String[] names() throws IOException {
        try (Stream<java.nio.file.Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @Test
    void writersFillTheirDomainsInAnyOrderAndCommitRenamesTheWholeFile() throws IOException {
        FileSystem fs = fs();
        assertThat(SharedFile.supports(fs)).isTrue();
        SharedFile.create(fs, target(), "job1");
        assertThat(names()).containsExactly(".out.bin.job1.whole");
        byte[] want = new byte[300];
        for (int i = 0; i < want.length; i++) {
            want[i] = (byte) (i * 7);
        }
        for (int d : new int[] {2, 0, 1}) {
            try (SharedFile f = SharedFile.open(fs, target(), "job1", DOMAINS, d)) {
                int mid = (int) (DOMAINS.start(d) + DOMAINS.end(d)) / 2;
                f.write(mid, want, mid, (int) DOMAINS.end(d) - mid); // the second half first
                f.write(DOMAINS.start(d), want, (int) DOMAINS.start(d), mid - (int) DOMAINS.start(d));
            }
        }
        assertThat(SharedFile.commit(fs, target(), "job1", 300)).isEqualTo(300);
        assertThat(names()).containsExactly("out.bin");
        assertThat(Files.readAllBytes(dir.resolve("out.bin"))).isEqualTo(want);
    }

    @Test
    void aPresizedFileKeepsItsHolesAsZerosAndALeaseOfADeadWriterDoesNotHoldTheCommit() throws IOException {
        FileSystem fs = fs();
        Path nested = new Path(dir.resolve("new/dir/out.bin").toString());
        SharedFile.create(fs, nested, "job0", 8); // its directory is made, as by a file system's create
        assertThat(Files.size(dir.resolve("new/dir/.out.bin.job0.whole"))).isEqualTo(8);
        ViewWriter.discardWrite(fs, nested, "job0");
        org.apache.hadoop.fs.FileUtil.fullyDelete(dir.resolve("new").toFile());
        SharedFile.create(fs, target(), "job6", 300);
        try (SharedFile f = SharedFile.open(fs, target(), "job6", DOMAINS, 1)) {
            f.write(120, new byte[] {5, 6}, 0, 2); // the rest of the file is never written
        }
        // the lease a writer leaves when its process dies: the file, with no lock on it
        Files.createFile(dir.resolve(".out.bin.job6.lease-dead"));
        assertThat(SharedFile.commit(fs, target(), "job6", 300)).isEqualTo(300);
        assertThat(names()).containsExactly("out.bin");
        byte[] got = Files.readAllBytes(dir.resolve("out.bin"));
        byte[] want = new byte[300];
        want[120] = 5;
        want[121] = 6;
        assertThat(got).isEqualTo(want);
    }

    @Test
    void aWriterThatOutlivesTheCommitTimeoutFailsTheCommitAndNothingAppears() throws IOException {
        FileSystem fs = fs();
        SharedFile.create(fs, target(), "job7");
        try (SharedFile f = SharedFile.open(fs, target(), "job7", DOMAINS, 0)) {
            assertThatThrownBy(() -> SharedFile.commit(fs, target(), "job7", 0, 50))
                    .isInstanceOf(IOException.class)
                    .hasMessage(
                            "fileview: 1 writer(s) of " + target()
                                    + " still hold the file open after 50 ms (expected: every task attempt of the write ended)");
            assertThat(names()).doesNotContain("out.bin");
            assertThatThrownBy(() -> SharedFile.open(fs, target(), "job7", DOMAINS, 1))
                    .as("fenced: no writer opens it any more")
                    .hasMessageContaining(".out.bin.job7.whole is missing");
        }
        assertThat(ViewWriter.discardWrite(fs, target(), "job7")).isEqualTo(1); // the fenced file
        assertThat(names()).isEmpty();
    }

    @Test
    void aWriteOutsideTheDomainIsRefusedNamingIt() throws IOException {
        FileSystem fs = fs();
        SharedFile.create(fs, target(), "job2");
        try (SharedFile f = SharedFile.open(fs, target(), "job2", DOMAINS, 1)) {
            assertThatThrownBy(() -> f.write(240, new byte[20], 0, 20))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("20 bytes at file byte 240")
                    .hasMessageContaining("domain 1 [100, 250)");
            assertThatThrownBy(() -> f.write(99, new byte[2], 0, 2)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(Files.size(dir.resolve(".out.bin.job2.whole"))).isZero();
    }

    @Test
    void anIncompleteFileIsNotCommittedAndDiscardWriteRemovesIt() throws IOException {
        FileSystem fs = fs();
        SharedFile.create(fs, target(), "job3");
        try (SharedFile f = SharedFile.open(fs, target(), "job3", DOMAINS, 0)) {
            f.write(0, new byte[100], 0, 100);
        }
        assertThatThrownBy(() -> SharedFile.commit(fs, target(), "job3", 300))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("has 100 bytes (expected: 300");
        assertThat(fs.exists(target())).isFalse();
        assertThat(ViewWriter.discardWrite(fs, target(), "job3")).isEqualTo(1);
        assertThat(names()).isEmpty();
    }

    @Test
    void createRefusesAnExistingTargetAndAnExistingNameOrLink() throws IOException {
        FileSystem fs = fs();
        Files.write(dir.resolve("out.bin"), new byte[] {1});
        assertThatThrownBy(() -> SharedFile.create(fs, target(), "job4"))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("already exists");
        Files.delete(dir.resolve("out.bin"));
        java.nio.file.Path elsewhere = dir.resolve("elsewhere");
        Files.createSymbolicLink(dir.resolve(".out.bin.job4.whole"), elsewhere);
        assertThatThrownBy(() -> SharedFile.create(fs, target(), "job4"))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.exists(elsewhere))
                .as("nothing written through the link")
                .isFalse();
    }

    @Test
    void openWithoutCreateNamesTheMissingFile() throws IOException {
        FileSystem fs = fs();
        assertThatThrownBy(() -> SharedFile.open(fs, target(), "job5", DOMAINS, 0))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(".out.bin.job5.whole is missing");
        assertThatThrownBy(() -> SharedFile.open(fs, target(), "job5", DOMAINS, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("domain 3 (expected: 0 .. 2");
    }
}
