package dev.layout.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The same contract for every memory target: byte[], heap and direct ByteBuffer, raw off-heap. */
class MemoryContractTest {
    interface Factory {
        Memory make(int size);
    }

    static Stream<Arguments> targets() {
        return Stream.of(
                Arguments.of("byte[]", (Factory) n -> Memory.ofArray(new byte[n])),
                Arguments.of("heap ByteBuffer", (Factory) n -> Memory.ofBuffer(ByteBuffer.allocate(n))),
                Arguments.of("sliced heap ByteBuffer", (Factory) n ->
                        Memory.ofBuffer(ByteBuffer.allocate(n + 7).position(7).slice())),
                Arguments.of("direct ByteBuffer", (Factory) n -> Memory.ofBuffer(ByteBuffer.allocateDirect(n))),
                Arguments.of("raw off-heap", (Factory) n -> {
                    ByteBuffer owner = ByteBuffer.allocateDirect(n);
                    Memory viaBuffer = Memory.ofBuffer(owner);
                    return viaBuffer.slice(0, n);
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void valuesRoundTripLittleEndian(String name, Factory f) {
        Memory m = f.make(64);
        m.putLong(0, 0x0102030405060708L);
        m.putInt(8, 0xCAFEBABE);
        m.putShort(12, (short) 0x1234);
        m.putByte(14, (byte) 7);
        m.putDouble(16, Math.PI);
        m.putFloat(24, 2.5f);
        assertThat(m.getLong(0)).isEqualTo(0x0102030405060708L);
        assertThat(m.getByte(0)).isEqualTo((byte) 0x08);
        assertThat(m.getInt(8)).isEqualTo(0xCAFEBABE);
        assertThat(m.getShort(12)).isEqualTo((short) 0x1234);
        assertThat(m.getByte(14)).isEqualTo((byte) 7);
        assertThat(m.getDouble(16)).isEqualTo(Math.PI);
        assertThat(m.getFloat(24)).isEqualTo(2.5f);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void accessOutsideTheRegionFailsAndWritesNothing(String name, Factory f) {
        Memory m = f.make(16);
        assertThatThrownBy(() -> m.getLong(9))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("outside memory of 16 bytes");
        assertThatThrownBy(() -> m.putInt(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Memory.copy(m, 0, m, 10, 8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(m.toArray(0, 16)).containsOnly(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void copiesBetweenTargetsAndWithinOne(String name, Factory f) {
        Memory m = f.make(100);
        byte[] src = new byte[100];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) i;
        }
        Memory.copy(Memory.ofArray(src), 0, m, 0, 100);
        Memory.copy(m, 0, m, 3, 50); // overlapping, memmove semantics
        byte[] got = m.toArray(0, 100);
        assertThat(got[3]).isEqualTo((byte) 0);
        assertThat(got[52]).isEqualTo((byte) 49);
        assertThat(got[53]).isEqualTo((byte) 53);
    }

    @org.junit.jupiter.api.Test
    void readOnlyBuffersCanBeReadButNotWritten() {
        ByteBuffer b = ByteBuffer.allocate(8);
        b.put(0, (byte) 42);
        Memory m = Memory.ofBuffer(b.asReadOnlyBuffer());
        assertThat(m.getByte(0)).isEqualTo((byte) 42);
        assertThat(m.isReadOnly()).isTrue();
        assertThatThrownBy(() -> m.putByte(0, (byte) 1)).isInstanceOf(ReadOnlyBufferException.class);
    }
}
