package dev.layout.spark.comm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.collective.Collectives;
import dev.layout.spark.shim.SparkShim;
import dev.layout.spark.testing.LocalSparkExtension;
import dev.layout.transport.SameJvmTransport;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Ranks of a barrier stage that Spark runs in one JVM ({@code local[4]}) talk in process, not over loopback TCP. */
@Tag("spark")
@ExtendWith(LocalSparkExtension.class)
class SparkCommunicatorIT {

    @Test
    void ranksInOneExecutorJvmExchangeInProcess(JavaSparkContext jsc) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        List<long[]> out = SparkShim.barrierMapPartitions(
                        jsc.parallelize(List.of(0, 1, 2), 3),
                        (Iterator<Integer> it) -> {
                            try (SparkCommunicator sc =
                                    SparkCommunicator.connect(TransportFactory.tcp(), secret, Duration.ofSeconds(30))) {
                                int rank = sc.world().rank();
                                byte[] all = new byte[3];
                                Collectives.on(sc.world()).allgather(new byte[] {(byte) (10 + rank)}, all);
                                long local = sc.transport() instanceof SameJvmTransport s ? s.localMessages() : -1;
                                return List.of(new long[] {rank, all[0], all[1], all[2], local})
                                        .iterator();
                            }
                        },
                        long[].class)
                .collect();
        assertThat(out).hasSize(3);
        for (long[] r : out) {
            assertThat(new long[] {r[1], r[2], r[3]})
                    .as("rank %d's allgather", r[0])
                    .containsExactly(10, 11, 12);
            assertThat(r[4]).as("rank %d's messages sent in process", r[0]).isPositive();
        }
    }
}
