package dev.layout.transport;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One configuration of {@link PingPongBenchmark}: {@code floats} floats in {@code blocks} blocks of an
 * index, vector or struct type, and how many rounds of it are played (warm-up, learning, measured).
 */
record PingPongRow(String kind, int floats, int blocks) {
    /** "vector 4194304 1": what {@code --match} is matched against. */
    String label() {
        return kind + " " + floats + " " + blocks;
    }

    Datatype type() {
        return switch (kind) {
            case "index" -> {
                long[] len = new long[blocks];
                long[] disp = new long[blocks];
                long each = floats / blocks;
                long at = 0;
                for (int i = 0; i < blocks; i++) {
                    len[i] = i == blocks - 1 ? each + floats % blocks : each;
                    disp[i] = at;
                    at += 2 * len[i]; // a gap as long as the block
                }
                yield Datatype.indexed(len, disp, Primitive.FLOAT32);
            }
            case "vector" -> {
                long bl = (floats + blocks - 1) / blocks;
                yield Datatype.vector(blocks, bl, 2 * bl, Primitive.FLOAT32);
            }
            case "struct" -> {
                // the paper's particle {float x, y; int c; float z} with 4-byte holes after y and c
                Datatype particle = Datatype.struct(
                        new long[] {2, 1, 1},
                        new long[] {0, 12, 20},
                        List.of(Primitive.FLOAT32, Primitive.INT32, Primitive.FLOAT32));
                yield Datatype.resized(0, 24, particle);
            }
            default -> throw new IllegalArgumentException("pingpong: type " + kind);
        };
    }

    long count() {
        return kind.equals("struct") ? floats / 4 : 1;
    }

    /** The rows of a run whose "type floats blocks" {@code match} finds (all rows if it is null). */
    static List<PingPongRow> rows(boolean quick, Pattern match) {
        List<PingPongRow> rows = new ArrayList<>(rows(quick));
        if (match != null) {
            rows.removeIf(r -> !match.matcher(r.label()).find());
        }
        return rows;
    }

    static List<PingPongRow> rows(boolean quick) {
        int[] sizes = quick
                ? new int[] {1 << 10, 16 << 10, 256 << 10, 4 << 20}
                : new int[] {1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
        List<PingPongRow> rows = new ArrayList<>();
        for (String kind : new String[] {"index", "vector"}) {
            for (int s : sizes) {
                for (int b : new int[] {1, 3, 10, 100}) {
                    rows.add(new PingPongRow(kind, s, b));
                }
            }
        }
        for (int s : sizes) {
            rows.add(new PingPongRow("struct", s, 3));
        }
        return rows;
    }

    /** Rows of up to this many floats are warmed up before any row is measured ({@link #warmupRounds}). */
    static final int WARMUP_MAX_FLOATS = 256 << 10;

    /**
     * Unmeasured rounds per row before any row is measured: many for the small rows (a few seconds
     * in all), so that every strategy's code path, the adaptive policy's included, is compiled by the
     * JIT before the first measured row (with few, the first small rows measured the adaptive sends'
     * interpreted bookkeeping, and on a loaded machine, whose JIT threads get little cpu, a hundred
     * were still too few); a few for the larger ones.
     */
    int warmupRounds() {
        return floats <= (16 << 10) ? 1000 : 3;
    }

    /**
     * Rounds per row: enough that the middle means of two strategies running the same code agree
     * within a few percent (round trips spread by +-20% here, and the error of such an estimate falls
     * only with the square root of the rounds), fewer where a round trip is expensive.
     */
    int repsFor(int reps) {
        if (kind.equals("struct") && floats >= (1 << 20)) {
            // gathering 3-element blocks is many times slower: no doubt which strategy wins, but pack and
            // adaptive (both packing) need more rounds than 2 x reps to agree
            return reps * 8;
        }
        return floats <= (16 << 10) ? reps * 40 : floats <= (256 << 10) ? reps * 20 : reps * 16;
    }

    /** Least unmeasured rounds per row before it is measured (see {@link #learnRounds}). */
    static final int LEARN_ROUNDS = 160;

    /**
     * The adaptive policy's learning phase of a row: unmeasured rounds played exactly as the measured
     * ones (every strategy, interleaved), so that the policy learns under the conditions it is then
     * measured in, as a program that sends many messages of one shape gives it before the ones that
     * matter. At least {@link #LEARN_ROUNDS}: a cell needs some 130 sends to fill its window of pairs
     * (AdaptiveSendPolicy); a trace of the earlier phase of 48 adaptive round trips alone showed the
     * arms' times in a back-to-back exchange, which ranked them otherwise than the interleaved rounds.
     * As many as the measured rounds where a round is expensive (gathering 16 MB of 12-byte blocks:
     * a quarter second), where the model is sure and the policy does not try that arm.
     */
    int learnRounds(int reps) {
        int measured = repsFor(reps);
        return kind.equals("struct") && floats >= (1 << 20) ? measured : Math.max(measured, LEARN_ROUNDS);
    }
}
