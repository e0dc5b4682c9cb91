package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcpTransportTest {
    static final Duration T = Duration.ofSeconds(20);
    static final TcpOptions SMALL =
            TcpOptions.defaults().withEagerThresholdBytes(1024).withPeerBufferBytes(8192);

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private List<TcpTransport> fabric(int n, TcpOptions o) throws IOException {
        List<TcpTransport> f = TcpTransport.loopbackFabric(n, JobSecret.random(), o);
        toClose.addAll(f);
        return f;
    }

    /** Process 0 of a two-process job whose process 1 is played by a raw socket. */
    private TcpTransport lonely(JobSecret secret) throws IOException {
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        TcpTransport t = l.open(0, List.of(l.endpoint(), new Endpoint("127.0.0.1", 1)), secret, SMALL);
        toClose.add(t);
        return t;
    }

    private RawPeer raw(TcpTransport t) throws IOException {
        RawPeer p = RawPeer.connect(t.endpoints().get(0));
        toClose.add(p);
        return p;
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @Test
    void eagerAndRendezvousMessagesKeepTheirOrderPerKey() throws IOException {
        List<TcpTransport> ep = fabric(2, SMALL);
        int[] sizes = {10, 3_000_000, 0, 1024, 1025, 70_000, 5};
        for (int i = 0; i < sizes.length; i++) {
            ep.get(0).send(1, 3L, 4, bytes(sizes[i], i));
        }
        for (int i = 0; i < sizes.length; i++) {
            assertThat(ep.get(1).receive(0, 3L, 4, T)).as("message %d", i).isEqualTo(bytes(sizes[i], i));
        }
    }

    @Test
    void aSenderOutOfCreditSwitchesToRendezvousInsteadOfBlocking() throws IOException {
        List<TcpTransport> ep = fabric(2, SMALL);
        for (int i = 0; i < 40; i++) {
            ep.get(0).send(1, 0L, 0, bytes(1000, i)); // 40 KB against an 8 KB buffer, nobody receiving yet
        }
        for (int i = 0; i < 40; i++) {
            assertThat(ep.get(1).receive(0, 0L, 0, T)).isEqualTo(bytes(1000, i));
        }
    }

    @Test
    void bothSidesDiallingAtOnceEndWithOneWorkingConnection() throws Exception {
        for (int round = 0; round < 5; round++) {
            List<TcpTransport> ep = fabric(2, SMALL);
            CompletableFuture<Void> a = CompletableFuture.runAsync(() -> sendQuietly(ep.get(0), 1));
            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> sendQuietly(ep.get(1), 0));
            a.get(20, TimeUnit.SECONDS);
            b.get(20, TimeUnit.SECONDS);
            assertThat(ep.get(0).receive(1, 0L, 0, T)).containsExactly(1);
            assertThat(ep.get(1).receive(0, 0L, 0, T)).containsExactly(0);
        }
    }

    private static void sendQuietly(TcpTransport t, int dest) {
        try {
            t.send(dest, 0L, 0, new byte[] {(byte) t.process()});
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void typedSendsDeliverThePackedStreamWithEveryStrategy() throws IOException {
        List<TcpTransport> ep = fabric(2, SMALL);
        for (long blocks : new long[] {3, 1000}) {
            for (long blockLength : new long[] {4, 2000}) {
                Datatype columns = Datatype.vector(blocks, blockLength, 2 * blockLength, Primitive.FLOAT32);
                long floats = blocks * 2 * blockLength;
                ByteBuffer src = ByteBuffer.allocateDirect((int) (4 * floats)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < floats; i++) {
                    src.putFloat(4 * i, i);
                }
                Memory from = Memory.ofBuffer(src);
                for (SendStrategy s : SendStrategy.values()) {
                    Memory to = Memory.ofBuffer(ByteBuffer.allocateDirect((int) (4 * floats)));
                    Memory heapTo = Memory.ofArray(new byte[(int) (4 * blocks * blockLength)]);
                    CompletableFuture<Long> r = CompletableFuture.supplyAsync(() -> {
                        try {
                            long a = ep.get(1).receiveTyped(0, 1L, 2, columns, 1, to, 0, T);
                            long b = ep.get(1)
                                    .receiveTyped(0, 1L, 2, Primitive.FLOAT32, blocks * blockLength, heapTo, 0, T);
                            return a + b;
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                    ep.get(0).sendTyped(1, 1L, 2, columns, 1, from, 0, s);
                    ep.get(0).sendTyped(1, 1L, 2, columns, 1, from, 0, s);
                    assertThat(r.join()).isEqualTo(2 * columns.byteSize());
                    List<String> wrong = new ArrayList<>();
                    for (long b = 0; b < blocks && wrong.size() < 5; b++) {
                        for (long j = 0; j < blockLength; j++) {
                            long at = b * 2 * blockLength + j;
                            if (to.getFloat(4 * at) != at
                                    || heapTo.getFloat(4 * (b * blockLength + j)) != at
                                    || to.getFloat(4 * (at + blockLength)) != 0) { // the gaps stay untouched
                                wrong.add(s + " block " + b + " element " + j);
                            }
                        }
                    }
                    assertThat(wrong)
                            .as("%s, %d blocks of %d", s, blocks, blockLength)
                            .isEmpty();
                }
            }
        }
        assertThat(ep.get(0).strategyCount(SendStrategy.GATHER)).isPositive();
        assertThat(ep.get(0).strategyCount(SendStrategy.PACK)).isPositive();
    }

    @Test
    void adaptiveSendsGatherFewLargeBlocksAndPackManySmallOnes() throws IOException {
        List<TcpTransport> ep = fabric(2, SMALL);
        Memory direct = Memory.ofBuffer(ByteBuffer.allocateDirect(8 << 20));
        Datatype large = Datatype.vector(3, 200_000, 400_000, Primitive.FLOAT32);
        Datatype small = Datatype.vector(200_000, 1, 2, Primitive.FLOAT32);
        Memory sink = Memory.ofBuffer(ByteBuffer.allocateDirect(8 << 20));
        for (Datatype t : List.of(large, small)) {
            CompletableFuture<Long> r = CompletableFuture.supplyAsync(() -> {
                try {
                    return ep.get(1).receiveTyped(0, 0L, 0, t, 1, sink, 0, T);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            SendStrategy used = ep.get(0).sendTyped(1, 0L, 0, t, 1, direct, 0, SendStrategy.ADAPTIVE);
            assertThat(used).as("%s", t).isEqualTo(t == large ? SendStrategy.GATHER : SendStrategy.PACK);
            r.join();
        }
        assertThat(SendCostModel.DEFAULTS.choose(3, 16 << 20, false)).isEqualTo(SendStrategy.GATHER);
        assertThat(SendCostModel.DEFAULTS.choose(1 << 20, 4 << 20, false)).isEqualTo(SendStrategy.PACK);
        assertThat(SendCostModel.DEFAULTS.choose(1, 100, false)).isEqualTo(SendStrategy.PACK);
    }

    @Test
    void aTypedReceiveShorterThanTheMessageFailsAndLeavesTheMemoryUntouched() throws IOException {
        List<TcpTransport> ep = fabric(2, SMALL);
        byte[] dest = new byte[64];
        Arrays.fill(dest, (byte) 0x55);
        ep.get(0).send(1, 0L, 0, new byte[100]);
        ep.get(0).send(1, 0L, 0, new byte[5000]);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> ep.get(1).receiveTyped(0, 0L, 0, Primitive.BYTE, 64, Memory.ofArray(dest), 0, T))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("longer than the receive type's 64 bytes");
        }
        assertThat(dest).containsOnly(0x55);
        ep.get(0).send(1, 0L, 0, new byte[] {7});
        assertThat(ep.get(1).receive(0, 0L, 0, T)).containsExactly(7);
    }

    @Test
    void eachProcessIsOnTheHostItAdvertised() throws IOException {
        TcpTransport.Listener l0 = TcpTransport.listen(new Endpoint("127.0.0.2", 0));
        TcpTransport.Listener l1 = TcpTransport.listen(new Endpoint("127.0.0.3", 0));
        List<Endpoint> eps = List.of(l0.endpoint(), l1.endpoint());
        JobSecret secret = JobSecret.random();
        TcpTransport t0 = l0.open(0, eps, secret, SMALL);
        TcpTransport t1 = l1.open(1, eps, secret, SMALL);
        toClose.add(t0);
        toClose.add(t1);
        assertThat(t0.host()).isEqualTo("127.0.0.2");
        assertThat(t1.host()).isEqualTo("127.0.0.3");
    }

    @Test
    void aPeerWithTheWrongSecretIsRefusedOnBothSides() throws IOException {
        TcpTransport.Listener l0 = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        TcpTransport.Listener l1 = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        List<Endpoint> eps = List.of(l0.endpoint(), l1.endpoint());
        TcpTransport good = l0.open(0, eps, JobSecret.random(), SMALL);
        TcpTransport bad = l1.open(1, eps, JobSecret.random(), SMALL);
        toClose.add(good);
        toClose.add(bad);
        assertThatThrownBy(() -> bad.send(0, 0L, 0, new byte[] {1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("process 0")
                .hasMessageContaining("wrong job secret");
        assertThatThrownBy(() -> good.send(1, 0L, 0, new byte[] {1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("process 1")
                .hasMessageContaining("wrong job secret");
        assertThatThrownBy(() -> good.receive(1, 0L, 0, Duration.ofMillis(50)))
                .isInstanceOf(TransportTimeoutException.class);

        try (RawPeer p = RawPeer.connect(l0.endpoint())) {
            assertThat(p.handshake(JobSecret.random(), 1, 0)).isEqualTo(-1); // dropped, no verdict
        }
        assertThat(good.rejections())
                .anySatisfy(r -> assertThat(r).contains("authentication failed").contains("process 1"));
    }

    @Test
    void aGarbagePeerIsDroppedAndTheJobGoesOn() throws IOException {
        List<TcpTransport> ep = fabric(2, SMALL);
        RawPeer p = raw(ep.get(0));
        p.write(bytes(300, 9));
        assertThat(p.readFully(ByteBuffer.allocate(1000))).isFalse();
        assertThat(ep.get(0).rejections()).anySatisfy(r -> assertThat(r).contains("bad magic"));
        ep.get(1).send(0, 0L, 0, new byte[] {42});
        assertThat(ep.get(0).receive(1, 0L, 0, T)).containsExactly(42);
    }

    @Test
    void aReplayedHandshakeIsRefused() throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        byte[] nonce = JobSecret.nonce();
        RawPeer first = raw(t);
        assertThat(first.handshake(secret, 1, 0, nonce)).isEqualTo(Handshake.ACCEPTED);
        RawPeer replay = raw(t);
        assertThat(replay.handshake(secret, 1, 0, nonce)).isEqualTo(-1);
        assertThat(t.rejections()).anySatisfy(r -> assertThat(r).contains("replayed handshake"));
    }

    @Test
    void aFrameClaimingAHugeLengthIsRefusedBeforeAllocation() throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t);
        assertThat(p.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
        p.write(RawPeer.header(Frame.EAGER, 1, 0L, 0, 0, 1L << 40, 0));
        assertThat(p.readFully(ByteBuffer.allocate(1))).isFalse();
        assertThat(t.rejections()).anySatisfy(r -> assertThat(r)
                .contains("protocol violation by process 1")
                .contains("stream offset 0")
                .contains("1099511627776 bytes"));
        assertThatThrownBy(() -> t.receive(1, 0L, 0, T))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("process 1");
    }

    @Test
    void framesWithAForgedSourceOrABrokenSequenceAreRefused() throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer forged = raw(t);
        assertThat(forged.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
        forged.write(RawPeer.header(Frame.EAGER, 0, 0L, 0, 0, 1, 0));
        forged.write(new byte[] {1});
        assertThat(forged.readFully(ByteBuffer.allocate(1))).isFalse();
        assertThat(t.rejections()).anySatisfy(r -> assertThat(r).contains("claims source 0"));
    }

    @Test
    void aPeerDyingMidMessageFailsTheReceiveAndLeavesTheBufferUntouched() throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t);
        assertThat(p.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
        p.write(RawPeer.header(Frame.EAGER, 1, 5L, 6, 0, 16, 0));
        p.write(bytes(16, 1)); // one complete message
        p.write(RawPeer.header(Frame.EAGER, 1, 5L, 6, 1, 1000, 0));
        p.write(bytes(400, 2)); // then death in the middle of the next
        p.close();
        byte[] dest = new byte[1000];
        Arrays.fill(dest, (byte) 0x55);
        assertThat(t.receive(1, 5L, 6, T)).isEqualTo(bytes(16, 1));
        assertThatThrownBy(() -> t.receiveTyped(1, 5L, 6, Primitive.BYTE, 1000, Memory.ofArray(dest), 0, T))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("process 1")
                .hasMessageContaining("in the middle of a message at stream offset 496");
        assertThat(dest).containsOnly(0x55);
    }

    @Test
    void aPeerDyingDuringARendezvousFailsTheWaitingReceive() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t);
        assertThat(p.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
        p.write(RawPeer.header(Frame.RTS, 1, 0L, 0, 0, 100_000, 77));
        CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                t.receive(1, 0L, 0, Duration.ofSeconds(60));
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        ByteBuffer cts = ByteBuffer.allocate(Frame.HEADER);
        assertThat(p.readFully(cts)).isTrue();
        assertThat(cts.get(0)).isEqualTo(Frame.CTS);
        assertThat(cts.getInt(36)).isEqualTo(77);
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 0, 1, 100_000, 77));
        p.write(bytes(5000, 3));
        p.close();
        assertThat(waiting.get(20, TimeUnit.SECONDS))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("process 1")
                .hasMessageContaining("in the middle of a message");
    }

    @Test
    void closingAPeerFailsPendingReceivesAtOnce() throws Exception {
        List<TcpTransport> ep = fabric(2, SMALL);
        ep.get(0).send(1, 0L, 0, new byte[] {1});
        assertThat(ep.get(1).receive(0, 0L, 0, T)).containsExactly(1);
        CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                ep.get(0).receive(1, 0L, 0, Duration.ofSeconds(60));
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        ep.get(1).close();
        assertThat(waiting.get(20, TimeUnit.SECONDS))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("process 1")
                .hasMessageContaining("closed its transport");
        assertThatThrownBy(() -> ep.get(0).send(1, 0L, 0, new byte[] {1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("process 1");
    }

    @Test
    void closingRightAfterABufferedLargeSendStillDeliversIt() throws Exception {
        List<TcpTransport> ep = fabric(2, SMALL);
        ep.get(0).send(1, 0L, 0, bytes(500_000, 4)); // rendezvous: returns before the receiver asks
        CompletableFuture<byte[]> r = CompletableFuture.supplyAsync(() -> {
            try {
                return ep.get(1).receive(0, 0L, 0, T);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        ep.get(0).close();
        assertThat(r.get(20, TimeUnit.SECONDS)).isEqualTo(bytes(500_000, 4));
    }

    @Test
    void aLargeTypedSendNobodyReceivesTimesOutNamingThePeer() throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        TcpTransport t = l.open(
                0,
                List.of(l.endpoint(), new Endpoint("127.0.0.1", 1)),
                secret,
                SMALL.withSendTimeout(Duration.ofMillis(200)));
        toClose.add(t);
        RawPeer p = raw(t);
        assertThat(p.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED); // authenticated, never answers
        Memory m = Memory.ofBuffer(ByteBuffer.allocateDirect(1 << 20));
        assertThatThrownBy(() -> t.sendTyped(1, 0L, 9, Primitive.BYTE, 1 << 20, m, 0, SendStrategy.ADAPTIVE))
                .isInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("process 1")
                .hasMessageContaining("tag 9")
                .hasMessageContaining("within PT0.2S");
    }

    @Test
    void anUnreachablePeerIsNamedAfterTheConnectTimeout() throws IOException {
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        Endpoint nobody;
        try (TcpTransport.Listener gone = TcpTransport.listen(new Endpoint("127.0.0.1", 0))) {
            nobody = gone.endpoint();
        }
        TcpTransport t = l.open(
                0, List.of(l.endpoint(), nobody), JobSecret.random(), SMALL.withConnectTimeout(Duration.ofMillis(300)));
        toClose.add(t);
        assertThatThrownBy(() -> t.send(1, 0L, 0, new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("send: cannot connect to process 1 at " + nobody);
    }

    @Test
    void optionsEndpointsAndSecretsValidateTheirInput() {
        assertThat(Endpoint.parse("10.1.2.3:4000")).isEqualTo(new Endpoint("10.1.2.3", 4000));
        assertThat(Endpoint.parse("[::1]:80").toString()).isEqualTo("[::1]:80");
        assertThatThrownBy(() -> Endpoint.parse("host")).hasMessage("endpoint: 'host' (expected: host:port)");
        assertThatThrownBy(() -> new Endpoint("h", 70000)).hasMessage("endpoint: port 70000 (expected: 0..65535)");
        assertThatThrownBy(() -> JobSecret.of(new byte[3]))
                .hasMessage("jobSecret: key of 3 bytes (expected: >= 16 bytes)");
        JobSecret s = JobSecret.random();
        assertThat(JobSecret.fromBase64(s.toBase64())).isEqualTo(s);
        assertThat(s.toString()).doesNotContain(s.toBase64());
        assertThat(JobSecret.derive("spark-secret")).isEqualTo(JobSecret.derive("spark-secret"));
        assertThatThrownBy(() -> TcpOptions.defaults().withEagerThresholdBytes(-1))
                .hasMessage("tcpOptions: eagerThresholdBytes -1 (expected: >= 0)");
        assertThatThrownBy(() -> TcpOptions.defaults().withSendTimeout(Duration.ZERO))
                .hasMessage("tcpOptions: sendTimeout PT0S (expected: > 0)");
    }
}
