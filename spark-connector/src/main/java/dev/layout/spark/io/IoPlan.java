package dev.layout.spark.io;

import dev.layout.fileview.FileDomains;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The plan every rank computes alike from all ranks' {@link RankAccess}es: the strategy (by the
 * cost model, unless forced), the aggregators, the file domains (one per aggregator, aligned to the
 * file system's blocks), the aggregator rank of each domain and the number of exchange cycles.
 *
 * <p>Aggregators are chosen as ROMIO's {@code cb_nodes} hint does: by default one per host (the
 * ranks say theirs, {@link RankAccess#host}), taken from the hosts in turn. When every rank is on one
 * host, every rank is an aggregator: measured on one host, one aggregator (a single stream) was
 * the slowest for reads and no smaller count won consistently (benchmarks/collective-io.md,
 * "Aggregators").
 * Never more aggregators than the ranks, nor domains than the file's blocks (a domain is whole
 * blocks); a count can be asked for ({@link CollectiveFile#withAggregators}).
 *
 * <p>The cost model counts bytes moved, with one access (a seek and a request) worth {@link
 * #SEEK_BYTES}: a rank reading independently costs its bytes plus one access per file run; the
 * two-phase path costs the largest domain read sequentially plus the largest rank's bytes sent
 * once through the network. Writes go independent only when that needs no exchange at all (each
 * rank one run, the runs tiling the file): otherwise writing the parts of a write-once file needs
 * the aggregation anyway. Reads from streams split their domains into smaller cycles than writes
 * ({@link #readCycleBytes}) so that reading and exchanging overlap.
 */
record IoPlan(Strategy strategy, FileDomains domains, int[] aggregatorOf, int cycles, long cycleBytes, String reason) {

    /** The number of cycles a two-phase read splits its widest domain into, for the read-ahead to overlap. */
    static final int READ_CYCLES = 8;

    /** The smallest cycle {@link #readCycleBytes} chooses. */
    static final long MIN_READ_CYCLE_BYTES = 2L << 20;

    /** The cost of one file access, in bytes of sequential transfer (about 5 ms at 200 MB/s). */
    static final long SEEK_BYTES = 1L << 20;

    static IoPlan forWrite(RankAccess[] all, PlanOptions o) {
        Strategy forced = o.strategy();
        long cycleBytes = o.cycleBytes();
        long fileLength = 0;
        for (RankAccess a : all) {
            fileLength = Math.max(fileLength, a.length() == 0 ? 0 : a.fileEnd());
        }
        if (fileLength == 0) {
            return new IoPlan(
                    forced == Strategy.INDEPENDENT ? Strategy.INDEPENDENT : Strategy.TWO_PHASE,
                    null,
                    new int[0],
                    0,
                    cycleBytes,
                    "no rank has data: an empty file");
        }
        int[] order = tiling(all, fileLength);
        if (forced == Strategy.INDEPENDENT && order == null) {
            throw new IllegalArgumentException(
                    "writeAll: strategy INDEPENDENT (expected: each rank's data one contiguous run of the file and the runs "
                            + "tiling it without gaps; use TWO_PHASE or AUTO)");
        }
        if (forced != Strategy.TWO_PHASE && order != null) {
            long[] bounds = new long[order.length + 1];
            int[] agg = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                agg[i] = order[i];
                bounds[i + 1] = all[order[i]].fileEnd();
            }
            return new IoPlan(
                    Strategy.INDEPENDENT,
                    FileDomains.of(bounds),
                    agg,
                    0,
                    cycleBytes,
                    "each rank's data is one contiguous run and the runs tile the file: every rank writes its run as one part");
        }
        FileDomains d = FileDomains.aligned(
                fileLength, aggregatorCount(all, o.aggregators()), all[0].blockSize(), o.minDomainBytes());
        int[] aggregators = aggregators(all, d.count());
        return twoPhase(
                d,
                aggregators,
                cycleBytes,
                forced == Strategy.TWO_PHASE ? "forced" : "the ranks' data interleave in the file");
    }

    /**
     * A read's plan. Aggregators that map their domains ({@link PlanOptions#mapped}: the local file
     * system, {@link DomainReader}) rather than read them as streams need no buffer and have nothing
     * to overlap, so their cycles are not split.
     */
    static IoPlan forRead(RankAccess[] all, PlanOptions o) {
        boolean mapped = o.mapped();
        Strategy forced = o.strategy();
        long cycleBytes = o.cycleBytes();
        long end = 0;
        long start = Long.MAX_VALUE;
        long indep = 0;
        long maxBytes = 0;
        long runs = 0;
        for (RankAccess a : all) {
            if (a.length() > 0) {
                end = Math.max(end, a.fileEnd());
                start = Math.min(start, a.fileStart());
                indep = Math.max(indep, a.length() + a.runs() * SEEK_BYTES);
                maxBytes = Math.max(maxBytes, a.length());
                runs += a.runs();
            }
        }
        if (end == 0) {
            return new IoPlan(
                    forced == Strategy.TWO_PHASE ? Strategy.TWO_PHASE : Strategy.INDEPENDENT,
                    null,
                    new int[0],
                    0,
                    cycleBytes,
                    "no rank reads anything");
        }
        FileDomains d =
                FileDomains.aligned(end, aggregatorCount(all, o.aggregators()), all[0].blockSize(), o.minDomainBytes());
        int[] aggregators = aggregators(all, d.count());
        long widest = 0;
        for (int i = 0; i < d.count(); i++) {
            widest = Math.max(widest, Math.min(d.end(i), end) - Math.max(d.start(i), start));
        }
        long twoPhase = widest + SEEK_BYTES + maxBytes;
        String costs = String.format(
                Locale.ROOT,
                "cost independent %.1f MB (largest rank's bytes + %d runs in all), two-phase %.1f MB (widest domain + "
                        + "exchange)",
                indep / 1e6,
                runs,
                twoPhase / 1e6);
        if (forced == Strategy.INDEPENDENT || forced == Strategy.AUTO && indep <= twoPhase) {
            return new IoPlan(
                    Strategy.INDEPENDENT, null, new int[0], 0, cycleBytes, forced == Strategy.AUTO ? costs : "forced");
        }
        return twoPhase(
                d,
                aggregators,
                mapped ? cycleBytes : readCycleBytes(widest, cycleBytes),
                forced == Strategy.AUTO ? costs : "forced");
    }

    /**
     * The cycle of a two-phase read: {@code cycleBytes} at most, but small enough that the widest
     * domain takes {@link #READ_CYCLES} cycles, so that an aggregator's read of the next cycle
     * overlaps the exchange of all but the first ({@link DomainReader}); no smaller than {@link
     * #MIN_READ_CYCLE_BYTES} (a file request and an exchange round per cycle).
     */
    static long readCycleBytes(long widestDomain, long cycleBytes) {
        long overlapping = (widestDomain + READ_CYCLES - 1) / READ_CYCLES;
        return Math.min(cycleBytes, Math.max(MIN_READ_CYCLE_BYTES, overlapping));
    }

    /**
     * How many aggregators: {@code requested} (at most one per rank), or by default one per host, and
     * every rank when all are on one host.
     */
    static int aggregatorCount(RankAccess[] all, int requested) {
        if (requested > 0) {
            return Math.min(requested, all.length);
        }
        long hosts = Arrays.stream(all).map(RankAccess::host).distinct().count();
        return hosts > 1 ? (int) hosts : all.length;
    }

    /**
     * {@code count} aggregator ranks ({@code 1 <= count <= ranks}), in the order domains are given to
     * them: taken from the hosts in turn (the first host's first pick, the second host's first, ...,
     * then each host's second), each host's picks spread evenly over its ranks.
     */
    static int[] aggregators(RankAccess[] all, int count) {
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < all.length; r++) {
            byHost.computeIfAbsent(all[r].host(), h -> new ArrayList<>()).add(r);
        }
        List<List<Integer>> hosts = new ArrayList<>(byHost.values());
        int[] quota = new int[hosts.size()]; // picks per host, dealt in turn while a host has ranks left
        for (int dealt = 0, h = 0; dealt < count; h = (h + 1) % hosts.size()) {
            if (quota[h] < hosts.get(h).size()) {
                quota[h]++;
                dealt++;
            }
        }
        int[] out = new int[count];
        int n = 0;
        for (int pick = 0; n < count; pick++) {
            for (int h = 0; h < hosts.size(); h++) {
                if (pick < quota[h]) {
                    List<Integer> ranks = hosts.get(h);
                    out[n++] = ranks.get((int) ((long) pick * ranks.size() / quota[h]));
                }
            }
        }
        return out;
    }

    private static IoPlan twoPhase(FileDomains d, int[] agg, long cycleBytes, String reason) {
        long widest = 0;
        for (int i = 0; i < agg.length; i++) {
            widest = Math.max(widest, d.end(i) - d.start(i));
        }
        int cycles = (int) ((widest + cycleBytes - 1) / cycleBytes);
        return new IoPlan(Strategy.TWO_PHASE, d, agg, cycles, cycleBytes, reason);
    }

    /** The ranks with data in file order if each has one run and together they tile [0, fileLength); else null. */
    private static int[] tiling(RankAccess[] all, long fileLength) {
        Integer[] ranks = new Integer[all.length];
        int n = 0;
        for (int r = 0; r < all.length; r++) {
            if (all[r].length() > 0) {
                if (all[r].runs() != 1) {
                    return null;
                }
                ranks[n++] = r;
            }
        }
        Integer[] order = Arrays.copyOf(ranks, n);
        Arrays.sort(order, (a, b) -> Long.compare(all[a].fileStart(), all[b].fileStart()));
        long at = 0;
        for (int r : order) {
            if (all[r].fileStart() != at) {
                return null;
            }
            at = all[r].fileEnd();
        }
        return at == fileLength
                ? Arrays.stream(order).mapToInt(Integer::intValue).toArray()
                : null;
    }

    /** The domain rank {@code rank} aggregates, or -1. */
    int domainOf(int rank) {
        for (int d = 0; d < aggregatorOf.length; d++) {
            if (aggregatorOf[d] == rank) {
                return d;
            }
        }
        return -1;
    }

    /** File bytes {@code {lo, hi}} of domain {@code d} in cycle {@code c} ({@code lo == hi} past the domain's end). */
    long[] cycleRange(int d, int c) {
        long lo = Math.min(domains.end(d), domains.start(d) + c * cycleBytes);
        long hi = Math.min(domains.end(d), lo + cycleBytes);
        return new long[] {lo, hi};
    }
}
