package dev.layout.transport;

/**
 * The last few measured sends of each arm of one {@link SendCell} (arm 0 PACK, arm 1 GATHER): their
 * log-times and when they came, counted in measured sends of the cell. They give the incumbent's
 * level (what a send costs now) and the neighbour before a try (see {@link PairedGap}). Not
 * thread-safe: the cell's lock guards it.
 */
final class RecentSends {
    /** Sends kept per arm; the incumbent's level is the median of them. */
    static final int LEVEL = 5;

    private final double[][] times = new double[2][LEVEL];
    private final long[][] stamps = new long[2][LEVEL];
    private final int[] n = new int[2]; // measured sends per arm
    private final double[] scratch = new double[LEVEL];
    private long step; // measured sends of either arm

    /** Measured sends of the cell so far: the clock of stamps and spans. */
    long step() {
        return step;
    }

    /** How many sends of arm a were measured (saturating). */
    int count(int a) {
        return n[a];
    }

    /** Records a measured send of arm a that took log-time x. */
    void add(int a, double x) {
        int slot = n[a] % LEVEL;
        times[a][slot] = x;
        stamps[a][slot] = step++;
        n[a] = n[a] == Integer.MAX_VALUE ? LEVEL : n[a] + 1;
    }

    /**
     * Copies arm a's last up to {@code most} log-times younger than {@code span} measured sends into
     * {@code into} from index 0, newest first; returns how many.
     */
    int youngest(int a, int most, long span, double[] into) {
        int k = 0;
        for (int j = 0; j < Math.min(n[a], most); j++) {
            int slot = (n[a] - 1 - j) % LEVEL;
            if (step - stamps[a][slot] <= span) {
                into[k++] = times[a][slot];
            }
        }
        return k;
    }

    /**
     * Arm a's level in ns: the median of its last LEVEL times younger than {@code span} measured
     * sends, else its last time; 0 before it is measured.
     */
    double level(int a, long span) {
        int k = youngest(a, LEVEL, span, scratch);
        if (k > 0) {
            return Math.exp(median(scratch, k));
        }
        return n[a] == 0 ? 0 : Math.exp(times[a][(n[a] - 1) % LEVEL]);
    }

    /** The median of the first k values (sorted in place). */
    static double median(double[] v, int k) {
        java.util.Arrays.sort(v, 0, k);
        return k % 2 == 1 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }
}
