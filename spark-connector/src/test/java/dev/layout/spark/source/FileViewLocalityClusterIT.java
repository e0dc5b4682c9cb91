package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.spark.testing.MiniDfsExtension;
import dev.layout.spark.testing.StandaloneClusterExtension;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Read locality on a cluster laid out as separate hosts: the two Workers and their executors on
 * 127.0.0.2 and 127.0.0.3 (see {@link StandaloneClusterExtension}) and one HDFS datanode on each of
 * the same two addresses (sockets bound there, registered by that name: {@link
 * MiniDfsExtension#onHosts}). A file whose blocks all live on one "host" is read by tasks that run
 * on that host's executor, node-local, while its cores are free, and the bytes come from the
 * datanode of that address.
 */
@Tag("cluster")
@ExtendWith(StandaloneClusterExtension.class)
class FileViewLocalityClusterIT {
    private static final long BLOCK = 64 * 1024;

    @RegisterExtension
    static final MiniDfsExtension DFS = MiniDfsExtension.onHosts(
            StandaloneClusterExtension.workerHost(1), StandaloneClusterExtension.workerHost(2));

    @Test
    void eachFilesPartitionsRunOnTheHostHoldingItsBlocks(SparkSession spark, MiniDFSCluster dfs) throws Exception {
        DistributedFileSystem fs = dfs.getFileSystem();
        MiniDfsExtension.CLIENT_SETTINGS.forEach(
                spark.sparkContext().hadoopConfiguration()::set); // shipped to the executors' readers
        Map<String, String> hostOfTask = new ConcurrentHashMap<>();
        SparkListener l = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd e) {
                hostOfTask.put(
                        e.stageId() + "/" + e.taskInfo().index(),
                        e.taskInfo().host() + " " + e.taskInfo().taskLocality());
            }
        };
        spark.sparkContext().addSparkListener(l);
        try {
            assertThat(dfs.getDataNodes()).hasSize(2);
            for (DataNode dn : dfs.getDataNodes()) {
                String host = dn.getDatanodeId().getHostName();
                assertThat(host)
                        .isIn(StandaloneClusterExtension.workerHost(1), StandaloneClusterExtension.workerHost(2));
                assertThat(dn.getXferAddress().getAddress().getHostAddress())
                        .as("data socket of " + host)
                        .isEqualTo(host);
                assertThat(dn.getIpcPort()).isPositive();
                // the namenode knows a datanode by the IP its RPC came from (127.0.0.1 here) and its data port
                DatanodeInfo registered = java.util.Arrays.stream(fs.getDataNodeStats())
                        .filter(i -> i.getHostName().equals(host))
                        .findFirst()
                        .orElseThrow();
                Path p = new Path("/locality/on-" + host + ".f64");
                ByteBuffer data = ByteBuffer.allocate((int) (2 * BLOCK)).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < 2 * BLOCK / 8; i++) {
                    data.putDouble(i * 8, i);
                }
                // Both blocks on this datanode only (favoured node, one replica).
                try (HdfsDataOutputStream out = fs.create(
                        p, FsPermission.getFileDefault(), false, 4096, (short) 1, BLOCK, null, new InetSocketAddress[] {
                            new InetSocketAddress(registered.getIpAddr(), registered.getXferPort())
                        })) {
                    out.write(data.array());
                }
                BlockLocation[] blocks = fs.getFileBlockLocations(p, 0, 2 * BLOCK);
                assertThat(blocks).hasSize(2).allSatisfy(b -> assertThat(b.getHosts())
                        .containsExactly(host));

                hostOfTask.clear();
                List<Row> rows = spark.read()
                        .format("fileview")
                        .option("path", fs.getUri() + p.toString())
                        .option("etype", "float64")
                        .option("splitBytes", String.valueOf(BLOCK))
                        .load()
                        .filter("value >= 0")
                        .collectAsList();
                assertThat(rows).hasSize((int) (2 * BLOCK / 8));
                spark.sparkContext().listenerBus().waitUntilEmpty(30_000);
                // two partitions, one per block; both ran on the blocks' host, node-local
                assertThat(hostOfTask.values()).hasSize(2).containsOnly(host + " NODE_LOCAL");
            }
        } finally {
            spark.sparkContext().removeSparkListener(l);
            MiniDfsExtension.CLIENT_SETTINGS
                    .keySet()
                    .forEach(spark.sparkContext().hadoopConfiguration()::unset);
        }
    }
}
