package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeTableTest {
    @Test
    void putAcrossChunksAndGetBack() {
        NodeTable t = new NodeTable();
        assertThat(t.capacity()).isZero();
        int n = 3 * NodeTable.CHUNK + 123;
        Integer[] all = new Integer[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        // packets of odd sizes, straddling chunk boundaries
        int at = 0;
        for (int len : new int[] {1, 7, NodeTable.CHUNK - 3, 10, 2 * NodeTable.CHUNK, 1000}) {
            len = Math.min(len, n - at);
            t.ensure(at + len);
            assertThat(t.capacity()).isGreaterThanOrEqualTo(at + len);
            Object[] src = new Object[len];
            System.arraycopy(all, at, src, 0, len);
            t.put(at, src, len);
            at += len;
        }
        assertThat(at).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            assertThat(t.get(i)).isEqualTo(i);
        }
    }

    @Test
    void smallTablesStaySmall() {
        NodeTable t = new NodeTable();
        t.ensure(3);
        assertThat(t.capacity()).isEqualTo(16);
        t.ensure(17);
        assertThat(t.capacity()).isEqualTo(32);
        t.ensure(NodeTable.CHUNK + 1);
        assertThat(t.capacity()).isEqualTo(NodeTable.CHUNK + 16);
        t.ensure(5); // never shrinks
        assertThat(t.capacity()).isEqualTo(NodeTable.CHUNK + 16);
    }
}
