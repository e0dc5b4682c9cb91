package dev.layout.spark.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The progress channel over loopback: a real receiver socket and real sender threads. */
class ProgressChannelTest {
    static final byte[] SECRET = "a job secret of more than sixteen bytes".getBytes(StandardCharsets.UTF_8);
    static final Duration WAIT = Duration.ofSeconds(30);

    final List<Long> seen = new CopyOnWriteArrayList<>();

    @Test
    void countsArriveInOrderAndTheLastOneIsAlwaysSent() throws Exception {
        CountDownLatch last = new CountDownLatch(1);
        try (ProgressReceiver r = ProgressReceiver.open("127.0.0.1", "127.0.0.1", SECRET, n -> {
            seen.add(n);
            if (n == 1000) {
                last.countDown();
            }
        })) {
            ProgressSender s = ProgressSender.start(r.address(), SECRET);
            for (int i = 1; i <= 1000; i++) {
                s.report(i);
            }
            s.close();
            assertThat(last.await(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the last count reached the driver")
                    .isTrue();
            assertThat(s.awaitStopped(WAIT)).isTrue();
            assertThat(seen).isSorted().doesNotHaveDuplicates().endsWith(1000L);
            assertThat(r.received()).isEqualTo(seen.size());
            assertThat(r.refused()).isZero();
        }
    }

    @Test
    void aSenderWithoutTheSecretIsRefusedAndDeliversNothing() throws Exception {
        try (ProgressReceiver r = ProgressReceiver.open("127.0.0.1", "127.0.0.1", SECRET, seen::add)) {
            ProgressSender s = ProgressSender.start(
                    r.address(), "another job's secret, also long".getBytes(StandardCharsets.UTF_8));
            s.report(7);
            s.close();
            assertThat(r.awaitRefused(1, WAIT)).as("refused").isTrue();
            assertThat(s.awaitStopped(WAIT)).isTrue();
            assertThat(r.received()).isZero();
            assertThat(seen).isEmpty();
        }
    }

    @Test
    void reportsToAnUnreachableReceiverNeitherThrowNorBlock() throws Exception {
        ProgressReceiver gone = ProgressReceiver.open("127.0.0.1", "127.0.0.1", SECRET, seen::add);
        gone.close();
        ProgressSender s = ProgressSender.start(gone.address(), SECRET);
        for (int i = 1; i <= 100; i++) {
            s.report(i);
        }
        s.close();
        assertThat(s.awaitStopped(WAIT)).isTrue();
        assertThat(seen).isEmpty();
    }

    @Test
    void aReceiverClosedDuringTheRunEndsTheSenderQuietly() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        ProgressReceiver r = ProgressReceiver.open("127.0.0.1", "127.0.0.1", SECRET, n -> {
            seen.add(n);
            first.countDown();
        });
        ProgressSender s = ProgressSender.start(r.address(), SECRET);
        s.report(1);
        assertThat(first.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        r.close();
        for (int i = 2; i <= 50; i++) {
            s.report(i);
        }
        s.close();
        assertThat(s.awaitStopped(WAIT)).isTrue();
        assertThat(seen).startsWith(1L).isSorted();
    }

    @Test
    void strangersThatNeverProveAnythingHoldAtMostEightConnections() throws Exception {
        try (ProgressReceiver r = ProgressReceiver.open("127.0.0.1", "127.0.0.1", SECRET, seen::add)) {
            List<Socket> strangers = new ArrayList<>();
            try {
                for (int k = 0; k < ProgressReceiver.MAX_CONNECTIONS; k++) {
                    Socket s = new Socket("127.0.0.1", r.address().port());
                    strangers.add(s);
                    s.setSoTimeout((int) WAIT.toMillis());
                    new DataInputStream(s.getInputStream())
                            .readFully(new byte[4 + 32]); // greeted: the receiver holds this one
                }
                Socket ninth = new Socket("127.0.0.1", r.address().port());
                strangers.add(ninth);
                ninth.setSoTimeout((int) WAIT.toMillis());
                assertThat(ninth.getInputStream().read())
                        .as("the ninth is closed without a greeting")
                        .isEqualTo(-1);
                assertThat(r.awaitRefused(1, WAIT)).isTrue();
                assertThat(r.refused()).isEqualTo(1);
            } finally {
                for (Socket s : strangers) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aSenderGetsThroughOnceStrangersHoldingEveryConnectionAreDropped() throws Exception {
        // found by attacking the channel: 8 silent connections made the real sender give up for good
        CountDownLatch last = new CountDownLatch(1);
        try (ProgressReceiver r = ProgressReceiver.open("127.0.0.1", "127.0.0.1", SECRET, n -> {
            seen.add(n);
            if (n == 5) {
                last.countDown();
            }
        })) {
            List<Socket> strangers = new ArrayList<>();
            try {
                for (int k = 0; k < ProgressReceiver.MAX_CONNECTIONS; k++) {
                    Socket s = new Socket("127.0.0.1", r.address().port());
                    strangers.add(s);
                    s.setSoTimeout((int) WAIT.toMillis());
                    new DataInputStream(s.getInputStream()).readFully(new byte[4 + 32]); // greeted, then silent
                }
                ProgressSender sender = ProgressSender.start(r.address(), SECRET);
                for (int i = 1; i <= 5; i++) {
                    sender.report(i);
                }
                assertThat(last.await(WAIT.toSeconds(), TimeUnit.SECONDS))
                        .as("the last count reached the driver")
                        .isTrue();
                sender.close();
                assertThat(sender.awaitStopped(WAIT)).isTrue();
                assertThat(r.refused())
                        .as("the strangers, dropped for want of a proof")
                        .isGreaterThanOrEqualTo(ProgressReceiver.MAX_CONNECTIONS);
            } finally {
                for (Socket s : strangers) {
                    s.close();
                }
            }
        }
    }
}
