package dev.layout.jobs;

import dev.layout.jobs.grid.JacobiKernel;
import dev.layout.jobs.heat.SequentialHeat;
import dev.layout.jobs.life.AllreduceLife;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.ExchangeMode;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.HaloExchange;
import dev.layout.spark.grid.Stencil;
import dev.layout.spark.shim.SparkShim;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BroadcastBlockId;
import scala.Function1;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Child JVM of {@link ClosureSecretIT}: a local[2] session with {@code spark.authenticate=true} and
 * the secret given as argument, uncompressed broadcasts kept (no context cleaner); runs a barrier halo exchange (with its
 * progress channel) and the sparse-allreduce Life, then searches every broadcast piece in the
 * block manager (task binaries are broadcasts) for the secret. Prints {@code PIECES n}, {@code
 * CLOSURE_PIECES n} (pieces naming a barrier closure's class: the search saw the task binaries),
 * {@code SECRET_FOUND n}, {@code HEAT_OK} / {@code LIFE_OK} and {@code DERIVED true|false}.
 */
public final class ClosureSecretProbe {
    private ClosureSecretProbe() {}

    public static void main(String[] args) throws Exception {
        String secret = args[0];
        SparkSession spark = SparkSession.builder()
                .master("local[2]")
                .appName("closure-secret-probe")
                .config("spark.authenticate", "true")
                .config("spark.authenticate.secret", secret)
                .config("spark.broadcast.compress", "false")
                .config("spark.ui.enabled", "false")
                // keep every broadcast piece until the scan: the context cleaner would drop task binaries whose
                // broadcasts became unreachable, and the search would then see none of them
                .config("spark.cleaner.referenceTracking", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            System.out.println("DERIVED " + SparkShim.jobKey(jsc.sc()).derived());
            int[] g = {12, 10};
            DistributedGrid dg = DistributedGrid.of(g, new int[] {2, 1}, 1, new boolean[] {false, false});
            JavaRDD<GridBlock> blocks = dg.parallelize(jsc, at -> at[0] < 0 ? SequentialHeat.plateBoundary(at) : 0.0);
            long[] seen = {0};
            HaloExchange.Result r = HaloExchange.of(dg, Stencil.FIVE_POINT)
                    .mode(ExchangeMode.BARRIER)
                    .progress(n -> seen[0] = n)
                    .run(blocks, new JacobiKernel(5), 4);
            if (Arrays.equals(dg.assemble(r.blocks().collect()), SequentialHeat.run(g, 5, false, null, 4))
                    && seen[0] == 4) {
                System.out.println("HEAT_OK");
            }
            DistributedGrid lg = DistributedGrid.of(new int[] {8, 8}, new int[] {2, 1}, 1, new boolean[] {true, true});
            AllreduceLife.Result l = AllreduceLife.run(
                    jsc,
                    lg,
                    lg.parallelize(jsc, at -> at[1] == 3 && at[0] >= 2 && at[0] <= 4 ? 1.0 : 0.0),
                    2,
                    jsc.sc().collectionAccumulator(),
                    n -> {},
                    Duration.ofMinutes(1));
            if (l.blocks().count() == 2) {
                System.out.println("LIFE_OK");
            }
            scan(secret.getBytes(StandardCharsets.UTF_8));
        } finally {
            spark.stop();
        }
    }

    private static void scan(byte[] secret) {
        var bm = SparkEnv.get().blockManager();
        Function1<BlockId, Object> pieces =
                id -> id instanceof BroadcastBlockId b && b.field().startsWith("piece");
        int all = 0;
        int closures = 0;
        int found = 0;
        for (BlockId id : CollectionConverters.asJava(bm.getMatchingBlockIds(pieces))) {
            Option<?> data = bm.getLocalBytes(id);
            if (data.isEmpty()) {
                continue;
            }
            org.apache.spark.storage.BlockData d = (org.apache.spark.storage.BlockData) data.get();
            java.nio.ByteBuffer buf = d.toByteBuffer();
            byte[] bytes = new byte[buf.remaining()];
            buf.get(bytes);
            d.dispose();
            all++;
            if (contains(bytes, "HaloExchange".getBytes(StandardCharsets.UTF_8))
                    || contains(bytes, "AllreduceLife".getBytes(StandardCharsets.UTF_8))) {
                closures++;
            }
            if (contains(bytes, secret)) {
                found++;
            }
        }
        System.out.println("PIECES " + all);
        System.out.println("CLOSURE_PIECES " + closures);
        System.out.println("SECRET_FOUND " + found);
    }

    static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
