package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The single-copy path of {@link InProcessTransport}: a receive posted into typed memory, filled by
 * a sender's {@link Transport#sendToPosted} straight from the sender's typed memory.
 */
class InProcessPostedReceiveTest {
    private static final Duration T = Duration.ofSeconds(20);
    private static final Duration SHORT = Duration.ofMillis(200);

    /** Every other byte of 8: bytes 0, 2, 4, 6 of the array. */
    private static final Datatype EVERY_OTHER = Datatype.vector(4, 1, 2, Primitive.BYTE);

    @Test
    void copiesAStridedSourceIntoAStridedPostedRegion() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] src = {1, 0, 2, 0, 3, 0, 4, 0};
        byte[] dst = new byte[12];
        Datatype everyThird = Datatype.vector(4, 1, 3, Primitive.BYTE);
        Transport.PostedReceive posted =
                ep.get(1).postReceive(0, 5L, 9, TypedRegion.of(Memory.ofArray(dst), everyThird, 1, 1));
        ep.get(0).sendToPosted(1, 5L, 9, TypedRegion.of(Memory.ofArray(src), EVERY_OTHER, 1, 0), T);
        assertThat(posted.await(T)).isEqualTo(4);
        assertThat(dst).containsExactly(0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0);
        assertThat(ep.get(0).sentMessages()).isEqualTo(1);
        assertThat(ep.get(0).sentBytes()).isEqualTo(4);
    }

    @Test
    void copiesAPartOfAPackedStream() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] src = {1, 0, 2, 0, 3, 0, 4, 0};
        byte[] dst = {9, 9, 9, 9};
        Transport.PostedReceive posted =
                ep.get(1).postReceive(0, 0L, 0, TypedRegion.range(Memory.ofArray(dst), Primitive.BYTE, 4, 0, 1, 3));
        ep.get(0).sendToPosted(1, 0L, 0, TypedRegion.range(Memory.ofArray(src), EVERY_OTHER, 1, 0, 2, 4), T);
        assertThat(posted.await(T)).isEqualTo(2);
        assertThat(dst).containsExactly(9, 3, 4, 9);
    }

    @Test
    void aSenderThatComesFirstWaitsForThePost() throws Exception {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] src = {7, 8, 9};
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            try {
                ep.get(0).sendToPosted(1, 0L, 3, TypedRegion.ofArray(src), T);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        byte[] dst = new byte[3];
        Transport.PostedReceive posted = ep.get(1).postReceive(0, 0L, 3, TypedRegion.ofArray(dst));
        assertThat(posted.await(T)).isEqualTo(3);
        sent.get(20, TimeUnit.SECONDS);
        assertThat(dst).containsExactly(7, 8, 9);
    }

    @Test
    void emptyMessagesComplete() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        Transport.PostedReceive posted = ep.get(1).postReceive(0, 0L, 0, TypedRegion.ofArray(new byte[0]));
        ep.get(0).sendToPosted(1, 0L, 0, TypedRegion.ofArray(new byte[0]), T);
        assertThat(posted.await(T)).isZero();
    }

    @Test
    void aMessageOfAnotherLengthLeavesTheRegionUntouchedAndReportsItsLength() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] dst = {5, 5, 5, 5};
        Transport.PostedReceive posted = ep.get(1).postReceive(0, 0L, 0, TypedRegion.ofArray(dst));
        ep.get(0).sendToPosted(1, 0L, 0, TypedRegion.ofArray(new byte[] {1, 2}), T);
        assertThat(posted.await(T)).isEqualTo(2);
        assertThat(dst).containsExactly(5, 5, 5, 5);
    }

    @Test
    void postsMatchInPostingOrderPerKeyAndNeverAcrossTags() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] first = new byte[1];
        byte[] second = new byte[1];
        byte[] otherTag = new byte[1];
        Transport.PostedReceive p1 = ep.get(1).postReceive(0, 0L, 1, TypedRegion.ofArray(first));
        Transport.PostedReceive p2 = ep.get(1).postReceive(0, 0L, 1, TypedRegion.ofArray(second));
        Transport.PostedReceive p3 = ep.get(1).postReceive(0, 0L, 2, TypedRegion.ofArray(otherTag));
        ep.get(0).sendToPosted(1, 0L, 2, TypedRegion.ofArray(new byte[] {30}), T);
        ep.get(0).sendToPosted(1, 0L, 1, TypedRegion.ofArray(new byte[] {10}), T);
        ep.get(0).sendToPosted(1, 0L, 1, TypedRegion.ofArray(new byte[] {20}), T);
        p1.await(T);
        p2.await(T);
        p3.await(T);
        assertThat(new byte[] {first[0], second[0], otherTag[0]}).containsExactly(10, 20, 30);
    }

    @Test
    void aPeerThatNeverPostsTimesTheSenderOutNamingBothProcessesAndTheKey() {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        assertThatThrownBy(() -> ep.get(0).sendToPosted(1, 0xabL, 4, TypedRegion.ofArray(new byte[1]), SHORT))
                .isInstanceOf(TransportTimeoutException.class)
                .hasMessage(
                        "sendToPosted: process 1 posted no receive for process 0 (context ab, tag 4) within PT0.2S");
    }

    @Test
    void aPostWithoutSenderTimesOutAndIsWithdrawnSoALateSenderCannotWriteIntoIt() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] dst = {5};
        Transport.PostedReceive posted = ep.get(1).postReceive(0, 0xcL, 6, TypedRegion.ofArray(dst));
        assertThatThrownBy(() -> posted.await(SHORT))
                .isInstanceOf(TransportTimeoutException.class)
                .hasMessage(
                        "postReceive: no sender matched the receive process 1 posted for process 0 (context c, tag 6)"
                                + " within PT0.2S");
        assertThatThrownBy(() -> ep.get(0).sendToPosted(1, 0xcL, 6, TypedRegion.ofArray(new byte[] {1}), SHORT))
                .isInstanceOf(TransportTimeoutException.class);
        assertThat(dst).containsExactly(5);
    }

    @Test
    void closingTheFabricFailsAWaitingPostAndAWaitingSender() throws Exception {
        List<InProcessTransport> ep = InProcessTransport.create(3);
        Transport.PostedReceive posted = ep.get(1).postReceive(0, 0L, 0, TypedRegion.ofArray(new byte[1]));
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
            try {
                ep.get(0).sendToPosted(2, 0L, 0, TypedRegion.ofArray(new byte[1]), T);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        ep.get(2).close();
        assertThatThrownBy(() -> posted.await(T))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("fabric closed");
        assertThatThrownBy(() -> sender.get(20, TimeUnit.SECONDS)).hasMessageContaining("fabric closed");
    }

    @Test
    void theDefaultPairPacksSendsAndUnpacks() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        Transport receiver = new PackingTransport(ep.get(1));
        Transport sender = new PackingTransport(ep.get(0));
        byte[] dst = new byte[8];
        Transport.PostedReceive posted =
                receiver.postReceive(0, 0L, 0, TypedRegion.of(Memory.ofArray(dst), EVERY_OTHER, 1, 0));
        sender.sendToPosted(1, 0L, 0, TypedRegion.ofArray(new byte[] {1, 2, 3, 4}), T);
        assertThat(posted.await(T)).isEqualTo(4);
        assertThat(dst).containsExactly(1, 0, 2, 0, 3, 0, 4, 0);
    }

    @Test
    void refusesBadArguments() {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        assertThatThrownBy(() -> ep.get(0).postReceive(2, 0L, 0, TypedRegion.ofArray(new byte[1])))
                .hasMessage("postReceive: source 2 (expected: 0..1)");
        assertThatThrownBy(() -> ep.get(0).sendToPosted(-1, 0L, 0, TypedRegion.ofArray(new byte[1]), T))
                .hasMessage("sendToPosted: dest -1 (expected: 0..1)");
        assertThatThrownBy(() -> ep.get(0).postReceive(1, 0L, 0, null))
                .hasMessage("postReceive: into null (expected: a TypedRegion)");
        assertThatThrownBy(() -> TypedRegion.range(Memory.ofArray(new byte[4]), Primitive.BYTE, 4, 0, 2, 5))
                .hasMessage("typedRegion: bytes [2, 5) (expected: in [0, 4) of byte x 4)");
    }
}
