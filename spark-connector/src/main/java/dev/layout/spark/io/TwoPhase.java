package dev.layout.spark.io;

import dev.layout.collective.Block;
import dev.layout.collective.BlockSpec;
import dev.layout.collective.ByteBlock;
import dev.layout.collective.Collectives;
import dev.layout.fileview.ViewIntersection;
import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The exchange rounds of two-phase I/O, as ROMIO's {@code ADIOI_GEN_WriteStridedColl} and {@code
 * ReadStridedColl} run them: in cycle {@code c} every domain's aggregator handles the next {@code
 * cycleBytes} of its domain; each rank's piece of that range is the intersection of its view with
 * it, sent (or received) with one {@code alltoallw} whose blocks are the rank's own memory on one
 * side and an {@code hindexed} over the aggregator's cycle buffer on the other. The aggregator
 * writes its buffer to its domain's {@link DomainOutput} in file order, or fills it with one sequential read.
 *
 * <p>Every rank runs every cycle, whatever fails: a failure is remembered and returned (the caller
 * agrees on it after the last cycle), so no rank waits for a peer that gave up. An aggregator whose
 * read failed sends zeros of the sizes its receivers expect.
 */
final class TwoPhase {
    private static final Block EMPTY = new ByteBlock(new byte[0], 0, 0);

    private TwoPhase() {}

