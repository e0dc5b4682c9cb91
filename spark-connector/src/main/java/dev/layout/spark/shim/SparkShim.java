package dev.layout.spark.shim;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Iterator;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Every call into Spark that is version-sensitive or reaches past the Java API, in one place
 * (checked against Spark 4.1.3).
 */
public final class SparkShim {
  private SparkShim() {}

  /** A serializable function over a partition's iterator. */
  @FunctionalInterface
  public interface PartitionFunction<T, U> extends Serializable {
    Iterator<U> apply(Iterator<T> in) throws Exception;
  }

  /**
   * {@code rdd.barrier().mapPartitions(f)}: JavaRDD has no {@code barrier()}, so go through the
   * Scala RDD with a Scala function and a ClassTag.
   */
  public static <T, U> JavaRDD<U> barrierMapPartitions(JavaRDD<T> rdd, PartitionFunction<T, U> f, Class<U> type) {
    ClassTag<U> tag = ClassTag$.MODULE$.apply(type);
    Function1<scala.collection.Iterator<T>, scala.collection.Iterator<U>> g =
        (Function1<scala.collection.Iterator<T>, scala.collection.Iterator<U>> & Serializable)
            it -> {
              try {
                return CollectionConverters.asScala(f.apply(CollectionConverters.asJava(it)));
              } catch (RuntimeException e) {
                throw e;
              } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
              }
            };
    RDD<U> out = rdd.rdd().barrier().mapPartitions(g, false, tag);
    return new JavaRDD<>(out, tag);
  }

  /**
   * The number of tasks the cluster can run at once now (Spark's own barrier-stage check), or -1
   * if Spark does not tell.
   */
  public static int maxConcurrentTasks(SparkContext sc) {
    try {
      return sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
    } catch (RuntimeException | LinkageError e) {
      return -1;
    }
  }

  /** The host this executor's block manager advertises (where peers can reach this task). */
  public static String executorHost() {
    SparkEnv env = SparkEnv.get();
    if (env == null) {
      return "127.0.0.1";
    }
    return env.blockManager().blockManagerId().host();
  }

  /** The address executors reach the driver at ({@code spark.driver.host}, set by every SparkContext). */
  public static String driverHost(SparkContext sc) {
    return sc.conf().get("spark.driver.host", "127.0.0.1");
  }

  /** The address the driver's sockets bind to ({@code spark.driver.bindAddress}, else the driver host). */
  public static String driverBindAddress(SparkContext sc) {
    return sc.conf().get("spark.driver.bindAddress", driverHost(sc));
  }

  /**
   * The job secret: the application's authentication secret when {@code spark.authenticate} is
   * on, otherwise 32 random bytes generated here on the driver.
   */
  public static byte[] jobSecret(SparkContext sc) {
    if (sc.conf().getBoolean("spark.authenticate", false)) {
      String s = sc.env().securityManager().getSecretKey();
      if (s != null) {
        return s.getBytes(StandardCharsets.UTF_8);
      }
    }
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return b;
  }
}
