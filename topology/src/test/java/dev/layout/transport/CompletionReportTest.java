package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The completion reports that let adaptive rendezvous sends learn what they cost end to end (issue
 * 24): a receiver answers a request with its own time, in front of its next frame or flushed; the
 * sender learns from a report only when it comes, never from one it did not ask for; and what a
 * peer that never answers can cost is bounded. Process 1 is a raw socket where the test needs to
 * see or forge frames. The {@code @Timeout} is a safety net only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompletionReportTest {
    static final Duration T = Duration.ofSeconds(20);
    static final TcpOptions SMALL = TcpTransportTest.SMALL; // eager up to 1 KiB
    static final int N = 4096; // a rendezvous message under SMALL

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void closeAll() throws Exception {
        pool.shutdownNow();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private TcpTransport lonely(JobSecret secret) throws IOException {
        return lonely(secret, SMALL);
    }

    private TcpTransport lonely(JobSecret secret, TcpOptions options) throws IOException {
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        TcpTransport t = l.open(0, List.of(l.endpoint(), new Endpoint("127.0.0.1", 1)), secret, options);
        toClose.add(t);
        return t;
    }

    private RawPeer raw(TcpTransport t, JobSecret secret) throws IOException {
        RawPeer p = RawPeer.connect(t.endpoints().get(0));
        toClose.add(p);
        assertThat(p.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
        return p;
    }

    private static Memory direct(int n) {
        return Memory.ofBuffer(ByteBuffer.allocateDirect(n));
    }

    private Future<Long> receiveTyped(TcpTransport t, int tag) {
        return pool.submit(() -> t.receiveTyped(1, 0L, tag, Primitive.BYTE, N, direct(N), 0, T));
    }

    private Future<SendStrategy> sendTyped(TcpTransport t, int tag, Memory m) {
        return pool.submit(() -> t.sendTyped(1, 0L, tag, Primitive.BYTE, N, m, 0, SendStrategy.ADAPTIVE));
    }

    @Test
    void theSendersTableMatchesEachReportOnceInEitherOrderOfSendAndReport() {
        CompletionReports r = new CompletionReports();
        long[] got = new long[2];
        assertThat(r.reserve(1)).isTrue();
        assertThat(r.reserve(2)).isTrue();
        r.sent(1, 100, 300, n -> got[0] = n);
        assertThat(r.complete(1, 900)).isTrue();
        assertThat(got[0]).isEqualTo(1000);
        assertThat(r.complete(2, 500))
                .as("the report overtook the sender's bookkeeping")
                .isTrue();
        r.sent(2, 50, 300, n -> got[1] = n);
        assertThat(got[1]).isEqualTo(550);
        assertThat(r.complete(1, 1)).as("a second report").isFalse();
        assertThat(r.complete(3, 1)).as("never asked").isFalse();
        assertThat(r.size()).isZero();
        for (int i = 0; i < CompletionReports.MAX_PENDING; i++) {
            assertThat(r.reserve(10 + i)).isTrue();
        }
        assertThat(r.reserve(99)).as("bounded").isFalse();
        r.cancel(10);
        assertThat(r.reserve(99)).isTrue();
        r.clear();
        assertThat(r.size()).isZero();
    }

    @Test
    void aSendIsLearntFromTheLongerOfTheSendersTimeAndTheHeadersDelayPlusTheReceivers() {
        CompletionReports r = new CompletionReports();
        long[] got = new long[2];
        r.reserve(1);
        r.reserve(2);
        // the whole message arrived at once (loopback, 64 KiB): the receiver's clock started only once
        // the sender's write call had delivered it, so the header's delay plus the receiver's time (100 +
        // 200) leaves out most of that call; the sender's own time does not
        r.sent(1, 100, 5000, n -> got[0] = n);
        r.complete(1, 200);
        assertThat(got[0]).isEqualTo(5000);
        // the sender's write ended once the socket buffer held the tail, the receiver still draining it
        r.complete(2, 9000);
        r.sent(2, 100, 5000, n -> got[1] = n);
        assertThat(got[1]).isEqualTo(9100);
    }

    @Test
    void aReceiverAnswersARequestWithItsTimeInFrontOfItsNextFrameAndOnlyWhenAsked() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        p.write(RawPeer.header(Frame.RTS, Frame.REPORT, 1, 0L, 7, 0, N, 5)); // asks for a report
        p.write(RawPeer.header(Frame.RTS, 1, 0L, 8, 1, N, 6)); // does not
        long before = System.nanoTime();
        Future<Long> first = receiveTyped(t, 7);
        Frame cts = p.readFrame();
        assertThat(cts.type()).isEqualTo(Frame.CTS);
        assertThat(cts.id()).isEqualTo(5);
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 7, 2, N, 5));
        p.write(TcpTransportTest.bytes(N, 1));
        assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo(N);
        long elapsed = System.nanoTime() - before;

        Future<Long> second = receiveTyped(t, 8);
        Frame done = p.readFrame(); // travels in front of the clear-to-send of the second message
        assertThat(done.type()).isEqualTo(Frame.DONE);
        assertThat(done.id()).isEqualTo(5);
        assertThat(done.tag()).isEqualTo(7);
        assertThat(done.length()).as("the receiver's time, ns").isBetween(0L, elapsed);
        Frame cts2 = p.readFrame();
        assertThat(cts2.type()).isEqualTo(Frame.CTS);
        assertThat(cts2.id()).isEqualTo(6);
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 8, 3, N, 6));
        p.write(TcpTransportTest.bytes(N, 2));
        assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo(N);

        t.send(1, 0L, 9, new byte[] {42}); // no report was asked for the second message: none precedes this
        Frame eager = p.readFrame();
        assertThat(eager.type()).isEqualTo(Frame.EAGER);
        assertThat(eager.tag()).isEqualTo(9);
    }

    @Test
    void aRendezvousReportCountsFromTheClearToSendNotFromTheHeader() throws Exception {
        // what a sender does between the clear-to-send and its data frame's header (starting, and the
        // part of a gathering write the socket takes before the reader reads the header) is part of
        // the transfer: a report from the header on missed it and favoured gathering at 16 MB
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        // a first message without a report: the receive's code is loaded and run once before the one measured
        p.write(RawPeer.header(Frame.RTS, 1, 0L, 6, 0, N, 4));
        Future<Long> warm = receiveTyped(t, 6);
        assertThat(p.readFrame().type()).isEqualTo(Frame.CTS);
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 6, 1, N, 4));
        p.write(TcpTransportTest.bytes(N, 0));
        assertThat(warm.get(20, TimeUnit.SECONDS)).isEqualTo(N);

        p.write(RawPeer.header(Frame.RTS, Frame.REPORT, 1, 0L, 7, 2, N, 5));
        long posted = System.nanoTime();
        Future<Long> first = receiveTyped(t, 7);
        assertThat(p.readFrame().type()).isEqualTo(Frame.CTS);
        long cleared = System.nanoTime();
        Thread.sleep(100); // the sender's start: not synchronization, the cost the report must include
        long headerAt = System.nanoTime();
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 7, 3, N, 5));
        p.write(TcpTransportTest.bytes(N, 1));
        assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo(N);
        long done = System.nanoTime();
        p.write(RawPeer.header(Frame.RTS, 1, 0L, 8, 4, N, 6)); // a frame for the report to travel with
        Future<Long> second = receiveTyped(t, 8);
        Frame report = p.readFrame();
        assertThat(report.type()).isEqualTo(Frame.DONE);
        assertThat(report.length())
                .as("the receiver's time, ns: at least from the clear-to-send to the header")
                .isGreaterThanOrEqualTo(headerAt - cleared)
                .isLessThanOrEqualTo(done - posted);
        assertThat(p.readFrame().type()).isEqualTo(Frame.CTS);
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 8, 5, N, 6));
        p.write(TcpTransportTest.bytes(N, 2));
        assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo(N);
    }

    @Test
    void reportsNoFrameTakesAlongAreFlushedByTheNextOneOwedOnceTheOldestHasWaited() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        p.write(RawPeer.header(Frame.RTS, Frame.REPORT, 1, 0L, 1, 0, N, 1));
        p.write(RawPeer.header(Frame.RTS, Frame.REPORT, 1, 0L, 2, 1, N, 2));
        Future<Long> first = receiveTyped(t, 1);
        Future<Long> second = receiveTyped(t, 2);
        p.readFrame();
        p.readFrame(); // both clear-to-sends are out before any data: no frame left to carry the reports
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 1, 2, N, 1));
        p.write(TcpTransportTest.bytes(N, 1));
        assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo(N);
        // ages the owed report past the flush delay (a delay to exceed, not a synchronization)
        Thread.sleep(5 * ReportOutbox.FLUSH_DELAY_NANOS / 1_000_000);
        p.write(RawPeer.header(Frame.DATA, 1, 0L, 2, 3, N, 2));
        p.write(TcpTransportTest.bytes(N, 2));
        assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo(N);
        for (int id = 1; id <= 2; id++) {
            Frame done = p.readFrame(); // written by a worker: nothing else goes to process 1
            assertThat(done.type()).isEqualTo(Frame.DONE);
            assertThat(done.id()).isEqualTo(id);
        }
    }

    @Test
    void anAdaptiveRendezvousSendAsksForAReportAndLearnsWhenItComes() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        Memory m = direct(N);
        Future<SendStrategy> send = sendTyped(t, 3, m);
        Frame rts = p.readFrame();
        assertThat(rts.type()).isEqualTo(Frame.RTS);
        assertThat(rts.flags()).isEqualTo(Frame.REPORT);
        p.write(RawPeer.header(Frame.CTS, 1, 0L, 3, 0, 0, rts.id()));
        Frame data = p.readFrame();
        assertThat(data.type()).isEqualTo(Frame.DATA);
        assertThat(p.readFully(ByteBuffer.allocate(N))).isTrue();
        SendStrategy used = send.get(20, TimeUnit.SECONDS);
        AdaptiveSendPolicy policy = t.sendPolicy();
        BlockEstimates.BlockEstimate blocks =
                BlockEstimates.estimate(dev.layout.dataloop.Segment.of(Primitive.BYTE, N, m, 0));
        assertThat(policy.observed(1, blocks, N, false, used))
                .as("nothing learnt before the report")
                .isZero();

        p.write(RawPeer.header(Frame.DONE, 1, 0L, 3, 1, 2_000_000, rts.id()));
        p.write(RawPeer.header(Frame.EAGER, 1, 0L, 4, 2, 1, 0));
        p.write(new byte[] {1});
        assertThat(t.receive(1, 0L, 4, T)).containsExactly(1); // read after the report by the same thread
        assertThat(policy.observed(1, blocks, N, false, used)).isEqualTo(1);
    }

    static final int SMALL_N = 512; // an eager message under SMALL
    /** An eager message under the default options that asks for a report. */
    static final int EAGER_N = (int) TcpTransport.EAGER_REPORT_MIN_BYTES;

    @Test
    void aSmallAdaptiveEagerSendAsksForNoReportAndLearnsFromItsOwnTime() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        Memory m = direct(SMALL_N);
        SendStrategy used = t.sendTyped(1, 0L, 3, Primitive.BYTE, SMALL_N, m, 0, SendStrategy.ADAPTIVE);
        Frame eager = p.readFrame();
        assertThat(eager.type()).isEqualTo(Frame.EAGER);
        assertThat(eager.flags()).isZero();
        assertThat(eager.id()).isZero();
        assertThat(p.readFully(ByteBuffer.allocate(SMALL_N))).isTrue();
        BlockEstimates.BlockEstimate blocks =
                BlockEstimates.estimate(dev.layout.dataloop.Segment.of(Primitive.BYTE, SMALL_N, m, 0));
        assertThat(t.sendPolicy().observed(1, blocks, SMALL_N, false, used))
                .as("learnt as the send returned")
                .isEqualTo(1);
    }

    @Test
    void anAdaptiveEagerSendAsksForAReportAndLearnsWhenItComes() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret, TcpOptions.defaults());
        RawPeer p = raw(t, secret);
        Memory m = direct(EAGER_N);
        SendStrategy used = t.sendTyped(1, 0L, 3, Primitive.BYTE, EAGER_N, m, 0, SendStrategy.ADAPTIVE);
        Frame eager = p.readFrame();
        assertThat(eager.type()).isEqualTo(Frame.EAGER);
        assertThat(eager.flags()).isEqualTo(Frame.REPORT);
        assertThat(eager.id()).as("a message id to report on").isNotZero();
        assertThat(p.readFully(ByteBuffer.allocate(EAGER_N))).isTrue();
        AdaptiveSendPolicy policy = t.sendPolicy();
        BlockEstimates.BlockEstimate blocks =
                BlockEstimates.estimate(dev.layout.dataloop.Segment.of(Primitive.BYTE, EAGER_N, m, 0));
        assertThat(policy.observed(1, blocks, EAGER_N, false, used))
                .as("nothing learnt before the report")
                .isZero();

        p.write(RawPeer.header(Frame.DONE, 1, 0L, 3, 0, 200_000, eager.id()));
        p.write(RawPeer.header(Frame.EAGER, 1, 0L, 4, 1, 1, 0));
        p.write(new byte[] {1});
        assertThat(t.receive(1, 0L, 4, T)).containsExactly(1); // read after the report by the same thread
        assertThat(policy.observed(1, blocks, EAGER_N, false, used)).isEqualTo(1);
        // a second report for the same eager message is one nobody asked for
        p.write(RawPeer.header(Frame.DONE, 1, 0L, 3, 2, 200_000, eager.id()));
        assertThat(p.readFully(ByteBuffer.allocate(1 << 16))).as("dropped").isFalse();
        assertThat(t.rejections())
                .anySatisfy(r -> assertThat(r).contains("completion report for message " + eager.id()));
    }

    @Test
    void aReceiverAnswersAnEagerMessagesRequestInFrontOfItsNextFrame() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        long before = System.nanoTime();
        p.write(RawPeer.header(Frame.EAGER, Frame.REPORT, 1, 0L, 7, 0, 2, 5)); // asks for a report
        p.write(new byte[] {1, 2});
        p.write(RawPeer.header(Frame.EAGER, 1, 0L, 8, 1, 1, 6)); // does not
        p.write(new byte[] {3});
        assertThat(t.receive(1, 0L, 7, T)).containsExactly(1, 2);
        assertThat(t.receive(1, 0L, 8, T)).containsExactly(3);
        long elapsed = System.nanoTime() - before;
        t.send(1, 0L, 9, new byte[] {42});
        Frame done = p.readFrame();
        assertThat(done.type()).isEqualTo(Frame.DONE);
        assertThat(done.id()).isEqualTo(5);
        assertThat(done.tag()).isEqualTo(7);
        assertThat(done.length()).as("the receiver's time, ns").isBetween(0L, elapsed);
        Frame reply = p.readFrame();
        while (reply.type() == Frame.CREDIT) { // the receives returned the messages' credit
            reply = p.readFrame();
        }
        assertThat(reply.type())
                .as("one report only: the second message did not ask")
                .isEqualTo(Frame.EAGER);
        assertThat(reply.tag()).isEqualTo(9);
    }

    @Test
    void reportsNobodyAskedForAndMisplacedFlagsDropThePeer() throws Exception {
        for (int c = 0; c < 3; c++) {
            JobSecret secret = JobSecret.random();
            TcpTransport t = lonely(secret);
            RawPeer p = raw(t, secret);
            String expected;
            if (c == 0) { // a report for a message never sent
                p.write(RawPeer.header(Frame.DONE, 1, 0L, 0, 0, 10, 99));
                expected = "completion report for message 99";
            } else if (c == 1) { // a report request on a clear-to-send
                p.write(RawPeer.header(Frame.CTS, Frame.REPORT, 1, 0L, 0, 0, 0, 0));
                expected = "flags 1 on a frame of type 3";
            } else { // a second report for one message
                Future<SendStrategy> send = sendTyped(t, 3, direct(N));
                Frame rts = p.readFrame();
                p.write(RawPeer.header(Frame.CTS, 1, 0L, 3, 0, 0, rts.id()));
                p.readFrame();
                p.readFully(ByteBuffer.allocate(N));
                send.get(20, TimeUnit.SECONDS);
                p.write(RawPeer.header(Frame.DONE, 1, 0L, 3, 1, 10, rts.id()));
                p.write(RawPeer.header(Frame.DONE, 1, 0L, 3, 2, 10, rts.id()));
                expected = "completion report for message " + rts.id();
            }
            assertThat(p.readFully(ByteBuffer.allocate(1 << 16)))
                    .as("case %d: dropped", c)
                    .isFalse();
            assertThat(t.rejections()).as("case %d", c).anySatisfy(r -> assertThat(r)
                    .contains(expected));
        }
    }

    @Test
    void aReceiverThatNeverReportsCostsTheSenderABoundedTable() throws Exception {
        JobSecret secret = JobSecret.random();
        TcpTransport t = lonely(secret);
        RawPeer p = raw(t, secret);
        Memory m = direct(N);
        // beyond the bound, as many as the policy measures in any case (the incumbent's first LEVEL)
        int sends = CompletionReports.MAX_PENDING + RecentSends.LEVEL;
        Future<List<SendStrategy>> sender = pool.submit(() -> {
            List<SendStrategy> used = new ArrayList<>();
            for (int i = 0; i < sends; i++) {
                used.add(t.sendTyped(1, 0L, i, Primitive.BYTE, N, m, 0, SendStrategy.ADAPTIVE));
            }
            return used;
        });
        int asked = 0;
        for (int i = 0; i < sends; i++) { // an older receiver: ignores the request, answers nothing
            Frame rts = p.readFrame();
            asked += rts.flags() == Frame.REPORT ? 1 : 0;
            p.write(RawPeer.header(Frame.CTS, 1, 0L, i, i, 0, rts.id()));
            assertThat(p.readFrame().type()).isEqualTo(Frame.DATA);
            assertThat(p.readFully(ByteBuffer.allocate(N))).isTrue();
        }
        List<SendStrategy> used = sender.get(20, TimeUnit.SECONDS);
        assertThat(asked).isEqualTo(CompletionReports.MAX_PENDING);
        // the sends beyond the bound were learnt from the sender's own time
        BlockEstimates.BlockEstimate blocks =
                BlockEstimates.estimate(dev.layout.dataloop.Segment.of(Primitive.BYTE, N, m, 0));
        AdaptiveSendPolicy policy = t.sendPolicy();
        int learnt = policy.observed(1, blocks, N, false, SendStrategy.PACK)
                + policy.observed(1, blocks, N, false, SendStrategy.GATHER);
        assertThat(learnt).isEqualTo(sends - CompletionReports.MAX_PENDING);
        assertThat(used).hasSize(sends);
    }

    @Test
    void twoTransportsLearnFromEachOthersReports() throws Exception {
        List<TcpTransport> f = TcpTransport.loopbackFabric(2, JobSecret.random(), SMALL);
        toClose.addAll(f);
        Datatype vector = Datatype.vector(16, 64, 128, Primitive.BYTE); // 1 KiB in 16 blocks, gaps between
        int count = 8; // 8 KiB: rendezvous
        Memory src = direct((int) ((count - 1) * vector.extent() + vector.trueUb()));
        Memory dst = direct((int) (count * vector.byteSize()));
        long bytes = count * vector.byteSize();
        BlockEstimates.BlockEstimate blocks =
                BlockEstimates.estimate(dev.layout.dataloop.Segment.of(vector, count, src, 0));
        AdaptiveSendPolicy policy = f.get(0).sendPolicy();
        for (int i = 0; i < 5; i++) {
            int tag = i;
            Future<Long> r = pool.submit(() -> f.get(1).receiveTyped(0, 0L, tag, Primitive.BYTE, bytes, dst, 0, T));
            f.get(0).sendTyped(1, 0L, tag, vector, count, src, 0, SendStrategy.ADAPTIVE);
            assertThat(r.get(20, TimeUnit.SECONDS)).isEqualTo(bytes);
            f.get(1).send(0, 0L, 100 + tag, new byte[] {(byte) tag}); // the reply carries the report
            assertThat(f.get(0).receive(1, 0L, 100 + tag, T)).containsExactly(tag);
            int learnt = policy.observed(1, blocks, bytes, false, SendStrategy.PACK)
                    + policy.observed(1, blocks, bytes, false, SendStrategy.GATHER);
            assertThat(learnt).as("after send %d", i).isEqualTo(i + 1);
        }
    }

    @Test
    void onceItsEstimateIsMadeAnAdaptiveSendAsksForFewReports() throws Exception {
        List<TcpTransport> f = TcpTransport.loopbackFabric(2, JobSecret.random(), SMALL);
        toClose.addAll(f);
        Datatype vector = Datatype.vector(16, 64, 128, Primitive.BYTE);
        int count = 8; // 8 KiB in 128 blocks: rendezvous
        Memory src = direct((int) ((count - 1) * vector.extent() + vector.trueUb()));
        Memory dst = direct((int) (count * vector.byteSize()));
        long bytes = count * vector.byteSize();
        BlockEstimates.BlockEstimate blocks =
                BlockEstimates.estimate(dev.layout.dataloop.Segment.of(vector, count, src, 0));
        AdaptiveSendPolicy policy = f.get(0).sendPolicy();
        int sends = 120;
        for (int i = 0; i < sends; i++) {
            int tag = i;
            Future<Long> r = pool.submit(() -> f.get(1).receiveTyped(0, 0L, tag, Primitive.BYTE, bytes, dst, 0, T));
            f.get(0).sendTyped(1, 0L, tag, vector, count, src, 0, SendStrategy.ADAPTIVE);
            assertThat(r.get(20, TimeUnit.SECONDS)).isEqualTo(bytes);
            f.get(1).send(0, 0L, 1000 + tag, new byte[] {(byte) tag}); // the reply carries any report
            assertThat(f.get(0).receive(1, 0L, 1000 + tag, T)).containsExactly((byte) tag);
        }
        int learnt = policy.observed(1, blocks, bytes, false, SendStrategy.PACK)
                + policy.observed(1, blocks, bytes, false, SendStrategy.GATHER);
        // the model is sure of packing 128 blocks of 64 bytes: every exploration and one exploitation in SAMPLE_EVERY
        assertThat(learnt).isGreaterThanOrEqualTo(sends / SendCell.SAMPLE_EVERY).isLessThan(sends * 3 / 4);
    }
}
