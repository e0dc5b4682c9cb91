package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The view I/O contract against a real HDFS: one MiniDFSCluster (1 datanode) for the class. */
@Tag("hdfs")
class HdfsViewIoIT extends AbstractViewIoContract {
    private static MiniDFSCluster cluster;
    private static FileSystem hdfs;
    private Path dir;

    @BeforeAll
    static void startCluster() throws IOException {
        Configuration conf = new Configuration();
        File base = new File("target/minidfs/" + HdfsViewIoIT.class.getSimpleName()).getAbsoluteFile();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getPath());
        conf.setLong("dfs.blocksize", 1 << 20);
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
        cluster.waitActive();
        hdfs = cluster.getFileSystem();
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (hdfs != null) {
            hdfs.close();
        }
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    @BeforeEach
    void makeDir(TestInfo info) throws IOException {
        dir = new Path("/t/" + info.getDisplayName().replaceAll("[^A-Za-z0-9]", "_") + "_" + System.nanoTime());
        hdfs.mkdirs(dir);
    }

    @Test
    void domainPartsAreJoinedByConcatNotCopied() throws IOException {
        Path p = new Path(dir, "concat.bin");
        byte[] canonical = Cubes.bytes(N);
        for (int i = 0; i < PLANE_DOMAINS.count(); i++) {
            commitDomain(p, "job-c", i, canonical);
        }
        ViewWriter.assemble(hdfs, p, PLANE_DOMAINS, "job-c");
        // concat keeps each part's (partial) block: 3 blocks for 7680 bytes; a copy would write one.
        BlockLocation[] blocks = hdfs.getFileBlockLocations(p, 0, canonical.length);
        assertThat(blocks).extracting(BlockLocation::getLength).containsExactly(2560L, 3200L, 1920L);
        try (FSDataInputStream in = hdfs.open(p)) {
            byte[] all = new byte[canonical.length];
            in.readFully(0, all);
            assertThat(all).isEqualTo(canonical);
        }
    }

    @Test
    void aDomainPartClosesThroughItsOwnClientThatPollsTheNamenodeFromTwentyMilliseconds() throws IOException {
        String delay = "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
        String polls = "dfs.client.block.write.locateFollowingBlock.retries";
        try (FileSystem own = DomainPart.ownClient(hdfs)) {
            assertThat(own).isNotSameAs(hdfs);
            assertThat(own.getUri()).isEqualTo(hdfs.getUri());
            assertThat(own.getConf().getLong(delay, 0)).isEqualTo(20);
            // at least the default patience in all: 20 ms x (2^10 - 1) >= 400 ms x (2^5 - 1)
            assertThat(20L * ((1L << own.getConf().getInt(polls, 0)) - 1))
                    .isGreaterThanOrEqualTo(400L * ((1 << 5) - 1));
        }
        Configuration mine = new Configuration(hdfs.getConf());
        mine.setLong(delay, 400);
        try (FileSystem configured = FileSystem.newInstance(hdfs.getUri(), mine)) {
            assertThat(DomainPart.ownClient(configured))
                    .as("a configuration that sets the delay keeps it")
                    .isNull();
        }
        assertThat(DomainPart.ownClient(FileSystem.getLocal(new Configuration())))
                .isNull();
        // and the parts written through it are whole
        Path p = new Path(dir, "polled.bin");
        byte[] canonical = Cubes.bytes(N);
        for (int i = 0; i < PLANE_DOMAINS.count(); i++) {
            try (DomainPart part = DomainPart.create(hdfs, p, PLANE_DOMAINS, i, "job-p")) {
                part.write(
                        canonical, (int) PLANE_DOMAINS.start(i), (int) (PLANE_DOMAINS.end(i) - PLANE_DOMAINS.start(i)));
                part.commit();
            }
        }
        ViewWriter.assemble(hdfs, p, PLANE_DOMAINS, "job-p");
        try (FSDataInputStream in = hdfs.open(p)) {
            byte[] all = new byte[canonical.length];
            in.readFully(0, all);
            assertThat(all).isEqualTo(canonical);
        }
        assertThat(hdfs.exists(p)).isTrue();
    }

    @Override
    FileSystem fs() {
        return hdfs;
    }

    @Override
    Path dir() {
        return dir;
    }
}
