package dev.layout.autolink;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One AutoLink message: the unit any transport (send/recv, bcast, alltoall, a Spark shuffle, a
 * stream) moves. A graph is one {@link Kind#HEADER} packet (registry fingerprint, per-type node
 * counts, the entry node) followed by {@link Kind#DATA} packets, each an Arrow record batch of
 * consecutive nodes of one type, in columnar form, references as int32 indices.
 *
 * <p>Wire format, little-endian: {@code int32 magic 'ALNK', int8 kind, int8 version, int16 0}, then
 * for a header {@code int64 fingerprint, int32 typeCount, int32 entryType, int32 entryIndex,
 * int32 count[typeCount]}, for a data packet {@code int32 typeId, int32 firstRow, int32 rowCount}
 * followed by one Arrow IPC record batch message (continuation, metadata length, flatbuffer
 * metadata, body), its buffers ZSTD-compressed with Arrow's standard body compression unless the
 * codec was built with compression level 0. Reference columns hold {@code -1} for null and
 * otherwise zigzag-coded differences between consecutive references of the column (see {@code
 * RefCoding}; version 2 — version 1 held the indices themselves, uncompressed). The schema is never
 * sent: both sides derive it from the registry.
 *
 * <p>A small graph travels as one {@link Kind#COMPACT} packet instead (no Arrow, no compression;
 * {@link GraphCodec.Builder#compactMaxNodes}): after the prefix {@code int64 fingerprint, int32
 * nodeCount, int32 entryType} (-1 for an empty graph), then one record per node in the order a
 * traversal from the entry meets them (node 0 is the entry): its fields in field order, primitives
 * at their natural width, {@code String} and {@code byte[]} as {@code int32 length} (-1 null) and
 * the (UTF-8) bytes, a reference as {@code int32} node number (-1 null), an array or list of
 * references as {@code int32 length} (-1 null) and the numbers. A reference to a node not met before
 * carries the next number, and its type is the field's.
 *
 * <p>A packet wraps its byte array without copying; do not modify the array after wrapping.
 */
public final class Packet {
    static final int MAGIC = 0x4B4E4C41; // "ALNK" little-endian
    static final byte VERSION = 2;
    static final int PREFIX = 8;
    static final int HEADER_FIXED = PREFIX + 20;
    static final int DATA_FIXED = PREFIX + 12;
    static final int COMPACT_FIXED = PREFIX + 16;

    /** The packet kinds (the wire's kind byte is the ordinal). */
    public enum Kind {
        /** Columnar form: the graph's node counts and entry, before its data packets. */
        HEADER,
        /** Columnar form: an Arrow record batch of consecutive nodes of one type. */
        DATA,
        /** A whole small graph in one packet, row by row. */
        COMPACT
    }

    private final byte[] bytes;

    private Packet(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Wraps received bytes; nothing is validated until the packet is expanded, except the length. */
    public static Packet wrap(byte[] bytes) {
        if (bytes == null) {
            throw new NullPointerException("wrap: bytes is null");
        }
        return new Packet(bytes);
    }

    /** The wire bytes (not a copy). */
    public byte[] bytes() {
        return bytes;
    }

    public int byteSize() {
        return bytes.length;
    }

    ByteBuffer buffer() {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The kind, or a {@link GraphFormatException} if the prefix is not an AutoLink packet. */
    public Kind kind() {
        if (bytes.length < PREFIX) {
            throw new GraphFormatException("packet: length " + bytes.length + " (expected: >= " + PREFIX + ")");
        }
        ByteBuffer b = buffer();
        int magic = b.getInt(0);
        if (magic != MAGIC) {
            throw new GraphFormatException("packet: magic 0x" + Integer.toHexString(magic) + " (expected: 0x"
                    + Integer.toHexString(MAGIC) + ")");
        }
        byte version = b.get(5);
        if (version != VERSION) {
            throw new GraphFormatException("packet: version " + version + " (expected: " + VERSION + ")");
        }
        byte k = b.get(4);
        if (k == 0) {
            return Kind.HEADER;
        }
        if (k == 1) {
            return Kind.DATA;
        }
        if (k == 2) {
            return Kind.COMPACT;
        }
        throw new GraphFormatException("packet: kind " + k + " (expected: 0 header, 1 data or 2 compact)");
    }

    /** Writes {@code int32 length} and the bytes (a framing for byte streams). */
    public void writeTo(DataOutput out) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /**
     * Reads one framed packet written by {@link #writeTo}; returns null at a clean end of stream. The
     * length is checked against {@code maxBytes} before anything is allocated.
     */
    public static Packet readFrom(DataInput in, int maxBytes) throws IOException {
        int len;
        try {
            len = in.readInt();
        } catch (EOFException e) {
            return null;
        }
        if (len < PREFIX || len > maxBytes) {
            throw new GraphFormatException(
                    "readFrom: packet length " + len + " (expected: " + PREFIX + ".." + maxBytes + ")");
        }
        byte[] b = new byte[len];
        try {
            in.readFully(b);
        } catch (EOFException e) {
            throw new GraphFormatException("readFrom: packet truncated (expected: " + len + " bytes)", e);
        }
        return new Packet(b);
    }

    @Override
    public String toString() {
        try {
            ByteBuffer b = buffer();
            return switch (kind()) {
                case HEADER -> "Packet[header, " + b.getInt(PREFIX + 8) + " types, " + bytes.length + " bytes]";
                case DATA ->
                    "Packet[data, type " + b.getInt(PREFIX) + ", rows " + b.getInt(PREFIX + 4) + "+"
                            + b.getInt(PREFIX + 8) + ", " + bytes.length + " bytes]";
                case COMPACT -> "Packet[compact, " + b.getInt(PREFIX + 8) + " nodes, " + bytes.length + " bytes]";
            };
        } catch (RuntimeException e) {
            return "Packet[malformed, " + bytes.length + " bytes]";
        }
    }
}
