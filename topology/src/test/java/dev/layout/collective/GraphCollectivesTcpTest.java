package dev.layout.collective;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The whole {@link GraphCollectivesTest} suite over a loopback {@code TcpTransport} (threads, one JVM). */
class GraphCollectivesTcpTest extends GraphCollectivesTest {

    @BeforeEach
    void useTcp() {
        Harness.fabric = Harness::tcp;
    }

    @AfterEach
    void backToInProcess() {
        Harness.fabric = null;
    }
}
