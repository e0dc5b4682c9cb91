package dev.layout.jobs.life;

import dev.layout.jobs.Images;
import dev.layout.jobs.JobOptions;
import dev.layout.jobs.Progress;
import dev.layout.jobs.SparkJobs;
import dev.layout.jobs.Summary;
import dev.layout.jobs.grid.LiveCounter;
import dev.layout.jobs.output.OutputDirectory;
import dev.layout.spark.comm.BarrierLauncher;
import dev.layout.spark.grid.CheckpointPolicy;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.ExchangeMode;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.GridFiles;
import dev.layout.spark.grid.GridFunction;
import dev.layout.spark.grid.HaloExchange;
import dev.layout.spark.grid.Stencil;
import dev.layout.spark.grid.Thumbnail;
import dev.layout.spark.io.CollectiveFile;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.CollectionAccumulator;

/**
 * {@code layout-submit life}: Conway's Game of Life (B3/S23) on a distributed 2D board over the
 * Chebyshev (9-point) neighbourhood, on a torus ({@code --periodic true}, default) or with dead
 * cells outside. Writes {@code board.u8} (one byte per cell, 1 = live, C order; written collectively
 * by the executors), {@code board.pbm} (P1) when the board is at most 1024 x 1024, {@code
 * board.png} (the live fraction of at most 1024 x 1024 tiles) and {@code summary.json} with the
 * live-cell count after each generation.
 *
 * <p>{@code --method halo} (default) exchanges the blocks' edges with subarray datatypes (barrier
 * or shuffle mode, checkpoints) and runs a Life kernel per block. {@code --method allreduce} uses
 * the sparse allreduce of Träff et al. (2021, Section 3.4, Listing 7) on the graph communicator of
 * each block's Chebyshev neighbour blocks ({@link AllreduceLife}, barrier mode). Listing 7 has one
 * cell per process, whose state is the vector reduced. With a block per process that does not
 * carry over directly: the allreduce reduces ONE vector that a process contributes identically to
 * all its neighbours, while each neighbour needs a different edge of the block. The blocked form
 * indexes the vector by board position instead of by neighbour: every process writes its partial
 * live-neighbour counts for the cells around its block at those cells' positions ({@link
 * BoundaryIndex} names each block-edge cell so that no two cells a process can receive share a
 * position), and the sum a process receives is, at each of its edge cells, exactly the number of
 * live neighbours in other blocks. It is exact for every board and process grid (open or torus,
 * uneven blocks, rings of one or two blocks), at several times the bytes of the halo exchange.
 *
 * <p>{@code --init rle:PATH} places the pattern with its top-left cell at row 0, column 0 of the
 * {@code --grid} board; {@code pbm:PATH} gives the board and its size.
 */
public final class LifeJob {
    private LifeJob() {}

    static JobOptions options() {
        return new JobOptions(
                "life",
                SparkJobs.withOutputOptions(
                        "life",
                        "generations",
                        new JobOptions.Option(
                                "grid",
                                "256x256",
                                "board rows x columns (ignored with --init pbm:PATH; an RLE pattern goes at its top-left)"),
                        new JobOptions.Option("steps", "100", "generations"),
                        new JobOptions.Option("mode", "barrier", "barrier or shuffle"),
                        new JobOptions.Option(
                                "method",
                                "halo",
                                "halo (halo exchange + a Life kernel per block) or allreduce (the sparse allreduce of"
                                        + " Traff et al. 2021 on the Chebyshev neighbourhood; barrier mode, no checkpoints)"),
                        SparkJobs.PROCS,
                        SparkJobs.AGGREGATORS,
                        new JobOptions.Option(
                                "periodic", "true", "true: torus; false: cells outside the board are dead"),
                        new JobOptions.Option(
                                "init",
                                "random:42:0.3",
                                "random:SEED:DENSITY, pbm:PATH (P1 or P4) or rle:PATH (B3/S23 RLE, placed at row 0, column 0)")));
    }

    public static void main(String[] args) {
        System.exit(SparkJobs.run("life", options(), args, LifeJob::run));
    }

