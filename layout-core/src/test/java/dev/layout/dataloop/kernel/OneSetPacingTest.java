package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.dataloop.kernel.OneSetPacing.Trial;
import java.util.function.IntToLongFunction;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link OneSetPacing}'s decision from made-up trial times (no clock): the strategies take turns in pairs
 * and only a pair's second call is timed, warm-up calls are not timed and the first round waits after
 * them, the faster strategy is chosen, and the trials end within their bound.
 */
class OneSetPacingTest {
    private static final long BLOCKS = 2048;

    /**
     * Runs a trial whose calls of {@code BLOCKS} blocks take {@code nanos.applyAsLong(strategy)} on a
     * made-up clock (the waits pass in steps of a gap between rounds, as untimed calls); the choice,
     * and how many trial calls it took.
     */
    private static long[] decide(IntToLongFunction nanos) {
        return decide((s, clock) -> nanos.applyAsLong((int) s));
    }

    /** As {@link #decide(IntToLongFunction)}, a call's time given its strategy and the clock at its start. */
    private static long[] decide(LongBinaryOperator nanos) {
        Trial t = new Trial();
        long clock = 0;
        for (int calls = 1; calls <= Trial.maxTrials(); ) {
            if (!t.due(clock)) {
                clock += Trial.GAP_NANOS;
                continue;
            }
            int s = t.next();
            long n = nanos.applyAsLong(s, clock);
            clock += n;
            int c = t.record(s, BLOCKS, n, clock);
            if (c >= 0) {
                return new long[] {c, calls};
            }
            calls++;
        }
        throw new AssertionError("no choice within " + Trial.maxTrials() + " trial calls");
    }

    @Test
    void theFasterStrategyIsChosenWithoutAMargin() {
        assertThat(decide(s -> s == OneSetPacing.PACED ? 100_000 : 50_000)[0]).isZero();
        assertThat(decide(s -> s == OneSetPacing.PACED ? 50_000 : 100_000)[0]).isEqualTo(OneSetPacing.PACED);
        assertThat(decide(s -> s == OneSetPacing.PACED ? 100_000 : 95_000)[0]).isZero();
        assertThat(decide(s -> s == OneSetPacing.PACED ? 95_000 : 100_000)[0]).isEqualTo(OneSetPacing.PACED);
        // an exact tie keeps the paced loop
        assertThat(decide(s -> 100_000)[0]).isEqualTo(OneSetPacing.PACED);
    }

    @Test
    void theStrategiesTakeTurnsInPairsAndTheWarmUpIsNotTimed() {
        Trial t = new Trial();
        int first = t.next();
        t.record(first, BLOCKS, 1, 1);
        assertThat(t.next()).isEqualTo(first);
        t.record(first, BLOCKS, 1, 2);
        assertThat(t.next()).isEqualTo(1 - first);
        t.record(1 - first, BLOCKS, 1, 3);
        assertThat(t.next()).isEqualTo(1 - first);
        // plain is very slow while warming up (not yet compiled), then twice as fast: the warm-up does not count
        long warmCalls = 2 * ((Trial.WARM_BLOCKS + BLOCKS - 1) / BLOCKS);
        long[] calls = {0};
        long[] choice = decide(s -> {
            calls[0]++;
            return s == 0 ? (calls[0] <= warmCalls ? 10_000_000 : 50_000) : 100_000;
        });
        assertThat(choice[0]).isZero();
        // two rounds: the first has no previous one to be settled against
        assertThat(choice[1]).isEqualTo(warmCalls + 2 * Trial.ROUND_CALLS);
    }

    @Test
    void onlyTheSecondCallOfAPairIsTimed() {
        // a call right after the other strategy's runs at a mixed speed: there plain looks faster, while
        // each on its own paced is (the first call of a pair pays the switch and is not timed)
        int[] last = {-1};
        long[] choice = decide(s -> {
            boolean switched = last[0] != s;
            last[0] = s;
            if (s == OneSetPacing.PACED) {
                return switched ? 100_000 : 50_000;
            }
            return switched ? 40_000 : 80_000;
        });
        assertThat(choice[0]).isEqualTo(OneSetPacing.PACED);
    }

    @Test
    void theFirstRoundWaitsForTheCompilerAfterTheWarmUp() {
        // plain is faster for the first 0.9 s (a first-tier loop; the warm-up takes some 7 ms of it),
        // then twice as slow: the rounds come after the change, so paced is chosen
        long[] choice = decide((s, clock) -> s == OneSetPacing.PACED ? 60_000 : clock < 900_000_000 ? 50_000 : 120_000);
        assertThat(choice[0]).isEqualTo(OneSetPacing.PACED);
    }

