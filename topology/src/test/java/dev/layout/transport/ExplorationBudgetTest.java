package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What trying may cost, counted in nanoseconds of the cell's sends. */
class ExplorationBudgetTest {
    /** Sends of ns each; returns how many were tries of arm 1 charged loss. */
    private static int sends(ExplorationBudget b, int n, double ns, double loss) {
        int tries = 0;
        for (int i = 0; i < n; i++) {
            b.spent(ns);
            if (b.tryNow(1, loss)) {
                tries++;
                b.tried(1, (long) (ns * Math.exp(loss)), ns, 10);
            }
        }
        return tries;
    }

    @Test
    void anUnresolvedCloseGapIsTriedAtTheCap() {
        ExplorationBudget b = new ExplorationBudget();
        b.rate(0, true, 0.5);
        assertThat(sends(b, 1000, 1e5, 0)).isEqualTo(500);
    }

    @Test
    void aSettledGapIsTriedAtTheBudgetsShareOfTheTime() {
        // a 50% gap: one try in a hundred costs 0.5% of the time
        ExplorationBudget b = new ExplorationBudget();
        b.rate(Math.log(1.5), false, 1.0 / ExplorationBudget.REFRESH_EVERY);
        int tries = sends(b, 10_000, 1e5, Math.log(1.5));
        assertThat(tries * 0.5 / 10_000)
                .isBetween(0.9 * ExplorationBudget.SETTLED_BUDGET, ExplorationBudget.SETTLED_BUDGET);
        // a near tie: the refresh cap
        ExplorationBudget tie = new ExplorationBudget();
        tie.rate(0.001, false, 1.0 / ExplorationBudget.REFRESH_EVERY);
        assertThat(sends(tie, 3200, 1e5, 0.001)).isEqualTo(100);
    }

    @Test
    void theHardBoundIsInTimeNotInSends() {
        // learning at the cap against an arm 300 times slower: tries stop once they have cost BUDGET
        // of the time, the same number whether the sends are 1 us or 1 s
        for (double ns : new double[] {1e3, 1e9}) {
            ExplorationBudget b = new ExplorationBudget();
            b.rate(0, true, 0.5);
            double loss = Math.log(300);
            int tries = sends(b, 100_000, ns, loss);
            assertThat(tries * 299.0 * ns).isLessThanOrEqualTo(ExplorationBudget.BUDGET * 100_000 * ns + 299 * ns);
            assertThat(tries).as("%s ns", ns).isEqualTo(7);
        }
    }

    @Test
    void triesAreChargedToTheArmTried() {
        // a thousand tries of arm 1, then arm 0 becomes the challenger: its own tries are not yet spent
        ExplorationBudget b = new ExplorationBudget();
        b.rate(0, true, 0.5);
        for (int i = 0; i < 2000; i++) {
            b.spent(1e5);
            if (b.tryNow(1, 0.01)) {
                b.tried(1, 101_000, 1e5, 10);
            }
        }
        assertThat(b.tryNow(1, 2.0)).isFalse(); // at a large gap arm 1's tries are over the bound
        assertThat(b.tryNow(0, 2.0)).isTrue();
    }
}