    /**
     * Runs the write cycles; returns this rank's first failure (null if none). The part is committed
     * on success. Both sides of the exchange are typed memory (the rank's memory through its
     * datatype, the aggregator's cycle buffer through an {@code hindexed}), so a rank of the same
     * JVM copies its bytes straight into the aggregator's buffer with one engine pass, and the
     * aggregator writes the buffer as it is ({@link CycleBuffer}).
     */
    static Exception write(
            Collectives coll,
            IoPlan plan,
            RankAccess[] all,
            ViewIntersection mine,
            RankMemory src,
            FileSystem fs,
            Path path,
            String writeId,
            long blockSize)
            throws IOException {
        int n = all.length;
        int myDomain = plan.domainOf(coll.communicator().rank());
        ViewIntersection[] theirs = myDomain >= 0 ? intersections(all) : null;
        Exception failure = null;
        DomainOutput part = null;
        CycleBuffer buf = null;
        try {
            if (myDomain >= 0) {
                try {
                    part = DomainOutput.open(fs, path, plan.domains(), myDomain, writeId, blockSize);
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
                buf = CycleBuffer.allocate(
                        (int) Math.min(
                                plan.cycleBytes(),
                                plan.domains().end(myDomain) - plan.domains().start(myDomain)),
                        DomainOutput.shared(fs));
            }
            Block[] send = new Block[n];
            Block[] recv = new Block[n];
            BitSet covered = new BitSet(); // the bytes of the cycle some rank writes, reused by every cycle
            for (int c = 0; c < plan.cycles(); c++) {
                Arrays.fill(send, EMPTY);
                Arrays.fill(recv, EMPTY);
                sendOrReceiveMine(plan, c, mine, src::block, send);
                long lo = 0;
                long hi = 0;
                if (myDomain >= 0) {
                    long[] range = plan.cycleRange(myDomain, c);
                    lo = range[0];
                    hi = range[1];
                    covered.clear();
                    ViewIntersection.Runs[] runs = new ViewIntersection.Runs[n];
                    for (int r = 0; r < n && lo < hi; r++) {
                        runs[r] = theirs[r] == null ? null : theirs[r].runs(lo, hi);
                        if (runs[r] != null) {
                            String clash = mark(covered, runs, r, lo);
                            if (clash != null && failure == null) {
                                failure = new IllegalArgumentException(clash);
                            }
                            recv[r] = new BlockSpec(buf.memory(), 0, 1, runs[r].datatype());
                        }
                    }
                    buf.exchanging();
                }
                RuntimeException failed = exchange(coll, send, recv);
                failure = failure != null ? failure : failed;
                if (buf != null && failed == null) {
                    buf.exchanged();
                }
                if (myDomain >= 0 && lo < hi && failure == null) {
                    int len = (int) (hi - lo);
                    for (int a = covered.nextClearBit(0); a < len; a = covered.nextClearBit(a)) {
                        int b = Math.min(len, covered.nextSetBit(a) < 0 ? len : covered.nextSetBit(a));
                        buf.zero(a, b); // bytes no rank writes are zeros
                        a = b;
                    }
                    try {
                        buf.writeTo(part, lo, len);
                    } catch (IOException | RuntimeException e) {
                        failure = e;
                    }
                }
            }
            if (part != null && failure == null) {
                try {
                    part.commit();
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
            }
            return failure;
        } finally {
            try {
                if (part != null) {
                    part.close();
                }
            } finally {
                if (buf != null) {
                    buf.close();
                }
            }
        }
    }

    /**
     * Runs the read cycles; returns this rank's first failure (null if none). An aggregator reads
     * each cycle of its domain while the previous one is exchanged ({@link DomainReader}). Both sides
     * of the exchange are typed memory (the cycle buffer through an {@code hindexed}, the rank's
     * memory through its datatype), so ranks of one JVM receive with one copy from the buffer into
     * their memory; the buffer is free again as soon as its exchange returns.
     */
    static Exception read(
            Collectives coll,
            IoPlan plan,
            RankAccess[] all,
            ViewIntersection mine,
            RankMemory dst,
            FileSystem fs,
            Path path)
            throws IOException {
        int n = all.length;
        int myDomain = plan.domainOf(coll.communicator().rank());
        try (DomainReader reader = myDomain < 0
                ? null
                : DomainReader.open(
                        fs,
                        path,
                        plan,
                        myDomain,
                        intersections(all),
                        coll.communicator().timeout())) {
            Exception failure = null;
            byte[] zeros = null;
            Block[] send = new Block[n];
            Block[] recv = new Block[n];
            for (int c = 0; c < plan.cycles(); c++) {
                Arrays.fill(send, EMPTY);
                Arrays.fill(recv, EMPTY);
                sendOrReceiveMine(plan, c, mine, dst::block, recv);
                DomainReader.Cycle cycle = null;
                if (reader != null) {
                    cycle = reader.take(c);
                    failure = failure != null ? failure : cycle.failure();
                    for (int r = 0; r < n; r++) {
                        ViewIntersection.Runs runs = cycle.runs()[r];
                        if (runs != null && failure == null) {
                            send[r] = new BlockSpec(cycle.buffer(), 0, 1, runs.datatype());
                        } else if (runs != null) { // in step with the receivers, which expect these sizes
                            int size = (int) runs.byteSize();
                            zeros = zeros != null && zeros.length >= size ? zeros : new byte[size];
                            send[r] = new ByteBlock(zeros, 0, size);
                        }
                    }
                }
                RuntimeException failed = exchange(coll, send, recv);
                failure = failure != null ? failure : failed;
                if (cycle != null) {
                    reader.release(cycle, failed == null);
                }
            }
            return failure;
        }
    }

    /**
     * One cycle's {@code alltoallw}; returns its failure (a peer's copy into this rank's memory,
     * this rank's out of its own), null if it ended normally: the rank goes on with the remaining
     * cycles, so that its peers, which wait for its blocks, stay in step.
     */
    private static RuntimeException exchange(Collectives coll, Block[] send, Block[] recv) {
        try {
            coll.alltoallw(send, recv);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** Bytes {@code [from, to)} of a rank's packed data as a block. */
    interface StreamRange {
        Block block(long from, long to);
    }

    /** This rank's piece of each domain's range in cycle {@code c}, as the block to or from that domain's aggregator. */
    private static void sendOrReceiveMine(
            IoPlan plan, int c, ViewIntersection mine, StreamRange piece, Block[] blocks) {
        if (mine.length() == 0) {
            return;
        }
        for (int d = 0; d < plan.domains().count(); d++) {
            long[] range = plan.cycleRange(d, c);
            if (range[0] < range[1]) {
                long[] s = mine.streamRange(range[0], range[1]);
                if (s[1] > s[0]) {
                    blocks[plan.aggregatorOf()[d]] = piece.block(s[0], s[1]);
                }
            }
        }
    }

    private static ViewIntersection[] intersections(RankAccess[] all) {
        ViewIntersection[] out = new ViewIntersection[all.length];
        for (int r = 0; r < all.length; r++) {
            if (all[r].length() > 0) {
                out[r] = ViewIntersection.of(all[r].view(), all[r].streamStart(), all[r].length());
            }
        }
        return out;
    }

    /**
     * Marks rank {@code r}'s runs in {@code covered}; returns a message naming both ranks and the
     * bytes if one was already written by an earlier rank, else null.
     */
    private static String mark(BitSet covered, ViewIntersection.Runs[] runs, int r, long lo) {
        long[] offs = runs[r].offsets();
        long[] lens = runs[r].lengths();
        String clash = null;
        for (int i = 0; i < offs.length; i++) {
            int a = (int) offs[i];
            int b = (int) (offs[i] + lens[i]);
            int hit = covered.nextSetBit(a);
            if (clash == null && hit >= 0 && hit < b) {
                clash = "writeAll: ranks " + owner(runs, r, hit) + " and " + r + " both write file byte " + (lo + hit)
                        + " (expected: every byte written by one rank)";
            }
            covered.set(a, b);
        }
        return clash;
    }

    private static int owner(ViewIntersection.Runs[] runs, int before, long at) {
        for (int q = 0; q < before; q++) {
            if (runs[q] != null) {
                long[] offs = runs[q].offsets();
                int i = Arrays.binarySearch(offs, at);
                i = i >= 0 ? i : -i - 2;
                if (i >= 0 && at < offs[i] + runs[q].lengths()[i]) {
                    return q;
                }
            }
        }
        return -1;
    }
}
