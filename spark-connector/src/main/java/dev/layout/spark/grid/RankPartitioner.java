package dev.layout.spark.grid;

import org.apache.spark.Partitioner;

/** Partition r holds rank r: keys are Integer ranks 0..ranks-1. */
public final class RankPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int ranks;

    public RankPartitioner(int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("rankPartitioner: ranks " + ranks + " (expected: >= 1)");
        }
        this.ranks = ranks;
    }

    @Override
    public int numPartitions() {
        return ranks;
    }

    @Override
    public int getPartition(Object key) {
        int r = (Integer) key;
        if (r < 0 || r >= ranks) {
            throw new IllegalArgumentException(
                    "rankPartitioner: key " + r + " (expected: a rank 0.." + (ranks - 1) + ")");
        }
        return r;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RankPartitioner p && p.ranks == ranks;
    }

    @Override
    public int hashCode() {
        return ranks;
    }
}