    static int run(JobOptions o) throws Exception {
        int steps = (int) o.getLong("steps", 0, Integer.MAX_VALUE);
        ExchangeMode mode = SparkJobs.exchangeMode(o);
        boolean periodic = o.getBoolean("periodic");
        boolean allreduce = o.getChoice("method", "halo", "allreduce").equals("allreduce");
        if (allreduce && mode != ExchangeMode.BARRIER) {
            throw new IllegalArgumentException(
                    "life: --method allreduce with --mode " + o.get("mode")
                            + " (expected: --mode barrier; the sparse allreduce runs on the communicator of the barrier tasks)");
        }
        if (allreduce && o.getLong("checkpoint-interval", 0, Integer.MAX_VALUE) > 0) {
            throw new IllegalArgumentException("life: --checkpoint-interval " + o.get("checkpoint-interval")
                    + " with --method allreduce (expected: 0; checkpoints are implemented for --method halo)");
        }
        CheckpointPolicy checkpoints = SparkJobs.checkpoints("life", o, mode);
        int aggregators = SparkJobs.aggregators("life", o);
        Initial initial = initialBoard(o);
        int rows = initial.rows();
        int cols = initial.cols();
        o.getBoolean("overwrite");
        Progress.Style progressStyle = Progress.Style.fromEnvironment();

        SparkSession spark = SparkJobs.session("layout life");
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            int[] procs = SparkJobs.processGrid(o, jsc, 2);
            DistributedGrid dg =
                    DistributedGrid.of(new int[] {rows, cols}, procs, 1, new boolean[] {periodic, periodic});
            BarrierLauncher.check(jsc.sc(), dg.ranks()); // every job ends with a barrier stage
            try (OutputDirectory out = SparkJobs.openOutput("life", o, spark)) {
                System.out.printf(
                        Locale.ROOT,
                        "life: %dx%d board, %d generations, %s mode, %s, process grid %dx%d, %s%n",
                        rows,
                        cols,
                        steps,
                        mode.name().toLowerCase(Locale.ROOT),
                        allreduce ? "sparse allreduce" : "halo exchange",
                        procs[0],
                        procs[1],
                        periodic ? "torus" : "dead border");
                CollectionAccumulator<long[]> counts = jsc.sc().collectionAccumulator("live cells per generation");
                Progress bar = Progress.console("life", steps, progressStyle);
                LiveCounter kernel = new LiveCounter(counts);
                HaloExchange ex = HaloExchange.of(dg, Stencil.NINE_POINT)
                        .mode(mode)
                        .checkpoint(checkpoints)
                        .progress(bar::update);
                ex.claimCheckpoints(
                        jsc.sc(), kernel); // another run's checkpoints are refused before the initial board is read
                JavaRDD<GridBlock> blocks = initial.p4() == null
                        ? dg.parallelize(jsc, initial.cells())
                        : GridFiles.read(
                                jsc,
                                dg,
                                initial.cells(),
                                CollectiveFile.of(spark.sparkContext().hadoopConfiguration(), initial.file())
                                        .withAggregators(aggregators),
                                Pbm.p4Blocks(dg, initial.p4()),
                                SparkJobs.TIMEOUT);
                JavaRDD<GridBlock> result;
                double perIteration;
                long bytes;
                long messages;
                String metrics;
                double[] timeSplit; // pack, wire, compute ms; the allreduce formulation does not split its time
                if (allreduce) {
                    AllreduceLife.Result res =
                            AllreduceLife.run(jsc, dg, blocks, steps, counts, bar::update, SparkJobs.TIMEOUT);
                    result = res.blocks();
                    perIteration = res.metrics().millisPerGeneration();
                    bytes = res.metrics().bytes();
                    messages = res.metrics().messages();
                    metrics = res.metrics().toString();
                    timeSplit = null;
                } else {
                    HaloExchange.Result res = ex.run(blocks, kernel, steps);
                    result = res.blocks();
                    perIteration = res.metrics().millisPerIteration();
                    bytes = res.metrics().bytes();
                    messages = res.metrics().messages();
                    metrics = res.metrics().toString();
                    timeSplit = new double[] {
                        res.metrics().packNanos() / 1e6,
                        res.metrics().wireNanos() / 1e6,
                        res.metrics().computeNanos() / 1e6
                    };
                }
                long wall = bar.finish();
                CollectiveFile board = CollectiveFile.of(
                                spark.sparkContext().hadoopConfiguration(),
                                out.path("board.u8").toString())
                        .withAggregators(aggregators)
                        .deferCommit();
                SparkJobs.onInterrupt(() -> SparkJobs.quietly(board::abort));
                GridFiles.Closing c = GridFiles.close(
                        result, dg, board, GridFiles.Cells.BYTE, SparkJobs.THUMBNAIL, SparkJobs.TIMEOUT);
                long[] live = new long[steps];
                for (long[] e : counts.value()) {
                    live[(int) e[0]] += e[1];
                }
                long finalLive = c.stats().nonZero();
                Thumbnail t = c.thumbnail();
                boolean small = t.rows() == rows && t.cols() == cols; // a tile per cell: the thumbnail is the board
                if (small) {
                    double[] m = t.means();
                    boolean[] cells = new boolean[m.length];
                    for (int k = 0; k < m.length; k++) {
                        cells[k] = m[k] != 0;
                    }
                    out.write("board.pbm", pbm -> Pbm.writeP1(cells, rows, cols, pbm));
                }
                String title =
                        String.format(Locale.ROOT, "life %dx%d, %d generations, %d live", rows, cols, steps, finalLive);
                out.write("board.png", png -> Images.board(t.means(), t.rows(), t.cols(), title, png));
                Summary summary = new Summary()
                        .put("grid", rows + "x" + cols)
                        .put("steps", steps)
                        .put("mode", mode.name().toLowerCase(Locale.ROOT))
                        .put("method", allreduce ? "allreduce" : "halo")
                        .put("procs", procs[0] + "x" + procs[1])
                        .put("live", live)
                        .put("final_live", finalLive)
                        .put("per_iteration_ms", steps == 0 ? 0.0 : perIteration)
                        .put("bytes_exchanged", bytes)
                        .put("messages", messages);
                if (timeSplit != null) {
                    summary.put("pack_ms", timeSplit[0])
                            .put("wire_ms", timeSplit[1])
                            .put("compute_ms", timeSplit[2]);
                }
                summary.put("wall_ms", wall / 1e6).put("board_write", c.write().summary());
                out.write("summary.json", json -> json.write(summary.toBytes()));
                System.out.println("life: " + metrics);
                System.out.println("life: " + finalLive + " live cells after " + steps + " generations; wrote "
                        + out.path("board.u8") + (small ? ", " + out.path("board.pbm") : "") + ", "
                        + out.path("board.png") + ", " + out.path("summary.json"));
                return 0;
            }
        } finally {
            spark.stop();
        }
    }

    /**
     * The initial board: its size and a function giving each cell on the executors (1 live, 0 dead
     * or outside); for a P4 file, its header and path, the ranks reading their blocks from it.
     */
    record Initial(int rows, int cols, GridFunction cells, Pbm.Header p4, String file) {
        Initial(int rows, int cols, GridFunction cells) {
            this(rows, cols, cells, null, null);
        }
    }

    /**
     * The board {@code --init} describes: a PBM file (its own size; the driver reads its header, and
     * a P4 file's rows are read by the ranks, a small P1 board on the driver), an RLE
     * pattern placed at the top-left corner of a {@code --grid} board (row 0, column 0; the rest
     * dead; only the pattern is shipped), or a random board of {@code --grid} (each cell drawn on its
     * executor, {@link SequentialLife#randomCell}).
     *
     * @throws IllegalArgumentException for a bad option or file content, or a pattern larger than the grid
     */
    static Initial initialBoard(JobOptions o) throws java.io.IOException {
        String init = o.get("init");
        if (init.startsWith("pbm:")) {
            SparkJobs.InputHead in = SparkJobs.inputHead("life", "init", init.substring(4), Pbm.HEADER_MAX);
            Pbm.Header h = Pbm.header(in.head(), in.length(), "life: --init " + init);
            if (h.raw()) {
                int rows = h.rows();
                int cols = h.cols();
                return new Initial(rows, cols, at -> 0.0, h, in.path().toString());
            }
            Pbm.Board b = Pbm.parse(SparkJobs.readSmallFile("life", "init", init.substring(4)), "life: --init " + init);
            return new Initial(b.rows(), b.cols(), placed(b, b.rows(), b.cols()));
        }
        if (init.startsWith("rle:")) {
            int[] g = o.getDims("grid", 2, 2);
            byte[] text = SparkJobs.readSmallFile("life", "init", init.substring(4));
            Pbm.Board pattern = Rle.parse(
                    new String(text, java.nio.charset.StandardCharsets.ISO_8859_1), "life: --init " + init, g[0], g[1]);
            return new Initial(g[0], g[1], placed(pattern, g[0], g[1]));
        }
        if (init.startsWith("random:")) {
            String[] p = init.split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("life: --init " + init + " (expected: random:SEED:DENSITY)");
            }
            int[] g = o.getDims("grid", 2, 2);
            double density;
            long seed;
            try {
                seed = Long.parseLong(p[1]);
                density = Double.parseDouble(p[2]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "life: --init " + init + " (expected: random:SEED:DENSITY with an integer seed)");
            }
            if (!(density >= 0 && density <= 1)) {
                throw new IllegalArgumentException("life: density " + p[2] + " (expected: 0..1)");
            }
            int rows = g[0];
            int cols = g[1];
            return new Initial(
                    rows,
                    cols,
                    at -> inside(at, rows, cols)
                                    && SequentialLife.randomCell(seed, density, (long) at[0] * cols + at[1])
                            ? 1.0
                            : 0.0);
        }
        throw new IllegalArgumentException(
                "life: --init " + init + " (expected: random:SEED:DENSITY, pbm:PATH or rle:PATH)");
    }

    /** The cells of {@code pattern} at the top-left of a {@code rows x cols} board. */
    private static GridFunction placed(Pbm.Board pattern, int rows, int cols) {
        boolean[] cells = pattern.cells();
        int pr = pattern.rows();
        int pc = pattern.cols();
        return at -> inside(at, rows, cols) && at[0] < pr && at[1] < pc && cells[at[0] * pc + at[1]] ? 1.0 : 0.0;
    }

    private static boolean inside(int[] at, int rows, int cols) {
        return at[0] >= 0 && at[0] < rows && at[1] >= 0 && at[1] < cols;
    }
}
