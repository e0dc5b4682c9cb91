package dev.layout.collective;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The whole {@link StencilCollectivesTest} suite over a loopback {@code TcpTransport} (threads, one JVM). */
class StencilCollectivesTcpTest extends StencilCollectivesTest {

    @BeforeEach
    void useTcp() {
        Harness.fabric = Harness::tcp;
    }

    @AfterEach
    void backToInProcess() {
        Harness.fabric = null;
    }
}
