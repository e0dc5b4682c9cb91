package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ping-pong's partner JVM is started with the leader's options, so that the two ends differ only in rank. */
class PingPongPartnerTest {
    @Test
    void thePartnerGetsThisJvmsHeapAndOptionsBeforeItsClassPath() {
        List<String> cmd = PingPongBenchmark.partnerCommand("--peer", "127.0.0.1:1");

        List<String> heaps = cmd.stream().filter(a -> a.startsWith("-Xmx")).toList();
        assertThat(heaps.get(heaps.size() - 1))
                .as("the last -Xmx wins")
                .isEqualTo("-Xmx" + Runtime.getRuntime().maxMemory() / (1 << 20) + "m");
        int classPath = cmd.indexOf("-cp");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-X") && !a.startsWith("-Xmx")) {
                assertThat(cmd.subList(0, classPath)).as("option " + a).containsOnlyOnce(a);
            }
        }
        assertThat(cmd.subList(classPath + 2, cmd.size()))
                .startsWith(PingPongBenchmark.class.getName(), "--peer", "127.0.0.1:1");
    }
}
