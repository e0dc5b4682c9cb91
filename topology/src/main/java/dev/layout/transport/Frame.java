package dev.layout.transport;

import java.nio.ByteBuffer;

/**
 * The frame codec of {@link TcpTransport}: after the handshake a connection carries frames, each a
 * 40-byte header (type, 3 zero bytes, source, context, tag, sequence, length, message id; big
 * endian) and, for {@link #EAGER} and {@link #DATA}, {@code length} body bytes.
 */
record Frame(byte type, int source, long context, int tag, long seq, long length, int id) {
    static final int HEADER = 40;
    /** A whole message, buffered by the receiver against the sender's credit. */
    static final byte EAGER = 1;
    /** Request to send {@code length} bytes as message {@code id} (rendezvous). */
    static final byte RTS = 2;
    /** Clear to send message {@code id}: its receive is posted. */
    static final byte CTS = 3;
    /** The body of rendezvous message {@code id}. */
    static final byte DATA = 4;
    /** {@code length} bytes of buffer consumed by the receiver, returned to the sender as credit. */
    static final byte CREDIT = 5;
    /** The sender closes its transport; no frame follows. */
    static final byte BYE = 6;
    /** Message {@code id} is abandoned (its sender timed out waiting for clear-to-send). */
    static final byte ABORT = 7;

    /** Writes a header into b at its position. */
    static void put(ByteBuffer b, byte type, int source, long context, int tag, long seq, long length, int id) {
        b.put(type)
                .put((byte) 0)
                .put((byte) 0)
                .put((byte) 0)
                .putInt(source)
                .putLong(context)
                .putInt(tag)
                .putLong(seq)
                .putLong(length)
                .putInt(id);
    }

    /** Reads a header from b at its position. */
    static Frame read(ByteBuffer b) {
        byte type = b.get();
        b.position(b.position() + 3);
        return new Frame(type, b.getInt(), b.getLong(), b.getInt(), b.getLong(), b.getLong(), b.getInt());
    }
}
