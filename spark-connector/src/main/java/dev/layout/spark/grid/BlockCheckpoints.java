package dev.layout.spark.grid;

import dev.layout.collective.Collectives;
import dev.layout.comm.Communicator;
import dev.layout.spark.io.CollectiveFile;
import dev.layout.spark.io.HadoopConf;
import dev.layout.spark.io.IoResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Barrier-mode checkpoints on any Hadoop file system: one file per checkpoint, {@code
 * <dir>/iter-<n>.f64}, the grid's field in C order written collectively by every rank through its
 * block's file view ({@link GridFiles#view}, {@link CollectiveFile#writeAll}), so it exists only
 * once complete; a restart reads it back the same way. Both with the policy's aggregator count
 * ({@link CheckpointPolicy#aggregators}). Only the run {@code <dir>/_RUN} names
 * ({@link #claim}) resumes from a directory.
 */
final class BlockCheckpoints {
    private static final String SUFFIX = ".f64";

    private final HadoopConf conf;
    private final Path root;
    private final FileSystem fs;
    private final int aggregators;

    /**
     * The checkpoints in {@code directory}, opened with {@code conf} (null: Hadoop's defaults),
     * written and read with {@code aggregators} aggregators (0: the default).
     */
    BlockCheckpoints(HadoopConf conf, String directory, int aggregators) throws IOException {
        this.conf = conf == null ? HadoopConf.of(new Configuration()) : conf;
        this.root = new Path(directory);
        this.fs = this.conf.fileSystem(root);
        this.aggregators = aggregators;
    }

    /** The file naming the run a checkpoint directory belongs to. */
    static final String RUN = "_RUN";

    /**
     * Claims {@code directory} for the run described by {@code identity} (lines {@code key value}):
     * writes {@link #RUN} if the directory has none, else compares. Called on the driver before any
     * work, so resuming another run's checkpoints fails in one line.
     *
     * @throws IllegalArgumentException naming the first difference if the directory belongs to another run
     */
    static void claim(Configuration conf, String directory, java.util.Map<String, String> identity) throws IOException {
        Path root = new Path(directory);
        FileSystem fs = root.getFileSystem(conf);
        Path run = new Path(root, RUN);
        StringBuilder text = new StringBuilder();
        identity.forEach((k, v) -> text.append(k).append(' ').append(v).append('\n'));
        if (!fs.exists(run)) {
            if (fs.exists(root) && fs.listStatus(root).length > 0) {
                throw new IllegalArgumentException("checkpoint directory " + directory + " holds files but no " + RUN
                        + " (expected: a new directory, or one this run's checkpoints were written to)");
            }
            fs.mkdirs(root);
            try (FSDataOutputStream o = fs.create(run, false)) {
                o.write(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            return;
        }
        java.util.Map<String, String> there = new java.util.LinkedHashMap<>();
        try (FSDataInputStream in = fs.open(run)) {
            for (String line :
                    new String(in.readNBytes(64 * 1024), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                int sp = line.indexOf(' ');
                if (sp > 0) {
                    there.put(line.substring(0, sp), line.substring(sp + 1));
                }
            }
        }
        for (java.util.Map.Entry<String, String> e : identity.entrySet()) {
            String other = there.get(e.getKey());
            if (!e.getValue().equals(other)) {
                throw new IllegalArgumentException(
                        "checkpoint directory " + directory + " belongs to another run: " + e.getKey() + " " + other
                                + " there, " + e.getValue()
                                + " here (expected: a new directory, or one of a run with the same job, grid, stencil,"
                                + " process grid and boundary)");
            }
        }
    }

    /** The last iteration, at most {@code max}, with a complete checkpoint; 0 if none. */
    int latestComplete(int max) throws IOException {
        int best = 0;
        FileStatus[] list;
        try {
            list = fs.listStatus(root);
        } catch (FileNotFoundException e) {
            return 0;
        }
        for (FileStatus s : list) {
            String name = s.getPath().getName();
            if (s.isFile() && name.startsWith("iter-") && name.endsWith(SUFFIX)) {
                try {
                    int n = Integer.parseInt(name.substring(5, name.length() - SUFFIX.length()));
                    if (n > best && n <= max) {
                        best = n;
                    }
                } catch (NumberFormatException ignored) {
                    // not ours
                }
            }
        }
        return best;
    }

    private Path file(int iteration) {
        return new Path(root, "iter-" + iteration + SUFFIX);
    }

    /**
     * Writes every rank's block interior into {@code <dir>/iter-<n>.f64}, collectively; the file
     * appears complete or not at all. An iteration already checkpointed (by an earlier attempt of a
     * retried stage) is kept as it is: the state is the same.
     *
     * @return what the collective write did, or null if the checkpoint existed
     */
    IoResult save(Communicator world, DistributedGrid grid, int iteration, GridBlock b) throws IOException {
        CollectiveFile f = agree(world, iteration);
        if (f == null) {
            return null;
        }
        return f.withAggregators(aggregators)
                .writeAll(
                        world,
                        GridFiles.view(grid, b.rank(), GridFiles.Cells.FLOAT64),
                        0,
                        b.memory(),
                        0,
                        GridFiles.interior(grid, b.rank()),
                        1);
    }

    /** Reads the interior of {@code into} (whose ghosts stay) from the checkpoint of {@code iteration}, collectively. */
    IoResult load(Communicator world, DistributedGrid grid, int iteration, GridBlock into) throws IOException {
        CollectiveFile f = CollectiveFile.of(conf, file(iteration).toString()).withAggregators(aggregators);
        return f.readAll(
                world,
                GridFiles.view(grid, into.rank(), GridFiles.Cells.FLOAT64),
                0,
                into.memory(),
                0,
                GridFiles.interior(grid, into.rank()),
                1);
    }

    /**
     * Rank 0's description of the checkpoint file of {@code iteration} (one write id for every
     * rank), or null on every rank if that checkpoint exists already.
     */
    private CollectiveFile agree(Communicator world, int iteration) throws IOException {
        Collectives c = Collectives.on(world);
        byte[] mine = new byte[0];
        if (world.rank() == 0 && !fs.exists(file(iteration))) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
                o.writeObject(CollectiveFile.of(conf, file(iteration).toString()));
            }
            mine = bytes.toByteArray();
        }
        byte[] length = ByteBuffer.allocate(4).putInt(mine.length).array();
        c.bcast(length, 0);
        int n = ByteBuffer.wrap(length).getInt();
        if (n == 0) {
            return null;
        }
        byte[] desc = world.rank() == 0 ? mine : new byte[n];
        c.bcast(desc, 0);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(desc))) {
            return (CollectiveFile) in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException(
                    "checkpoint: description of " + file(iteration) + " unreadable: " + e.getMessage(), e);
        }
    }
}
