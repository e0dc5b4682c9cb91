package dev.layout.spark.graph;

import static dev.layout.spark.graph.GraphTransferTest.ring;
import static dev.layout.spark.graph.GraphTransferTest.shape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.autolink.GraphCodec;
import dev.layout.autolink.GraphFormatException;
import dev.layout.autolink.Packet;
import dev.layout.autolink.TypeRegistry;
import dev.layout.collective.Collectives;
import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.spark.graph.GraphTransferTest.Node;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Issue 11: AutoLink packets from the network are validated before a graph exists. Two ranks over
 * a real loopback {@link TcpTransport}: rank 0 is hostile and sends, with the very messages and
 * collectives {@link GraphTransfer} uses, packet streams of a valid graph that were truncated,
 * reordered or corrupted; rank 1 receives with {@link GraphTransfer} (a 64 MiB bounded allocator).
 * Every such receive is a {@link GraphFormatException}, returns no graph and leaves no Arrow memory
 * allocated, and the next, valid, transfer on the same communicator arrives intact. A sender whose
 * transport dies in the middle of a graph is a transport failure instead (the receive fails at
 * once, naming the rank), with no graph and no Arrow memory either.
 */
class GraphReceiveValidationTest {
    static final Duration T = Duration.ofSeconds(30);
    /** 30 nodes in packets of 7 rows: a header and 5 data packets (the columnar form; CompactFormTest has the compact one). */
    static final int NODES = 30;

    /** One rank's codec and allocator; the allocator must be empty whenever a receive has failed. */
    record Side(Communicator comm, GraphTransfer transfer, GraphCodec codec, RootAllocator allocator) {}

    static <T> List<T> onTcp(BiFunction<Side, Integer, T> body) {
        List<TcpTransport> fabric;
        try {
            // default options: every packet here is eager, so what a refused case leaves unread holds no sender
            fabric = TcpTransport.loopbackFabric(2, JobSecret.random(), TcpOptions.defaults());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return InProcessLauncher.runOn(fabric, T, comm -> {
            try (RootAllocator a = new RootAllocator(64 << 20)) {
                GraphCodec codec = GraphCodec.builder(TypeRegistry.of(Node.class))
                        .allocator(a)
                        .packetRows(7)
                        .maxNodes(1000)
                        .compactMaxNodes(0)
                        .build();
                T out = body.apply(new Side(comm, GraphTransfer.of(codec), codec, a), comm.rank());
                assertThat(a.getAllocatedMemory())
                        .as("Arrow memory of rank %d", comm.rank())
                        .isZero();
                return out;
            }
        });
    }

    /** The packets of ring(NODES, base), each as its own byte array. */
    static List<byte[]> packets(GraphCodec codec, int base) {
        List<byte[]> out = new ArrayList<>();
        for (Packet p : codec.aggregateAll(ring(NODES, base))) {
            out.add(p.bytes().clone());
        }
        return out;
    }

    /** Packets framed as GraphTransfer frames them for the collectives: int32 length, then the bytes. */
    static byte[] framed(List<byte[]> packets) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        for (byte[] p : packets) {
            bos.writeBytes(ByteBuffer.allocate(4).putInt(p.length).array());
            bos.writeBytes(p);
        }
        return bos.toByteArray();
    }

    static List<byte[]> with(List<byte[]> packets, int index, byte[] replacement) {
        List<byte[]> out = new ArrayList<>(packets);
        out.set(index, replacement);
        return out;
    }

    static byte[] putIntLe(byte[] packet, int offset, int value) {
        byte[] b = packet.clone();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
        return b;
    }

    record Hostile(String name, List<byte[]> messages) {}

