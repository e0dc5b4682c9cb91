package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.spark.testing.StandaloneClusterExtension;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Read locality on a cluster laid out as separate hosts: the two Workers and their executors on
 * 127.0.0.2 and 127.0.0.3 (see {@link StandaloneClusterExtension}) and two HDFS datanodes named by
 * the same two addresses (their sockets stay on 127.0.0.1: MiniDFSCluster binds a datanode given a
 * host name there). A file whose blocks all live on one "host" is read by tasks that run on
 * that host's executor, node-local, while its cores are free.
 */
@Tag("cluster")
@ExtendWith(StandaloneClusterExtension.class)
class FileViewLocalityClusterIT {
  private static final long BLOCK = 64 * 1024;
  private static MiniDFSCluster dfs;

  @BeforeAll
  static void datanodesOnTheWorkersHosts() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File("target/minidfs/FileViewLocalityClusterIT").getAbsolutePath());
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    for (int w = 1; w <= 2; w++) {
      String host = StandaloneClusterExtension.workerHost(w);
      // Named (registered, and so in every block location) by the worker's address. MiniDFSCluster
      // keeps the sockets of a datanode given a host name on 127.0.0.1.
      dfs.startDataNodes(conf, 1, true, null, null, new String[] {host}, null, false, false);
    }
    dfs.waitActive();
  }

  @AfterAll
  static void stop() {
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Test
  void eachFilesPartitionsRunOnTheHostHoldingItsBlocks(SparkSession spark) throws Exception {
    DistributedFileSystem fs = dfs.getFileSystem();
    Map<String, String> hostOfTask = new ConcurrentHashMap<>();
    SparkListener l = new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd e) {
        hostOfTask.put(e.stageId() + "/" + e.taskInfo().index(), e.taskInfo().host() + " " + e.taskInfo().taskLocality());
      }
    };
    spark.sparkContext().addSparkListener(l);
    try {
      for (DataNode dn : dfs.getDataNodes()) {
        String host = dn.getDatanodeId().getHostName();
        assertThat(host).isIn(StandaloneClusterExtension.workerHost(1), StandaloneClusterExtension.workerHost(2));
        Path p = new Path("/locality/on-" + host + ".f64");
        ByteBuffer data = ByteBuffer.allocate((int) (2 * BLOCK)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 2 * BLOCK / 8; i++) {
          data.putDouble(i * 8, i);
        }
        // Both blocks on this datanode only (favoured node, one replica).
        try (HdfsDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), false, 4096, (short) 1, BLOCK, null,
            new InetSocketAddress[] {dn.getXferAddress()})) {
          out.write(data.array());
        }
        BlockLocation[] blocks = fs.getFileBlockLocations(p, 0, 2 * BLOCK);
        assertThat(blocks).hasSize(2).allSatisfy(b -> assertThat(b.getHosts()).containsExactly(host));

        hostOfTask.clear();
        List<Row> rows = spark.read().format("fileview").option("path", fs.getUri() + p.toString()).option("etype", "float64")
            .option("splitBytes", String.valueOf(BLOCK)).load().filter("value >= 0").collectAsList();
        assertThat(rows).hasSize((int) (2 * BLOCK / 8));
        spark.sparkContext().listenerBus().waitUntilEmpty(30_000);
        // two partitions, one per block; both ran on the blocks' host, node-local
        assertThat(hostOfTask.values()).hasSize(2).containsOnly(host + " NODE_LOCAL");
      }
    } finally {
      spark.sparkContext().removeSparkListener(l);
    }
  }
}
