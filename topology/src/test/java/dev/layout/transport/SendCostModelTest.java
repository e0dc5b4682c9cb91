package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SendCostModelTest {

    @Test
    void theCommittedConfigurationEqualsTheCodeDefaults() {
        assertThat(SendCostModel.load(Path.of("../conf"))).isEqualTo(SendCostModel.DEFAULTS);
    }

    @Test
    void storeAndLoadRoundTrip() throws Exception {
        StringWriter w = new StringWriter();
        SendCostModel.DEFAULTS.store(w);
        Properties p = new Properties();
        p.load(new StringReader(w.toString()));
        assertThat(SendCostModel.fromProperties(p)).isEqualTo(SendCostModel.DEFAULTS);
        assertThat(SendCostModel.fromProperties(new Properties())).isEqualTo(SendCostModel.DEFAULTS);
    }

    @Test
    void gatherWinsForFewLargeBlocksAndPackForManySmallOrHeapOnes() {
        SendCostModel m = SendCostModel.DEFAULTS;
        assertThat(m.choose(3, 4 << 20, false)).isEqualTo(SendStrategy.GATHER);
        assertThat(m.choose(100, 4 << 20, false)).isEqualTo(SendStrategy.GATHER);
        assertThat(m.choose(1 << 20, 4 << 20, false)).isEqualTo(SendStrategy.PACK); // the paper's struct case
        assertThat(m.choose(3, 4 << 20, true)).isEqualTo(SendStrategy.PACK); // the JDK copies heap buffers anyway
        assertThat(m.choose(1, 1000, false)).isEqualTo(SendStrategy.PACK); // below minGatherBytes
    }

    @Test
    void rejectsBadConstants() {
        Properties p = new Properties();
        p.setProperty("transport.cost.gather.batchBlocks", "0");
        assertThatThrownBy(() -> SendCostModel.fromProperties(p))
                .hasMessage("sendCostModel: batchBlocks 0 (expected: 1..1024)");
    }
}
