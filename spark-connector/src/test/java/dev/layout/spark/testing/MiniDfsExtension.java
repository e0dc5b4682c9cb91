package dev.layout.spark.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One MiniDFSCluster per layout per JVM, shared by every test class that uses it (held in the root
 * store as an {@link AutoCloseable}, so JUnit shuts it down once, after the last test of the run):
 * a start-up costs more than most of the tests run on it. By default one datanode on 127.0.0.1;
 * {@link #onHosts} puts one datanode on each of the given loopback addresses (the hosts of {@link
 * StandaloneClusterExtension}'s workers), as on separate machines. Base directory {@code
 * target/minidfs/<layout>}. Test classes sharing a cluster keep to their own top-level directory.
 * Small blocks are allowed ({@code dfs.namenode.fs-limits.min-block-size}
 * 4096), so tests can create multi-block files with {@code fs.create(path, true, 4096, (short) 1,
 * blockSize)}. Inject {@link MiniDFSCluster} or the cluster's {@link FileSystem} as parameters.
 *
 * <pre>{@code
 * @ExtendWith({LocalSparkExtension.class, MiniDfsExtension.class})
 * class MyIT {
 *   @Test void reads(SparkSession spark, FileSystem hdfs) { ... hdfs.getUri() ... }
 * }
 * }</pre>
 */
public final class MiniDfsExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(MiniDfsExtension.class);

    private final String[] hosts;

    /** One datanode on 127.0.0.1 (for {@code @ExtendWith}). */
    public MiniDfsExtension() {
        this.hosts = new String[0];
    }

    private MiniDfsExtension(String[] hosts) {
        this.hosts = hosts.clone();
    }

    /**
     * One datanode on each of {@code hosts} (loopback addresses such as 127.0.0.2): its data, IPC
     * and HTTP sockets are bound there and it is registered, and so named in every block location,
     * by that address. Clients reach datanodes by those names ({@link #CLIENT_SETTINGS}, which the
     * cluster's own file system has; give them to Spark as {@code spark.hadoop.*}): the namenode
     * records each datanode's IP as the source address of its RPC connection, which is 127.0.0.1
     * on one machine. Register with {@code @RegisterExtension static}.
     */
    public static MiniDfsExtension onHosts(String... hosts) {
        return new MiniDfsExtension(hosts);
    }

    /** What an HDFS client needs to reach datanodes started by {@link #onHosts}: key, value. */
    public static final java.util.Map<String, String> CLIENT_SETTINGS =
            java.util.Map.of("dfs.client.use.datanode.hostname", "true");

    /** The cluster of this JVM with one datanode on 127.0.0.1, started on first use. */
    public static MiniDFSCluster cluster(ExtensionContext context) {
        return cluster(context, new String[0]);
    }

    private static MiniDFSCluster cluster(ExtensionContext context, String[] hosts) {
        String layout = hosts.length == 0 ? "local" : String.join("+", hosts);
        return context.getRoot()
                .getStore(NS)
                .getOrComputeIfAbsent("cluster-" + layout, k -> new Cluster(layout, hosts), Cluster.class)
                .cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context, hosts);
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        return t == MiniDFSCluster.class || t == FileSystem.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        MiniDFSCluster c = cluster(e, hosts);
        if (p.getParameter().getType() == MiniDFSCluster.class) {
            return c;
        }
        try {
            return c.getFileSystem();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static final class Cluster implements AutoCloseable {
        final MiniDFSCluster cluster;

        Cluster(String name, String[] hosts) {
            Configuration conf = new Configuration();
            File base = new File("target/minidfs/" + name).getAbsoluteFile();
            conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getPath());
            conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
            conf.setInt("dfs.bytes-per-checksum", 512);
            try {
                if (hosts.length == 0) {
                    cluster = new MiniDFSCluster.Builder(conf)
                            .numDataNodes(1)
                            .format(true)
                            .build();
                } else {
                    CLIENT_SETTINGS.forEach(conf::set);
                    conf.setBoolean("dfs.datanode.use.datanode.hostname", true);
                    conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
                    cluster = new MiniDFSCluster.Builder(conf)
                            .numDataNodes(0)
                            .format(true)
                            .build();
                    for (String host : hosts) {
                        Configuration dn = new Configuration(conf);
                        dn.set("dfs.datanode.hostname", host);
                        dn.set("dfs.datanode.address", host + ":0");
                        dn.set("dfs.datanode.ipc.address", host + ":0");
                        dn.set("dfs.datanode.http.address", host + ":0");
                        // checkDataNodeAddrConfig and checkDataNodeHostConfig: keep the addresses and name set here
                        // instead of
                        // MiniDFSCluster's 127.0.0.1 (its hosts argument would map the name back to localhost)
                        cluster.startDataNodes(
                                dn, 1, null, true, null, null, null, null, null, false, true, true, null, null, null);
                    }
                    // built with no datanode, the cluster's client configuration asks for 0 replicas
                    cluster.getConfiguration(0).setInt("dfs.replication", 1);
                }
                cluster.waitActive();
            } catch (IOException e) {
                throw new UncheckedIOException("MiniDfsExtension: cannot start a MiniDFSCluster under " + base, e);
            }
        }

        @Override
        public void close() {
            cluster.shutdown(true);
        }
    }
}
