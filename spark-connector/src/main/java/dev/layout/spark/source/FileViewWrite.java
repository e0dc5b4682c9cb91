package dev.layout.spark.source;

import dev.layout.fileview.FileDomains;
import dev.layout.fileview.ViewWriter;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * Writes (coordinates, values) rows into a dense array file of {@code shape} in storage order,
 * from the executors. The file is split into file domains (of whole file system blocks, one per
 * core at most); the write asks Spark for one partition per domain, ranged by the rows'
 * coordinates in storage order and sorted within each, and each task streams its rows, in file
 * order, into one part per domain they fall in, beside the target ({@code
 * .NAME.JOBID.task-NNNNN.domain-DDDDD}), zeros between them: no part crosses a domain's bound. The
 * driver's commit only orders the parts, adds zero parts for the element ranges no task covers
 * (none when every coordinate is given), joins them ({@code concat} on HDFS) and renames the result
 * to the target; abort removes the parts. So nothing appears at the target unless every task's
 * rows are in it, and no row passes through the driver. A coordinate given twice fails the job
 * naming it. Mode {@code append} creates a new file and refuses an existing one; mode {@code
 * overwrite} replaces it.
 *
 * <p>Why ranges and not a partition per domain: Spark's V2 write can ask for an ordering (a range
 * partitioning on sampled bounds) or a clustering, and a path-based write can cluster only on
 * columns (hashed); a clustering on a computed domain number needs a function catalog, which a
 * table without a catalog does not have. The sampled bounds fall near the domains' bounds, so a
 * task writes mostly one domain, and the parts split there exactly.
 */
final class FileViewWrite implements RequiresDistributionAndOrdering, BatchWrite {
    private final FileViewSpec spec;
    private final StructType schema;
    private final boolean truncate;
    /** Column of each coordinate, then of each member. */
    private final int[] coordColumns;

    private final int[] memberColumns;
    /** Names the parts of this write (the same for every task and attempt). */
    private final String jobId = UUID.randomUUID().toString().replace("-", "");

    static final class Builder implements WriteBuilder, SupportsTruncate {
        private final FileViewSpec spec;
        private final StructType schema;
        private boolean truncate;

        Builder(FileViewSpec spec, StructType schema) {
            this.spec = spec;
            this.schema = schema;
        }

        @Override
        public WriteBuilder truncate() {
            truncate = true;
            return this;
        }

        @Override
        public Write build() {
            return new FileViewWrite(spec, schema, truncate);
        }
    }

    FileViewWrite(FileViewSpec spec, StructType schema, boolean truncate) {
        this.spec = spec;
        this.schema = schema;
        this.truncate = truncate;
        if (spec.shape == null) {
            throw new IllegalArgumentException(
                    "fileview: write needs option shape (expected: the whole array's dimensions, e.g. shape=1024x1024)");
        }
        if (!spec.isBox() || !Arrays.equals(spec.subsizes, spec.shape)) {
            throw new IllegalArgumentException(
                    "fileview: writes take the whole array of shape (expected: no filetype, subarray or darray options)");
        }
        List<String> names = Arrays.asList(schema.fieldNames());
        coordColumns = new int[spec.dimensions()];
        for (int d = 0; d < coordColumns.length; d++) {
            coordColumns[d] = names.indexOf(FileViewSpec.coordinateName(d));
            if (coordColumns[d] < 0) {
                throw new IllegalArgumentException("fileview: write schema " + schema.simpleString() + " has no column "
                        + FileViewSpec.coordinateName(d) + " (expected: coordinates i0..i" + (coordColumns.length - 1)
                        + " and values " + spec.schema().simpleString() + ")");
            }
        }
        List<FileViewSpec.Member> ms = spec.members();
        memberColumns = new int[ms.size()];
        int[] others = new int[schema.size()];
        int no = 0;
        for (int c = 0; c < schema.size(); c++) {
            final int cc = c;
            if (Arrays.stream(coordColumns).noneMatch(x -> x == cc)) {
                others[no++] = c;
            }
        }
        for (int m = 0; m < ms.size(); m++) {
            memberColumns[m] = names.indexOf(ms.get(m).name());
        }
        if (Arrays.stream(memberColumns).anyMatch(x -> x < 0)) {
            if (no != ms.size()) {
                throw new IllegalArgumentException("fileview: write schema " + schema.simpleString()
                        + " (expected: coordinates and " + ms.size() + " value column(s) named as in "
                        + spec.schema().simpleString() + ")");
            }
            System.arraycopy(others, 0, memberColumns, 0, no);
        }
        for (int c : memberColumns) {
            if (!(schema.fields()[c].dataType() instanceof org.apache.spark.sql.types.NumericType)) {
                throw new IllegalArgumentException("fileview: value column " + schema.fields()[c].name() + " is "
                        + schema.fields()[c].dataType() + " (expected: a numeric type)");
            }
        }
    }

    @Override
    public String description() {
        return "FileViewWrite " + spec + (truncate ? " (overwrite)" : "");
    }

