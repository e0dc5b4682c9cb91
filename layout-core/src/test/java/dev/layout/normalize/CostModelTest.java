package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostModelTest {

    @Test
    void codeDefaultsEqualConfFile() throws Exception {
        Path conf = Path.of("..", "conf", "normalizer.properties");
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(conf, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        assertThat(p).isEqualTo(CostModel.DEFAULTS);
        assertThat(CostModel.load(conf)).isEqualTo(CostModel.defaults());
    }

    @Test
    void defaultsAreThePapersStorageConstants() {
        assertThat(CostModel.defaults()).isEqualTo(CostModel.storage(1, 4, 3));
        assertThat(CostModel.fromProperties(CostModel.DEFAULTS, "processing"))
                .isEqualTo(CostModel.processing(1, 2, 3, 1, 1, 2));
    }

    @Test
    void propertiesOverrideSomeConstants(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("n.properties");
        Files.writeString(f, "normalizer.model=processing\nnormalizer.processing.cidx=7\n");
        assertThat(CostModel.load(f)).isEqualTo(CostModel.processing(1, 2, 3, 1, 1, 7));
    }

    @Test
    void rejectsNegativeAndUnknown() {
        assertThatThrownBy(() -> CostModel.storage(1, -4, 3)).hasMessage("storage: Kvec -4 (expected: >= 0)");
        assertThatThrownBy(() -> CostModel.processing(1, 1, 1, 1, 1, -1))
                .hasMessage("processing: Cidx -1 (expected: >= 0)");
        Properties p = new Properties();
        p.setProperty("normalizer.storage.kidx", "x");
        assertThatThrownBy(() -> CostModel.fromProperties(p, "storage"))
                .hasMessage("cost model: normalizer.storage.kidx 'x' (expected: an integer >= 0)");
        assertThatThrownBy(() -> CostModel.fromProperties(p, "speed"))
                .hasMessage("cost model: name 'speed' (expected: storage or processing)");
    }

    @Test
    void loadNamesTheMissingFile(@TempDir Path dir) {
        assertThatThrownBy(() -> CostModel.load(dir.resolve("missing.properties")))
                .hasMessageContaining("missing.properties");
    }

    @Test
    void nodeCosts() {
        CostModel s = CostModel.storage(1, 4, 3);
        assertThat(s.nodeCost(TypePath.Kind.IDX, 12, 99)).isEqualTo(15);
        assertThat(s.nodeCost(TypePath.Kind.VEC, 12, 99)).isEqualTo(4);
        CostModel p = CostModel.processing(1, 2, 3, 1, 1, 2);
        assertThat(p.nodeCost(TypePath.Kind.IDX, 3, 4)).isEqualTo(4 * (3 + 3 * 2));
        assertThat(CostModel.sum(s, p).nodeCost(TypePath.Kind.CON, 2, 3)).isEqualTo(1 + 3 * (1 + 2));
        assertThatThrownBy(() -> p.nodeCost(TypePath.Kind.IDX, Long.MAX_VALUE, 2))
                .hasMessageContaining("overflows 64 bits");
    }

    @Test
    void sumModelIsOptimizedExactly() {
        CostModel m = CostModel.sum(CostModel.storage(1, 4, 3), CostModel.processing(0, 0, 0, 0, 1, 1));
        long[] x = TypePath.parse("idx(3,<0,50,120>,vec(4,10,idx(3,<0,1,3>,con(1))))")
                .expand()
                .toArray();
        TypePath p = Normalizer.reconstruct(DisplacementSequence.of(x), m);
        assertThat(p.cost(m)).isEqualTo(NormalizerPropertyTest.exhaustive(x, m));
    }

    @Test
    void idxLimitForbidsLongerIndexNodesOnly() {
        CostModel p = CostModel.processing(1, 2, 3, 1, 1, 2);
        CostModel limited = CostModel.withIdxLimit(p, 4);
        assertThat(limited.nodeCost(TypePath.Kind.IDX, 4, 5)).isEqualTo(p.nodeCost(TypePath.Kind.IDX, 4, 5));
        assertThat(limited.nodeCost(TypePath.Kind.IDX, 5, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(limited.nodeCost(TypePath.Kind.VEC, 1000, 7)).isEqualTo(p.nodeCost(TypePath.Kind.VEC, 1000, 7));
        assertThatThrownBy(() -> CostModel.withIdxLimit(p, 0))
                .hasMessageContaining("idx limit: maxCount 0 (expected: >= 1)");

        // vec(100, 8, vec(2, 3, con(1))): the processing optimum is one idx of 200 entries; with idx
        // nodes of at most 4 entries the reconstruction keeps the vectors, and is optimal among them.
        long[] x = TypePath.parse("vec(100,8,vec(2,3,con(1)))").expand().toArray();
        assertThat(Normalizer.reconstruct(DisplacementSequence.of(x), p).toString())
                .startsWith("idx(200,");
        TypePath kept = Normalizer.reconstruct(DisplacementSequence.of(x), limited);
        assertThat(kept.toString()).isEqualTo("vec(100,8,vec(2,3,con(1)))");
        assertThat(kept.cost(limited)).isEqualTo(kept.cost(p));
    }
}
