package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.fileview.ViewReader;
import dev.layout.normalize.Normalizer;
import dev.layout.notation.LayoutParser;
import dev.layout.spark.testing.LocalSparkExtension;
import dev.layout.spark.testing.MiniDfsExtension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fileview data source against a sequential {@link ViewReader}: on a MiniDFSCluster with 4 KiB
 * blocks (several partitions) and on the local file system. Array element at linear index k holds
 * {@code k * 1.5}, so every row's value also names its coordinates.
 */
@Tag("spark")
@Tag("hdfs")
@ExtendWith({LocalSparkExtension.class, MiniDfsExtension.class})
class FileViewSourceIT {
    static final int R = 64;
    static final int C = 48;
    static String hdfsArray;
    static FileSystem hdfs;

    @BeforeAll
    static void writeArray(FileSystem fs) throws IOException {
        hdfs = fs;
        Path p = new Path("/data/a.f64");
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, 4096)) {
            out.write(array(R * C, 0));
        }
        hdfsArray = fs.getUri() + "/data/a.f64";
    }

    static byte[] array(int n, int disp) {
        ByteBuffer b = ByteBuffer.allocate(disp + n * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
            b.putDouble(disp + k * 8, k * 1.5);
        }
        return b.array();
    }

    static DataFrameReader fileview(SparkSession spark, String path, Map<String, String> opts) {
        return spark.read().format("fileview").option("path", path).options(opts);
    }

    /** Sequential reference: the view's elements in view order. */
    static double[] sequential(FileSystem fs, String path, FileView view) throws IOException {
        int n = (int) view.etypesPerTile();
        byte[] b = new byte[n * 8];
        try (ViewReader r = ViewReader.open(fs, new Path(path), view)) {
            r.readAt(0, b, 0, Primitive.FLOAT64, n);
        }
        double[] out = new double[n];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }

    /** Rows (i0, i1, value) sorted by value, checked against the sequential values (sorted) and value = 1.5 * (i0 * C + i1). */
    static void assertSameElements(List<Row> rows, double[] expected) {
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingDouble(r -> r.getDouble(2)));
        double[] exp = expected.clone();
        java.util.Arrays.sort(exp);
        assertThat(sorted).hasSize(exp.length);
        for (int i = 0; i < exp.length; i++) {
            Row r = sorted.get(i);
            assertThat(r.getDouble(2)).isEqualTo(exp[i]);
            assertThat(1.5 * (r.getInt(0) * (long) C + r.getInt(1))).isEqualTo(r.getDouble(2));
        }
    }

    @Test
    void subarrayFromHdfsMatchesSequentialRead(SparkSession spark) throws IOException {
        Dataset<Row> df = fileview(
                        spark, hdfsArray, Map.of("etype", "float64", "shape", R + "x" + C, "subarray", "8:40,4:30"))
                .load();
        assertThat(df.columns()).containsExactly("i0", "i1", "value");
        assertThat(df.rdd().getNumPartitions()).isGreaterThan(1);
        FileView view = new FileView(
                0,
                Primitive.FLOAT64,
                Datatype.subarray(
                        new long[] {R, C},
                        new long[] {32, 26},
                        new long[] {8, 4},
                        dev.layout.datatype.Order.C,
                        Primitive.FLOAT64));
        assertSameElements(df.collectAsList(), sequential(hdfs, hdfsArray, view));
        // the same through the filetype in the notation
        Dataset<Row> viaNotation = fileview(
                        spark,
                        hdfsArray,
                        Map.of("etype", "float64", "filetype", view.filetype().toString()))
                .load();
        assertSameElements(viaNotation.collectAsList(), sequential(hdfs, hdfsArray, view));
    }

    @Test
    void theFiletypeShipsNormalizedAndReadsGiveTheSameRows(SparkSession spark) throws Exception {
        // The box [8, 40) x [4, 30) given as the list of its 32 row starts (bytes): the least-cost
        // description is a vector of rows, which is what the executors get.
        long[] rows = new long[32];
        for (int r = 0; r < rows.length; r++) {
            rows[r] = ((8L + r) * C + 4) * 8;
        }
        Datatype given = Datatype.hindexedBlock(1, rows, Datatype.contiguous(26, Primitive.FLOAT64));
        Datatype normalized = Normalizer.defaults().normalize(given);
        assertThat(normalized.toString().length()).isLessThan(given.toString().length());
        Map<String, String> opts = Map.of("etype", "float64", "shape", R + "x" + C, "filetype", given.toString());

        Map<String, String> withPath = new java.util.HashMap<>(opts);
        withPath.put("path", hdfsArray);
        FileViewSpec spec = FileViewSpec.parse(withPath);
        FileViewReaderFactory factory = (FileViewReaderFactory)
                new FileViewScan(spec, spec.schema(), new org.apache.spark.sql.sources.Filter[0]).createReaderFactory();
        FileViewReaderFactory onExecutor = javaRoundTrip(factory); // as Spark ships it to a task
        assertThat(onExecutor.spec().shippedFiletype).isEqualTo(normalized.toString());
        assertThat(onExecutor.spec().filetypeType()).isEqualTo(normalized);

        Dataset<Row> df = fileview(spark, hdfsArray, opts).load();
        List<Row> got = df.collectAsList();
        assertSameElements(got, sequential(hdfs, hdfsArray, new FileView(0, Primitive.FLOAT64, given)));
        // the same rows in the same order as the equivalent box option
        List<Row> box = fileview(
                        spark, hdfsArray, Map.of("etype", "float64", "shape", R + "x" + C, "subarray", "8:40,4:30"))
                .load()
                .collectAsList();
        assertThat(got).containsExactlyElementsOf(box);
    }

    @SuppressWarnings("unchecked")
    static <T> T javaRoundTrip(T o) throws IOException, ClassNotFoundException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void darrayFromHdfsMatchesSequentialRead(SparkSession spark) throws IOException {
        String ft = "darray(6, 4, [64,48], [cyclic,block], [3,default], [2,3], C, float64)";
        FileView view = FileView.parse(0, "float64", ft);
        double[] expected = sequential(hdfs, hdfsArray, view);
        Dataset<Row> df = fileview(spark, hdfsArray, Map.of("etype", "float64", "filetype", ft))
                .load();
        assertSameElements(df.collectAsList(), expected);
        // and through the darray options
        Dataset<Row> opts = fileview(
                        spark,
                        hdfsArray,
                        Map.of(
                                "etype",
                                "float64",
                                "shape",
                                "64x48",
                                "procs",
                                "2x3",
                                "rank",
                                "4",
                                "distribs",
                                "cyclic,block",
                                "dargs",
                                "3,default"))
                .load();
        assertSameElements(opts.collectAsList(), expected);
        // rows come in view order within the (ordered) partitions
        List<Row> rows = df.collectAsList();
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i).getDouble(2)).isEqualTo(expected[i]);
        }
    }

    @Test
    void partitionsFollowBlocksWithHosts(SparkSession spark) {
        Dataset<Row> df = fileview(spark, hdfsArray, Map.of("etype", "float64", "shape", R + "x" + C))
                .load();
        // 24 KiB in 4 KiB blocks: 6 partitions, each one block, with the datanode as preferred host
        assertThat(df.rdd().getNumPartitions()).isEqualTo(6);
        FileViewSpec spec = FileViewSpec.parse(Map.of("path", hdfsArray, "etype", "float64", "shape", R + "x" + C));
        org.apache.spark.sql.connector.read.InputPartition[] parts =
                new FileViewScan(spec, spec.schema(), new org.apache.spark.sql.sources.Filter[0]).planInputPartitions();
        assertThat(parts).hasSize(6);
        for (int i = 0; i < parts.length; i++) {
            FileViewInputPartition p = (FileViewInputPartition) parts[i];
            assertThat(p.start()).isEqualTo(i * 512L);
            assertThat(p.end()).isEqualTo((i + 1) * 512L);
            assertThat(p.preferredLocations())
                    .as("preferred locations of partition " + i)
                    .isNotEmpty();
        }
        assertThat(df.count()).isEqualTo((long) R * C);
        assertThat(df.select("value")
                        .agg(org.apache.spark.sql.functions.sum("value"))
                        .first()
                        .getDouble(0))
                .isEqualTo(1.5 * (R * C - 1) * R * C / 2.0);
    }

    @Test
    void coordinateFiltersArePushedIntoTheView(SparkSession spark) {
        Map<String, String> opts = Map.of("etype", "float64", "shape", R + "x" + C, "subarray", "4:60,0:48");
        Dataset<Row> df = fileview(spark, hdfsArray, opts).load();
        Dataset<Row> filtered = df.filter("i0 >= 10 AND i0 < 20 AND i1 = 7 AND value > 0");
        String plan = filtered.queryExecution().executedPlan().toString();
        assertThat(plan)
                .contains("PushedFilters: [")
                .contains("GreaterThanOrEqual(i0,10)")
                .contains("LessThan(i0,20)")
                .contains("EqualTo(i1,7)");
        List<Row> pushed = filtered.collectAsList();
        List<Row> reference = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            if (r.getInt(0) >= 10 && r.getInt(0) < 20 && r.getInt(1) == 7 && r.getDouble(2) > 0) {
                reference.add(r);
            }
        }
        assertThat(pushed).hasSize(10).containsExactlyInAnyOrderElementsOf(reference);
        // a box outside the subarray reads nothing; IN narrows to its range and is evaluated again
        assertThat(df.filter("i0 > 100").count()).isZero();
        assertThat(df.filter("i1 IN (3, 9) AND i0 = 5").collectAsList())
                .extracting(r -> r.getInt(1))
                .containsExactlyInAnyOrder(3, 9);
        // pruning: only the needed columns
        assertThat(df.select("i1").filter("i0 = 5").count()).isEqualTo(C);
    }

    @Test
    void structEtypeAndShapelessViewsOnLocalFs(SparkSession spark, @TempDir java.nio.file.Path tmp) throws IOException {
        Datatype et = LayoutParser.parse("struct([1,1], [0,8], [float64,int32])");
        int ext = (int) et.extent();
        int n = 10 * 12;
        ByteBuffer b = ByteBuffer.allocate(16 + n * ext).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
            b.putDouble(16 + k * ext, k * 1.5);
            b.putInt(16 + k * ext + 8, k);
        }
        java.nio.file.Path f = tmp.resolve("s.bin");
        Files.write(f, b.array());
        Dataset<Row> df = fileview(
                        spark,
                        f.toUri().toString(),
                        Map.of(
                                "etype",
                                et.toString(),
                                "disp",
                                "16",
                                "shape",
                                "10x12",
                                "starts",
                                "2,3",
                                "subsizes",
                                "5x6"))
                .load();
        assertThat(df.columns()).containsExactly("i0", "i1", "v0", "v1");
        List<Row> rows = df.collectAsList();
        assertThat(rows).hasSize(30);
        for (Row r : rows) {
            long k = r.getInt(0) * 12L + r.getInt(1);
            assertThat(r.getInt(0)).isBetween(2, 6);
            assertThat(r.getInt(1)).isBetween(3, 8);
            assertThat(r.getDouble(2)).isEqualTo(k * 1.5);
            assertThat(r.getInt(3)).isEqualTo((int) k);
        }
        // shapeless: a vector filetype tiled over the file, coordinates are element indices
        java.nio.file.Path g = tmp.resolve("v.f64");
        Files.write(g, array(40, 0));
        Dataset<Row> v = fileview(
                        spark, g.toUri().toString(), Map.of("etype", "float64", "filetype", "vector(2, 2, 5, float64)"))
                .load();
        List<Row> vr = v.collectAsList();
        // extent of the vector: 7 doubles; tiles fit while 7t + 7 <= 40 -> 5 tiles of 4 elements
        assertThat(vr).hasSize(20);
        FileView view = FileView.parse(0, "float64", "vector(2, 2, 5, float64)");
        byte[] seq = new byte[20 * 8];
        FileSystem local = FileSystem.getLocal(new Configuration());
        try (ViewReader r = ViewReader.open(local, new Path(g.toUri()), view)) {
            r.readAt(0, seq, 0, Primitive.FLOAT64, 20);
        }
        ByteBuffer sb = ByteBuffer.wrap(seq).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 20; i++) {
            assertThat(vr.get(i).getDouble(1)).isEqualTo(sb.getDouble(i * 8));
            assertThat(vr.get(i).getLong(0) * 1.5).isEqualTo(vr.get(i).getDouble(1));
        }
    }

    @Test
    void fortranOrderReadsAndWrites(SparkSession spark, @TempDir java.nio.file.Path tmp) throws IOException {
        // 10x12 in F order: element (i0, i1) at linear index i0 + 10 * i1, holding 1.5 times that
        java.nio.file.Path f = tmp.resolve("f.f64");
        Files.write(f, array(120, 0));
        Map<String, String> opts = Map.of("etype", "float64", "shape", "10x12", "order", "F");
        Dataset<Row> df = fileview(
                        spark,
                        f.toUri().toString(),
                        Map.of("etype", "float64", "shape", "10x12", "order", "F", "subarray", "2:5,3:7"))
                .load();
        List<Row> rows = df.collectAsList();
        assertThat(rows).hasSize(12);
        for (Row r : rows) {
            assertThat(r.getInt(0)).isBetween(2, 4);
            assertThat(r.getInt(1)).isBetween(3, 6);
            assertThat(r.getDouble(2)).isEqualTo(1.5 * (r.getInt(0) + 10 * r.getInt(1)));
        }
        assertThat(df.filter("i1 = 4").count()).isEqualTo(3);
        String copy = tmp.resolve("copy.f64").toUri().toString();
        fileview(spark, f.toUri().toString(), opts)
                .load()
                .write()
                .format("fileview")
                .option("path", copy)
                .options(opts)
                .mode("append")
                .save();
        assertThat(Files.readAllBytes(tmp.resolve("copy.f64"))).isEqualTo(array(120, 0));
    }

    @Test
    void writesRoundTripOnHdfsAndLocalFs(SparkSession spark, @TempDir java.nio.file.Path tmp) throws IOException {
        Map<String, String> opts = Map.of("etype", "float64", "shape", R + "x" + C);
        Dataset<Row> df = fileview(spark, hdfsArray, opts).load();
        String target = hdfs.getUri() + "/out/copy.f64";
        df.write()
                .format("fileview")
                .option("path", target)
                .options(opts)
                .mode("append")
                .save();
        byte[] copy = new byte[R * C * 8];
        try (var in = hdfs.open(new Path(target))) {
            in.readFully(0, copy);
        }
        assertThat(copy).isEqualTo(array(R * C, 0));
        assertThat(hdfs.getFileStatus(new Path(target)).getLen()).isEqualTo(R * C * 8L);
        // an existing file is refused without overwrite; overwrite replaces it
        assertThatThrownBy(() -> df.write()
                        .format("fileview")
                        .option("path", target)
                        .options(opts)
                        .mode("append")
                        .save())
                .hasStackTraceContaining("already exists");
        df.withColumn("value", org.apache.spark.sql.functions.col("value").multiply(2))
                .write()
                .format("fileview")
                .option("path", target)
                .options(opts)
                .mode("overwrite")
                .save();
        assertThat(fileview(spark, target, opts)
                        .load()
                        .filter("i0 = 3 AND i1 = 5")
                        .first()
                        .getDouble(2))
                .isEqualTo(2 * 1.5 * (3 * C + 5));
        // local: a subarray written into a zero-filled dense array, int32 from computed rows
        String local = tmp.resolve("sub.i32").toUri().toString();
        Map<String, String> small = Map.of("etype", "int32", "shape", "6x5");
        spark.range(0, 12)
                .selectExpr(
                        "CAST(id DIV 4 + 1 AS INT) AS i0", "CAST(id % 4 AS INT) AS i1", "CAST(id * 7 AS INT) AS value")
                .repartition(3)
                .write()
                .format("fileview")
                .option("path", local)
                .options(small)
                .mode("append")
                .save();
        ByteBuffer bb =
                ByteBuffer.wrap(Files.readAllBytes(tmp.resolve("sub.i32"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(bb.capacity()).isEqualTo(6 * 5 * 4);
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 5; j++) {
                int expected = i >= 1 && i <= 3 && j < 4 ? ((i - 1) * 4 + j) * 7 : 0;
                assertThat(bb.getInt((i * 5 + j) * 4)).as("element %d,%d", i, j).isEqualTo(expected);
            }
        }
        List<Row> back =
                fileview(spark, local, small).load().filter("value <> 0").collectAsList();
        assertThat(back).hasSize(11);
    }
}
