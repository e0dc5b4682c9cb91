package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.DomainOutput;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DataWriter;

/**
 * The write tasks of {@link FileViewWrite} against a naive byte model: a random shape (C or F
 * order), displacement and element type, a random subset of its elements dealt to 1-3 tasks in
 * groups (hashed as Spark's clustering does for the shared file, in ranges as its range partitioning
 * does for parts), each task's rows in random order (Spark does not sort them), random windows and
 * runs so small that tasks spill, random file domains (bounds anywhere, even inside an element). In the local file system's shared file every byte must be the model's; elsewhere (a
 * file system without positional writes: parts) every part must hold the model's bytes of its range.
 */
class FileViewPartWriterPropertyTest {
    /** The local file system seen as any other: no shared file, so the tasks write parts. */
    public static class PartsFileSystem extends FilterFileSystem {
        public PartsFileSystem() {
            super(new RawLocalFileSystem());
        }

        @Override
        public String getScheme() {
            return "file";
        }
    }

    @Property(tries = 60)
    void tasksWriteTheModelsBytes(
            @ForAll @IntRange(min = 1, max = 3) int dims,
            @ForAll boolean fortran,
            @ForAll boolean int32,
            @ForAll boolean parts,
            @ForAll @IntRange(min = 1, max = 3) int tasks,
            @ForAll @IntRange(min = 0, max = 100) int percentGiven,
            @ForAll long seed)
            throws Exception {
        Random rnd = new Random(seed);
        long[] shape = new long[dims];
        for (int d = 0; d < dims; d++) {
            shape[d] = 1 + rnd.nextInt(9);
        }
        int esize = int32 ? 4 : 8;
        long disp = rnd.nextInt(17);
        Path dir = Files.createTempDirectory("partwriter");
        try {
            String name = dir.resolve("a.bin").toString();
            Map<String, String> o = new HashMap<>(Map.of(
                    "path",
                    name,
                    "etype",
                    int32 ? "int32" : "float64",
                    "shape",
                    String.join(
                            "x", Arrays.stream(shape).mapToObj(Long::toString).toList()),
                    "order",
                    fortran ? "F" : "C",
                    "disp",
                    Long.toString(disp)));
            FileViewSpec spec = FileViewSpec.parse(o);
            ElementIndex index = new ElementIndex(shape, spec.order);
            long count = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
            int length = (int) (disp + count * esize);
            long group = 1 + rnd.nextInt((int) count);
            TreeSet<Long> bounds = new TreeSet<>(List.of(0L, (long) length));
            for (int i = rnd.nextInt(4); i > 0; i--) {
                bounds.add((long) rnd.nextInt(length + 1));
            }
            FileDomains domains =
                    FileDomains.of(bounds.stream().mapToLong(Long::longValue).toArray());

            Configuration conf = new Configuration();
            if (parts) {
                conf.set("fs.file.impl", PartsFileSystem.class.getName());
                conf.setBoolean("fs.file.impl.disable.cache", true);
            }
            org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(name);
            FileSystem fs = target.getFileSystem(conf);
            assertThat(DomainOutput.shared(fs)).isEqualTo(!parts);
            DomainOutput.begin(fs, target, "job1", length);
            var factory = new FileViewPartWriter.Factory(
                    spec,
                    spec.schema(),
                    java.util.stream.IntStream.range(0, dims).toArray(),
                    new int[] {dims},
                    HadoopConf.of(conf),
                    "job1",
                    domains,
                    1 << 20,
                    1 + rnd.nextInt((int) count),
                    1 + rnd.nextInt(20));

            // the model, and each task's rows: in groups, in random order
            ByteBuffer model = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            List<List<long[]>> rows = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                rows.add(new ArrayList<>());
            }
            long groups = (count + group - 1) / group;
            for (long s = 0; s < groups; s++) {
                for (long lin = s * group; lin < Math.min(count, (s + 1) * group); lin++) {
                    if (rnd.nextInt(100) < percentGiven) {
                        long[] x = new long[dims + 1];
                        for (int d = 0; d < dims; d++) {
                            x[d] = lin / index.stride(d) % shape[d];
                        }
                        x[dims] = lin;
                        rows.get((int) (parts ? s * tasks / groups : s % tasks)).add(x);
                        int at = (int) (disp + lin * esize);
                        if (int32) {
                            model.putInt(at, (int) (lin * 7 + 1));
                        } else {
                            model.putDouble(at, lin + 0.5);
                        }
                    }
                }
            }
            for (List<long[]> task : rows) {
                Collections.shuffle(task, rnd);
            }
            List<FileViewWrite.Part> written = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                DataWriter<InternalRow> w = factory.createWriter(t, t);
                for (long[] x : rows.get(t)) {
                    Object[] r = new Object[dims + 1];
                    for (int d = 0; d < dims; d++) {
                        r[d] = (int) x[d];
                    }
                    r[dims] = int32 ? (Object) (int) (x[dims] * 7 + 1) : (Object) (x[dims] + 0.5);
                    w.write(new GenericInternalRow(r));
                }
                written.addAll(((FileViewWrite.Parts) w.commit()).parts());
                w.close();
            }
            byte[] want = model.array();
            if (!parts) {
                DomainOutput.commit(fs, target, "job1", FileDomains.of(0, length));
                assertThat(Files.readAllBytes(dir.resolve("a.bin"))).isEqualTo(want);
            } else {
                for (FileViewWrite.Part p : written) {
                    byte[] got = readAll(fs, new org.apache.hadoop.fs.Path(p.part()));
                    assertThat(got).as("part %s", p).isEqualTo(Arrays.copyOfRange(want, (int) p.start(), (int)
                            p.end()));
                    assertThat(domains.domainOf(p.start())).isEqualTo(domains.domainOf(p.end() - 1));
                }
                for (List<long[]> task : rows) { // every byte of every given element is in a part
                    for (long[] x : task) {
                        for (long at = disp + x[dims] * esize; at < disp + (x[dims] + 1) * esize; at++) {
                            long b = at;
                            assertThat(written)
                                    .as("byte %d of element %d", b, x[dims])
                                    .anyMatch(p -> p.start() <= b && b < p.end());
                        }
                    }
                }
            }
        } finally {
            org.apache.hadoop.fs.FileUtil.fullyDelete(dir.toFile());
        }
    }

    private static byte[] readAll(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
        try (var in = fs.open(p)) {
            return in.readAllBytes();
        }
    }
}
