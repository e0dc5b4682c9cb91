package dev.layout.spark.source;

import dev.layout.fileview.DomainPart;
import dev.layout.fileview.FileDomains;
import dev.layout.fileview.ViewWriter;
import dev.layout.spark.io.DomainOutput;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
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
 * from the executors, with the write path of {@link dev.layout.spark.io.CollectiveFile} ({@link
 * DomainOutput}). The file is split into file domains (of whole file system blocks, one per core at
 * most); each task gathers its rows and writes them in file order, window by window (see {@link
 * FileViewPartWriter}):
 * on the local file system in place into one hidden shared file ({@code .NAME.JOBID.whole},
 * made before the tasks run), elsewhere into one part per domain beside the target ({@code
 * .NAME.JOBID.task-NNNNN.domain-DDDDD}), zeros between rows. The driver's commit checks that no
 * element was given by two tasks (naming its coordinates), then renames the shared file, or orders
 * the parts, adds zero parts for the element ranges no task covers (none when every coordinate is
 * given) and joins them ({@code concat} on HDFS). The commit and abort fence the tasks first (a
 * late task attempt opens nothing and leaves nothing, see {@link DomainOutput}); abort removes
 * everything. So nothing appears at the target unless every task's rows are in it, no row passes
 * through the driver, and on the local file system no byte is copied. Mode {@code append} creates
 * a new file and refuses an existing one; mode {@code overwrite} replaces it in one rename on the
 * local file system and HDFS (a reader sees the old file or the new one, never none).
 *
 * <p>On the local file system the rows are only clustered (hashed on their slowest coordinates):
 * a range partitioning would cost a sampling job over the input that an in-place write does not
 * need. Spark does not sort them within a task: the task orders its rows by window itself, with
 * a counting pass over compact arrays instead of a general row sort. See {@link
 * #requiredDistribution} and {@link #requiredOrdering}.
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

    /**
     * The weakest distribution each sink needs, on the slowest coordinates in storage order (as many
     * of them as give 64 values per task, so the rows spread evenly even when the slowest dimension
     * is short). On the local file system the tasks write in place into the one shared file, anywhere
     * in it, so rows need only be clustered so that equal coordinates meet in one task (hashed: one
     * shuffle, no sampling job). Elsewhere each task streams parts of whole ranges that the commit
     * joins, so the rows are ranged (a range partitioning on sampled bounds): without a function
     * catalog, a path-based write cannot cluster on a computed domain number.
     */
    @Override
    public Distribution requiredDistribution() {
        SortOrder[] order = Arrays.copyOf(storageOrder(), clusterPrefix());
        if (!sharedFile()) {
            return Distributions.ordered(order);
        }
        return Distributions.clustered(
                Arrays.stream(order).map(SortOrder::expression).toArray(Expression[]::new));
    }

    /** How many of the slowest coordinates (in storage order) to distribute by: enough for 64 values per task. */
    private int clusterPrefix() {
        int d = coordColumns.length;
        long values = 1;
        long want = 64L * requiredNumPartitions();
        for (int k = 0; k < d; k++) {
            int dim = spec.order == dev.layout.datatype.Order.C ? k : d - 1 - k;
            values *= spec.shape[dim]; // a prefix of the shape: no more than the element count
            if (values >= want) {
                return k + 1;
            }
        }
        return d;
    }

    /**
     * None: a task orders its rows by window itself ({@link WindowRuns}). Spark's sort within a task
     * (copy every row into its pages, sort, read back) cost about as much CPU as the whole shuffle
     * before it.
     */
    @Override
    public SortOrder[] requiredOrdering() {
        return new SortOrder[0];
    }

    /** Bytes of the file a write task assembles at a time (see {@link FileViewPartWriter}). */
    static final long WINDOW_BYTES = 4L << 20;

    /** Bytes of rows (index and element) a write task holds before it writes them to a local temporary file. */
    static final long RUN_BYTES = 64L << 20;

    /**
     * Elements of a window: {@link #WINDOW_BYTES}, no more than the file holds (each task has a
     * window buffer), more where the file would have more than 2^20 windows.
     */
    private long windowElements() {
        long esize = spec.etypeType().byteSize();
        long elements = spec.elementCount();
        long most = 1L << 20;
        return Math.max(1, Math.max(Math.min(elements, WINDOW_BYTES / esize), (elements + most - 1) / most));
    }

    /** Rows of a run: {@link #RUN_BYTES} of an index, an element and a position in the run's order each. */
    private int runRows() {
        return (int) Math.max(1, RUN_BYTES / (spec.etypeType().byteSize() + 12));
    }

    private boolean sharedFile() {
        try {
            Path path = new Path(spec.path);
            return DomainOutput.shared(path.getFileSystem(hadoopConf()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One task per file domain (domains of whole blocks where the file has several, one per core at
     * most), or on the local file system one per core.
     */
    @Override
    public int requiredNumPartitions() {
        return sharedFile()
                ? Math.max(1, SparkSession.active().sparkContext().defaultParallelism())
                : domains().count();
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

    /** Opens the write (the shared file or the write's marker, see {@link DomainOutput#begin}) before any task runs. */
    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        Path path = new Path(spec.path);
        try {
            FileSystem fs = path.getFileSystem(hadoopConf());
            DomainOutput.begin(fs, path, jobId, fileLength());
            return new FileViewPartWriter.Factory(
                    spec,
                    schema,
                    coordColumns,
                    memberColumns,
                    HadoopConf.of(hadoopConf()),
                    jobId,
                    domains(),
                    fs.getDefaultBlockSize(path),
                    windowElements(),
                    runRows());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Checks that no element was written by two tasks, then makes the file: on the local file system
     * renames the shared file the tasks wrote in place (no byte copied); elsewhere orders the tasks'
     * parts by file offset, adds zero parts for what no task covered and joins them with {@link
     * DomainOutput#commit} ({@code concat} on HDFS, metadata only). No row data through the driver.
     */
    @Override
    public void commit(WriterCommitMessage[] messages) {
        Path path = new Path(spec.path);
        FileSystem fs = null;
        try {
            fs = path.getFileSystem(hadoopConf());
            DomainOutput.fence(fs, path, jobId);
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
            long pos = 0;
            // In the shared file the tasks' rows interleave; equal coordinates met in one task (clustered).
            for (Part p : DomainOutput.shared(fs) ? List.<Part>of() : parts) {
                if (p.start() < pos) {
                    long lin = (p.start() - spec.disp) / spec.etypeType().byteSize();
                    throw new IllegalArgumentException("fileview: coordinate "
                            + new ElementIndex(spec.shape, spec.order).coordinates(lin) + " of " + path
                            + " is given twice, by two tasks (expected: each element once)");
                }
                pos = p.end();
            }
            FileDomains joined = DomainOutput.shared(fs) ? sharedDomains(length) : partsInOrder(fs, path, parts);
            DomainOutput.commit(fs, path, jobId, joined, truncate);
        } catch (IOException e) {
            discard(fs, path);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            discard(fs, path);
            throw e;
        }
    }

    private static FileDomains sharedDomains(long length) {
        return length == 0 ? null : FileDomains.of(0, length);
    }

    /**
     * Renames the tasks' parts (sorted by offset), with zero parts made for the ranges between them,
     * to the domain parts of {@link ViewWriter#assemble}; returns their domains (null: an empty file).
     */
    private FileDomains partsInOrder(FileSystem fs, Path path, List<Part> parts) throws IOException {
        long length = fileLength();
        if (length == 0) {
            return null;
        }
        List<Path> ordered = new ArrayList<>();
        List<Long> bounds = new ArrayList<>(List.of(0L));
        long pos = 0;
        int gaps = 0;
        for (Part p : parts) {
            if (p.start() > pos) {
                ordered.add(zeroPart(fs, path, gaps++, pos, p.start()));
                bounds.add(p.start());
            }
            ordered.add(new Path(p.part()));
            bounds.add(p.end());
            pos = p.end();
        }
        if (pos < length) {
            ordered.add(zeroPart(fs, path, gaps, pos, length));
            bounds.add(length);
        }
        for (int i = 0; i < ordered.size(); i++) {
            Path to = ViewWriter.partPath(path, jobId, i);
            if (!fs.rename(ordered.get(i), to)) {
                throw new IOException("fileview: could not rename " + ordered.get(i) + " to " + to);
            }
        }
        return FileDomains.of(bounds.stream().mapToLong(Long::longValue).toArray());
    }

    /** Zeros for file bytes [start, end) no task wrote, as a part beside the target. */
    private Path zeroPart(FileSystem fs, Path path, int k, long start, long end) throws IOException {
        Path z = DomainOutput.rangePart(path, jobId, "zeros-" + k);
        try (DomainPart part = DomainPart.createRange(fs, path, z, start, end, fs.getDefaultBlockSize(path))) {
            part.skipTo(end);
            part.commit();
        }
        return z;
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        Path path = new Path(spec.path);
        try {
            DomainOutput.abort(path.getFileSystem(hadoopConf()), path, jobId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void discard(FileSystem fs, Path path) {
        if (fs == null) {
            return;
        }
        try {
            DomainOutput.abort(fs, path, jobId);
        } catch (IOException ignored) {
            // Best effort: the failure being reported matters more.
        }
    }
}
