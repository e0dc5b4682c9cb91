package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.naming.CartesianNaming;
import dev.layout.topology.Cartesianity;
import dev.layout.topology.DistGraph;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The d-phase message-combining schedule for Cartesian neighbourhoods (Träff and Hunold,
 * "Cartesian collective communication", ICPP 2019). In phase j every block whose offset has the
 * non-zero value c in dimension j travels, together with all other such blocks, in one message to
 * {@code relative(rank, c*e_j)}; blocks hop through their non-zero coordinates in dimension order
 * and the zero offset is a local copy. Every rank sends one message per distinct non-zero value
 * per dimension (2d for a Moore neighbourhood instead of 3^d - 1), possibly empty, to every such
 * partner that exists, so the exchange is symmetric on non-periodic grids too.
 *
 * <p>allgather (one block for every neighbour) uses the {@link PrefixTreeAllgather} instead,
 * which sends a shared prefix of the offsets once.
 *
 * <p>Blocks carry (offset, occurrence) so that the k-th block a rank sends along offset v lands in
 * the k-th in-slot whose source is at -v, exactly as the direct schedule matches repeated edges.
 */
final class CombiningSchedule implements Schedule {

    private final CartesianNaming naming;
    private final int rank;
    private final int d;
    /** Per dimension, the distinct non-zero canonical values of V, sorted. */
    private final int[][] values;

    private final int[][] outOffsets;
    /** (offset, occurrence) -> in-slot. */
    private final Map<Key, Integer> slotOf = new HashMap<>();

    private final int inCount;
    private final int messages;
    private final PrefixTreeAllgather tree;

    private record Key(List<Integer> offset, int occurrence) {}

    CombiningSchedule(DistGraph g, int rank) {
        Cartesianity c = g.cartesianity();
        if (!c.isCartesian()) {
            throw new IllegalArgumentException(
                    "combining: neighbourhood general (expected: a Cartesian neighbourhood; create the graph on a Cartesian-named communicator)");
        }
        this.naming = c.naming();
        this.rank = rank;
        this.d = naming.d();
        this.values = new int[d][];
        for (int j = 0; j < d; j++) {
            TreeSet<Integer> vs = new TreeSet<>();
            for (int[] v : c.offsets()) {
                if (v[j] != 0) {
                    vs.add(v[j]);
                }
            }
            values[j] = vs.stream().mapToInt(Integer::intValue).toArray();
        }
        this.outOffsets = new int[g.outdegree()][];
        for (int i = 0; i < outOffsets.length; i++) {
            outOffsets[i] = c.outOffset(i);
        }
        Map<List<Integer>, Integer> seen = new HashMap<>();
        for (int k = 0; k < g.indegree(); k++) {
            int[] u = c.inOffset(k);
            int[] v = new int[d];
            for (int j = 0; j < d; j++) {
                v[j] = -u[j];
            }
            List<Integer> key = boxed(naming.canonicalOffset(v));
            int occ = seen.merge(key, 1, Integer::sum) - 1;
            slotOf.put(new Key(key, occ), k);
        }
        this.inCount = g.indegree();
        int m = 0;
        for (int j = 0; j < d; j++) {
            for (int cv : values[j]) {
                if (naming.relative(rank, unit(j, cv)) != CartesianNaming.PROC_NULL) {
                    m++;
                }
            }
        }
        this.messages = m;
        this.tree = new PrefixTreeAllgather(g, rank);
    }

    /** The number of distinct non-zero values summed over dimensions: messages per rank on a torus. */
    static int phaseMessages(Cartesianity c) {
        int d = c.naming().d();
        int m = 0;
        for (int j = 0; j < d; j++) {
            TreeSet<Integer> vs = new TreeSet<>();
            for (int[] v : c.offsets()) {
                if (v[j] != 0) {
                    vs.add(v[j]);
                }
            }
            m += vs.size();
        }
        return m;
    }

    /** Blocks forwarded per call on a torus: the sum over V of the non-zero coordinates. */
    static int forwardedBlocks(Cartesianity c) {
        int f = 0;
        for (int[] v : c.offsets()) {
            for (int x : v) {
                if (x != 0) {
                    f++;
                }
            }
        }
        return f;
    }

    private static List<Integer> boxed(int[] v) {
        List<Integer> l = new ArrayList<>(v.length);
        for (int x : v) {
            l.add(x);
        }
        return l;
    }

    private int[] unit(int j, int c) {
        int[] e = new int[d];
        e[j] = c;
        return e;
    }

