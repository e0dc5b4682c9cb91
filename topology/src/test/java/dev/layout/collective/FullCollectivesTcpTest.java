package dev.layout.collective;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The whole {@link FullCollectivesTest} suite over a loopback {@code TcpTransport} (threads, one JVM). */
class FullCollectivesTcpTest extends FullCollectivesTest {

    @BeforeEach
    void useTcp() {
        Harness.fabric = Harness::tcp;
    }

    @AfterEach
    void backToInProcess() {
        Harness.fabric = null;
    }
}
