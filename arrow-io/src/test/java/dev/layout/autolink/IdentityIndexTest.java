package dev.layout.autolink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdentityIndexTest {
    @Test
    void everyKeyKeepsItsIndexAcrossGrowth() {
        int n = 200_000; // grows by 4 up to QUADRUPLE_BELOW slots, then by 2 (past 2^21 keys only; see below)
        IdentityIndex index = new IdentityIndex(16);
        Object[] keys = new Object[n];
        for (int i = 0; i < n; i++) {
            keys[i] = new Object();
            index.ensureRoom(1);
            assertThat(index.getOrPut(keys[i], IdentityIndex.hash(keys[i]), keys, i, i))
                    .isEqualTo(-1 - i);
        }
        for (int i = 0; i < n; i++) {
            index.ensureRoom(1);
            assertThat(index.getOrPut(keys[i], IdentityIndex.hash(keys[i]), keys, n, n))
                    .isEqualTo(i);
        }
        assertThat(index.capacity()).isEqualTo(1 << 19); // 32 -> 128 -> ... -> 2^19 > 2 * 200000
    }

    @Test
    void touchComputesTheHashesOfNonNullKeys() {
        IdentityIndex index = new IdentityIndex(16);
        Object[] keys = {new Object(), null, "x"};
        int[] hashes = {7, 7, 7};
        index.touch(keys, hashes, 3);
        assertThat(hashes[0]).isEqualTo(IdentityIndex.hash(keys[0]));
        assertThat(hashes[1]).isEqualTo(7);
        assertThat(hashes[2]).isEqualTo(IdentityIndex.hash("x"));
    }

    @Test
    void growthDoublesFromQuadrupleBelow() {
        assertThat(IdentityIndex.grownCapacity(1 << 11)).isEqualTo(1 << 13);
        assertThat(IdentityIndex.grownCapacity(IdentityIndex.QUADRUPLE_BELOW / 2))
                .isEqualTo(IdentityIndex.QUADRUPLE_BELOW * 2);
        assertThat(IdentityIndex.grownCapacity(IdentityIndex.QUADRUPLE_BELOW))
                .isEqualTo(IdentityIndex.QUADRUPLE_BELOW * 2);
    }
}
