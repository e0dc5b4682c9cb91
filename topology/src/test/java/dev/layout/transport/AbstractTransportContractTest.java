package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Transport} must do; subclass it for each implementation (in-process now, TCP
 * later) and return connected endpoints from {@link #newFabric}.
 */
abstract class AbstractTransportContractTest {

    static final Duration T = Duration.ofSeconds(5);

    private List<? extends Transport> fabric;

    /** {@code size} connected endpoints, endpoint i being process i. */
    protected abstract List<? extends Transport> newFabric(int size);

    private List<? extends Transport> fabric(int size) {
        fabric = newFabric(size);
        return fabric;
    }

    @AfterEach
    void closeFabric() {
        if (fabric != null) {
            fabric.forEach(Transport::close);
        }
    }

    @Test
    void endpointsKnowTheirProcessAndTheFabricSize() {
        List<? extends Transport> ep = fabric(3);
        for (int i = 0; i < 3; i++) {
            assertThat(ep.get(i).process()).isEqualTo(i);
            assertThat(ep.get(i).size()).isEqualTo(3);
        }
    }

    @Test
    void matchesByContextTagAndSourceInFifoOrder() throws IOException {
        List<? extends Transport> ep = fabric(3);
        ep.get(0).send(2, 7L, 1, new byte[] {1});
        ep.get(1).send(2, 7L, 1, new byte[] {2});
        ep.get(0).send(2, 7L, 1, new byte[] {3});
        ep.get(0).send(2, 8L, 1, new byte[] {4});
        ep.get(0).send(2, 7L, 2, new byte[] {5});
        assertThat(ep.get(2).receive(0, 7L, 2, T)).containsExactly(5);
        assertThat(ep.get(2).receive(0, 8L, 1, T)).containsExactly(4);
        assertThat(ep.get(2).receive(1, 7L, 1, T)).containsExactly(2);
        assertThat(ep.get(2).receive(0, 7L, 1, T)).containsExactly(1);
        assertThat(ep.get(2).receive(0, 7L, 1, T)).containsExactly(3);
        assertThat(ep.get(0).sentMessages()).isEqualTo(4);
        assertThat(ep.get(0).sentBytes()).isEqualTo(4);
    }

    @Test
    void sendsToItselfAndEmptyPayloads() throws IOException {
        List<? extends Transport> ep = fabric(1);
        ep.get(0).send(0, 0L, 0, new byte[0]);
        assertThat(ep.get(0).receive(0, 0L, 0, T)).isEmpty();
    }

    /** Issue 11, for every transport (the in-process one through Transport's default receiveTyped). */
    @Test
    void aTypedReceiveRefusesMessagesThatDoNotFitItsTypeBeforeWritingAnyByte() throws IOException {
        List<? extends Transport> ep = fabric(2);
        Datatype column = Datatype.vector(3, 1, 2, Primitive.FLOAT64);
        byte[] dest = new byte[8 + 40 + 8];
        Arrays.fill(dest, (byte) 0x33);
        Memory m = Memory.ofArray(dest);
        ep.get(0).send(1, 0L, 0, new byte[25]); // longer than the column's 24 bytes
        ep.get(0).send(1, 0L, 0, new byte[12]); // ends inside the second float64
        ep.get(0).send(1, 0L, 0, new byte[16]); // two whole float64s: a prefix, as MPI allows
        assertThatThrownBy(() -> ep.get(1).receiveTyped(0, 0L, 0, column, 1, m, 8, T))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("message of 25 bytes from process 0")
                .hasMessageContaining("longer than the receive type's 24 bytes");
        assertThatThrownBy(() -> ep.get(1).receiveTyped(0, 0L, 0, column, 1, m, 8, T))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("message of 12 bytes from process 0")
                .hasMessageContaining("4 of the 8 bytes of a float64");
        byte[] untouched = new byte[dest.length];
        Arrays.fill(untouched, (byte) 0x33);
        assertThat(dest).isEqualTo(untouched);
        assertThat(ep.get(1).receiveTyped(0, 0L, 0, column, 1, m, 8, T)).isEqualTo(16);
        for (int i = 0; i < dest.length; i++) {
            boolean written = (i >= 8 && i < 16) || (i >= 24 && i < 32); // elements 0 and 1 of the column
            assertThat(dest[i]).as("byte %d", i).isEqualTo(written ? (byte) 0 : (byte) 0x33);
        }
    }

    @Test
    void sendCopiesThePayload() throws IOException {
        List<? extends Transport> ep = fabric(2);
        byte[] data = {1, 2};
        ep.get(0).send(1, 0L, 0, data);
        data[0] = 9;
        assertThat(ep.get(1).receive(0, 0L, 0, T)).containsExactly(1, 2);
    }

    @Test
    void receiveTimesOutWithTheKeyInTheMessage() {
        List<? extends Transport> ep = fabric(2);
        assertThatThrownBy(() -> ep.get(1).receive(0, 0L, 5, Duration.ofMillis(20)))
                .isInstanceOf(TransportTimeoutException.class)
                .hasMessageContaining("process 0")
                .hasMessageContaining("tag 5");
    }

    @Test
    void closingAnEndpointReleasesItsWaitingReceive() throws Exception {
        List<? extends Transport> ep = fabric(2);
        CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                ep.get(1).receive(0, 0L, 0, Duration.ofSeconds(30));
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        ep.get(1).close();
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    }
}
