package dev.layout.transport;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The pack-or-gather choice of {@link SendStrategy#ADAPTIVE} sends, learnt from the sends
 * themselves (Madeleine's lesson, Furmento and Mercier 2005: the best strategy depends on the
 * machine and the message, which a table calibrated elsewhere cannot follow).
 *
 * <p>Per cell (peer, {@link TypeShape} of the message's compiled type, size class of its bytes, size
 * class of its contiguous blocks, heap or direct memory: powers of two) a two-armed bandit on the
 * gap between the arms ({@link SendCell}): the incumbent is sent, the other arm (the challenger) is tried at a rate bounded by
 * what trying it costs in time and by the chance that it is the faster arm ({@link
 * ExplorationBudget}), and each try is compared with the
 * incumbent's sends around it ({@link PairedGap}: a load shared by both arms cancels out).
 *
 * <ul>
 *   <li>The signal is what the transport reports to {@link #observe}: what a sampled send cost
 *       end to end, until the receiver read its last byte, from the receiver's completion report
 *       ({@link CompletionReports}): for a rendezvous message the receiver's time from its
 *       clear-to-send, for an eager one the sender's delay until the frame's header left plus the
 *       receiver's time from that header. In a ping-pong this is what the application waits for,
 *       one way. The sender's own time is not enough: a write ends once the socket buffer holds
 *       its tail while the receiver still drains it. Nor is the receiver's time from the header of
 *       a rendezvous message: the socket takes more of a gathering write than of a packing one
 *       before the reader reads the header, so that clock favoured gathering (traced in
 *       benchmarks/graph-and-pingpong.md, ninth round).
 *   <li>Every quantity is a difference of log-times: the rule is the same at 4 KiB and at 16 MB
 *       (only {@link SendCell#EXPENSIVE_NANOS}, where a report's cost stops mattering, is absolute).
 *   <li>Prior: the model's log-cost of each arm plus the wire time ({@link #WIRE_NS_PER_BYTE} per
 *       byte, the same for both arms). A model that calls the arms close (16 MB in three blocks:
 *       the wire dominates) leaves the challenger to be tried at once; one that calls them far apart
 *       (gathering a million 12-byte blocks) does not.
 * </ul>
 *
 * Why this and not UCB on each arm's times (the policy before): UCB compares the arms' own
 * estimates, which on a drifting machine are estimates of different moments, and its confidence
 * terms grow only with the logarithm of the sends, so an arm once measured slow was not retried
 * within a run. Not Thompson sampling: it would need a noise model of the shared machine's
 * timings. Thread-safe; memory is one small cell per (peer, shape, size class, block class, heap)
 * met, at most {@link SendCells#MOST_CELLS} cells.
 */
public final class AdaptiveSendPolicy {
    /**
     * Wire time per byte added to both arms' model costs (loopback on the development machine; a
     * slower network makes the arms closer, so the prior only becomes less sure).
     */
    static final double WIRE_NS_PER_BYTE = 0.3;

    private final SendCostModel model;
    private final SendCells cells = new SendCells();
    /** The cells shared by messages met once the table is full: [0] where the model packs, [1] where it gathers. */
    private final AtomicReferenceArray<SendCell> overflow = new AtomicReferenceArray<>(2);

    public AdaptiveSendPolicy(SendCostModel model) {
        if (model == null) {
            throw new IllegalArgumentException("adaptiveSendPolicy: model null (expected: a SendCostModel)");
        }
        this.model = model;
    }

    /** The strategy for the next message to {@code peer} of that shape, bytes and contiguous blocks. */
    public SendStrategy choose(int peer, TypeShape shape, long blocks, long bytes, boolean heap) {
        return SendCell.strategy(cell(peer, shape, blocks, bytes, heap).choose());
    }

    /**
     * Whether the send just chosen with {@code used} is to be measured and {@link #observe observed}
     * (whether to ask its receiver for a completion report). True for every exploration and the
     * incumbent's sends next to one (its neighbours), for the incumbent's first {@link RecentSends#LEVEL}
     * sends, and for one other exploitation in {@link SendCell#SAMPLE_EVERY}. A send not sampled still
     * counts towards the exploration budget's base, at the incumbent's level.
     */
    public boolean sample(int peer, TypeShape shape, long blocks, long bytes, boolean heap, SendStrategy used) {
        int arm = SendCell.arm(checked("sample", used)); // before a cell is made for it
        return cell(peer, shape, blocks, bytes, heap).sample(arm);
    }

    /** Records that a send chosen by {@link #choose} with these arguments took {@code nanos} with {@code used}. */
    public void observe(
            int peer, TypeShape shape, long blocks, long bytes, boolean heap, SendStrategy used, long nanos) {
        int arm = SendCell.arm(checked("observe", used)); // before a cell is made for it
        cell(peer, shape, blocks, bytes, heap).observe(arm, nanos);
    }

    /** The current incumbent (lower estimate) for such a message, without counting a decision or exploring. */
    public SendStrategy best(int peer, TypeShape shape, long blocks, long bytes, boolean heap) {
        return SendCell.strategy(cell(peer, shape, blocks, bytes, heap).incumbent());
    }

    /** How many sends of a message of that estimate with {@code used} have been observed (for tests). */
    int observed(int peer, BlockEstimates.BlockEstimate e, long bytes, boolean heap, SendStrategy used) {
        return cell(peer, e, bytes, heap).samples(SendCell.arm(used));
    }

    private static SendStrategy checked(String op, SendStrategy used) {
        if (used != SendStrategy.PACK && used != SendStrategy.GATHER) {
            throw new IllegalArgumentException(op + ": used " + used + " (expected: PACK or GATHER)");
        }
        return used;
    }

    /**
     * The cell of a message of that estimate (the transport asks it once per send and then chooses,
     * samples and observes through it: one look-up, no allocation once the cell exists).
     */
    SendCell cell(int peer, BlockEstimates.BlockEstimate e, long bytes, boolean heap) {
        return cell(peer, e.shape(), e.blocks(), bytes, heap);
    }

    /**
     * The cell of such a message. Once the table holds {@link SendCells#MOST_CELLS}, a message of a
     * new key shares one of two overflow cells, by the model's choice for it: the table stays bounded,
     * and such messages still learn, if together.
     */
    SendCell cell(int peer, TypeShape shape, long blocks, long bytes, boolean heap) {
        if (shape == null) {
            throw new IllegalArgumentException("adaptiveSendPolicy: shape null (expected: a TypeShape)");
        }
        long key = ((long) peer << 32)
                | ((long) shape.ordinal() << 24)
                | ((long) sizeClass(bytes) << 16)
                | ((long) sizeClass(blocks) << 1)
                | (heap ? 1 : 0);
        SendCell c = cells.get(key);
        if (c == null) {
            boolean packs = model.choose(blocks, bytes, heap) == SendStrategy.PACK;
            SendCell fresh = new SendCell(prior(blocks, bytes, heap, packs));
            c = cells.add(key, fresh);
            if (c == null) {
                int i = packs ? 0 : 1;
                overflow.compareAndSet(i, null, fresh);
                c = overflow.get(i);
            }
        }
        return c;
    }

    /** The model's log gap between the arms of such a message (gather minus pack), the wire time added to both. */
    private double prior(long blocks, long bytes, boolean heap, boolean packs) {
        double wire = WIRE_NS_PER_BYTE * bytes;
        double pack = model.packCost(blocks, bytes) + wire;
        double gather = model.gatherCost(blocks, bytes, heap) + wire;
        // where the model packs (always below minGatherBytes, where gathering is a syscall per batch
        // for nothing), gathering starts at least 25% behind even when the wire time dominates both
        if (packs) {
            gather = Math.max(gather, pack * 1.25);
        }
        return Math.log(Math.max(1, gather)) - Math.log(Math.max(1, pack));
    }

    /** ceil(log2(v)) for v >= 1, 0 below: messages within a factor of two share a cell. */
    static int sizeClass(long v) {
        return v <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(v - 1);
    }
}
