package dev.layout.comm;

import dev.layout.naming.CartesianNaming;
import dev.layout.topology.Cartesianity;
import dev.layout.topology.DistGraph;
import dev.layout.topology.GraphBuilder;
import dev.layout.topology.Topology;
import dev.layout.topology.TopologyKind;
import dev.layout.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An ordered group of processes with exactly one topological structure ({@link #topology()}:
 * fully connected, bipartite or a directed graph) and optionally a Cartesian naming.
 *
 * <p>Point-to-point messages follow the structure: on a graph a rank sends only along its
 * out-edges and receives only along its in-edges, on a bipartite communicator only across the
 * groups; anything else is refused with an {@link IllegalArgumentException} naming both ranks.
 * Unrestricted traffic goes through {@link #base()}, the fully connected communicator over the same
 * ranks (obtained locally, without communication). Every wait has the communicator's timeout; a
 * timeout or a closed transport surfaces as {@link UncheckedIOException}.
 *
 * <pre>{@code
 * Communicator world = Communicator.world(transport);            // FULL
 * CartesianNaming grid = CartesianNaming.of(Dims.create(world.size(), 2), new boolean[] {true, true}, RankOrder.C);
 * int[] nb = Neighborhoods.on(grid).neighborRanks(world.rank(), Metric.CHEBYSHEV, 1, 1);
 * Communicator stencil = world.cartName(grid).createGraph(GraphBuilder.adjacent(nb, nb));
 * stencil.topology();             // graph(in [...], out [...], Cartesian with offsets [...])
 * stencil.base();                 // FULL over the same ranks, for global reductions
 * }</pre>
 *
 * <p>A communicator is used by one thread at a time (its process's thread), except that
 * non-blocking collectives run on its executor. Close it to release that executor.
 */
public final class Communicator implements AutoCloseable {

    /** The rank of no process: sends to it and receives from it do nothing. */
    public static final int PROC_NULL = CartesianNaming.PROC_NULL;
    /** Split colour of ranks that join no new communicator; rank of a process outside a group. */
    public static final int UNDEFINED = -32766;
    /** Root argument of the root itself in a bipartite rooted collective, as MPI_ROOT. */
    public static final int ROOT = -3;
    /** Default timeout of every wait. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final State state;
    private final CartesianNaming naming;

    private Communicator(State state, CartesianNaming naming) {
        this.state = state;
        this.naming = naming;
    }

    /** Shared by the handles of one communicator (with and without naming). */
    static final class State {
        final Transport transport;
        final long context;
        final Duration timeout;
        final Group group;
        final Group remote;
        final int rank;
        final Topology topology;
        final int side;
        final AtomicInteger sequence = new AtomicInteger();
        final AtomicInteger derivations = new AtomicInteger();
        final CollectiveChannel channel;
        Communicator plain;
        Communicator base;
        ExecutorService executor;
        volatile boolean closed;

        State(Transport t, long ctx, Duration timeout, Group group, Group remote, Topology topology, int side) {
            this.transport = t;
            this.context = ctx;
            this.timeout = timeout;
            this.group = group;
            this.remote = remote;
            this.rank = group.rankOf(t.process());
            this.topology = topology;
            this.side = side;
            this.channel = new CollectiveChannel(this);
            this.plain = new Communicator(this, null);
        }

        long p2pContext() {
            return mix(context, 1);
        }

        long collectiveContext() {
            return mix(context, 2);
        }

        /** The process of a peer: a rank of the group, or of the remote group on INTER. */
        int peerProcess(int peer) {
            return remote != null ? remote.process(peer) : group.process(peer);
        }

        int peerCount() {
            return remote != null ? remote.size() : group.size();
        }

        synchronized ExecutorService executor() {
            if (closed) {
                throw new IllegalStateException("collective: communicator closed");
            }
            if (executor == null) {
                AtomicInteger n = new AtomicInteger();
                executor = Executors.newCachedThreadPool(r -> {
                    Thread t = new Thread(r, "layout-coll-p" + transport.process() + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
            }
            return executor;
        }
    }

    static long mix(long... parts) {
        long h = 0x9E3779B97F4A7C15L;
        for (long p : parts) {
            h ^= p;
            h += 0x9E3779B97F4A7C15L;
            h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
            h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
            h = h ^ (h >>> 31);
        }
        return h;
    }

    /** The fully connected communicator over all processes of {@code transport}, default timeout. */
    public static Communicator world(Transport transport) {
        return world(transport, DEFAULT_TIMEOUT);
    }

    /**
     * The fully connected communicator over all processes of {@code transport}; every wait on it and
     * on the communicators derived from it lasts at most {@code timeout}.
     */
    public static Communicator world(Transport transport, Duration timeout) {
        if (transport == null) {
            throw new IllegalArgumentException("world: transport null (expected: a Transport)");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("world: timeout " + timeout + " (expected: > 0)");
        }
        State s = new State(
                transport,
                0L,
                timeout,
                Group.range(transport.size()),
                null,
                new Topology.FullyConnected(transport.size()),
                0);
        return s.plain;
    }

    /** This process's rank (in the local group on a bipartite communicator). */
    public int rank() {
        return state.rank;
    }

    /** The number of ranks (of the local group on a bipartite communicator). */
    public int size() {
        return state.group.size();
    }

    /** The size of the remote group on a bipartite communicator, 0 otherwise. */
    public int remoteSize() {
        return state.remote == null ? 0 : state.remote.size();
    }

    /** The (local) group. */
    public Group group() {
        return state.group;
    }

    /** The remote group of a bipartite communicator. */
    public Optional<Group> remoteGroup() {
        return Optional.ofNullable(state.remote);
    }

    /** The topological structure seen from this rank. */
    public Topology topology() {
        return state.topology;
    }

    /** Shorthand for {@code topology().kind()}: the Topo_test of the proposal. */
    public TopologyKind kind() {
        return state.topology.kind();
    }

    /** The Cartesian naming attached to this handle, if any. */
    public Optional<CartesianNaming> naming() {
        return Optional.ofNullable(naming);
    }

    /** Every wait's timeout. */
    public Duration timeout() {
        return state.timeout;
    }

    /** The transport this communicator sends through. */
    public Transport transport() {
        return state.transport;
    }

    /** Low-level access for the collective algorithms of {@code dev.layout.collective}. */
    public CollectiveChannel channel() {
        checkOpen("channel");
        return state.channel;
    }

    /**
     * This communicator with a Cartesian naming attached ({@code Cart_name}). Local: no
     * communication, no new structure, no reordering; the returned handle shares everything else
     * with this one. All ranks are expected to attach the same naming.
     *
     * @throws IllegalArgumentException if the grid has more points than the communicator has ranks,
     *     or the communicator is bipartite
     */
    public Communicator cartName(CartesianNaming grid) {
        if (grid == null) {
            throw new IllegalArgumentException("cartName: naming null (expected: a CartesianNaming)");
        }
        if (grid.size() > size()) {
            throw new IllegalArgumentException(
                    "cartName: grid size " + grid.size() + " (expected: <= communicator size " + size() + ")");
        }
        if (kind() == TopologyKind.INTER) {
            throw new IllegalArgumentException(
                    "cartName: topology INTER (expected: FULL or GRAPH; name the base() instead)");
        }
        return new Communicator(state, grid);
    }

    /**
     * The fully connected communicator over the same ranks in the same order ({@code Comm_base}),
     * for a bipartite communicator over the local group. Local: no communication. For a fully
     * connected communicator it is this communicator (without naming).
     */
    public Communicator base() {
        checkOpen("base");
        if (state.topology.kind() == TopologyKind.FULL) {
            return state.plain;
        }
        synchronized (state) {
            if (state.base == null) {
                State b = new State(
                        state.transport,
                        mix(state.context, 4, state.side),
                        state.timeout,
                        state.group,
                        null,
                        new Topology.FullyConnected(state.group.size()),
                        0);
                state.base = b.plain;
            }
            return state.base;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // point-to-point

    /**
     * Sends {@code data} to {@code dest} with {@code tag}; buffered (returns at once). A send to
     * PROC_NULL does nothing.
     *
     * @throws IllegalArgumentException if tag < 0 or dest is not adjacent: not an out-neighbour on a
     *     graph, not a remote rank on a bipartite communicator, not a rank on a full one
     */
    public void send(int dest, int tag, byte[] data) {
        checkOpen("send");
        checkTag("send", tag);
        if (data == null) {
            throw new IllegalArgumentException("send: data null (expected: a byte array)");
        }
        if (dest == PROC_NULL) {
            return;
        }
        checkPeer("send", "dest", dest);
        try {
            state.transport.send(state.peerProcess(dest), state.p2pContext(), tag, data);
        } catch (IOException e) {
            throw new UncheckedIOException("send: rank " + rank() + " -> rank " + dest + ": " + e.getMessage(), e);
        }
    }

    /**
     * Receives the oldest message from {@code source} with {@code tag}, waiting at most {@link
     * #timeout()}. From PROC_NULL it returns an empty array at once.
     *
     * @throws IllegalArgumentException if tag < 0 or source is not adjacent (see {@link #send})
     * @throws UncheckedIOException on timeout or a closed transport
     */
    public byte[] recv(int source, int tag) {
        checkOpen("recv");
        checkTag("recv", tag);
        if (source == PROC_NULL) {
            return new byte[0];
        }
        checkPeer("recv", "source", source);
        try {
            return state.transport.receive(state.peerProcess(source), state.p2pContext(), tag, state.timeout);
        } catch (IOException e) {
            throw new UncheckedIOException("recv: rank " + rank() + " <- rank " + source + ": " + e.getMessage(), e);
        }
    }

    private static void checkTag(String op, int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException(op + ": tag " + tag + " (expected: >= 0)");
        }
    }

    private void checkPeer(String op, String arg, int peer) {
        switch (state.topology.kind()) {
            case FULL -> {
                if (peer < 0 || peer >= size()) {
                    throw new IllegalArgumentException(
                            op + ": " + arg + " " + peer + " (expected: 0.." + (size() - 1) + " or PROC_NULL)");
                }
            }
            case INTER -> {
                if (peer < 0 || peer >= remoteSize()) {
                    throw new IllegalArgumentException(op + ": " + arg + " " + peer
                            + " (expected: a rank of the remote group 0.." + (remoteSize() - 1) + " of rank " + rank()
                            + "; use base() within the local group)");
                }
            }
            case GRAPH -> {
                DistGraph g = (DistGraph) state.topology;
                boolean adjacent = arg.equals("dest") ? g.hasDestination(peer) : g.hasSource(peer);
                if (!adjacent) {
                    throw new IllegalArgumentException(
                            op + ": " + arg + " " + peer + " (expected: an " + (arg.equals("dest") ? "out" : "in")
                                    + "-neighbour of rank " + rank() + " in the graph topology; rank " + rank()
                                    + " and rank " + peer + " are not adjacent, use base() for unrestricted traffic)");
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // communicator creation (collective)

    /**
     * Splits into one communicator per colour ({@code MPI_Comm_split}); ranks ordered by key, then
     * by their rank here. On a graph each new communicator carries the induced subgraph (edges
     * between kept ranks, weights kept). Colour {@link #UNDEFINED} joins nothing.
     *
     * @throws IllegalArgumentException if color is negative and not UNDEFINED, or the communicator
     *     is bipartite
     */
    public Optional<Communicator> split(int color, int key) {
        checkOpen("split");
        if (color < 0 && color != UNDEFINED) {
            throw new IllegalArgumentException("split: color " + color + " (expected: >= 0 or UNDEFINED)");
        }
        return splitInternal("split", color, key);
    }

    private Optional<Communicator> splitInternal(String op, int color, int key) {
        if (kind() == TopologyKind.INTER) {
            throw new IllegalArgumentException(op + ": topology INTER (expected: FULL or GRAPH)");
        }
        int n = state.derivations.getAndIncrement();
        Bootstrap ex = new Bootstrap(state.channel, op);
        byte[][] all =
                ex.allgather(ByteBuffer.allocate(8).putInt(color).putInt(key).array());
        if (color == UNDEFINED) {
            return Optional.empty();
        }
        List<int[]> members = new ArrayList<>(); // {oldRank, key}
        for (int r = 0; r < all.length; r++) {
            ByteBuffer b = ByteBuffer.wrap(all[r]);
            int c = b.getInt();
            int k = b.getInt();
            if (c == color) {
                members.add(new int[] {r, k});
            }
        }
        members.sort(Comparator.<int[]>comparingInt(m -> m[1]).thenComparingInt(m -> m[0]));
        int[] newRankOf = new int[size()];
        java.util.Arrays.fill(newRankOf, UNDEFINED);
        int[] processes = new int[members.size()];
        for (int i = 0; i < members.size(); i++) {
            newRankOf[members.get(i)[0]] = i;
            processes[i] = state.group.process(members.get(i)[0]);
        }
        Group g = Group.of(processes);
        Topology t =
                switch (kind()) {
                    case FULL -> new Topology.FullyConnected(g.size());
                    case GRAPH -> induced((DistGraph) state.topology, newRankOf);
                    case INTER -> throw new AssertionError("checked above");
                };
        State s = new State(state.transport, mix(state.context, 3, n, color), state.timeout, g, null, t, 0);
        return Optional.of(s.plain);
    }

    private static DistGraph induced(DistGraph g, int[] newRankOf) {
        List<int[]> in = keep(g.sources(), g.sourceWeights(), newRankOf);
        List<int[]> out = keep(g.destinations(), g.destinationWeights(), newRankOf);
        return DistGraph.of(
                in.get(0),
                g.isWeighted() ? in.get(1) : null,
                out.get(0),
                g.isWeighted() ? out.get(1) : null,
                Cartesianity.general());
    }

    private static List<int[]> keep(int[] ranks, int[] weights, int[] newRankOf) {
        List<Integer> r = new ArrayList<>();
        List<Integer> w = new ArrayList<>();
        for (int i = 0; i < ranks.length; i++) {
            if (newRankOf[ranks[i]] != UNDEFINED) {
                r.add(newRankOf[ranks[i]]);
                w.add(weights == null ? 0 : weights[i]);
            }
        }
        return List.of(
                r.stream().mapToInt(Integer::intValue).toArray(),
                w.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * A communicator over {@code subgroup} in its order ({@code MPI_Comm_create}); empty at ranks
     * outside it. Collective: every rank passes the same group. On a graph the result carries the
     * induced subgraph.
     *
     * @throws IllegalArgumentException if subgroup has a process that is not in this communicator
     */
    public Optional<Communicator> create(Group subgroup) {
        checkOpen("create");
        if (subgroup == null) {
            throw new IllegalArgumentException("create: group null (expected: a subgroup)");
        }
        for (int p : subgroup.processes()) {
            if (state.group.rankOf(p) == UNDEFINED) {
                throw new IllegalArgumentException(
                        "create: group process " + p + " (expected: a process of " + state.group + ")");
            }
        }
        int mine = subgroup.rankOf(state.transport.process());
        return splitInternal("create", mine == UNDEFINED ? UNDEFINED : 0, mine);
    }

    /**
     * Splits along the attached Cartesian naming ({@code Cart_create_sub}): {@code keep[i]} true
     * keeps dimension i. Ranks keep their relative order; the results carry no naming. Ranks without
     * a name get nothing.
     *
     * @throws IllegalStateException if no naming is attached
     */
    public Optional<Communicator> createSub(boolean[] keep) {
        checkOpen("createSub");
        if (naming == null) {
            throw new IllegalStateException("createSub: communicator has no Cartesian naming (call cartName first)");
        }
        naming.sub(keep); // validates keep
        int color = naming.subColor(rank(), keep);
        return splitInternal("createSub", color < 0 ? UNDEFINED : color, rank());
    }

    /**
     * Creates a graph communicator over the same ranks ({@code MPI_Dist_graph_create(_adjacent)}),
     * running the Cartesianity check if this handle has a naming. Collective. Ranks are not
     * reordered.
     *
     * @throws IllegalArgumentException at every rank if any rank's arguments are invalid, or if this
     *     communicator is bipartite
     */
    public Communicator createGraph(GraphBuilder builder) {
        checkOpen("createGraph");
        if (builder == null) {
            throw new IllegalArgumentException("createGraph: builder null (expected: a GraphBuilder)");
        }
        if (kind() == TopologyKind.INTER) {
            throw new IllegalArgumentException("createGraph: topology INTER (expected: FULL or GRAPH)");
        }
        int n = state.derivations.getAndIncrement();
        DistGraph g = builder.build(new Bootstrap(state.channel, "createGraph"), naming);
        State s = new State(state.transport, mix(state.context, 3, n, -7), state.timeout, state.group, null, g, 0);
        return s.plain;
    }

    /**
     * Creates a bipartite communicator (an inter-communicator): ranks passing the same side (0 or 1)
     * form the local group in their order here, the others the remote group. Collective on a fully
     * connected communicator.
     *
     * @throws IllegalArgumentException if side is not 0 or 1, a side is empty, or this communicator
     *     is not fully connected
     */
    public Communicator createBipartite(int side) {
        checkOpen("createBipartite");
        if (side != 0 && side != 1) {
            throw new IllegalArgumentException("createBipartite: side " + side + " (expected: 0 or 1)");
        }
        if (kind() != TopologyKind.FULL) {
            throw new IllegalArgumentException("createBipartite: topology " + kind() + " (expected: FULL)");
        }
        int n = state.derivations.getAndIncrement();
        byte[][] all = new Bootstrap(state.channel, "createBipartite").allgather(new byte[] {(byte) side});
        List<Integer> local = new ArrayList<>();
        List<Integer> remote = new ArrayList<>();
        for (int r = 0; r < all.length; r++) {
            (all[r][0] == side ? local : remote).add(state.group.process(r));
        }
        if (remote.isEmpty()) {
            throw new IllegalArgumentException(
                    "createBipartite: side " + (1 - side) + " empty (expected: both sides non-empty)");
        }
        Group lg = Group.of(local.stream().mapToInt(Integer::intValue).toArray());
        Group rg = Group.of(remote.stream().mapToInt(Integer::intValue).toArray());
        State s = new State(
                state.transport,
                mix(state.context, 3, n, -9),
                state.timeout,
                lg,
                rg,
                new Topology.Bipartite(lg.size(), rg.size()),
                side);
        return s.plain;
    }

    // ---------------------------------------------------------------------------------------------

    private void checkOpen(String op) {
        if (state.closed) {
            throw new IllegalStateException(op + ": communicator closed");
        }
    }

    /** Releases the executor of non-blocking collectives. The transport stays open. */
    @Override
    public void close() {
        synchronized (state) {
            state.closed = true;
            if (state.executor != null) {
                state.executor.shutdownNow();
            }
        }
    }

    /** For example {@code comm(rank 3 of 16, graph(...), cart([4,4], periods [1,1], C))}. */
    @Override
    public String toString() {
        return "comm(rank " + rank() + " of " + size() + ", " + state.topology + (naming == null ? "" : ", " + naming)
                + ")";
    }
}
