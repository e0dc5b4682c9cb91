package dev.layout.spark.grid;

import dev.layout.collective.Block;
import dev.layout.collective.BlockSpec;
import dev.layout.datatype.Datatype;
import dev.layout.naming.CartesianNaming;
import dev.layout.normalize.Normalizer;
import dev.layout.normalize.Shipping;
import dev.layout.notation.LayoutParser;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Who exchanges which region with whom, for every rank of a grid and a stencil; built on the
 * driver and shipped to the executors.
 *
 * <p>For process offset {@code v_j} (the j-th of {@link Stencil#blockOffsets()}), rank r sends its
 * slab toward {@code v_j} to {@code dest = r + v_j} and receives into its ghost region toward
 * {@code -v_j} from {@code src = r - v_j}. Listing both in j order makes the k-th edge r -> q on
 * the sender match the k-th edge from r on the receiver even when q appears several times (a
 * periodic axis over 1 or 2 processes), which is how a multigraph's alltoallw pairs blocks.
 *
 * <p>The region datatypes ship as layout notation, normalized only where that is shorter ({@link
 * Shipping#smallest}): never more bytes than the given types. The total descriptor size before
 * and after is kept in {@link #descriptorBytes()}.
 */
public final class HaloPlan implements Serializable {
    private static final long serialVersionUID = 1L;

    private final DistributedGrid grid;
    private final Stencil stencil;
    private final int[][] offsets;
    private final int[][] dest;
    private final int[][] src;
    private final String[][] send;
    private final String[][] recv;
    private final long[] descriptorBytes;
    private final long[] descriptorCost;

    private HaloPlan(
            DistributedGrid grid,
            Stencil stencil,
            int[][] offsets,
            int[][] dest,
            int[][] src,
            String[][] send,
            String[][] recv,
            long[] descriptorBytes,
            long[] descriptorCost) {
        this.grid = grid;
        this.stencil = stencil;
        this.offsets = offsets;
        this.dest = dest;
        this.src = src;
        this.send = send;
        this.recv = recv;
        this.descriptorBytes = descriptorBytes;
        this.descriptorCost = descriptorCost;
    }

    /** Plans the exchange of every rank; region types normalized with {@code normalizer}. */
    public static HaloPlan of(DistributedGrid grid, Stencil stencil, Normalizer normalizer) {
        List<int[]> vs = grid.checkStencil(stencil);
        int k = vs.size();
        int p = grid.ranks();
        CartesianNaming naming = grid.naming();
        int[][] dest = new int[p][k];
        int[][] src = new int[p][k];
        String[][] send = new String[p][k];
        String[][] recv = new String[p][k];
        long[] bytes = new long[2];
        long[] cost = new long[2];
        for (int r = 0; r < p; r++) {
            for (int j = 0; j < k; j++) {
                int[] v = vs.get(j);
                int[] minus = new int[v.length];
                for (int a = 0; a < v.length; a++) {
                    minus[a] = -v[a];
                }
                dest[r][j] = naming.relative(r, v);
                src[r][j] = naming.relative(r, minus);
                if (dest[r][j] != CartesianNaming.PROC_NULL) {
                    send[r][j] = ship(grid.haloSendType(r, v), normalizer, bytes, cost);
                }
                if (src[r][j] != CartesianNaming.PROC_NULL) {
                    recv[r][j] = ship(grid.haloRecvType(r, minus), normalizer, bytes, cost);
                }
            }
        }
        return new HaloPlan(grid, stencil, vs.toArray(new int[0][]), dest, src, send, recv, bytes, cost);
    }

    private static String ship(Datatype t, Normalizer normalizer, long[] bytes, long[] cost) {
        Normalizer.Shipment s = Shipping.smallest(normalizer, t);
        bytes[0] += s.bytesBefore();
        bytes[1] += s.bytesAfter();
        cost[0] += s.costBefore();
        cost[1] += s.costAfter();
        return s.notation();
    }

    public DistributedGrid grid() {
        return grid;
    }

    public Stencil stencil() {
        return stencil;
    }

    /** Number of process offsets (slots per rank). */
    public int slots() {
        return offsets.length;
    }

    /** {before, after}: UTF-8 bytes of all shipped region descriptors (layout notation). */
    public long[] descriptorBytes() {
        return descriptorBytes.clone();
    }

    /** {before, after}: normalizer cost of all shipped region descriptors. */
    public long[] descriptorCost() {
        return descriptorCost.clone();
    }

    /** Destination of rank's slot j, PROC_NULL off a non-periodic border. */
    public int destination(int rank, int j) {
        return dest[rank][j];
    }

    /** Source of rank's slot j, PROC_NULL off a non-periodic border. */
    public int source(int rank, int j) {
        return src[rank][j];
    }

    /** The shipped descriptor (the shorter of given and normalized) of rank's send region of slot j, or null. */
    public String sendDescriptor(int rank, int j) {
        return send[rank][j];
    }

    /** The parsed view of one rank's part of the plan, for the executor holding its block. */
    public Local local(int rank) {
        return new Local(rank);
    }

    /** One rank's exchange: parsed region types, and its graph adjacency in slot order. */
    public final class Local {
        private final int rank;
        private final Datatype[] sendTypes;
        private final Datatype[] recvTypes;

        private Local(int rank) {
            this.rank = rank;
            sendTypes = new Datatype[offsets.length];
            recvTypes = new Datatype[offsets.length];
            for (int j = 0; j < offsets.length; j++) {
                sendTypes[j] = send[rank][j] == null ? null : LayoutParser.parse(send[rank][j]);
                recvTypes[j] = recv[rank][j] == null ? null : LayoutParser.parse(recv[rank][j]);
            }
        }

        public int rank() {
            return rank;
        }

        /** Slot j's send region, null if there is no destination. */
        public Datatype sendType(int j) {
            return sendTypes[j];
        }

        /** Slot j's receive (ghost) region, null if there is no source. */
        public Datatype recvType(int j) {
            return recvTypes[j];
        }

        public int slots() {
            return offsets.length;
        }

        /** Existing destinations in slot order (the out-adjacency for graph creation). */
        public int[] destinations() {
            return existing(dest[rank]);
        }

        /** Existing sources in slot order (the in-adjacency for graph creation). */
        public int[] sources() {
            return existing(src[rank]);
        }

        /** Send blocks over {@code block} in {@link #destinations()} order. */
        public Block[] sendBlocks(GridBlock block) {
            return blocks(block, dest[rank], sendTypes);
        }

        /** Receive blocks over {@code block} in {@link #sources()} order. */
        public Block[] recvBlocks(GridBlock block) {
            return blocks(block, src[rank], recvTypes);
        }

        private Block[] blocks(GridBlock block, int[] peers, Datatype[] types) {
            if (block.rank() != rank) {
                throw new IllegalArgumentException("halo: " + block + " (expected: the block of rank " + rank + ")");
            }
            List<Block> out = new ArrayList<>();
            for (int j = 0; j < peers.length; j++) {
                if (peers[j] != CartesianNaming.PROC_NULL) {
                    out.add(new BlockSpec(block.memory(), 0, 1, types[j]));
                }
            }
            return out.toArray(new Block[0]);
        }

        private int[] existing(int[] peers) {
            return java.util.Arrays.stream(peers)
                    .filter(q -> q != CartesianNaming.PROC_NULL)
                    .toArray();
        }
    }
}