    @Override
    public BatchWrite toBatch() {
        try {
            Path path = new Path(spec.path);
            FileSystem fs = path.getFileSystem(hadoopConf());
            if (!truncate && fs.exists(path)) {
                throw new IllegalStateException(
                        "fileview: " + path + " already exists (expected: a new path, or mode overwrite)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private static Configuration hadoopConf() {
        return SparkSession.active().sparkContext().hadoopConfiguration();
    }

    /** Coordinates in storage order (the slowest first), ascending: sorting by them sorts by file offset. */
    private SortOrder[] storageOrder() {
        int d = coordColumns.length;
        SortOrder[] out = new SortOrder[d];
        for (int k = 0; k < d; k++) {
            int dim = spec.order == dev.layout.datatype.Order.C ? k : d - 1 - k;
            out[k] = Expressions.sort(
                    Expressions.column(schema.fields()[coordColumns[dim]].name()), SortDirection.ASCENDING);
        }
        return out;
    }

    @Override
    public Distribution requiredDistribution() {
        return Distributions.ordered(storageOrder());
    }

    @Override
    public SortOrder[] requiredOrdering() {
        return storageOrder();
    }

    /** One task per file domain: domains of whole blocks where the file has several, one per core at most. */
    @Override
    public int requiredNumPartitions() {
        return domains().count();
    }

    /** The file's domains: of whole file system blocks where the file has several, one per core at most. */
    private FileDomains domains() {
        try {
            Path path = new Path(spec.path);
            FileSystem fs = path.getFileSystem(hadoopConf());
            long length = fileLength();
            int cores = Math.max(1, SparkSession.active().sparkContext().defaultParallelism());
            return length == 0
                    ? FileDomains.of(0, 1)
                    : FileDomains.aligned(length, cores, fs.getDefaultBlockSize(path), 1L << 20);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long fileLength() {
        return Math.addExact(
                spec.disp,
                Math.multiplyExact(spec.elementCount(), spec.etypeType().byteSize()));
    }

    /** A part: file bytes {@code [start, end)} in {@code part}, within one file domain. */
    record Part(String part, long start, long end) implements java.io.Serializable {}

    /** One task's parts (none if it had no rows). */
    record Parts(List<Part> parts) implements WriterCommitMessage {}

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        return new FileViewPartWriter.Factory(
                spec, schema, coordColumns, memberColumns, HadoopConf.of(hadoopConf()), jobId, domains());
    }

    /**
     * Orders the tasks' parts by file offset, adds zero parts for what no task covered, renames them
     * to the domain parts of {@link ViewWriter#assemble} and joins them: metadata only where the file
     * system has {@code concat}, and no row data through the driver.
     */
    @Override
    public void commit(WriterCommitMessage[] messages) {
        Path path = new Path(spec.path);
        FileSystem fs = null;
        try {
            fs = path.getFileSystem(hadoopConf());
            if (!truncate && fs.exists(path)) {
                throw new IOException(
                        "fileview: " + path + " already exists (expected: a new path, or mode overwrite)");
            }
            List<Part> parts = new ArrayList<>();
            for (WriterCommitMessage m : messages) {
                if (m instanceof Parts p) {
                    parts.addAll(p.parts());
                }
            }
            parts.sort(java.util.Comparator.comparingLong(Part::start));
            long length = fileLength();
            List<Path> ordered = new ArrayList<>();
            List<Long> bounds = new ArrayList<>(List.of(0L));
            long pos = 0;
            int gaps = 0;
            for (Part p : parts) {
                if (p.start() < pos) {
                    throw new IllegalArgumentException("fileview: element at byte " + p.start() + " of " + path
                            + " is given twice, by two tasks (expected: each " + "element once)");
                }
                if (p.start() > pos) {
                    ordered.add(zeroPart(fs, path, gaps++, p.start() - pos));
                    bounds.add(p.start());
                }
                ordered.add(new Path(p.part()));
                bounds.add(p.end());
                pos = p.end();
            }
            if (pos < length || length == 0) {
                ordered.add(zeroPart(fs, path, gaps, length - pos));
                bounds.add(Math.max(length, 1));
            }
            for (int i = 0; i < ordered.size(); i++) {
                Path to = ViewWriter.partPath(path, jobId, i);
                if (!fs.rename(ordered.get(i), to)) {
                    throw new IOException("fileview: could not rename " + ordered.get(i) + " to " + to);
                }
            }
            if (truncate && fs.exists(path) && !fs.delete(path, false)) {
                throw new IOException("fileview: could not delete " + path + " to overwrite it");
            }
            if (length == 0) {
                fs.rename(
                        ViewWriter.partPath(path, jobId, 0),
                        path); // an empty shape: an empty file (the zero part is empty)
                return;
            }
            ViewWriter.assemble(
                    fs,
                    path,
                    FileDomains.of(bounds.stream().mapToLong(Long::longValue).toArray()),
                    jobId);
        } catch (IOException e) {
            discard(fs, path);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            discard(fs, path);
            throw e;
        }
    }

    private Path zeroPart(FileSystem fs, Path path, int k, long bytes) throws IOException {
        Path z = new Path(path.getParent(), "." + path.getName() + "." + jobId + ".zeros-" + k);
        try (FSDataOutputStream out = fs.create(z, false)) {
            FileViewPartWriter.zeros(out, bytes);
        }
        return z;
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        Path path = new Path(spec.path);
        try {
            discard(path.getFileSystem(hadoopConf()), path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void discard(FileSystem fs, Path path) {
        if (fs == null) {
            return;
        }
        try {
            ViewWriter.discardWrite(fs, path, jobId);
        } catch (IOException ignored) {
            // Best effort: the failure being reported matters more.
        }
    }
}
