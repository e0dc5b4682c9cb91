package dev.layout.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A hand-driven dialler speaking the wire protocol, to play a misbehaving or dying peer in tests. */
final class RawPeer implements AutoCloseable {
    final SocketChannel ch;
    byte[] helloSent;

    private RawPeer(SocketChannel ch) {
        this.ch = ch;
    }

    static RawPeer connect(Endpoint to) throws IOException {
        return new RawPeer(SocketChannel.open(to.toSocketAddress()));
    }

    /** Connects from {@code localHost} (another loopback address plays another machine). */
    static RawPeer connect(String localHost, Endpoint to) throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.bind(new java.net.InetSocketAddress(localHost, 0));
        ch.connect(to.toSocketAddress());
        return new RawPeer(ch);
    }

    /** Authenticates as {@code me} to {@code target}; returns the verdict byte (or -1 on end of stream). */
    int handshake(JobSecret secret, int me, int target) throws IOException {
        return handshake(secret, me, target, JobSecret.nonce());
    }

    int handshake(JobSecret secret, int me, int target, byte[] nonceD) throws IOException {
        ByteBuffer hello = ByteBuffer.allocate(Handshake.HELLO_BYTES);
        hello.putInt(Handshake.MAGIC)
                .putInt(Handshake.VERSION)
                .putInt(me)
                .putInt(target)
                .put(nonceD)
                .putLong(1 << 20);
        helloSent = hello.array().clone();
        hello.flip();
        TcpContext.writeAll(ch, hello);
        ByteBuffer chal = ByteBuffer.allocate(Handshake.CHALLENGE_BYTES);
        if (!readFully(chal)) {
            return -1;
        }
        chal.flip();
        chal.getInt();
        chal.getInt();
        byte[] nonceA = new byte[32];
        chal.get(nonceA);
        byte[] mac = secret.hmac(label("dialer"), nonceD, nonceA, intBytes(me), intBytes(target));
        TcpContext.writeAll(ch, ByteBuffer.wrap(mac));
        ByteBuffer v = ByteBuffer.allocate(1);
        return readFully(v) ? v.get(0) : -1;
    }

    /** A frame header as the transport writes it. */
    static ByteBuffer header(byte type, int source, long context, int tag, long seq, long length, int id) {
        return header(type, (byte) 0, source, context, tag, seq, length, id);
    }

    static ByteBuffer header(byte type, byte flags, int source, long context, int tag, long seq, long length, int id) {
        ByteBuffer b = ByteBuffer.allocate(Frame.HEADER);
        b.put(type)
                .put(flags)
                .put((byte) 0)
                .put((byte) 0)
                .putInt(source)
                .putLong(context)
                .putInt(tag)
                .putLong(seq)
                .putLong(length)
                .putInt(id)
                .flip();
        return b;
    }

    /** Reads the next frame's header (the transport's frames here carry no body unless the test reads it). */
    Frame readFrame() throws IOException {
        ByteBuffer h = ByteBuffer.allocate(Frame.HEADER);
        if (!readFully(h)) {
            throw new java.io.EOFException("the transport closed the connection");
        }
        h.flip();
        return Frame.read(h);
    }

    void write(ByteBuffer b) throws IOException {
        TcpContext.writeAll(ch, b);
    }

    void write(byte[] b) throws IOException {
        write(ByteBuffer.wrap(b));
    }

    /** Reads until end of stream (or the buffer is full); true if the buffer was filled. */
    boolean readFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            int r;
            try {
                r = ch.read(b);
            } catch (java.net.SocketException e) {
                return false; // reset: the transport dropped us with our bytes unread
            }
            if (r < 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] label(String s) {
        return ("layout-transport-v1/" + s).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
