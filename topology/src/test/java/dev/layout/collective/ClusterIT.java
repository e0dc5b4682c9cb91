package dev.layout.collective;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.transport.JobSecret;
import dev.layout.transport.PingPongBenchmark;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Four JVMs on loopback run the 9-point halo exchange and collectives over TcpTransport. */
@Tag("cluster")
class ClusterIT {
  static final int N = 4;

  @Test
  void fourJvmsRunTheHaloExchangeAndCollectives() throws Exception {
    JobSecret secret = JobSecret.random();
    List<Process> children = new ArrayList<>();
    try {
      List<BufferedReader> outs = new ArrayList<>();
      List<CompletableFuture<String>> endpoints = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        ProcessBuilder pb = new ProcessBuilder(PingPongBenchmark.javaCommand(ClusterChild.class))
            .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put(JobSecret.ENV, secret.toBase64());
        Process c = pb.start();
        children.add(c);
        BufferedReader r = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
        outs.add(r);
        endpoints.add(CompletableFuture.supplyAsync(() -> firstLineStartingWith(r, "ENDPOINT ")));
      }
      List<String> eps = new ArrayList<>();
      for (CompletableFuture<String> f : endpoints) {
        eps.add(f.get(60, TimeUnit.SECONDS).substring("ENDPOINT ".length()).trim());
      }
      List<CompletableFuture<String>> results = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        OutputStream in = children.get(i).getOutputStream();
        in.write(("RANK " + i + " ENDPOINTS " + String.join(",", eps) + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        BufferedReader r = outs.get(i);
        results.add(CompletableFuture.supplyAsync(() -> firstLineStartingWith(r, "OK ")));
      }
      for (int i = 0; i < N; i++) {
        assertThat(children.get(i).waitFor(90, TimeUnit.SECONDS)).as("process %d ended in time", i).isTrue();
        assertThat(children.get(i).exitValue()).as("exit code of process %d", i).isZero();
        assertThat(results.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("OK " + i);
      }
    } finally {
      children.forEach(Process::destroyForcibly);
    }
  }

  private static String firstLineStartingWith(BufferedReader r, String prefix) {
    try {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith(prefix)) {
          return line;
        }
      }
      return "<end of output>";
    } catch (java.io.IOException e) {
      return "<" + e + ">";
    }
  }
}