    @Test
    void aVerdictCountsOnlyWhenTheNextRoundRepeatsIt() {
        // paced is three times slower in the first timed round (its compiled code still queued), then
        // 0.9 of plain: the first round's verdict (plain) is not repeated, the next two agree on paced
        long[] pacedCalls = {0};
        long warmCalls = (Trial.WARM_BLOCKS + BLOCKS - 1) / BLOCKS;
        long[] choice = decide(s -> {
            if (s == 0) {
                return 100_000;
            }
            return ++pacedCalls[0] <= warmCalls + 2 * Trial.SAMPLES ? 300_000 : 90_000;
        });
        assertThat(choice[0]).isEqualTo(OneSetPacing.PACED);
        assertThat(choice[1]).as("chosen in the third round").isEqualTo(2 * warmCalls + 3 * Trial.ROUND_CALLS);
    }

    @Test
    void roundsThatNeverAgreeKeepPacedWithinTheBound() {
        // plain and paced trade places every round: no two verdicts in a row agree
        long[] plainCalls = {0};
        long warmCalls = (Trial.WARM_BLOCKS + BLOCKS - 1) / BLOCKS;
        long[] choice = decide(s -> {
            if (s == OneSetPacing.PACED) {
                return 100_000;
            }
            long round = (++plainCalls[0] - warmCalls - 1) / (2 * Trial.SAMPLES);
            return round % 2 == 0 ? 50_000 : 200_000;
        });
        assertThat(choice[0]).isEqualTo(OneSetPacing.PACED);
        assertThat(choice[1])
                .as("decided after the last round")
                .isEqualTo(2 * warmCalls + Trial.ROUNDS * Trial.ROUND_CALLS);
    }

    @Test
    void theFirstRoundWaitsAfterTheWarmUpAndRoundsAreAGapApart() {
        // the warm-up ends in a wait; the first round has no previous one to be settled against, so the
        // second starts a gap after it
        Trial t = new Trial();
        long clock = 0;
        long[] waits = {Trial.SETTLE_NANOS, Trial.GAP_NANOS};
        for (long wait : waits) {
            for (long calls = 0; t.due(clock); calls++) {
                assertThat(calls).as("calls before the wait").isLessThan(Trial.maxTrials());
                clock += 1_000;
                assertThat(t.record(t.next(), BLOCKS, 1_000, clock)).isEqualTo(-1);
            }
            assertThat(t.due(clock + wait - 1)).isFalse();
            assertThat(t.due(clock + wait)).isTrue();
            clock += wait;
        }
    }

    @Test
    void oneOutlierPerStrategyDoesNotDecide() {
        // the median: a stall in one timed call of the paced loop does not make plain look faster
        long[] pacedCalls = {0};
        long[] choice = decide(s -> {
            if (s == 0) {
                return 100_000;
            }
            return ++pacedCalls[0] == 70 ? 100_000_000 : 90_000; // the 70th is a pair's second (timed)
        });
        assertThat(choice[0]).isEqualTo(OneSetPacing.PACED);
    }

    @Test
    void smallCallsAreNotTrialsAndTheTrialsAreBounded() {
        // calls of the fewest blocks a trial takes: the warm-up needs the most calls, still within the bound
        Trial t = new Trial();
        int c = -1;
        long calls = 0;
        long clock = 0;
        while (c < 0) {
            clock += t.due(clock) ? 1_000 : Trial.GAP_NANOS;
            c = t.record(t.next(), Trial.MIN_BLOCKS, 1_000, clock);
            calls++;
        }
        assertThat(calls).isLessThanOrEqualTo(Trial.maxTrials());
        assertThat(c).isEqualTo(OneSetPacing.PACED);
        assertThat(OneSetPacing.begin(OneSetPacing.STRIDED_STORES, 4, Trial.MIN_BLOCKS - 1) & OneSetPacing.TRIAL)
                .as("a call of too few blocks is no trial")
                .isZero();
    }

    @Test
    void thePinIsReadStrictly() {
        assertThat(OneSetPacing.pinned("measure")).isEqualTo(-1);
        assertThat(OneSetPacing.pinned("plain")).isZero();
        assertThat(OneSetPacing.pinned("paced")).isEqualTo(OneSetPacing.PACED);
        assertThatThrownBy(() -> OneSetPacing.pinned("fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("layout.dataloop.pacing")
                .hasMessageContaining("fast");
    }

    @Test
    void keysSeparateAccessesAndWidthClasses() {
        assertThat(OneSetPacing.key(OneSetPacing.STRIDED_LOADS, 4))
                .isNotEqualTo(OneSetPacing.key(OneSetPacing.STRIDED_STORES, 4))
                .isNotEqualTo(OneSetPacing.key(OneSetPacing.STRIDED_LOADS, 8));
        assertThat(OneSetPacing.key(OneSetPacing.STRIDED_STORES, 32)).isEqualTo(2 * 8 - 1);
        assertThat(OneSetPacing.key(OneSetPacing.STRIDED_LOADS, 20))
                .isEqualTo(OneSetPacing.key(OneSetPacing.STRIDED_LOADS, 24));
    }
}
