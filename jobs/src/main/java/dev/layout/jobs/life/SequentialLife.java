package dev.layout.jobs.life;

/** The sequential reference for the life job: B3/S23 on a torus or on a grid with dead outside cells. */
public final class SequentialLife {
    private SequentialLife() {}

    /** One generation of {@code rows x cols} cells (row-major). */
    public static boolean[] step(boolean[] board, int rows, int cols, boolean periodic) {
        boolean[] next = new boolean[board.length];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                int n = 0;
                for (int di = -1; di <= 1; di++) {
                    for (int dj = -1; dj <= 1; dj++) {
                        if (di == 0 && dj == 0) {
                            continue;
                        }
                        int a = i + di;
                        int b = j + dj;
                        if (periodic) {
                            a = Math.floorMod(a, rows);
                            b = Math.floorMod(b, cols);
                        } else if (a < 0 || a >= rows || b < 0 || b >= cols) {
                            continue;
                        }
                        if (board[a * cols + b]) {
                            n++;
                        }
                    }
                }
                boolean alive = board[i * cols + j];
                next[i * cols + j] = n == 3 || (alive && n == 2);
            }
        }
        return next;
    }

    public static int live(boolean[] board) {
        int n = 0;
        for (boolean b : board) {
            if (b) {
                n++;
            }
        }
        return n;
    }

    /** A random board: each cell live with probability {@code density}, from {@code seed} (see {@link #randomCell}). */
    public static boolean[] random(int rows, int cols, long seed, double density) {
        boolean[] b = new boolean[Math.multiplyExact(rows, cols)];
        for (int i = 0; i < b.length; i++) {
            b[i] = randomCell(seed, density, i);
        }
        return b;
    }

    /**
     * Whether cell {@code index} (row-major) of the random board of {@code seed} is live: a uniform
     * number in [0, 1) from a SplitMix64 hash of seed and index, below {@code density}. Each cell on
     * its own, so every rank makes its block without the board.
     */
    public static boolean randomCell(long seed, double density, long index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53 < density;
    }
}
