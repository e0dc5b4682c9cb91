package dev.layout.transport;

import static dev.layout.transport.TcpTransportTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.dataloop.Segment;
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

/**
 * Issue 11: a packed stream from the network is validated against the receive type before anything
 * is written into user memory. Process 0 is a real {@link TcpTransport}; process 1 is a {@link
 * RawPeer} that passes the real handshake and then writes hand-made frames: eager and rendezvous
 * messages longer than the posted typed receive, a rendezvous whose data frame is longer than it
 * announced, and messages ending inside a primitive of the receive type. Every such receive fails
 * with an {@link IOException} naming process 1 (never a timeout), and the destination, a strided
 * type with guard bytes on both sides, is byte for byte what it was. Positive controls show the
 * same receives writing exactly the type map when the message fits.
 *
 * <p>External32: the transport has no external32 receive (the wire carries the native packed stream;
 * external32 is a pack/unpack mode of the engine, used by files, not by any transport or
 * collective), so beyond these checks there is nothing it validates for external32.
 */
class ReceiveValidationTest {
    static final Duration T = Duration.ofSeconds(20);
    static final TcpOptions OPTIONS =
            TcpOptions.defaults().withEagerThresholdBytes(1024).withPeerBufferBytes(8192);
    /** 4 blocks of 2 float64 at a stride of 3: 64 packed bytes, extent 88; 2 elements = 128 bytes over 176. */
    static final Datatype STRIDED = Datatype.vector(4, 2, 3, Primitive.FLOAT64);

    static final int COUNT = 2;
    static final int ORIGIN = 40;
    static final int GUARD_AFTER = 40;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final JobSecret secret = JobSecret.random();
    private TcpTransport t;
    private RawPeer peer;
    private long seq;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** Process 0, and process 1 played by a raw peer that has passed the handshake. */
    private void connect() throws IOException {
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        t = l.open(0, List.of(l.endpoint(), new Endpoint("127.0.0.1", 1)), secret, OPTIONS);
        toClose.add(t);
        peer = RawPeer.connect(l.endpoint());
        toClose.add(peer);
        assertThat(peer.handshake(secret, 1, 0)).isEqualTo(Handshake.ACCEPTED);
    }

    private void frame(byte type, int tag, long length, int id, byte[] body) throws IOException {
        peer.write(RawPeer.header(type, 1, 0L, tag, seq++, length, id));
        if (body != null) {
            peer.write(body);
        }
    }

    /**
     * A rendezvous of {@code length} bytes that a receive into {@code dest} refuses at once; then, as
     * the sender is still cleared to send (into a discarding sink), its data keeps the connection in step.
     */
    private void refusedRendezvous(int tag, int length, int id, byte[] dest, String why) throws IOException {
        frame(Frame.RTS, tag, length, id, null);
        assertThatThrownBy(() -> receive(tag, STRIDED, COUNT, dest))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("message of " + length + " bytes from process 1 (127.0.0.1:1")
                .hasMessageContaining(why);
        expectClearToSend(id);
        frame(Frame.DATA, tag, length, id, bytes(length, id));
    }

