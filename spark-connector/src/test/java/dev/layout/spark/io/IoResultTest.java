package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.fileview.FileDomains;
import org.junit.jupiter.api.Test;

class IoResultTest {

    private static IoResult result(FileDomains domains, int cycles) {
        return new IoResult(Strategy.TWO_PHASE, 100, 2_000_000, domains, 0, cycles, 1, true, "views interleave");
    }

    @Test
    void summaryCountsDomainsAndCyclesInWords() {
        assertThat(result(FileDomains.of(0, 1_000_000), 1).summary())
                .isEqualTo("two-phase, 1 domain, 1 cycle, 2.0 MB: views interleave");
        assertThat(result(FileDomains.of(0, 500_000, 1_000_000, 2_000_000), 3).summary())
                .isEqualTo("two-phase, 3 domains, 3 cycles, 2.0 MB: views interleave");
        assertThat(result(null, 0).summary()).startsWith("two-phase, 0 domains, 0 cycles,");
    }
}
