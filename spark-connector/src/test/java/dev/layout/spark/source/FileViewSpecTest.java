package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.normalize.Normalizer;
import dev.layout.notation.LayoutParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Option parsing of the fileview source, without Spark. */
class FileViewSpecTest {

    @Test
    void boxesFromOptionsAndFromTheNotation() {
        FileViewSpec a =
                FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "8x6", "subarray", "2:6,:3"));
        assertThat(a.isBox()).isTrue();
        assertThat(a.starts).containsExactly(2, 0);
        assertThat(a.subsizes).containsExactly(4, 3);
        FileViewSpec b = FileViewSpec.parse(
                Map.of("PATH", "/f", "ETYPE", "float64", "filetype", "subarray([8,6], [4,3], [2,0], C, float64)"));
        assertThat(b.isBox()).isTrue();
        assertThat(b.filetypeType()).isEqualTo(a.filetypeType());
        FileViewSpec c = FileViewSpec.parse(
                Map.of("path", "/f", "etype", "float64", "shape", "8x6", "starts", "2,0", "subsizes", "4x3"));
        assertThat(c.filetypeType()).isEqualTo(a.filetypeType());
        assertThat(a.schema().simpleString()).isEqualTo("struct<i0:int,i1:int,value:double>");
    }

    @Test
    void darraysStructsAndShapelessViews() {
        FileViewSpec d =
                FileViewSpec.parse(Map.of("path", "/f", "etype", "int32", "shape", "8x8", "procs", "2x2", "rank", "3"));
        assertThat(d.isBox()).isFalse();
        assertThat(d.view().etypesPerTile()).isEqualTo(16);
        FileViewSpec s = FileViewSpec.parse(Map.of("path", "/f", "etype", "struct([2,1], [0,8], [float32,int16])"));
        assertThat(s.schema().simpleString()).isEqualTo("struct<i0:bigint,v0_0:float,v0_1:float,v1:smallint>");
        assertThat(s.members()).extracting(FileViewSpec.Member::packedOffset).containsExactly(0, 4, 8);
    }

    @Test
    void badOptionsNameTheOption() {
        assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f")))
                .hasMessageContaining("option etype is missing");
        assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "subarray", "0:2")))
                .hasMessageContaining("option subarray needs option shape");
        assertThatThrownBy(() ->
                        FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "4x4", "subarray", "0:2")))
                .hasMessageContaining("option subarray has 1 dimensions (expected: 2, as shape)");
        assertThatThrownBy(() -> FileViewSpec.parse(
                        Map.of("path", "/f", "etype", "float64", "shape", "4x4", "subarray", "0:5,0:2")))
                .hasMessageContaining("subarray:");
        assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "order", "X")))
                .hasMessageContaining("option order 'X'");
        assertThatThrownBy(() ->
                        FileViewSpec.parse(Map.of("path", "/f", "etype", "struct([1], [0], [vector(2,1,2,int32)])")))
                .hasMessageContaining("expected: a primitive");
    }

    /** 2 x 4 rows of 4 every-other float64 given as a list of row starts: normalized, two hvectors over the row. */
    static final String ROWS = "hindexed_block(1, [0,80,160,240,1024,1104,1184,1264], vector(4, 1, 2, float64))";

    @Test
    void executorsGetTheNormalizedFiletypeNotation() throws Exception {
        FileViewSpec spec = FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "filetype", ROWS));
        Datatype given = LayoutParser.parse(ROWS);
        Datatype normalized = Normalizer.defaults().normalize(given);
        assertThat(normalized).isNotEqualTo(given);

        FileViewSpec.Shipped shipped = spec.shipped(Normalizer.defaults());
        assertThat(shipped.spec().shippedFiletype).isEqualTo(normalized.toString());
        assertThat(shipped.shipment().bytesBefore()).isEqualTo(ROWS.length());
        assertThat(shipped.shipment().bytesAfter())
                .isEqualTo(normalized.toString().length())
                .isLessThan(ROWS.length());
        assertThat(shipped.shipment().costAfter()).isLessThan(shipped.shipment().costBefore());

        // What a task deserializes parses the normalized notation: the same view, tile for tile.
        FileViewSpec onExecutor = roundTrip(shipped.spec());
        assertThat(onExecutor.filetypeType()).isEqualTo(normalized);
        assertThat(onExecutor.view().etypesPerTile()).isEqualTo(spec.view().etypesPerTile());
        assertThat(new long[] {normalized.lb(), normalized.extent(), normalized.trueLb(), normalized.trueUb()})
                .containsExactly(given.lb(), given.extent(), given.trueLb(), given.trueUb());
    }

    @Test
    void aBoxShipsItsSubarrayWhenThatIsAlreadyTheLeastCostDescription() throws Exception {
        FileViewSpec box =
                FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "8x6", "subarray", "2:6,:3"));
        FileViewSpec.Shipped shipped = box.shipped(Normalizer.defaults());
        assertThat(shipped.spec().shippedFiletype).isEqualTo(box.filetypeType().toString());
        assertThat(shipped.shipment().bytesAfter()).isEqualTo(shipped.shipment().bytesBefore());
        FileViewSpec onExecutor = roundTrip(shipped.spec());
        assertThat(onExecutor.filetypeType()).isEqualTo(box.filetypeType());
        assertThat(onExecutor.isBox()).isTrue();
        assertThat(onExecutor.schema()).isEqualTo(box.schema());
    }

    private static FileViewSpec roundTrip(FileViewSpec spec) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(spec);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (FileViewSpec) in.readObject();
        }
    }
}
