package dev.layout.spark.source;

import dev.layout.spark.conf.FileViewOptions;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code fileview} data source: reads a binary array file through a file view (etype,
 * displacement, filetype) into rows of global coordinates and values, and writes (coordinates,
 * value) rows into a dense array file. Options: {@link FileViewOptions}.
 *
 * <pre>{@code
 * Dataset<Row> df = spark.read().format("fileview")
 *     .option("path", "hdfs://nn/data/t.f64").option("etype", "float64")
 *     .option("shape", "1024x1024").option("subarray", "0:512,256:768").load();
 * // columns i0, i1 (int), value (double)
 * df.write().format("fileview").option("path", "/tmp/out.f64").option("etype", "float64")
 *     .option("shape", "1024x1024").mode("append").save();   // "overwrite" replaces an existing file
 * }</pre>
 */
public final class FileViewDataSource implements TableProvider, DataSourceRegister {

    @Override
    public String shortName() {
        return FileViewOptions.SHORT_NAME;
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return FileViewSpec.parse(options).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new FileViewTable(FileViewSpec.parse(properties), schema);
    }

    /** The write side takes the DataFrame's schema (coordinate and value columns) as given. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
