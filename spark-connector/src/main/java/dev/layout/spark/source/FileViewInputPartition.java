package dev.layout.spark.source;

import org.apache.spark.sql.connector.read.InputPartition;

/** Etypes {@code [start, end)} of the view, whose file bytes lie in one HDFS block (or split). */
record FileViewInputPartition(long start, long end, String[] hosts) implements InputPartition {
    @Override
    public String[] preferredLocations() {
        return hosts.clone();
    }
}
