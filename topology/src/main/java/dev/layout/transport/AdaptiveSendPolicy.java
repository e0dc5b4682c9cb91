package dev.layout.transport;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The pack-or-gather choice of {@link SendStrategy#ADAPTIVE} sends, learnt from the sends
 * themselves (Madeleine's lesson, Furmento and Mercier 2005: the best strategy depends on the
 * machine and the message, which a table calibrated elsewhere cannot follow).
 *
 * <p>Per cell (peer, size class of the message's bytes, size class of its contiguous blocks, heap
 * or direct memory: powers of two) a two-armed bandit, ε-greedy with counted exploration:
 *
 * <ul>
 *   <li>the incumbent starts as the {@link SendCostModel}'s choice (a calibration file, or the
 *       built-in constants) and becomes the arm with the lower estimate once both arms have {@link
 *       #MIN_SAMPLES} samples;
 *   <li>the estimate of an arm is the median of its last {@link #WINDOW} measured send times (a
 *       sliding window, so that it follows a machine whose load changes): times on a shared
 *       machine have a heavy tail, and a median keeps a few descheduled sends from outvoting
 *       the normal ones, where a mean of three samples with one outlier picks the wrong arm;
 *   <li>every {@link #EXPLORE_UNCERTAIN}-th message of a cell tries the other arm while either has
 *       fewer than {@link #MIN_SAMPLES} samples, every {@link #EXPLORE_CONFIDENT}-th after that (a
 *       machine may change under a settled choice); a cell whose model costs differ by more than
 *       {@link #MODEL_TRUSTED} times starts settled (gathering a million 12-byte blocks is not worth
 *       trying early: one such send costs dozens of packed ones);
 *   <li>exploring is capped: a cell explores only while the time its explorations cost beyond the
 *       incumbent's estimate is at most {@link #BUDGET} of all the time its sends took, so an arm
 *       ten times slower is tried rarely and a useless exploration never costs more than a few
 *       percent.
 * </ul>
 *
 * Why ε-greedy and not UCB or Thompson sampling: two arms, costs with an unknown heavy-tailed noise
 * that drifts with the machine's load, and the requirement of a hard bound on what exploring may
 * cost; a counted exploration rate under a cost budget gives that bound directly, is deterministic
 * (testable), and needs no noise model. Thread-safe; memory is one small cell per (peer, size
 * class, block class, heap) met.
 */
public final class AdaptiveSendPolicy {
  /** Samples of each arm before the estimates may overturn the model's choice. */
  static final int MIN_SAMPLES = 3;
  /** Recent samples per arm whose median is its estimate. */
  static final int WINDOW = 15;
  /** Exploration period while uncertain. */
  static final int EXPLORE_UNCERTAIN = 4;
  /** Exploration period once both arms are measured. */
  static final int EXPLORE_CONFIDENT = 64;
  /** Ratio of the model's two costs beyond which its choice is trusted until measured otherwise. */
  static final double MODEL_TRUSTED = 3;
  /** Largest share of a cell's send time that exploring may cost beyond the incumbent. */
  static final double BUDGET = 0.05;

  private final SendCostModel model;
  private final ConcurrentHashMap<Long, Cell> cells = new ConcurrentHashMap<>();

  public AdaptiveSendPolicy(SendCostModel model) {
    if (model == null) {
      throw new IllegalArgumentException("adaptiveSendPolicy: model null (expected: a SendCostModel)");
    }
    this.model = model;
  }

  /** The strategy for the next message to {@code peer} of {@code bytes} bytes in {@code blocks} contiguous blocks. */
  public SendStrategy choose(int peer, long blocks, long bytes, boolean heap) {
    return cell(peer, blocks, bytes, heap).choose();
  }

  /** Records that a send chosen by {@link #choose} with these arguments took {@code nanos} with {@code used}. */
  public void observe(int peer, long blocks, long bytes, boolean heap, SendStrategy used, long nanos) {
    if (used != SendStrategy.PACK && used != SendStrategy.GATHER) {
      throw new IllegalArgumentException("observe: used " + used + " (expected: PACK or GATHER)");
    }
    cell(peer, blocks, bytes, heap).observe(used == SendStrategy.PACK ? 0 : 1, Math.max(1, nanos));
  }

  /** The current incumbent for such a message, without counting a decision or exploring. */
  public SendStrategy best(int peer, long blocks, long bytes, boolean heap) {
    return cell(peer, blocks, bytes, heap).incumbent();
  }

  private Cell cell(int peer, long blocks, long bytes, boolean heap) {
    long key = ((long) peer << 32) | ((long) sizeClass(bytes) << 16) | ((long) sizeClass(blocks) << 1) | (heap ? 1 : 0);
    Cell c = cells.get(key);
    if (c == null) {
      SendStrategy prior = model.choose(blocks, bytes, heap);
      double pack = model.packCost(blocks, bytes);
      double gather = model.gatherCost(blocks, bytes, heap);
      boolean doubt = Math.max(pack, gather) <= MODEL_TRUSTED * Math.min(pack, gather);
      c = cells.computeIfAbsent(key, k -> new Cell(prior == SendStrategy.GATHER ? 1 : 0, doubt));
    }
    return c;
  }

  /** ceil(log2(v)) for v >= 1, 0 below: messages within a factor of two share a cell. */
  static int sizeClass(long v) {
    return v <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(v - 1);
  }

  /** One cell's bandit: arm 0 PACK, arm 1 GATHER. */
  private static final class Cell {
    private final int prior;
    private final boolean doubt; // the model's costs are close: explore early
    private final int[] n = new int[2];
    private final long[][] recent = new long[2][WINDOW]; // ring buffers of the last send times
    private final long[] estimate = new long[2]; // median of recent
    private long decisions;
    private double total; // ns of every observed send
    private double excess; // ns that explorations cost beyond the incumbent's estimate

    Cell(int prior, boolean doubt) {
      this.prior = prior;
      this.doubt = doubt;
    }

    synchronized SendStrategy incumbent() {
      return arm(best());
    }

    private int best() {
      if (n[0] >= MIN_SAMPLES && n[1] >= MIN_SAMPLES) {
        return estimate[0] <= estimate[1] ? 0 : 1;
      }
      return prior;
    }

    synchronized SendStrategy choose() {
      decisions++;
      int best = best();
      boolean uncertain = doubt && (n[0] < MIN_SAMPLES || n[1] < MIN_SAMPLES);
      long every = uncertain ? EXPLORE_UNCERTAIN : EXPLORE_CONFIDENT;
      if (decisions % every == 0 && excess <= BUDGET * total) {
        return arm(1 - best);
      }
      return arm(best);
    }

    synchronized void observe(int a, long nanos) {
      int best = best();
      if (a != best && n[best] > 0) {
        excess += Math.max(0, nanos - estimate[best]);
      }
      total += nanos;
      recent[a][n[a] % WINDOW] = nanos;
      n[a] = n[a] == Integer.MAX_VALUE ? WINDOW : n[a] + 1;
      long[] w = java.util.Arrays.copyOf(recent[a], Math.min(n[a], WINDOW));
      java.util.Arrays.sort(w);
      estimate[a] = w[w.length / 2];
    }

    private static SendStrategy arm(int a) {
      return a == 0 ? SendStrategy.PACK : SendStrategy.GATHER;
    }
  }
}