    /** Packet sequences of one graph, each broken in a way the receiver must notice. */
    static List<Hostile> brokenSequences(GraphCodec codec) {
        List<byte[]> g = packets(codec, 100);
        List<byte[]> next = packets(codec, 500);
        List<Hostile> out = new ArrayList<>();
        out.add(new Hostile(
                "a data packet cut short by 9 bytes", with(g, 3, Arrays.copyOf(g.get(3), g.get(3).length - 9))));
        out.add(new Hostile("a data packet cut to 5 bytes", with(g, 2, Arrays.copyOf(g.get(2), 5))));
        out.add(new Hostile("a header cut short", with(g, 0, Arrays.copyOf(g.get(0), g.get(0).length - 1))));
        List<byte[]> dropped = new ArrayList<>(g);
        dropped.remove(2);
        out.add(new Hostile("a data packet dropped", dropped));
        List<byte[]> duplicated = new ArrayList<>(g);
        duplicated.add(2, g.get(2));
        out.add(new Hostile("a data packet duplicated", duplicated));
        List<byte[]> swapped = new ArrayList<>(g);
        swapped.set(2, g.get(3));
        swapped.set(3, g.get(2));
        out.add(new Hostile("two data packets swapped", swapped));
        out.add(new Hostile("data before the header", g.subList(1, g.size())));
        out.add(new Hostile("a corrupted magic", with(g, 2, putIntLe(g.get(2), 0, 0x12345678))));
        out.add(new Hostile("a corrupted IPC continuation", with(g, 3, putIntLe(g.get(3), 20, 0))));
        out.add(new Hostile("an IPC metadata length beyond the packet", with(g, 1, putIntLe(g.get(1), 24, 1 << 30))));
        List<byte[]> tooMany = with(g, 0, putIntLe(g.get(0), 28, NODES + 1));
        tooMany.addAll(next);
        out.add(new Hostile("a header announcing a node too many, then the next graph", tooMany));
        out.add(new Hostile(
                "a header announcing more nodes than maxNodes", with(g, 0, putIntLe(g.get(0), 28, 1 << 20))));
        List<byte[]> interrupted = new ArrayList<>(g.subList(0, 3));
        interrupted.addAll(next);
        out.add(new Hostile("the stream cut after 3 packets and the next graph sent", interrupted));
        byte[] garbage = new byte[200];
        new Random(11).nextBytes(garbage);
        out.add(new Hostile("a packet of random bytes", with(g, 1, garbage)));
        return out;
    }

    @Test
    void pointToPointReceivesRefuseTruncatedAndCorruptedPacketStreams() {
        List<List<String>> outcomes = onTcp((s, rank) -> {
            List<Hostile> cases = brokenSequences(s.codec());
            List<String> refused = new ArrayList<>();
            for (int k = 0; k < cases.size(); k++) {
                Hostile h = cases.get(k);
                int tag = k + 1; // one tag per case: what a case leaves unread cannot reach the next
                if (rank == 0) {
                    for (byte[] m : h.messages()) {
                        s.comm().send(1, tag, m);
                    }
                    continue;
                }
                assertThatThrownBy(() -> s.transfer().recv(s.comm(), 0, tag, Node.class))
                        .as(h.name())
                        .isInstanceOf(GraphFormatException.class);
                assertThat(s.allocator().getAllocatedMemory())
                        .as("Arrow memory after %s", h.name())
                        .isZero();
                refused.add(h.name());
            }
            // the communicator is still in step: a valid graph arrives intact
            if (rank == 0) {
                s.transfer().send(s.comm(), 1, 99, ring(NODES, 7));
                return List.<String>of();
            }
            assertThat(shape(s.transfer().recv(s.comm(), 0, 99, Node.class))).isEqualTo(shape(ring(NODES, 7)));
            return refused;
        });
        assertThat(outcomes.get(1)).hasSize(14);
    }

    /** Framed streams as the collectives carry them: cut anywhere, lengths that lie, trailing bytes. */
    static List<Hostile> brokenStreams(GraphCodec codec) {
        List<byte[]> g = packets(codec, 300);
        byte[] whole = framed(g);
        int lastPacketAt = whole.length - 4 - g.get(g.size() - 1).length;
        List<Hostile> out = new ArrayList<>();
        out.add(new Hostile("an empty stream", List.of(new byte[0])));
        out.add(new Hostile("cut inside a length prefix", List.of(Arrays.copyOf(whole, 4 + g.get(0).length + 2))));
        out.add(new Hostile("cut inside a packet", List.of(Arrays.copyOf(whole, whole.length - 9))));
        out.add(new Hostile(
                "cut at a packet boundary (last packet missing)", List.of(Arrays.copyOf(whole, lastPacketAt))));
        byte[] longer = whole.clone();
        ByteBuffer.wrap(longer).putInt(lastPacketAt, g.get(g.size() - 1).length + 1000);
        out.add(new Hostile("a length prefix claiming more than the stream holds", List.of(longer)));
        byte[] tiny = whole.clone();
        ByteBuffer.wrap(tiny).putInt(lastPacketAt, 3);
        out.add(new Hostile("a length prefix below a packet's prefix", List.of(tiny)));
        out.add(new Hostile("trailing bytes after a complete graph", List.of(Arrays.copyOf(whole, whole.length + 3))));
        List<byte[]> dropped = new ArrayList<>(g);
        dropped.remove(2);
        out.add(new Hostile("a data packet dropped", List.of(framed(dropped))));
        return out;
    }

    /** What GraphTransfer.bcast sends from root 0: the stream length (int64 LE), then the stream. */
    static void hostileBcast(Collectives c, long announced, byte[] stream) {
        c.bcast(
                ByteBuffer.allocate(8)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(announced)
                        .array(),
                0);
        if (announced >= 0 && announced <= Integer.MAX_VALUE - 8) {
            c.bcast(stream, 0); // the receiver only asks for the stream after a plausible length
        }
    }

