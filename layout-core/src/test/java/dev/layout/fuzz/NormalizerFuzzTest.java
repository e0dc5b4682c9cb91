package dev.layout.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.layout.normalize.CostModel;
import dev.layout.normalize.DisplacementSequence;
import dev.layout.normalize.Normalizer;
import dev.layout.normalize.TypePath;

/**
 * Fuzzes the normalizer on fuzzed displacement sequences and cost models: the least-cost path
 * always expands exactly to the input, and costs no more than the trivial {@code
 * idx(n,<x>,con(1))} path nor the paper's {@code TypePath} construction. Sequences come raw
 * (any longs), from a small value range (repeats, negative strides) or as the expansion of a
 * random path (nested regular structure, the interesting case). Runs the committed corpus in every
 * build; {@code JAZZER_FUZZ=1} fuzzes for real.
 */
class NormalizerFuzzTest {
    private static final int MAX_N = 512;

    @FuzzTest(maxDuration = "2m")
    void reconstruct(FuzzedDataProvider data) {
        CostModel model = data.consumeBoolean()
                ? CostModel.storage(data.consumeLong(0, 16), data.consumeLong(0, 16), data.consumeLong(0, 16))
                : CostModel.processing(
                        data.consumeLong(0, 8),
                        data.consumeLong(0, 8),
                        data.consumeLong(0, 8),
                        data.consumeLong(0, 8),
                        data.consumeLong(0, 8),
                        data.consumeLong(0, 8));
        long[] x = sequence(data);
        if (x == null) {
            return;
        }
        DisplacementSequence seq;
        try {
            seq = DisplacementSequence.of(x);
        } catch (IllegalArgumentException spanOverflow) {
            // documented: the span max - min must fit in a long
            assertThat(spanOverflow.getMessage()).isNotBlank();
            return;
        }
        TypePath p = Normalizer.of(model).reconstruct(seq);
        assertThat(p.expand()).as("expansion of %s", p).isEqualTo(seq);
        assertThat(TypePath.parse(p.toString())).isEqualTo(p);
        long cost = p.cost(model);
        TypePath trivial = TypePath.idx(x, TypePath.con(1));
        assertThat(cost).as("cost of %s vs trivial idx path", p).isLessThanOrEqualTo(trivial.cost(model));
        TypePath paper = TypePath.construct(seq);
        assertThat(paper.expand()).isEqualTo(seq);
        assertThat(cost).as("cost of %s vs paper path %s", p, paper).isLessThanOrEqualTo(paper.cost(model));
    }

    private static long[] sequence(FuzzedDataProvider data) {
        switch (data.consumeInt(0, 2)) {
            case 0 -> {
                int n = data.consumeInt(1, 64);
                long[] x = new long[n];
                for (int i = 0; i < n; i++) {
                    x[i] = data.consumeLong();
                }
                return x;
            }
            case 1 -> {
                int n = data.consumeInt(1, MAX_N);
                long[] x = new long[n];
                for (int i = 0; i < n; i++) {
                    x[i] = data.consumeInt(-40, 40);
                }
                return x;
            }
            default -> {
                // a random path, expanded: counts small, strides and indices from a small range
                int depth = data.consumeInt(0, 5);
                TypePath p = TypePath.con(data.consumeInt(1, 8));
                long size = p.size();
                for (int k = 0; k < depth; k++) {
                    int c = data.consumeInt(1, 6);
                    if (size * c > MAX_N) {
                        break;
                    }
                    if (data.consumeBoolean()) {
                        p = TypePath.vec(c, data.consumeInt(-50, 50), p);
                    } else {
                        long[] idx = new long[c];
                        for (int i = 0; i < c; i++) {
                            idx[i] = data.consumeInt(-100, 100);
                        }
                        p = TypePath.idx(idx, p);
                    }
                    size *= c;
                }
                return p.expand().toArray();
            }
        }
    }
}
