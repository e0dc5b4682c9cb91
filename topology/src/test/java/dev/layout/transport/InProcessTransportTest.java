package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InProcessTransportTest {

  private static final Duration T = Duration.ofSeconds(5);

  @Test
  void matchesByContextTagAndSourceInFifoOrder() throws IOException {
    List<InProcessTransport> ep = InProcessTransport.create(3);
    ep.get(0).send(2, 7L, 1, new byte[] {1});
    ep.get(1).send(2, 7L, 1, new byte[] {2});
    ep.get(0).send(2, 7L, 1, new byte[] {3});
    ep.get(0).send(2, 8L, 1, new byte[] {4});
    assertThat(ep.get(2).receive(0, 8L, 1, T)).containsExactly(4);
    assertThat(ep.get(2).receive(1, 7L, 1, T)).containsExactly(2);
    assertThat(ep.get(2).receive(0, 7L, 1, T)).containsExactly(1);
    assertThat(ep.get(2).receive(0, 7L, 1, T)).containsExactly(3);
    assertThat(ep.get(0).sentMessages()).isEqualTo(3);
    assertThat(ep.get(0).fabricMessages()).isEqualTo(4);
  }

  @Test
  void sendCopiesThePayload() throws IOException {
    List<InProcessTransport> ep = InProcessTransport.create(2);
    byte[] data = {1, 2};
    ep.get(0).send(1, 0L, 0, data);
    data[0] = 9;
    assertThat(ep.get(1).receive(0, 0L, 0, T)).containsExactly(1, 2);
  }

  @Test
  void receiveTimesOutWithTheKeyInTheMessage() {
    List<InProcessTransport> ep = InProcessTransport.create(2);
    assertThatThrownBy(() -> ep.get(1).receive(0, 0L, 5, Duration.ofMillis(20)))
        .isInstanceOf(TransportTimeoutException.class)
        .hasMessageContaining("no message from process 0 to process 1")
        .hasMessageContaining("tag 5");
  }

  @Test
  void closingReleasesWaitingReceivers() throws Exception {
    List<InProcessTransport> ep = InProcessTransport.create(2);
    CompletableFuture<Throwable> waiting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                ep.get(1).receive(0, 0L, 0, Duration.ofSeconds(30));
                return null;
              } catch (IOException e) {
                return e;
              }
            });
    ep.get(0).close();
    assertThat(waiting.get(10, TimeUnit.SECONDS)).hasMessageContaining("fabric closed");
    assertThatThrownBy(() -> ep.get(1).send(0, 0L, 0, new byte[0])).isInstanceOf(IOException.class);
  }

  @Test
  void rejectsUnknownProcesses() {
    List<InProcessTransport> ep = InProcessTransport.create(2);
    assertThatThrownBy(() -> ep.get(0).send(2, 0L, 0, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("send: dest 2 (expected: 0..1)");
    assertThatThrownBy(() -> InProcessTransport.create(0))
        .hasMessage("inProcessTransport: size 0 (expected: >= 1)");
  }
}