    static byte[] intLe(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    @Test
    void bcastGatherAndAlltoallRefuseBrokenStreamsFromAHostileRank() {
        List<List<String>> outcomes = onTcp((s, rank) -> {
            Collectives c = Collectives.on(s.comm());
            List<String> refused = new ArrayList<>();
            List<Hostile> cases = new ArrayList<>(brokenStreams(s.codec()));
            byte[] valid = framed(packets(s.codec(), 300));
            cases.add(new Hostile("a negative stream length", List.of(new byte[0])));
            cases.add(new Hostile("a stream longer than announced", List.of(Arrays.copyOf(valid, valid.length + 50))));
            for (Hostile h : cases) {
                byte[] stream = h.messages().get(0);
                long announced = h.name().equals("a negative stream length")
                        ? -5
                        : h.name().equals("a stream longer than announced") ? valid.length : stream.length;
                if (rank == 0) {
                    hostileBcast(c, announced, stream);
                    continue;
                }
                assertThatThrownBy(() -> s.transfer().bcast(s.comm(), 0, null, Node.class))
                        .as("bcast: " + h.name())
                        .isInstanceOf(GraphFormatException.class)
                        .hasMessageContaining(
                                h.name().equals("a stream longer than announced")
                                        ? "another length than announced"
                                        : "");
                assertThat(s.allocator().getAllocatedMemory())
                        .as("Arrow memory after bcast: %s", h.name())
                        .isZero();
                refused.add("bcast: " + h.name());
            }

            // gather at rank 1: rank 0 announces its length, then sends its (cut) stream
            byte[] cut = Arrays.copyOf(valid, valid.length - 9);
            for (int announced : new int[] {cut.length, -3}) {
                if (rank == 0) {
                    c.gather(intLe(announced), new byte[0], 1);
                    if (announced >= 0) {
                        c.gatherv(cut, new byte[0], new int[2], new int[2], 1);
                    }
                    continue;
                }
                assertThatThrownBy(() -> s.transfer().gather(s.comm(), 1, ring(5, 1), Node.class))
                        .as("gather, announced " + announced)
                        .isInstanceOf(GraphFormatException.class);
                assertThat(s.allocator().getAllocatedMemory()).isZero();
                refused.add("gather: announced " + announced);
            }

            // alltoall: rank 0 sends a cut stream to rank 1 (and nothing to itself), then a negative length
            for (int announced : new int[] {cut.length, -3}) {
                if (rank == 0) {
                    byte[] lens = new byte[8];
                    ByteBuffer.wrap(lens)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putInt(0)
                            .putInt(announced);
                    byte[] theirs = new byte[8];
                    c.alltoall(lens, theirs, 4);
                    if (announced >= 0) {
                        int fromOne = ByteBuffer.wrap(theirs)
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .getInt(4);
                        byte[] recv = new byte[fromOne];
                        c.alltoallv(
                                cut,
                                new int[] {0, cut.length},
                                new int[] {0, 0},
                                recv,
                                new int[] {0, fromOne},
                                new int[] {0, 0});
                    }
                    continue;
                }
                List<Node> mine = new ArrayList<>();
                mine.add(ring(4, 2));
                mine.add(null);
                assertThatThrownBy(() -> s.transfer().alltoall(s.comm(), mine, Node.class))
                        .as("alltoall, announced " + announced)
                        .isInstanceOf(GraphFormatException.class);
                assertThat(s.allocator().getAllocatedMemory()).isZero();
                refused.add("alltoall: announced " + announced);
            }

            // still in step: a valid bcast arrives intact
            Node got = s.transfer().bcast(s.comm(), 0, rank == 0 ? ring(NODES, 9) : null, Node.class);
            assertThat(shape(got)).isEqualTo(shape(ring(NODES, 9)));
            return refused;
        });
        assertThat(outcomes.get(1)).hasSize(10 + 2 + 2);
    }

    @Test
    void aSenderWhoseTransportDiesMidGraphFailsTheReceiveAtOnceWithoutAGraph() {
        List<Object> outcomes = onTcp((s, rank) -> {
            if (rank == 0) {
                List<byte[]> g = packets(s.codec(), 40);
                for (byte[] m : g.subList(0, 3)) {
                    s.comm().send(1, 1, m);
                }
                s.comm().transport().close(); // death after 3 of 6 packets
                return null;
            }
            assertThatThrownBy(() -> s.transfer().recv(s.comm(), 0, 1, Node.class))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("rank 1 <- rank 0")
                    .hasMessageContaining("process 0");
            assertThat(s.allocator().getAllocatedMemory()).isZero();
            return "refused";
        });
        assertThat(outcomes.get(1)).isEqualTo("refused");
    }
}
