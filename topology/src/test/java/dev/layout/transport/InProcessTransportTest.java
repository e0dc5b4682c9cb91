package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class InProcessTransportTest extends AbstractTransportContractTest {

    @Override
    protected List<? extends Transport> newFabric(int size) {
        return InProcessTransport.create(size);
    }

    @Test
    void closingAnyEndpointClosesTheWholeFabric() {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        ep.get(0).close();
        assertThat(ep.get(1).isClosed()).isTrue();
        assertThatThrownBy(() -> ep.get(1).send(0, 0L, 0, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("fabric closed");
    }

    @Test
    void countsMessagesOfTheWholeFabric() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        ep.get(0).send(1, 0L, 0, new byte[3]);
        ep.get(1).send(0, 0L, 0, new byte[3]);
        assertThat(ep.get(0).fabricMessages()).isEqualTo(2);
    }

    @Test
    void rejectsUnknownProcesses() {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        assertThatThrownBy(() -> ep.get(0).send(2, 0L, 0, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("send: dest 2 (expected: 0..1)");
        assertThatThrownBy(() -> ep.get(0).receive(-1, 0L, 0, T)).hasMessage("receive: source -1 (expected: 0..1)");
        assertThatThrownBy(() -> InProcessTransport.create(0))
                .hasMessage("inProcessTransport: size 0 (expected: >= 1)");
    }

    @Test
    void sendCopiesThePayloadSoChangesAfterTheSendAreNotReceived() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] payload = {1, 2, 3};
        ep.get(0).send(1, 0L, 0, payload);
        payload[0] = 9;
        assertThat(ep.get(1).receive(0, 0L, 0, T)).containsExactly(1, 2, 3);
    }

    @Test
    void sendOwnedDeliversTheHandedOverArrayItselfAndCountsIt() throws IOException {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        byte[] payload = {4, 5};
        ep.get(0).sendOwned(1, 3L, 7, payload);
        assertThat(ep.get(1).receive(0, 3L, 7, T)).isSameAs(payload).containsExactly(4, 5);
        assertThat(ep.get(0).sentMessages()).isEqualTo(1);
        assertThat(ep.get(0).sentBytes()).isEqualTo(2);
    }

    @Test
    void sendOwnedChecksItsArgumentsAsSendDoes() {
        List<InProcessTransport> ep = InProcessTransport.create(2);
        assertThatThrownBy(() -> ep.get(0).sendOwned(2, 0L, 0, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sendOwned: dest 2 (expected: 0..1)");
        assertThatThrownBy(() -> ep.get(0).sendOwned(1, 0L, 0, null))
                .hasMessage("sendOwned: payload null (expected: a byte array)");
        ep.get(1).close();
        assertThatThrownBy(() -> ep.get(0).sendOwned(1, 0L, 0, new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("sendOwned: fabric closed");
    }
}
