package dev.layout.transport;

import java.util.List;

/**
 * The transport contract over a fabric whose processes 0 and 1 are registered in this JVM (they talk
 * to each other in process) and whose process 2 is not (everybody reaches it over TCP).
 */
class SameJvmTransportContractTest extends AbstractTransportContractTest {

    @Override
    protected List<? extends Transport> newFabric(int size) {
        return SameJvmTransportTest.mixedFabric(size, p -> p != 2);
    }
}
