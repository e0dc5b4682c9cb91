package dev.layout.topology;

import dev.layout.naming.CartesianNaming;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Distributed graph creation, as {@code MPI_Dist_graph_create_adjacent} ({@link #adjacent}: every
 * rank lists its own in- and out-neighbours) and {@code MPI_Dist_graph_create} ({@link #edges}: any
 * rank lists any edges, which an exchange delivers to both endpoints). A builder is an immutable
 * description of one rank's arguments; {@link #build} is collective and runs the {@link
 * Cartesianity} check when a naming is given.
 *
 * <p>Argument errors are detected collectively: if any rank's arguments are invalid (or adjacency
 * lists contradict each other), every rank throws the same {@link IllegalArgumentException}, so
 * no rank is left waiting for a peer that gave up.
 *
 * <pre>{@code
 * int[] ranks = Neighborhoods.on(naming).neighborRanks(rank, Metric.CHEBYSHEV, 1, 1);
 * Communicator stencil = comm.cartName(naming).createGraph(GraphBuilder.adjacent(ranks, ranks));
 * }</pre>
 */
public final class GraphBuilder {

    private enum Mode {
        ADJACENT,
        EDGES
    }

    private final Mode mode;
    private final int[] a;
    private final int[] aWeights;
    private final int[] b;
    private final int[] bWeights;

    private GraphBuilder(Mode mode, int[] a, int[] aWeights, int[] b, int[] bWeights) {
        this.mode = mode;
        this.a = a;
        this.aWeights = aWeights;
        this.b = b;
        this.bWeights = bWeights;
    }

    /** Unweighted adjacency lists of the calling rank (in-neighbours, out-neighbours). */
    public static GraphBuilder adjacent(int[] sources, int[] destinations) {
        return adjacent(sources, null, destinations, null);
    }

    /** Weighted adjacency lists of the calling rank; both weight arrays null for unweighted. */
    public static GraphBuilder adjacent(
            int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights) {
        return new GraphBuilder(
                Mode.ADJACENT, copy(sources), copy(sourceWeights), copy(destinations), copy(destinationWeights));
    }

    /** Unweighted edges {@code from[i] -> to[i]}, given by any rank. */
    public static GraphBuilder edges(int[] from, int[] to) {
        return edges(from, to, null);
    }

    /** Weighted edges {@code from[i] -> to[i]} with {@code weights[i]}; weights null for unweighted. */
    public static GraphBuilder edges(int[] from, int[] to, int[] weights) {
        return new GraphBuilder(Mode.EDGES, copy(from), copy(weights), copy(to), null);
    }

    private static int[] copy(int[] x) {
        return x == null ? null : x.clone();
    }

    private String opName() {
        return mode == Mode.ADJACENT ? "distGraphCreateAdjacent" : "distGraphCreate";
    }

    /**
     * Builds the calling rank's view of the graph. Collective over {@code exchange}.
     *
     * @param naming the Cartesian naming of the communicator, or null; with a naming the {@link
     *     Cartesianity} check runs
     * @throws IllegalArgumentException at every rank if any rank's arguments are invalid
     */
    public DistGraph build(RankExchange exchange, CartesianNaming naming) {
        String error = validate(exchange.size());
        boolean weighted = aWeights != null;
        byte[][] all = exchange.allgather(status(error, weighted));
        boolean anyWeighted = false;
        for (int r = 0; r < all.length; r++) {
            ByteBuffer in = ByteBuffer.wrap(all[r]);
            anyWeighted |= in.get() == 1;
            if (in.remaining() > 0) {
                byte[] msg = new byte[in.remaining()];
                in.get(msg);
                throw new IllegalArgumentException(
                        opName() + ": rank " + r + ": " + new String(msg, StandardCharsets.UTF_8));
            }
        }
        DistGraph local = mode == Mode.ADJACENT ? buildAdjacent(exchange) : buildEdges(exchange, anyWeighted);
        Cartesianity c = Cartesianity.check(naming, exchange.rank(), local.sources(), local.destinations(), exchange);
        return DistGraph.of(
                local.sources(), local.sourceWeights(), local.destinations(), local.destinationWeights(), c);
    }

