package dev.layout.jobs.fileview;

import dev.layout.jobs.JobOptions;
import dev.layout.jobs.SparkJobs;
import dev.layout.spark.conf.FileViewOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * {@code layout-submit fileview-read}: reads a view of a binary array file (HDFS or local) into a
 * DataFrame through the {@code fileview} data source, prints the row count and, per value column,
 * min, max and mean (and the coordinates' ranges), and optionally writes the rows as Parquet.
 *
 * <p>{@code --view}: {@code all} (the whole array of {@code --shape}, or the whole file as a
 * sequence of etypes without a shape), {@code subarray:LO:HI,LO:HI} (half-open ranges),
 * {@code darray:PROCS:RANK[:DISTRIBS[:DARGS]]} (e.g. {@code darray:2x3:4:cyclic,block:3,default}),
 * or any filetype in the layout notation (e.g. {@code subarray([64,48],[8,8],[0,0],C,float64)}).
 */
public final class FileViewReadJob {
    private FileViewReadJob() {}

    static JobOptions options() {
        return new JobOptions(
                "fileview-read",
                List.of(
                        new JobOptions.Option("file", null, "the array file: a local path or hdfs://host:port/path"),
                        new JobOptions.Option(
                                "etype",
                                "float64",
                                "element type in the layout notation (a primitive or a struct of primitives)"),
                        new JobOptions.Option("disp", "0", "displacement of the array in the file, in bytes"),
                        new JobOptions.Option(
                                "shape",
                                "",
                                "global array shape, slowest dimension first, e.g. 512x512 (needed by all/subarray/darray views)"),
                        new JobOptions.Option("order", "C", "storage order of the array: C or F"),
                        new JobOptions.Option(
                                "view",
                                "all",
                                "all | subarray:LO:HI,LO:HI | darray:PROCS:RANK[:DISTRIBS[:DARGS]] | a filetype in layout notation"),
                        new JobOptions.Option(
                                "split-bytes",
                                "0",
                                "maximum file bytes per input partition (0: the file's block size)"),
                        new JobOptions.Option(
                                "out",
                                "",
                                "optional: write the rows (coordinates and values) as Parquet to this path")));
    }

    public static void main(String[] args) {
        System.exit(SparkJobs.run("fileview-read", options(), args, FileViewReadJob::run));
    }

    /** The data source options for the job options (validated before Spark starts). */
    static Map<String, String> sourceOptions(JobOptions o) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(FileViewOptions.PATH, o.get("file"));
        m.put(FileViewOptions.ETYPE, o.get("etype"));
        m.put(FileViewOptions.DISP, Long.toString(o.getLong("disp", 0, Long.MAX_VALUE)));
        m.put(FileViewOptions.ORDER, o.getChoice("order", "C", "F"));
        String shape = o.get("shape");
        if (!shape.isEmpty()) {
            o.getDims("shape", 1, 32);
            m.put(FileViewOptions.SHAPE, shape);
        }
        long split = o.getLong("split-bytes", 0, Long.MAX_VALUE);
        if (split > 0) {
            m.put(FileViewOptions.SPLIT_BYTES, Long.toString(split));
        }
        String view = o.get("view").trim();
        if (view.equals("all")) {
            return m;
        }
        if (view.startsWith("subarray:")) {
            requireShape(shape, view);
            m.put(FileViewOptions.SUBARRAY, view.substring("subarray:".length()));
        } else if (view.startsWith("darray:")) {
            requireShape(shape, view);
            String[] p = view.substring("darray:".length()).split(":");
            if (p.length < 2 || p.length > 4) {
                throw new IllegalArgumentException("fileview-read: --view " + view
                        + " (expected: darray:PROCS:RANK[:DISTRIBS[:DARGS]], e.g. darray:2x2:1)");
            }
            m.put(FileViewOptions.PROCS, p[0]);
            m.put(FileViewOptions.RANK, p[1]);
            if (p.length > 2) {
                m.put(FileViewOptions.DISTRIBS, p[2]);
            }
            if (p.length > 3) {
                m.put(FileViewOptions.DARGS, p[3]);
            }
        } else {
            m.put(FileViewOptions.FILETYPE, view);
        }
        return m;
    }

    /**
     * The file exists, and holds the whole array when {@code --shape} is given: checked on the
     * driver, so a missing or short file is one line before Spark starts.
     */
    static void checkFile(JobOptions o) throws java.io.IOException {
        String shape = o.get("shape");
        long bytes = o.getLong("disp", 0, Long.MAX_VALUE);
        if (!shape.isEmpty()) {
            long n = dev.layout.fileview.FileView.parse(0, o.get("etype"), o.get("etype"))
                    .etype()
                    .byteSize();
            for (int s : o.getDims("shape", 1, 32)) {
                n = Math.multiplyExact(n, s);
            }
            bytes = Math.addExact(bytes, n);
        }
        org.apache.hadoop.fs.Path p = dev.layout.jobs.output.OutputDirectory.resolve("file", o.get("file"));
        org.apache.hadoop.fs.FileStatus st;
        try {
            st = p.getFileSystem(dev.layout.jobs.SparkJobs.hadoopConf()).getFileStatus(p);
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalArgumentException("fileview-read: --file " + o.get("file") + ": no such file");
        }
        if (st.isDirectory() || st.getLen() < bytes) {
            throw new IllegalArgumentException("fileview-read: --file " + o.get("file") + ": "
                    + (st.isDirectory() ? "a directory" : st.getLen() + " bytes") + " (expected: at least " + bytes
                    + " bytes, --disp plus the --shape array of --etype)");
        }
    }

    private static void requireShape(String shape, String view) {
        if (shape.isEmpty()) {
            throw new IllegalArgumentException(
                    "fileview-read: --view " + view + " needs --shape (expected: e.g. --shape 512x512)");
        }
    }

    static int run(JobOptions o) throws Exception {
        Map<String, String> opts = sourceOptions(o);
        checkFile(o);
        String out = o.get("out");
        SparkSession spark = SparkJobs.session("layout fileview-read");
        try {
            Dataset<Row> df = spark.read()
                    .format(FileViewOptions.SHORT_NAME)
                    .options(opts)
                    .load();
            System.out.println(
                    "fileview-read: " + opts.get(FileViewOptions.PATH) + " view " + o.get("view") + ", columns "
                            + df.schema().simpleString() + ", " + df.rdd().getNumPartitions() + " partition(s)");
            List<Column> aggs = new ArrayList<>();
            aggs.add(functions.count(functions.lit(1)).alias("count"));
            List<String> names = List.of(df.columns());
            for (String c : names) {
                aggs.add(functions.min(c));
                aggs.add(functions.max(c));
                aggs.add(functions.avg(c));
            }
            Row s = df.agg(aggs.get(0), aggs.subList(1, aggs.size()).toArray(new Column[0]))
                    .first();
            long count = s.getLong(0);
            System.out.println("fileview-read: count " + count);
            for (int i = 0; i < names.size(); i++) {
                String c = names.get(i);
                Object mn = s.get(1 + 3 * i);
                Object mx = s.get(2 + 3 * i);
                Object mean = s.get(3 + 3 * i);
                boolean coordinate = c.matches(FileViewOptions.COORDINATE_PREFIX + "\\d+");
                if (coordinate) {
                    System.out.printf(Locale.ROOT, "fileview-read: %s range [%s, %s]%n", c, mn, mx);
                } else {
                    System.out.printf(
                            Locale.ROOT,
                            "fileview-read: %s min %s max %s mean %s%n",
                            c,
                            mn,
                            mx,
                            mean == null ? "null" : String.format(Locale.ROOT, "%.10g", ((Number) mean).doubleValue()));
                }
            }
            if (!out.isEmpty()) {
                df.write().mode("errorifexists").parquet(out);
                System.out.println("fileview-read: wrote " + count + " rows as Parquet to " + out);
            }
            return 0;
        } finally {
            spark.stop();
        }
    }
}
