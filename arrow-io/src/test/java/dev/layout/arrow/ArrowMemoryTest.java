package dev.layout.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.memory.Memory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ArrowMemoryTest {
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    @Test
    void readsAndWritesTheBufferInPlace() {
        try (ArrowBuf buf = allocator.buffer(64)) {
            Memory m = ArrowMemory.of(buf);
            assertThat(m.byteSize()).isEqualTo(buf.capacity());
            m.putLong(8, 0x0102030405060708L);
            assertThat(buf.getLong(8)).isEqualTo(0x0102030405060708L);
            buf.setDouble(16, 2.5);
            assertThat(m.getDouble(16)).isEqualTo(2.5);
        }
    }

    @Test
    void rangeIsAWindow() {
        try (ArrowBuf buf = allocator.buffer(64)) {
            Memory m = ArrowMemory.ofRange(buf, 16, 8);
            m.putInt(4, 7);
            assertThat(buf.getInt(20)).isEqualTo(7);
            assertThatThrownBy(() -> m.putInt(8, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void rejectsRangeOutsideTheBuffer() {
        try (ArrowBuf buf = allocator.buffer(64)) {
            assertThatThrownBy(() -> ArrowMemory.ofRange(buf, 60, 8))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("bytes [60, 68) outside ArrowBuf of 64 bytes");
            assertThatThrownBy(() -> ArrowMemory.ofRange(buf, -1, 8)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void rejectsReleasedBuffer() {
        ArrowBuf buf = allocator.buffer(64);
        buf.close();
        assertThatThrownBy(() -> ArrowMemory.of(buf))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released");
    }

    @Test
    void emptyBufferIsEmptyMemory() {
        try (ArrowBuf buf = allocator.buffer(0)) {
            assertThat(ArrowMemory.of(buf).byteSize()).isZero();
        }
    }

    @Test
    void dataOfAVectorCoversItsValues() {
        try (Float8Vector v = VectorPacking.denseFloat8(allocator, "v", 10)) {
            v.set(3, 1.5);
            Memory m = ArrowMemory.ofData(v);
            assertThat(m.byteSize()).isEqualTo(80);
            assertThat(m.getDouble(24)).isEqualTo(1.5);
            assertThat(v.isNull(9)).isFalse();
        }
    }
}
