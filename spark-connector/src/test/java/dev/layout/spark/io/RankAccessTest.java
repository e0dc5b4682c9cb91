package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.collective.Collectives;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one-round agreements of a collective call: every rank's access, and every rank's outcome. */
class RankAccessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** Rank r's view: an irregular indexed filetype of 1 + 3000 r^2 blocks: encodings of ~100 bytes to ~1 MiB. */
    private static RankAccess access(int r) {
        int blocks = 1 + 3000 * r * r;
        long[] lengths = new long[blocks];
        long[] displs = new long[blocks];
        long at = r;
        for (int i = 0; i < blocks; i++) {
            lengths[i] = 1 + (i * 7919L) % 5;
            displs[i] = at;
            at += lengths[i] + (i * 104729L) % 11;
        }
        Datatype filetype = Datatype.indexed(lengths, displs, Primitive.FLOAT64);
        return new RankAccess(
                null,
                8L * r,
                "float64",
                filetype.toString(),
                r,
                3L * r,
                7,
                70 + r,
                blocks,
                1 << 20,
                4096,
                "host-" + r % 3,
                "options " + r);
    }

    @Test
    void everyRankGetsEveryRanksAccessWhateverItsSize() {
        int n = 7;
        List<RankAccess[]> got = InProcessLauncher.run(
                n, TIMEOUT, comm -> RankAccess.allgather(Collectives.on(comm), access(comm.rank())));
        assertThat(access(n - 1).encode().length).as("the largest encoding").isGreaterThan(64 << 10);
        for (RankAccess[] all : got) {
            assertThat(all).hasSize(n);
            for (int r = 0; r < n; r++) {
                assertThat(all[r]).isEqualTo(access(r));
                assertThat(all[r].view().filetype().toString())
                        .isEqualTo(access(r).filetype());
            }
        }
    }

    @Test
    void aFailureAtOneRankReachesEveryRankWithItsMessageAndAnAccessWithoutOneRoundTrips() {
        int n = 5;
        List<String> got = InProcessLauncher.run(n, TIMEOUT, comm -> {
            RankAccess mine =
                    comm.rank() == 3 ? RankAccess.failed(new IOException("disk 3 on fire")) : access(comm.rank());
            RankAccess[] all = RankAccess.allgather(Collectives.on(comm), mine);
            try {
                RankAccess.throwFirstFailure("readAll f", all);
                return "returned";
            } catch (IOException | IllegalArgumentException e) {
                return e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        });
        assertThat(got).containsOnly("IOException: readAll f: rank 3 of 5: disk 3 on fire");
    }

    @Test
    void theAgreementThrowsTheFirstFailureByRankAtEveryRankOrReturnsEverywhere() {
        int n = 6;
        List<String> got = InProcessLauncher.run(n, TIMEOUT, comm -> {
            Collectives coll = Collectives.on(comm);
            String first;
            try {
                RankAccess.agree("writeAll f", coll, null);
                first = "returned";
            } catch (IOException e) {
                first = "threw " + e.getMessage();
            }
            Exception mine =
                    switch (comm.rank()) {
                        case 2 -> new IllegalArgumentException("rank two's bad argument " + "x".repeat(5000));
                        case 4 -> new IOException("rank four's disk");
                        default -> null;
                    };
            try {
                RankAccess.agree("writeAll f", coll, mine);
                return first + ", then returned";
            } catch (IOException | IllegalArgumentException e) {
                return first + ", then " + e.getClass().getSimpleName() + ": "
                        + e.getMessage().substring(0, 68) + " ("
                        + e.getMessage().length() + " chars)";
            }
        });
        assertThat(got)
                .as("the message clipped to 4000 characters and '...', then named")
                .containsOnly(
                        "returned, then IllegalArgumentException: writeAll f: rank 2 of 6: rank two's bad argument"
                                + " xxxxxxxxxxxxxxxxxxx (4027 chars)");
    }
}
