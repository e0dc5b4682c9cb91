package dev.layout.spark.io;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Hadoop configuration that travels to executors in a task closure: Hadoop's {@code
 * Configuration} is a {@code Writable}, not {@code Serializable}, so this carries it inside Java
 * serialization.
 *
 * <pre>{@code
 * HadoopConf conf = HadoopConf.of(spark.sparkContext().hadoopConfiguration());   // driver
 * FileSystem fs = conf.fileSystem(new Path("hdfs://nn:8020/runs/field.f64"));   // executor
 * }</pre>
 */
public final class HadoopConf implements Serializable {
    private static final long serialVersionUID = 1L;
    private transient Configuration conf;

    private HadoopConf(Configuration conf) {
        this.conf = conf;
    }

    /** Carries a copy of {@code conf} (later changes to it are not seen). */
    public static HadoopConf of(Configuration conf) {
        Objects.requireNonNull(conf, "HadoopConf: conf is null");
        return new HadoopConf(new Configuration(conf));
    }

    /** The configuration (shared by the users of this carrier: do not change it). */
    public Configuration get() {
        return conf;
    }

    /** The file system of {@code path} (a Hadoop path: {@code hdfs://}, {@code file:} or a bare local path). */
    public FileSystem fileSystem(Path path) throws IOException {
        return path.getFileSystem(conf);
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        conf.write(out);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        conf = new Configuration(false);
        conf.readFields(in);
    }
}
