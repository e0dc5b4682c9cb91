package dev.layout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import org.junit.jupiter.api.Test;

/** The Java examples of README.md, compiled and checked, so the README cannot rot. */
class ReadmeExamplesTest {
    @Test
    void usingTheLibrary() {
        byte[] matrix = new byte[64];
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = (byte) i;
        }
        byte[] out = new byte[8];
        // --- README: Using the library ---
        Datatype column =
                LayoutParser.parse("vector(4, 1, 4, float32)"); // or Datatype.vector(4, 1, 4, Primitive.FLOAT32)
        column.byteSize(); // 16
        column.extent(); // 52
        byte[] packed = Packing.pack(column, 1, matrix, 0); // MPI_Pack
        Segment s = Segment.of(column, 1, Memory.ofArray(matrix), 0); // partial processing
        s.seek(4);
        s.pack(Memory.ofArray(out), 0, 8); // packed bytes [4, 12)
        // --- end ---
        assertThat(column).isEqualTo(Datatype.vector(4, 1, 4, Primitive.FLOAT32));
        assertThat(column.byteSize()).isEqualTo(16);
        assertThat(column.extent()).isEqualTo(52);
        assertThat(packed).containsExactly(0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51);
        assertThat(out).containsExactly(16, 17, 18, 19, 32, 33, 34, 35);
    }
}
