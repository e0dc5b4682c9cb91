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
 * One MiniDFSCluster (1 datanode) per test class, base directory {@code
 * target/minidfs/<TestClass>}, shut down after the class (held in the class's store as an
 * {@link AutoCloseable}). Small blocks are allowed ({@code dfs.namenode.fs-limits.min-block-size}
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

  /** The cluster of the test class of {@code context}, started on first use. */
  public static MiniDFSCluster cluster(ExtensionContext context) {
    ExtensionContext cls = context;
    while (cls.getTestMethod().isPresent() && cls.getParent().isPresent()) {
      cls = cls.getParent().get();
    }
    String name = cls.getRequiredTestClass().getSimpleName();
    return cls.getStore(NS).getOrComputeIfAbsent("cluster", k -> new Cluster(name), Cluster.class).cluster;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> t = p.getParameter().getType();
    return t == MiniDFSCluster.class || t == FileSystem.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    MiniDFSCluster c = cluster(e);
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

    Cluster(String name) {
      Configuration conf = new Configuration();
      File base = new File("target/minidfs/" + name).getAbsoluteFile();
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getPath());
      conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
      conf.setInt("dfs.bytes-per-checksum", 512);
      try {
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
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
