package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Option parsing of the fileview source, without Spark. */
class FileViewSpecTest {

  @Test
  void boxesFromOptionsAndFromTheNotation() {
    FileViewSpec a = FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "8x6", "subarray", "2:6,:3"));
    assertThat(a.isBox()).isTrue();
    assertThat(a.starts).containsExactly(2, 0);
    assertThat(a.subsizes).containsExactly(4, 3);
    FileViewSpec b = FileViewSpec.parse(Map.of("PATH", "/f", "ETYPE", "float64", "filetype", "subarray([8,6], [4,3], [2,0], C, float64)"));
    assertThat(b.isBox()).isTrue();
    assertThat(b.filetypeType()).isEqualTo(a.filetypeType());
    FileViewSpec c = FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "8x6", "starts", "2,0", "subsizes", "4x3"));
    assertThat(c.filetypeType()).isEqualTo(a.filetypeType());
    assertThat(a.schema().simpleString()).isEqualTo("struct<i0:int,i1:int,value:double>");
  }

  @Test
  void darraysStructsAndShapelessViews() {
    FileViewSpec d = FileViewSpec.parse(Map.of("path", "/f", "etype", "int32", "shape", "8x8", "procs", "2x2", "rank", "3"));
    assertThat(d.isBox()).isFalse();
    assertThat(d.view().etypesPerTile()).isEqualTo(16);
    FileViewSpec s = FileViewSpec.parse(Map.of("path", "/f", "etype", "struct([2,1], [0,8], [float32,int16])"));
    assertThat(s.schema().simpleString()).isEqualTo("struct<i0:bigint,v0_0:float,v0_1:float,v1:smallint>");
    assertThat(s.members()).extracting(FileViewSpec.Member::packedOffset).containsExactly(0, 4, 8);
  }

  @Test
  void badOptionsNameTheOption() {
    assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f"))).hasMessageContaining("option etype is missing");
    assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "subarray", "0:2")))
        .hasMessageContaining("option subarray needs option shape");
    assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "4x4", "subarray", "0:2")))
        .hasMessageContaining("option subarray has 1 dimensions (expected: 2, as shape)");
    assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "shape", "4x4", "subarray", "0:5,0:2")))
        .hasMessageContaining("subarray:");
    assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "float64", "order", "X"))).hasMessageContaining("option order 'X'");
    assertThatThrownBy(() -> FileViewSpec.parse(Map.of("path", "/f", "etype", "struct([1], [0], [vector(2,1,2,int32)])")))
        .hasMessageContaining("expected: a primitive");
  }
}