    @Override
    public Kind kind() {
        return Kind.COMBINING;
    }

    @Override
    public int messagesPerCall() {
        return messages;
    }

    /** A block in flight: its full offset, occurrence and bytes. */
    private record Travelling(int[] offset, int occurrence, byte[] data) {}

    @Override
    public byte[][] exchange(CollectiveChannel ch, String op, int seq, byte[][] send) {
        byte[][] recv = new byte[inCount][];
        List<Travelling> held = new ArrayList<>();
        Map<List<Integer>, Integer> occurrences = new HashMap<>();
        for (int i = 0; i < outOffsets.length; i++) {
            List<Integer> key = boxed(outOffsets[i]);
            int occ = occurrences.merge(key, 1, Integer::sum) - 1;
            Travelling t = new Travelling(outOffsets[i], occ, send[i]);
            if (isZeroFrom(outOffsets[i], 0)) {
                deliver(op, recv, t);
            } else {
                held.add(t);
            }
        }
        for (int j = 0; j < d; j++) {
            for (int c : values[j]) {
                int dest = naming.relative(rank, unit(j, c));
                List<Travelling> moving = new ArrayList<>();
                for (Travelling t : held) {
                    if (t.offset[j] == c) {
                        moving.add(t);
                    }
                }
                if (dest == CartesianNaming.PROC_NULL) {
                    if (!moving.isEmpty()) {
                        throw new IllegalStateException(op + ": rank " + rank + " has blocks for offset value " + c
                                + " in dimension " + j + " but no neighbour there");
                    }
                    continue;
                }
                held.removeAll(moving);
                ch.send(op, seq, dest, encode(j, moving));
            }
            for (int c : values[j]) {
                int source = naming.relative(rank, unit(j, -c));
                if (source == CartesianNaming.PROC_NULL) {
                    continue;
                }
                for (Travelling t : decode(op, j, ch.receive(op, seq, source))) {
                    if (isZeroFrom(t.offset, j + 1)) {
                        deliver(op, recv, t);
                    } else {
                        held.add(t);
                    }
                }
            }
        }
        for (int k = 0; k < inCount; k++) {
            if (recv[k] == null) {
                throw new IllegalStateException(
                        op + ": combining schedule left in-slot " + k + " of rank " + rank + " empty");
            }
        }
        return recv;
    }

    private static boolean isZeroFrom(int[] v, int from) {
        for (int j = from; j < v.length; j++) {
            if (v[j] != 0) {
                return false;
            }
        }
        return true;
    }

    private void deliver(String op, byte[][] recv, Travelling t) {
        Integer slot = slotOf.get(new Key(boxed(t.offset), t.occurrence));
        if (slot == null || recv[slot] != null) {
            throw new IllegalStateException(
                    op + ": rank " + rank + " got an unexpected block for offset " + Arrays.toString(t.offset));
        }
        recv[slot] = t.data;
    }

    private byte[] encode(int phase, List<Travelling> blocks) {
        int size = 8;
        for (Travelling t : blocks) {
            size += 4 * d + 8 + t.data.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(phase).putInt(blocks.size());
        for (Travelling t : blocks) {
            for (int x : t.offset) {
                b.putInt(x);
            }
            b.putInt(t.occurrence).putInt(t.data.length).put(t.data);
        }
        return b.array();
    }

    private List<Travelling> decode(String op, int phase, byte[] msg) {
        ByteBuffer b = ByteBuffer.wrap(msg);
        int p = b.getInt();
        if (p != phase) {
            throw new IllegalStateException(op + ": rank " + rank + " got phase " + p + " (expected: " + phase + ")");
        }
        int n = b.getInt();
        List<Travelling> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int[] v = new int[d];
            for (int j = 0; j < d; j++) {
                v[j] = b.getInt();
            }
            int occ = b.getInt();
            byte[] data = new byte[b.getInt()];
            b.get(data);
            out.add(new Travelling(v, occ, data));
        }
        return out;
    }

    @Override
    public byte[][] allgather(CollectiveChannel ch, String op, int seq, byte[] block) {
        return tree.exchange(ch, op, seq, block);
    }

    @Override
    public int allgatherMessagesPerCall() {
        return tree.messagesPerCall();
    }

    @Override
    public int allgatherBlocksPerCall() {
        return tree.blocksPerCall();
    }

    @Override
    public String toString() {
        return "combining(" + messages + " messages)";
    }
}
