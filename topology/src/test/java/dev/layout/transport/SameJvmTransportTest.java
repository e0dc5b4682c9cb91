package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SameJvmTransportTest {
    private static final Duration T = Duration.ofSeconds(5);

    private List<Transport> fabric = List.of();

    @AfterEach
    void close() {
        fabric.forEach(Transport::close);
    }

    /**
     * {@code size} TCP processes on loopback; those {@code inJvm} accepts are registered (before any
     * of them is connected, as binding comes before the endpoint exchange) and wrapped, the others
     * stay plain TCP transports.
     */
    static List<Transport> mixedFabric(int size, IntPredicate inJvm) {
        try {
            List<TcpTransport.Listener> ls = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                ls.add(TcpTransport.listen(new Endpoint("127.0.0.1", 0)));
            }
            List<Endpoint> eps =
                    ls.stream().map(TcpTransport.Listener::endpoint).toList();
            List<String> names = eps.stream().map(Endpoint::toString).toList();
            List<SameJvmTransport.Registration> regs = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                regs.add(inJvm.test(i) ? SameJvmTransport.register(names.get(i)) : null);
            }
            JobSecret secret = JobSecret.random();
            List<Transport> out = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                TcpTransport tcp = ls.get(i).open(i, eps, secret, TcpOptions.defaults());
                out.add(regs.get(i) == null ? tcp : SameJvmTransport.over(tcp, names, regs.get(i)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void processesOfOneJvmTalkInProcessAndTheOthersOverTheNetwork() throws IOException {
        fabric = mixedFabric(3, p -> p != 2);
        SameJvmTransport zero = (SameJvmTransport) fabric.get(0);
        SameJvmTransport one = (SameJvmTransport) fabric.get(1);
        zero.send(1, 1L, 0, new byte[] {1});
        zero.send(2, 1L, 0, new byte[] {2});
        fabric.get(2).send(0, 1L, 0, new byte[] {3});
        assertThat(one.receive(0, 1L, 0, T)).containsExactly(1);
        assertThat(fabric.get(2).receive(0, 1L, 0, T)).containsExactly(2);
        assertThat(zero.receive(2, 1L, 0, T)).containsExactly(3);
        assertThat(zero.localMessages())
                .as("only the message to process 1 went in process")
                .isEqualTo(1);
        assertThat(zero.sentMessages()).isEqualTo(2);
    }

    @Test
    void aPostedReceiveIsFilledInProcessOrFromTheNetwork() throws IOException {
        fabric = mixedFabric(3, p -> p != 2);
        byte[] src = {1, 2, 3, 4, 5, 6};
        for (int from : new int[] {0, 2}) {
            byte[] dst = new byte[6];
            Transport.PostedReceive r = fabric.get(1).postReceive(from, 2L, 7, TypedRegion.ofArray(dst));
            fabric.get(from)
                    .sendToPosted(
                            1, 2L, 7, TypedRegion.of(Memory.ofArray(src), dev.layout.datatype.Primitive.BYTE, 6, 0), T);
            assertThat(r.await(T)).isEqualTo(6);
            assertThat(dst).as("from process %d", from).containsExactly(src);
        }
        assertThat(((SameJvmTransport) fabric.get(0)).localMessages()).isEqualTo(1);
    }

    @Test
    void closingOneProcessLeavesTheOthersOfItsJvmWorking() throws IOException {
        fabric = mixedFabric(3, p -> true);
        fabric.get(2).close();
        fabric.get(0).send(1, 0L, 0, new byte[] {9});
        assertThat(fabric.get(1).receive(0, 0L, 0, T)).containsExactly(9);
        assertThatThrownBy(() -> fabric.get(0).send(2, 0L, 0, new byte[] {1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("process 2");
    }

    @Test
    void anEndpointIsRegisteredOnceUntilItsTransportCloses() {
        List<Transport> one = mixedFabric(1, p -> true);
        fabric = one;
        String endpoint = ((SameJvmTransport) one.get(0)).toString();
        assertThat(endpoint).contains("sameJvm");
        SameJvmTransport.Registration r = SameJvmTransport.register("127.0.0.1:1");
        assertThatThrownBy(() -> SameJvmTransport.register("127.0.0.1:1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("127.0.0.1:1");
        r.close();
        SameJvmTransport.register("127.0.0.1:1").close();
    }
}
