package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The trials of a generated kernel's loop, driven by made-up times: when it is promoted, retired, and what it costs meanwhile. */
class PromotionTest {
    /** Runs one call: returns what it did, reporting {@code kernelNanos} or {@code genericNanos} for timed calls of 100 instances. */
    private static int call(Promotion p, long genericNanos, long kernelNanos) {
        int what = p.begin();
        if (Promotion.timed(what)) {
            p.end(what, 100, Promotion.kernel(what) ? kernelNanos : genericNanos);
        }
        return what;
    }

    /** Calls up to and including the next trial, with these times. */
    private static void toTrial(Promotion p, long genericNanos, long kernelNanos) {
        while (call(p, genericNanos, kernelNanos) != Promotion.TRIAL) {}
    }

    @Test
    void theFirstTrialComesAfterCallsWithDosesButNoneOnTheFirstCall() {
        Promotion p = Promotion.onTrial(() -> 0);
        assertThat(p.begin()).isEqualTo(Promotion.GENERIC);
        assertThat(p.dose(1000, 8))
                .as("a layout used once never makes its kernel")
                .isZero();
        for (int c = 2; c < Promotion.MAX_GAP - 1; c++) {
            assertThat(p.begin()).isEqualTo(Promotion.GENERIC);
            assertThat(p.dose(1000, 8)).isPositive();
        }
        assertThat(p.begin()).isEqualTo(Promotion.BASELINE);
        assertThat(p.begin()).isEqualTo(Promotion.TRIAL);
    }

    /** Calls until a generic call with a dose, which reports the dose at {@code doseRatio} to the generic loops per instance; returns that call's number. */
    private static int dosedCall(Promotion p, double doseRatio, int calls) {
        while (true) {
            calls++;
            int what = p.begin();
            long dose = p.dose(1000, 8);
            if (what == Promotion.GENERIC && dose > 0) {
                p.dosed(dose, (long) (dose * 100 * doseRatio), 1000 - dose, (1000 - dose) * 100);
                return calls;
            }
            if (Promotion.timed(what)) {
                p.end(what, 1000, 100_000);
            }
        }
    }

    /** Calls until the next trial; returns how many. */
    private static int callsToTrial(Promotion p) {
        int n = 1;
        while (p.begin() != Promotion.TRIAL) {
            n++;
        }
        return n;
    }

    @Test
    void dosesNearTheGenericSpeedCallTheFirstTrialSoonAndColdOnesDoNot() {
        Promotion cold = Promotion.onTrial(() -> 0);
        int c = dosedCall(cold, 40, 0); // the first call gets no dose
        assertThat(c).isEqualTo(2);
        assertThat(c + callsToTrial(cold))
                .as("a kernel still forty times slower is tried at the latest")
                .isEqualTo(Promotion.MAX_GAP);
        Promotion warm = Promotion.onTrial(() -> 0);
        c = dosedCall(warm, 40, 0);
        c = dosedCall(warm, 1.1, c); // compiled meanwhile
        assertThat(callsToTrial(warm)).as("a baseline, then the trial").isEqualTo(2);
        assertThat(warm.dose(100_000, 8))
                .as("the dose's ratio sizes the next dose: half the call")
                .isEqualTo(50_000);
    }

    @Test
    void aDoseMuchFasterThanTheLastTrialCallsTheNextTrialAndOneNotMuchFasterDoesNot() {
        Promotion slow = Promotion.onTrial(() -> 0);
        toTrial(slow, 1000, 5000); // lost at ratio 5: the next trial gap(5) calls on
        dosedCall(slow, 3, 0); // not under half of 5
        assertThat(callsToTrial(slow)).isEqualTo(Promotion.gap(5) - 1);
        Promotion faster = Promotion.onTrial(() -> 0);
        toTrial(faster, 1000, 5000);
        dosedCall(faster, 1.5, 0); // under half of 5: compiled since
        assertThat(callsToTrial(faster))
                .as("within the gap of the dose's ratio, which bounds the next trial's loss as a trial's would")
                .isEqualTo(Promotion.gap(1.5));
    }

    @Test
    void aKernelAsFastAsTheGenericLoopsInFourTrialsInARowRunsEveryCall() {
        Promotion p = Promotion.onTrial(() -> 0);
        int trials = 0;
        for (int c = 0; c < 1000 && !p.promoted(); c++) {
            trials += call(p, 1000, 900) == Promotion.TRIAL ? 1 : 0;
        }
        assertThat(p.promoted()).isTrue();
        assertThat(trials).isEqualTo(Promotion.WINS);
        assertThat(p.begin()).isEqualTo(Promotion.KERNEL);
        assertThat(p.dose(1000, 8)).isZero();
    }

