package dev.layout.autolink;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * How reference columns are coded on the wire, and the packets' body compression.
 *
 * <p>A reference column (and the element column of a reference list) holds {@code -1} for null and
 * otherwise the zigzag-coded difference to the previous non-null reference of the same column in
 * the same packet (the first against 0). A breadth-first traversal numbers the nodes in the order
 * it meets them, so a node's references are nearly always just past its predecessor's: in a tree
 * each child pointer grows by a constant, in a list by one. The differences are small and
 * repetitive, and ZSTD-compressed Arrow buffers (the IPC format's standard body compression) then
 * shrink a reference to a fraction of a byte instead of four. Zigzag keeps every coded value
 * non-negative, so {@code -1} stays the null marker: indices lie in {@code [0, 2^31 - 8)}, their
 * differences in {@code (-2^31, 2^31)}, and only {@code -2^31} would code to {@code -1}.
 */
final class RefCoding {
    private RefCoding() {}

    static int zigzag(int d) {
        return (d << 1) ^ (d >> 31);
    }

    static int unzigzag(int v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /** The body codec for a ZSTD level, or no compression for level 0. */
    static CompressionCodec codec(int level) {
        return level == 0 ? NoCompressionCodec.INSTANCE : new Zstd(level);
    }

    /**
     * Arrow's ZSTD buffer compression, writing the standard frame (8-byte uncompressed length, then a
     * ZSTD frame; Arrow's base class stores a buffer raw when compressing does not pay). Not Arrow's
     * own {@code ZstdCompressionCodec}: in 18.3.0 it tells ZSTD the output space after the length
     * prefix is 8 bytes larger than it is, and with it the property tests saw decoded graphs change
     * under them (memory overwritten) after compressing incompressible columns; with the exact
     * capacity they do not. Packets are only compressed here; the expander decompresses.
     */
    static final class Zstd extends AbstractCompressionCodec {
        private final int level;

        Zstd(int level) {
            this.level = level;
        }

        @Override
        protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
            long bound = com.github.luben.zstd.Zstd.compressBound(uncompressed.writerIndex());
            ArrowBuf out = allocator.buffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + bound);
            long n = com.github.luben.zstd.Zstd.compressUnsafe(
                    out.memoryAddress() + CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH,
                    bound,
                    uncompressed.memoryAddress(),
                    uncompressed.writerIndex(),
                    level);
            if (com.github.luben.zstd.Zstd.isError(n)) {
                out.close();
                throw new IllegalStateException("aggregate: ZSTD " + com.github.luben.zstd.Zstd.getErrorName(n));
            }
            out.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + n);
            return out;
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            throw new UnsupportedOperationException("RefCoding.Zstd compresses only (GraphExpander decompresses)");
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return CompressionUtil.CodecType.ZSTD;
        }
    }
}
