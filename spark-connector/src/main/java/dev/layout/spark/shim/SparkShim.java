package dev.layout.spark.shim;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Iterator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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
                (Function1<scala.collection.Iterator<T>, scala.collection.Iterator<U>> & Serializable) it -> {
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
     * Runs {@code action} (a job over a barrier stage) so that Spark interrupts its tasks' threads
     * when it cancels them ({@code spark.job.interruptOnCancel}, off by default). When one rank of a
     * barrier stage fails, Spark cancels the others; without the interrupt a rank blocked waiting for
     * the failed peer only wakes at its communicator's timeout. A cancelled attempt writes nothing
     * that counts (collective writes are fenced and committed only after every rank succeeded).
     */
    public static <T> T interruptingOnCancel(SparkContext sc, java.util.function.Supplier<T> action) {
        String key = "spark.job.interruptOnCancel";
        String before = sc.getLocalProperty(key);
        sc.setLocalProperty(key, "true");
        try {
            return action.get();
        } finally {
            sc.setLocalProperty(key, before); // null removes it again
        }
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
     * The key of one run's transport and progress channel, for the driver and every task of the run.
     * With {@code spark.authenticate=true} this carries no secret at all: only a fresh random salt
     * and the application id travel with the task closure (whose binary executors fetch unencrypted
     * by default), and each JVM derives the key from its own copy of Spark's secret as
     * HMAC-SHA256(secret, LABEL, app id, salt). Without authentication Spark has no secret to derive
     * from, so the key is 32 random bytes carried here, as protected as Spark's own RPC (that is,
     * not at all): turn on {@code spark.authenticate} on shared networks.
     */
    public static final class JobKey implements Serializable {
        private static final long serialVersionUID = 1L;
        static final String LABEL = "layout-job-key-v1";

        private final String appId;
        private final byte[] salt;
        private final byte[] unauthenticatedKey; // null when derived from Spark's secret

        private JobKey(String appId, byte[] salt, byte[] unauthenticatedKey) {
            this.appId = appId;
            this.salt = salt;
            this.unauthenticatedKey = unauthenticatedKey;
        }

        /** Whether the key is derived from Spark's authentication secret (nothing secret is shipped). */
        public boolean derived() {
            return unauthenticatedKey == null;
        }

        /**
         * The key in this JVM (driver or executor).
         *
         * @throws IllegalStateException if the key is derived and this JVM has no Spark secret
         */
        public byte[] secret() {
            if (unauthenticatedKey != null) {
                return unauthenticatedKey.clone();
            }
            SparkEnv env = SparkEnv.get();
            String s = env == null ? null : env.securityManager().getSecretKey();
            if (s == null) {
                throw new IllegalStateException(
                        "jobKey: no Spark authentication secret in this JVM (expected: spark.authenticate=true on"
                                + " the driver and every executor)");
            }
            return derive(s.getBytes(StandardCharsets.UTF_8), appId, salt);
        }

        static byte[] derive(byte[] sparkSecret, String appId, byte[] salt) {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(new SecretKeySpec(sparkSecret, "HmacSHA256"));
                m.update(LABEL.getBytes(StandardCharsets.UTF_8));
                m.update((byte) 0);
                m.update(appId.getBytes(StandardCharsets.UTF_8));
                m.update((byte) 0);
                m.update(salt);
                return m.doFinal();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("jobKey: HmacSHA256 unavailable", e);
            }
        }
    }

    /** A fresh {@link JobKey} for one run on {@code sc}. */
    public static JobKey jobKey(SparkContext sc) {
        SecureRandom random = new SecureRandom();
        byte[] salt = new byte[32];
        random.nextBytes(salt);
        if (sc.conf().getBoolean("spark.authenticate", false)
                && sc.env().securityManager().getSecretKey() != null) {
            return new JobKey(sc.applicationId(), salt, null);
        }
        return new JobKey(sc.applicationId(), salt, salt);
    }
}