    @Test
    void aLostTrialStartsTheCountOfWinsAgain() {
        Promotion p = Promotion.onTrial(() -> 0);
        long[] kernel = {900, 900, 900, 1100, 900, 900, 900};
        int t = 0;
        while (t < kernel.length) {
            t += call(p, 1000, kernel[t]) == Promotion.TRIAL ? 1 : 0;
            assertThat(p.promoted()).as("after %d trials", t).isFalse();
        }
        // one more win makes four in a row
        while (call(p, 1000, 900) != Promotion.TRIAL) {}
        assertThat(p.promoted()).isTrue();
    }

    @Test
    void aColdKernelIsTriedRarelyAndANearlyCompiledOneOften() {
        assertThat(Promotion.gap(50)).isEqualTo(Promotion.MAX_GAP);
        assertThat(Promotion.gap(3)).isEqualTo(16);
        assertThat(Promotion.gap(1.1)).isEqualTo(2);
        assertThat(Promotion.gap(0.5)).isEqualTo(2);
        // trials of a kernel three times slower lose about a budget's share of the calls' time
        Promotion p = Promotion.onTrial(() -> 0);
        long kernelCalls = 0;
        int calls = 2000;
        for (int c = 0; c < calls; c++) {
            kernelCalls += Promotion.kernel(call(p, 1000, 3000)) ? 1 : 0;
        }
        double lost = kernelCalls * (3.0 - 1) / calls;
        assertThat(lost).isLessThanOrEqualTo(Promotion.BUDGET * 1.05);
        assertThat(p.promoted()).isFalse();
    }

    @Test
    void aKernelNeverAsFastIsRetiredAfterItsCallsAndThenNeverRun() {
        // the clock moves a second a call: the time it must also have had, for a queued compilation, has passed
        long[] now = {0};
        Promotion p = Promotion.onTrial(() -> now[0]);
        for (int c = 0; c < Promotion.MAX_CALLS; c++) {
            call(p, 1000, 1200);
            now[0] += 1_000_000_000L;
        }
        assertThat(p.begin()).isEqualTo(Promotion.GENERIC);
        assertThat(p.dose(1000, 8)).isZero();
        assertThat(p.promoted()).isFalse();
    }

    @Test
    void aKernelIsNotRetiredBeforeItsTimeWhateverItsCalls() {
        Promotion p = Promotion.onTrial(() -> 0);
        for (int c = 0; c < 2 * Promotion.MAX_CALLS; c++) {
            call(p, 1000, 1200);
        }
        assertThat(p.dose(1000, 8)).isPositive(); // still on trial: the clock has not moved
    }

    @Test
    void aDoseIsTheBytesFloorWhileColdHalfTheCallAtMostAndTheWholeOfASingleInstance() {
        Promotion p = Promotion.onTrial(() -> 0);
        p.begin(); // the first call, which gets no dose
        p.begin();
        assertThat(p.dose(1, 1 << 20)).isEqualTo(1);
        assertThat(p.dose(2, 1 << 20)).isEqualTo(1);
        assertThat(p.dose(1000, 8)).isEqualTo(Promotion.DOSE_BYTES / 8);
        assertThat(p.dose(100, 8)).isEqualTo(50);
        assertThat(p.dose(0, 8)).isZero();
        // after a trial at ratio 3: the budget buys 1/16 of the call, more than the floor for many instances
        toTrial(p, 1000, 3000);
        assertThat(p.dose(100_000, 8)).isEqualTo(100_000 / 16);
        // nearly as fast: half the call
        Promotion q = Promotion.onTrial(() -> 0);
        toTrial(q, 1000, 1100);
        assertThat(q.dose(100_000, 8)).isEqualTo(50_000);
    }

    @Test
    void aTrialWithoutItsBaselineStartsANewPair() {
        Promotion p = Promotion.onTrial(() -> 0);
        while (p.begin() != Promotion.BASELINE) {} // not ended: another thread's, say
        assertThat(p.begin()).isEqualTo(Promotion.TRIAL);
        p.end(Promotion.TRIAL, 100, 1);
        assertThat(p.promoted()).isFalse();
        assertThat(p.begin()).isEqualTo(Promotion.BASELINE);
        assertThat(p.begin()).isEqualTo(Promotion.TRIAL);
    }

    @Test
    void thePropertyIsReadByNameAndABadValueIsNamed() {
        assertThat(Promotion.start("measure")).isNotEqualTo(Promotion.start("always"));
        assertThat(Promotion.start("never")).isNotEqualTo(Promotion.start("always"));
        assertThatThrownBy(() -> Promotion.start("sometimes"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("layout.kernels.promote: sometimes")
                .hasMessageContaining("measure, always or never");
    }
}
