package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SendCellsTest {
    @Test
    void findsEveryCellAddedAndNoOther() {
        SendCells t = new SendCells();
        List<SendCell> added = new ArrayList<>();
        for (long k = 0; k < 1000; k++) {
            long key = (k % 7) << 32 | k * 131;
            assertThat(t.get(key)).isNull();
            SendCell c = new SendCell(0.1);
            assertThat(t.add(key, c)).isSameAs(c);
            added.add(c);
        }
        for (long k = 0; k < 1000; k++) {
            assertThat(t.get((k % 7) << 32 | k * 131)).isSameAs(added.get((int) k));
        }
        assertThat(t.get(-1)).isNull();
        SendCell again = new SendCell(0.1);
        assertThat(t.add(0, again)).isSameAs(added.get(0)); // the first added wins
    }

    @Test
    void aFullTableAddsNoCellButStillFindsItsOwn() {
        SendCells t = new SendCells(4);
        for (long k = 0; k < 4; k++) {
            assertThat(t.add(k, new SendCell(0))).isNotNull();
        }
        assertThat(t.add(4, new SendCell(0))).isNull();
        assertThat(t.get(4)).isNull();
        assertThat(t.get(3)).isNotNull();
        assertThatThrownBy(() -> new SendCells(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("most 0");
    }

    @Test
    void threadsAddingTheSameKeysGetOneCellEach() throws Exception {
        SendCells t = new SendCells();
        ConcurrentHashMap<Long, SendCell> seen = new ConcurrentHashMap<>();
        List<Throwable> failures = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    for (long k = 0; k < 500; k++) {
                        SendCell c = t.get(k);
                        c = c != null ? c : t.add(k, new SendCell(0));
                        SendCell first = seen.putIfAbsent(k, c);
                        if (first != null && first != c) {
                            throw new AssertionError("two cells for key " + k);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join(30_000);
            assertThat(th.isAlive()).isFalse();
        }
        assertThat(failures).isEmpty();
        assertThat(seen).hasSize(500);
    }

    @Test
    void aCellSaysItsIncumbentGapAndPairs() {
        SendCell c = new SendCell(-0.4); // the model puts gathering 33% ahead
        assertThat(c).hasToString("GATHER; log gap -0.400 +- 0.500 (spread 0.300, 0 of 0 pairs); 0 sends measured");
        c.observe(1, 100_000);
        assertThat(c.toString()).startsWith("GATHER;").endsWith("; 1 sends measured");
    }
}
