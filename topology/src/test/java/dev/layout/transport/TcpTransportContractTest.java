package dev.layout.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

class TcpTransportContractTest extends AbstractTransportContractTest {

    @Override
    protected List<? extends Transport> newFabric(int size) {
        try {
            return TcpTransport.loopbackFabric(size, JobSecret.random(), TcpOptions.defaults());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
