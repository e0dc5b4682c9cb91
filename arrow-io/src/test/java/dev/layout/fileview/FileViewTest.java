package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileViewTest {
    private static final Datatype PAIR =
            Datatype.struct(new long[] {1, 1}, new long[] {0, 8}, List.of(Primitive.INT32, Primitive.FLOAT64));

    @Test
    void printsItsParts() {
        FileView v = FileView.parse(16, "float64", "vector(4, 1, 4, float64)");
        assertThat(v.toString()).isEqualTo("view(16, float64, vector(4, 1, 4, float64))");
        assertThat(v.etypesPerTile()).isEqualTo(4);
    }

    @Test
    void acceptsFiletypesBuiltFromTheEtype() {
        new FileView(0, PAIR, Datatype.vector(3, 2, 5, PAIR));
        new FileView(
                0,
                PAIR,
                Datatype.struct(new long[] {1, 1}, new long[] {0, 100}, List.of(PAIR, Datatype.contiguous(2, PAIR))));
        new FileView(0, Datatype.contiguous(2, Primitive.FLOAT64), Datatype.vector(4, 4, 8, Primitive.FLOAT64));
        // int32 then float64, split across two struct members: still whole etypes.
        new FileView(
                0,
                PAIR,
                Datatype.struct(
                        new long[] {1, 1, 1},
                        new long[] {0, 8, 16},
                        List.of(Primitive.INT32, Primitive.FLOAT64, PAIR)));
    }

    @Test
    void rejectsAFiletypeOfAnotherPrimitive() {
        assertThatThrownBy(() -> new FileView(0, Primitive.FLOAT64, Datatype.vector(4, 2, 4, Primitive.INT32)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "fileview: filetype is not built from etype float64: primitive int32 where the etype has float64");
    }

    @Test
    void rejectsAFiletypeThatIsNotWholeEtypes() {
        assertThatThrownBy(() -> new FileView(0, Primitive.FLOAT64, Datatype.contiguous(3, Primitive.INT32)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("filetype byteSize 12 (expected: a multiple of etype float64 byteSize 8)");
        Datatype swapped =
                Datatype.struct(new long[] {1, 1}, new long[] {0, 8}, List.of(Primitive.FLOAT64, Primitive.INT32));
        assertThatThrownBy(() -> new FileView(0, PAIR, swapped))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("primitive float64 where the etype has int32");
        Datatype half = Datatype.contiguous(3, PAIR);
        Datatype odd = Datatype.struct(new long[] {1, 1}, new long[] {0, 100}, List.of(half, Primitive.INT32));
        // 3 pairs and an int32 followed by nothing: ends inside an etype (sizes 40 + 4 = 44, not a multiple of 12)
        assertThatThrownBy(() -> new FileView(0, PAIR, odd)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsBadDisplacementAndEmptyTypes() {
        assertThatThrownBy(() -> new FileView(-1, Primitive.FLOAT64, Primitive.FLOAT64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fileview: displacement -1 (expected: >= 0)");
        assertThatThrownBy(() -> new FileView(0, Primitive.FLOAT64, Datatype.contiguous(0, Primitive.FLOAT64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("filetype has byteSize 0");
        assertThatThrownBy(() -> new FileView(
                        0, Primitive.FLOAT64, Datatype.hindexed(new long[] {1}, new long[] {-8}, Primitive.FLOAT64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("filetype trueLb -8");
        assertThatThrownBy(() -> new FileView(0, Primitive.FLOAT64, Datatype.resized(0, 0, Primitive.FLOAT64)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FileView(0, null, Primitive.FLOAT64)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void longRepetitionsAreCheckedWithoutExpansion() {
        Datatype big = Datatype.contiguous(1L << 40, PAIR);
        assertThat(new FileView(0, PAIR, big).etypesPerTile()).isEqualTo(1L << 40);
    }
}