    /** The next frame process 0 sends, credit returns aside, is clear-to-send for message {@code id}. */
    private void expectClearToSend(int id) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(Frame.HEADER);
        do {
            h.clear();
            assertThat(peer.readFully(h)).as("a frame from process 0").isTrue();
        } while (h.get(0) == Frame.CREDIT);
        assertThat(h.get(0)).as("frame type").isEqualTo(Frame.CTS);
        assertThat(h.getInt(36)).as("message id").isEqualTo(id);
    }

    /** The destination: the type's footprint with guard bytes before and after, all patterned. */
    static byte[] guarded(Datatype type, long count) {
        long footprint = type.extent() * (count - 1) + type.trueUb();
        byte[] b = new byte[(int) (ORIGIN + footprint + GUARD_AFTER)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (0x5A ^ i);
        }
        return b;
    }

    /** What an unpack of {@code packed} into a copy of {@code before} gives: the expected result of a receive that fits. */
    static byte[] unpackedInto(byte[] before, Datatype type, long count, byte[] packed) {
        byte[] expected = before.clone();
        Segment.of(type, count, Memory.ofArray(expected), ORIGIN).unpack(Memory.ofArray(packed), 0, packed.length);
        return expected;
    }

    private long receive(int tag, Datatype type, long count, byte[] dest) throws IOException {
        return t.receiveTyped(1, 0L, tag, type, count, Memory.ofArray(dest), ORIGIN, T);
    }

    @Test
    void eagerMessagesLongerThanTheReceiveTypeAreRefusedBeforeAnyByteIsWritten() throws IOException {
        connect();
        byte[] dest = guarded(STRIDED, COUNT);
        byte[] before = dest.clone();
        frame(Frame.EAGER, 3, 129, 0, bytes(129, 1));
        frame(Frame.EAGER, 3, 1000, 0, bytes(1000, 2));
        frame(Frame.EAGER, 3, 128, 0, bytes(128, 3));
        for (int length : new int[] {129, 1000}) {
            assertThatThrownBy(() -> receive(3, STRIDED, COUNT, dest))
                    .isInstanceOf(IOException.class)
                    .isNotInstanceOf(TransportTimeoutException.class)
                    .hasMessageContaining("message of " + length + " bytes from process 1 (127.0.0.1:1")
                    .hasMessageContaining("longer than the receive type's 128 bytes");
            assertThat(dest).as("destination and guards after %d bytes", length).isEqualTo(before);
        }
        // control: the message that fits lands exactly on the type map
        assertThat(receive(3, STRIDED, COUNT, dest)).isEqualTo(128);
        assertThat(dest)
                .isEqualTo(unpackedInto(before, STRIDED, COUNT, bytes(128, 3)))
                .isNotEqualTo(before);
    }

    @Test
    void rendezvousMessagesLongerThanTheReceiveTypeAreRefusedBeforeTheirDataIsAskedFor() throws IOException {
        connect();
        byte[] dest = guarded(STRIDED, COUNT);
        byte[] before = dest.clone();
        refusedRendezvous(4, 5000, 7, dest, "longer than the receive type's 128 bytes");
        assertThat(dest).isEqualTo(before);
        frame(Frame.EAGER, 4, 64, 0, bytes(64, 5));
        assertThat(receive(4, STRIDED, COUNT, dest)).isEqualTo(64);
        assertThat(dest).isEqualTo(unpackedInto(before, STRIDED, COUNT, bytes(64, 5)));
        assertThat(t.rejections()).isEmpty();
    }

    @Test
    void aRendezvousDataFrameLongerThanItsAnnouncementFailsTheReceiveBeforeAnyByteIsWritten() throws Exception {
        connect();
        byte[] dest = guarded(STRIDED, COUNT);
        byte[] before = dest.clone();
        frame(Frame.RTS, 5, 96, 9, null); // 12 float64: a valid prefix of the receive
        CompletableFuture<Throwable> receiving = CompletableFuture.supplyAsync(() -> {
            try {
                receive(5, STRIDED, COUNT, dest);
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        expectClearToSend(9);
        frame(Frame.DATA, 5, 5000, 9, bytes(5000, 6));
        assertThat(receiving.get(20, TimeUnit.SECONDS))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("process 1")
                .hasMessageContaining("data frame for message 9 of 5000 bytes (expected: 96 bytes)");
        assertThat(dest).isEqualTo(before);
        assertThat(t.rejections()).anySatisfy(r -> assertThat(r).contains("protocol violation by process 1"));
    }

    @Test
    void messagesEndingInsideAFloat64OfTheReceiveTypeAreRefusedEagerOrRendezvous() throws IOException {
        connect();
        byte[] dest = guarded(STRIDED, COUNT);
        byte[] before = dest.clone();
        frame(Frame.EAGER, 6, 12, 0, bytes(12, 7));
        assertThatThrownBy(() -> receive(6, STRIDED, COUNT, dest))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("message of 12 bytes from process 1 (127.0.0.1:1")
                .hasMessageContaining(
                        "ends inside a primitive of the receive type vector(4, 2, 3, float64): 4 of the 8 bytes of a float64");
        assertThat(dest).isEqualTo(before);
        refusedRendezvous(6, 100, 11, dest, "4 of the 8 bytes of a float64");
        assertThat(dest).isEqualTo(before);
        // control: a shorter message of whole float64s fills a prefix of the type map, as MPI does
        frame(Frame.EAGER, 6, 24, 0, bytes(24, 9));
        assertThat(receive(6, STRIDED, COUNT, dest)).isEqualTo(24);
        assertThat(dest).isEqualTo(unpackedInto(before, STRIDED, COUNT, bytes(24, 9)));
        // the third float64 is the first of the second block (stride 3): nothing after it changed
        assertThat(Arrays.copyOfRange(dest, ORIGIN + 32, dest.length))
                .isEqualTo(Arrays.copyOfRange(before, ORIGIN + 32, before.length));
        assertThat(t.rejections()).isEmpty();
    }

    @Test
    void aMixedReceiveTypeAcceptsOnlyPrefixesEndingOnItsPrimitives() throws IOException {
        connect();
        // {float64, int32}: 12 packed bytes per element, extent 16
        Datatype pair =
                Datatype.struct(new long[] {1, 1}, new long[] {0, 8}, List.of(Primitive.FLOAT64, Primitive.INT32));
        byte[] dest = guarded(pair, 3);
        byte[] before = dest.clone();
        frame(Frame.EAGER, 7, 14, 0, bytes(14, 10)); // element 1's float64 cut after 2 bytes
        frame(Frame.EAGER, 7, 22, 0, bytes(22, 11)); // element 1's int32 cut after 2 bytes
        frame(Frame.EAGER, 7, 20, 0, bytes(20, 12)); // element 0 and element 1's float64
        assertThatThrownBy(() -> receive(7, pair, 3, dest))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("message of 14 bytes from process 1")
                .hasMessageContaining("2 of the 8 bytes of a float64");
        assertThatThrownBy(() -> receive(7, pair, 3, dest))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("message of 22 bytes from process 1")
                .hasMessageContaining("2 of the 4 bytes of a int32");
        assertThat(dest).isEqualTo(before);
        assertThat(receive(7, pair, 3, dest)).isEqualTo(20);
        assertThat(dest).isEqualTo(unpackedInto(before, pair, 3, bytes(20, 12)));
        assertThat(Arrays.copyOfRange(dest, ORIGIN + 24, dest.length))
                .isEqualTo(Arrays.copyOfRange(before, ORIGIN + 24, before.length));
    }
}
