package dev.layout.transport;

import java.nio.ByteBuffer;

/**
 * The frame codec of {@link TcpTransport}: after the handshake a connection carries frames, each a
 * 40-byte header (type, flags, 2 zero bytes, source, context, tag, sequence, length, message id;
 * big endian) and, for {@link #EAGER} and {@link #DATA}, {@code length} body bytes.
 *
 * <p>The only flag is {@link #REPORT}, on a send request or an eager message. A receiver that
 * knows it answers with {@link #DONE}; a sender never counts on the answer and a receiver never
 * sends one unasked.
 */
record Frame(byte type, byte flags, int source, long context, int tag, long seq, long length, int id) {
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
    /**
     * Message {@code id}, sent with {@link #REPORT}, has been read to its last byte {@code length}
     * nanoseconds after its data frame's (or eager frame's) header was read; no body.
     */
    static final byte DONE = 8;

    /**
     * Flag of a {@link #RTS} or an {@link #EAGER} message (which then carries a message id): answer
     * with {@link #DONE} once the message's last byte is read (the sender learns from it).
     */
    static final byte REPORT = 1;

    /** Writes a header into b at its position. */
    static void put(
            ByteBuffer b, byte type, byte flags, int source, long context, int tag, long seq, long length, int id) {
        b.put(type)
                .put(flags)
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
        byte flags = b.get();
        b.position(b.position() + 2);
        return new Frame(type, flags, b.getInt(), b.getLong(), b.getInt(), b.getLong(), b.getLong(), b.getInt());
    }
}
