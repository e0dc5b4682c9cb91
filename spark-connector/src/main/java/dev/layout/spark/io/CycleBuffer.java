package dev.layout.spark.io;

import dev.layout.memory.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * An aggregator's buffer for the cycles of a two-phase write, made once per call and reused by
 * every cycle: the exchange copies the ranks' bytes into it ({@link #memory()}), then {@link
 * #writeTo} hands it to the domain's output. For the shared local file it is a direct buffer, so
 * the positional write copies straight from it into the page cache (from a heap array the JDK
 * would first copy every byte into a temporary direct buffer); for HDFS parts a heap array, which
 * the DFS client copies into its packets.
 *
 * <p>Measured and not kept (figures in {@code benchmarks/collective-io.md}, "Writes"): a writable
 * mapping of the shared file as the buffer (faulting in the pages of a new sparse file cost more
 * than the write syscall's copy), and writing one cycle behind the exchange from a second buffer
 * as reads do (on two cores the extra thread per aggregator slowed the calls: the exchange and the
 * write syscall are both memory copies competing for the same cores).
 */
final class CycleBuffer implements AutoCloseable {
    private final ByteBuffer buffer;
    private final Memory memory;
    private boolean exchangeOpen;
    /** An earlier exchange into the buffer did not end normally. */
    private boolean abandoned;

    private CycleBuffer(ByteBuffer buffer) {
        this.buffer = buffer;
        this.memory = Memory.ofBuffer(buffer);
    }

    /** A buffer of {@code bytes}: direct for the shared local file, else a heap array. */
    static CycleBuffer allocate(int bytes, boolean direct) {
        return new CycleBuffer(direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes));
    }

    /** The buffer as memory the exchange receives into (byte 0 is the cycle's first file byte). */
    Memory memory() {
        return memory;
    }

    /**
     * Marks the start of an exchange into the buffer; {@link #exchanged()} marks its normal end. A
     * buffer any of whose exchanges did not end normally is never freed early: a late sender's copy
     * may still be running into it.
     */
    void exchanging() {
        abandoned |= exchangeOpen;
        exchangeOpen = true;
    }

    /** The exchange into the buffer returned normally: nothing else writes into it. */
    void exchanged() {
        exchangeOpen = false;
    }

    /** Zeros bytes {@code [from, to)} (bytes of the cycle no rank wrote). */
    void zero(int from, int to) {
        memory.fill(from, to - from, (byte) 0);
    }

    /** Writes the buffer's first {@code len} bytes at file byte {@code fileOffset} of {@code out}. */
    void writeTo(DomainOutput out, long fileOffset, int len) throws IOException {
        ByteBuffer b = buffer.duplicate();
        b.clear().limit(len);
        out.write(fileOffset, b);
    }

    /**
     * Frees a direct buffer at once (its native memory would otherwise wait for the garbage
     * collector), unless an exchange into it did not end normally.
     */
    @Override
    public void close() {
        if (buffer.isDirect() && !exchangeOpen && !abandoned) {
            Memory.unmap((MappedByteBuffer) buffer); // a direct buffer is a MappedByteBuffer; its cleaner frees it
        }
    }
}