    private static byte[] status(String error, boolean weighted) {
        byte[] msg = error == null ? new byte[0] : error.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + msg.length)
                .put((byte) (weighted ? 1 : 0))
                .put(msg)
                .array();
    }

    /** Returns the first argument error (without the op prefix), or null. */
    private String validate(int size) {
        String sourceName = mode == Mode.ADJACENT ? "sources" : "from";
        String destName = mode == Mode.ADJACENT ? "destinations" : "to";
        if (a == null) {
            return sourceName + " null (expected: an array of ranks)";
        }
        if (b == null) {
            return destName + " null (expected: an array of ranks)";
        }
        String e = checkRanks(sourceName, a, size);
        if (e == null) {
            e = checkRanks(destName, b, size);
        }
        if (e != null) {
            return e;
        }
        if (mode == Mode.EDGES) {
            if (a.length != b.length) {
                return "to length " + b.length + " (expected: from length " + a.length + ")";
            }
            return checkWeights("weights", aWeights, a.length);
        }
        if ((aWeights == null) != (bWeights == null)) {
            return "weights " + (aWeights == null ? "on destinations only" : "on sources only")
                    + " (expected: both weighted or both unweighted)";
        }
        e = checkWeights("sourceWeights", aWeights, a.length);
        return e != null ? e : checkWeights("destinationWeights", bWeights, b.length);
    }

    private static String checkRanks(String arg, int[] ranks, int size) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] < 0 || ranks[i] >= size) {
                return arg + "[" + i + "] " + ranks[i] + " (expected: 0.." + (size - 1) + ")";
            }
        }
        return null;
    }

    private static String checkWeights(String arg, int[] weights, int length) {
        if (weights == null) {
            return null;
        }
        if (weights.length != length) {
            return arg + " length " + weights.length + " (expected: " + length + ")";
        }
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] < 0) {
                return arg + "[" + i + "] " + weights[i] + " (expected: >= 0)";
            }
        }
        return null;
    }

    /** Adjacent lists are taken as given; an exchange of edge counts checks they agree. */
    private DistGraph buildAdjacent(RankExchange exchange) {
        int size = exchange.size();
        int me = exchange.rank();
        int[] outCount = new int[size];
        for (int t : b) {
            outCount[t]++;
        }
        byte[][] toEach = new byte[size][];
        for (int q = 0; q < size; q++) {
            toEach[q] = ByteBuffer.allocate(4).putInt(outCount[q]).array();
        }
        byte[][] received = exchange.alltoall(toEach);
        int[] inCount = new int[size];
        for (int s : a) {
            inCount[s]++;
        }
        String error = null;
        for (int p = 0; p < size && error == null; p++) {
            int theirs = ByteBuffer.wrap(received[p]).getInt();
            if (theirs != inCount[p]) {
                error = "sources list rank " + p + " " + inCount[p] + " times (expected: " + theirs + ", as rank " + p
                        + "'s destinations list rank " + me + ")";
            }
        }
        byte[][] all = exchange.allgather(status(error, false));
        for (int r = 0; r < all.length; r++) {
            if (all[r].length > 1) {
                throw new IllegalArgumentException(opName() + ": rank " + r + ": "
                        + new String(all[r], 1, all[r].length - 1, StandardCharsets.UTF_8));
            }
        }
        return DistGraph.of(a, aWeights, b, bWeights, null);
    }

    /**
     * Every edge goes to both endpoints. Lists are ordered by the rank that gave the edge, then by
     * its position in that rank's list.
     */
    private DistGraph buildEdges(RankExchange exchange, boolean weighted) {
        int size = exchange.size();
        Map<Integer, List<int[]>> records = new HashMap<>();
        for (int i = 0; i < a.length; i++) {
            int w = aWeights == null ? 1 : aWeights[i];
            // record: kind (0 = out-edge of the receiver, 1 = in-edge), other end, weight
            records.computeIfAbsent(a[i], k -> new ArrayList<>()).add(new int[] {0, b[i], w});
            records.computeIfAbsent(b[i], k -> new ArrayList<>()).add(new int[] {1, a[i], w});
        }
        byte[][] toEach = new byte[size][];
        for (int q = 0; q < size; q++) {
            List<int[]> l = records.getOrDefault(q, List.of());
            ByteBuffer buf = ByteBuffer.allocate(l.size() * 12);
            for (int[] r : l) {
                buf.putInt(r[0]).putInt(r[1]).putInt(r[2]);
            }
            toEach[q] = buf.array();
        }
        byte[][] received = exchange.alltoall(toEach);
        List<Integer> in = new ArrayList<>();
        List<Integer> inW = new ArrayList<>();
        List<Integer> out = new ArrayList<>();
        List<Integer> outW = new ArrayList<>();
        for (byte[] msg : received) {
            ByteBuffer buf = ByteBuffer.wrap(msg);
            while (buf.remaining() >= 12) {
                int kind = buf.getInt();
                int other = buf.getInt();
                int w = buf.getInt();
                (kind == 0 ? out : in).add(other);
                (kind == 0 ? outW : inW).add(w);
            }
        }
        return DistGraph.of(
                toArray(in), weighted ? toArray(inW) : null, toArray(out), weighted ? toArray(outW) : null, null);
    }

    private static int[] toArray(List<Integer> l) {
        return l.stream().mapToInt(Integer::intValue).toArray();
    }
}
