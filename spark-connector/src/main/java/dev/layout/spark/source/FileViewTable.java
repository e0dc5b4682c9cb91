package dev.layout.spark.source;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** One array file seen through one view. */
final class FileViewTable implements SupportsRead, SupportsWrite {
    private final FileViewSpec spec;
    private final StructType schema;

    FileViewTable(FileViewSpec spec, StructType schema) {
        this.spec = spec;
        this.schema = schema == null ? spec.schema() : schema;
    }

    @Override
    public String name() {
        return spec.toString();
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new FileViewScanBuilder(spec);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new FileViewWrite.Builder(spec, info.schema());
    }
}
