package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The gap from paired tries, driven as a cell drives it: incumbent sends and tries of the other arm. */
class PairedGapTest {
    private final RecentSends recent = new RecentSends();

    /** A measured send of arm a (log-time x) with incumbent best; a try waits for its neighbours. */
    private boolean send(PairedGap g, int a, double x, int best) {
        boolean again = g.neighbour(a, x, recent.step(), best);
        if (a != best) {
            g.pend(a, x, recent);
        }
        recent.add(a, x);
        return again;
    }

    @Test
    void aLoadSharedByBothArmsCancelsOutOfThePairs() {
        // gathering 10% slower than packing, while the machine's level jumps between 1x and 3x every
        // few sends: the arms' own means would mix levels, the pairs do not
        PairedGap g = new PairedGap(0);
        Random r = new Random(3);
        for (int i = 0; i < 2000; i++) {
            double level = Math.log((i / 7) % 2 == 0 ? 1e5 : 3e5) + 0.02 * r.nextGaussian();
            int a = i % 8 == 0 ? 1 : 0;
            send(g, a, level + (a == 1 ? Math.log(1.1) : 0), 0);
        }
        assertThat(g.window()).isEqualTo(PairedGap.PAIRS);
        assertThat(g.gap()).isBetween(Math.log(1.1) - 0.03, Math.log(1.1) + 0.03);
        assertThat(g.error()).isLessThan(0.01);
        assertThat(g.challengerLoss(0)).isEqualTo(Math.abs(g.gap()));
        // 250 tries made pairs, the window keeps the last PAIRS; a pair spreads as two sends' noise
        assertThat(g.made()).isEqualTo(250);
        assertThat(g.spread()).isBetween(PairedGap.MIN_SIGMA, 0.06);
    }

    @Test
    void beforeAnyPairTheModelsPriorStands() {
        PairedGap g = new PairedGap(-0.4);
        assertThat(g.gap()).isEqualTo(-0.4);
        assertThat(g.error()).isEqualTo(PairedGap.MODEL_ERROR);
        assertThat(g.challengerLoss(1)).isNaN();
        send(g, 1, Math.log(1e5), 1);
        send(g, 0, Math.log(1e5), 1); // a try of packing: waits for two more gathering sends
        assertThat(g.pending()).isTrue();
        send(g, 1, Math.log(1e5), 1);
        send(g, 1, Math.log(1e5), 1);
        assertThat(g.pending()).isFalse();
        assertThat(g.window()).isEqualTo(1);
    }

    @Test
    void surprisesInARowReplaceTheWindow() {
        // packing 20% faster for 400 sends, then gathering 30% faster: the first surprising pair asks
        // for another try at once, three in a row make the window theirs
        PairedGap g = new PairedGap(0.2);
        Random r = new Random(5);
        for (int i = 0; i < 400; i++) {
            int a = i % 8 == 0 ? 1 : 0;
            send(g, a, Math.log(a == 1 ? 1.2e5 : 1e5) + 0.02 * r.nextGaussian(), 0);
        }
        assertThat(g.gap()).isGreaterThan(0.1);
        int asked = 0;
        int windowAfter = -1;
        for (int i = 0; i < 64 && windowAfter < 0; i++) {
            int a = i % 4 == 0 ? 1 : 0;
            asked += send(g, a, Math.log(a == 1 ? 0.7e5 : 1e5) + 0.02 * r.nextGaussian(), 0) ? 1 : 0;
            if (g.window() == PairedGap.CONFIRM) {
                windowAfter = i;
            }
        }
        assertThat(asked).isEqualTo(PairedGap.CONFIRM - 1);
        assertThat(windowAfter).isGreaterThan(0);
        assertThat(g.gap()).isLessThan(0);
    }
}
