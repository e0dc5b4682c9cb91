package dev.layout.spark.io;

import dev.layout.collective.Collectives;
import dev.layout.comm.Communicator;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.fileview.FileView;
import dev.layout.fileview.SharedFile;
import dev.layout.fileview.ViewIntersection;
import dev.layout.fileview.ViewReader;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One file accessed collectively by every rank of a communicator, each rank through its own
 * {@link FileView}: {@link #writeAll} and {@link #readAll} in the sense of {@code
 * MPI_File_write_at_all} / {@code MPI_File_read_at_all}. An immutable, serializable description
 * (Hadoop path, configuration, write id, options): make it once, ship it to every rank.
 *
 * <pre>{@code
 * CollectiveFile file = CollectiveFile.of(conf, "hdfs://nn/run/field.f64");      // anywhere, e.g. the driver
 * // every rank, with its own view of the file and its own block in memory:
 * IoResult r = file.writeAll(comm, view, 0, Memory.ofArray(block), 0, Primitive.FLOAT64, block.length / 8);
 * r.summary();   // "two-phase, 4 domains, 2 cycles, 268.4 MB: ..."
 * }</pre>
 *
 * <p>A write is atomic: the ranks' data goes into one part per file domain beside the target
 * ({@code .NAME.WRITEID.part-NNNNN}), and only when every part is complete are they joined ({@code
 * concat} on HDFS, metadata only) and renamed to the target. On the local file system, which has
 * no {@code concat}, the domains are written in place into one hidden file ({@code
 * .NAME.WRITEID.whole}, positional writes) that is renamed to the target. A failure at any rank fails the call at
 * every rank and removes the parts; a rank that dies leaves its peers to time out and its parts to
 * {@link #abort()}. With {@link #deferCommit()} the ranks only write the parts and the caller
 * commits once afterwards ({@link #commit}), which makes a retried barrier stage write the file
 * once. Every wait has the communicator's timeout. Bad arguments at any rank are refused at every
 * rank before any byte is written.
 */
public final class CollectiveFile implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Bytes an aggregator handles per exchange cycle (ROMIO's {@code cb_buffer_size} is 16 MiB). */
    public static final long DEFAULT_CYCLE_BYTES = 16L << 20;
    /** Smallest file domain of a file shorter than two file system blocks. */
    public static final long DEFAULT_MIN_DOMAIN_BYTES = 1L << 20;

    private final HadoopConf conf;
    private final String path;
    private final String writeId;
    private final Strategy strategy;
    private final long cycleBytes;
    private final long minDomainBytes;
    private final boolean deferred;
    /** Block size of the written file, 0 for the file system's default. */
    private final long blockSize;
    /** Aggregators of a two-phase call, 0 for the default (one per host). */
    private final int aggregators;

    private CollectiveFile(
            HadoopConf conf,
            String path,
            String writeId,
            Strategy strategy,
            long cycleBytes,
            long minDomainBytes,
            boolean deferred,
            long blockSize,
            int aggregators) {
        this.conf = conf;
        this.path = path;
        this.writeId = writeId;
        this.strategy = strategy;
        this.cycleBytes = cycleBytes;
        this.minDomainBytes = minDomainBytes;
        this.deferred = deferred;
        this.blockSize = blockSize;
        this.aggregators = aggregators;
    }

    /**
     * The file at Hadoop path {@code path} ({@code hdfs://...}, {@code file:/...} or a bare local
     * path), with a fresh random write id, strategy {@link Strategy#AUTO}, commit on return.
     *
     * @throws IllegalArgumentException if the path is empty or not a valid Hadoop path
     */
    public static CollectiveFile of(HadoopConf conf, String path) {
        Objects.requireNonNull(conf, "collective file: conf is null");
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException(
                    "collective file: path '" + path + "' (expected: a Hadoop path, e.g. hdfs://nn/dir/file)");
        }
        new Path(path); // refuses malformed paths here, not on the executors
        return new CollectiveFile(
                conf,
                path,
                UUID.randomUUID().toString().replace("-", ""),
                Strategy.AUTO,
                DEFAULT_CYCLE_BYTES,
                DEFAULT_MIN_DOMAIN_BYTES,
                false,
                0,
                0);
    }

    /** As {@link #of(HadoopConf, String)} with a copy of {@code conf}. */
    public static CollectiveFile of(Configuration conf, String path) {
        return of(HadoopConf.of(conf), path);
    }

    /**
     * The same file written under write id {@code id} instead of a random one: a caller that retries
     * a stage (or resumes after a driver restart) names the write, so that the retry replaces the
     * earlier attempt's leftovers and {@link #abort()} finds them.
     *
     * @throws IllegalArgumentException if the id is not 1-64 letters, digits, {@code -} or {@code _}
     */
    public CollectiveFile withWriteId(String id) {
        if (id == null || !id.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException(
                    "collective file: write id '" + id + "' (expected: 1-64 letters, digits, '-' or '_')");
        }
        return new CollectiveFile(
                conf, path, id, strategy, cycleBytes, minDomainBytes, deferred, blockSize, aggregators);
    }

    /** The same file with the strategy forced (or {@link Strategy#AUTO}). */
    public CollectiveFile withStrategy(Strategy s) {
        Objects.requireNonNull(s, "collective file: strategy is null");
        return new CollectiveFile(conf, path, writeId, s, cycleBytes, minDomainBytes, deferred, blockSize, aggregators);
    }

    /**
     * The same file with aggregators handling {@code bytes} per exchange cycle (the memory each
     * aggregator holds, twice that for a read of a domain of several cycles, which reads one cycle
     * ahead; and the largest message). Reads use cycles of at most this, smaller where a domain is
     * wide enough to split, so that reading and exchanging overlap.
     */
    public CollectiveFile withCycleBytes(long bytes) {
        if (bytes < 1 || bytes > 1L << 30) {
            throw new IllegalArgumentException("collective file: cycle bytes " + bytes + " (expected: 1 .. 2^30)");
        }
        return new CollectiveFile(
                conf, path, writeId, strategy, bytes, minDomainBytes, deferred, blockSize, aggregators);
    }

    /** The same file with file domains of at least {@code bytes} when the file is shorter than two blocks. */
    public CollectiveFile withMinDomainBytes(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("collective file: minimum domain bytes " + bytes + " (expected: >= 1)");
        }
        return new CollectiveFile(conf, path, writeId, strategy, cycleBytes, bytes, deferred, blockSize, aggregators);
    }

    /**
     * The same file whose {@link #writeAll} only writes the parts; the file appears when {@link
     * #commit} is called once afterwards (by the driver after a barrier stage succeeded).
     */
    public CollectiveFile deferCommit() {
        return new CollectiveFile(
                conf, path, writeId, strategy, cycleBytes, minDomainBytes, true, blockSize, aggregators);
    }

    /**
     * The same file written with file system blocks of {@code bytes} (HDFS {@code dfs.blocksize}),
     * and the domains of its writes and reads aligned to them; by default writes use the file
     * system's default block size and reads the file's own.
     */
    public CollectiveFile withBlockSize(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("collective file: block size " + bytes + " (expected: >= 1 bytes)");
        }
        return new CollectiveFile(
                conf, path, writeId, strategy, cycleBytes, minDomainBytes, deferred, bytes, aggregators);
    }

    /**
     * The same file with {@code count} aggregators in a two-phase call (ROMIO's {@code cb_nodes}):
     * the ranks that read or write the file, one file domain each; fewer if the file has fewer
     * blocks or the communicator fewer ranks. 0 restores the default: one per host (the ranks'
     * {@link dev.layout.transport.Transport#host}), and every rank when all are on one host. Every rank
     * must call with the same count (as with every option here: a difference fails the call at every
     * rank).
     *
     * @throws IllegalArgumentException if the count is negative
     */
    public CollectiveFile withAggregators(int count) {
        if (count < 0) {
            throw new IllegalArgumentException(
                    "collective file: aggregators " + count + " (expected: >= 1, or 0 for one per host)");
        }
        return new CollectiveFile(
                conf, path, writeId, strategy, cycleBytes, minDomainBytes, deferred, blockSize, count);
    }

    public String path() {
        return path;
    }

    /** The id naming this write's parts (the same for every rank and every attempt). */
    public String writeId() {
        return writeId;
    }

    public Strategy strategy() {
        return strategy;
    }

    public boolean isCommitDeferred() {
        return deferred;
    }

    /**
     * Writes {@code count} elements of {@code memtype} from {@code src} (element 0 at byte {@code
     * origin}) at etype {@code offset} of this rank's {@code view}; collective over {@code comm}
     * (its {@link Communicator#base()} if it is a graph). Bytes of the file no rank writes are
     * zeros; the file ends at the last byte any rank writes.
     *
     * @throws IllegalArgumentException at every rank if any rank's arguments are invalid (naming the
     *     rank), or two ranks write the same byte
     * @throws FileAlreadyExistsException (as an IOException naming rank 0) if the file exists
     * @throws IOException at every rank if the file system fails at any rank; no file, no parts
     */
    public IoResult writeAll(
            Communicator comm, FileView view, long offset, Memory src, long origin, Datatype memtype, long count)
            throws IOException {
        long t0 = System.nanoTime();
        Collectives coll = collectives(comm);
        boolean root = coll.communicator().rank() == 0;
        String op = "writeAll " + path;
        Path p = new Path(path);
        FileSystem fs = null;
        Segment seg = null;
        ViewIntersection mine = null;
        RankAccess me;
        try {
            fs = conf.fileSystem(p);
            seg = segment("writeAll", view, offset, src, origin, memtype, count);
            mine = ViewIntersection.of(view, offset * view.etype().byteSize(), seg.byteSize());
            if (root) {
                if (fs.exists(p)) {
                    throw new FileAlreadyExistsException(
                            p + " already exists (expected: a new file; files are written once)");
                }
                DomainOutput.begin(fs, p, writeId, 0); // before the allgather: every writer finds it
            }
            me = access(coll, view, mine, 0, blockSize > 0 ? blockSize : fs.getDefaultBlockSize(p), options(false));
        } catch (IOException | RuntimeException e) {
            me = RankAccess.failed(e);
        }
        RankAccess[] all;
        IoPlan plan;
        try {
            all = RankAccess.allgather(coll, me); // inside: a peer lost in this round must not leave root's file
            RankAccess.throwFirstFailure(op, all);
            RankAccess.throwIfOptionsDiffer(op, all);
            plan = IoPlan.forWrite(all, options(false));
        } catch (IOException | RuntimeException e) {
            if (root) {
                discardQuietly(fs, p, e); // the shared file root may have made
            }
            throw e;
        }
        int myDomain = plan.domainOf(coll.communicator().rank());
        Exception failure = null;
        try {
            if (plan.domains() != null && plan.strategy() == Strategy.TWO_PHASE) {
                failure = TwoPhase.write(
                        coll,
                        plan,
                        all,
                        mine,
                        new RankMemory(src, origin, memtype, count),
                        fs,
                        p,
                        writeId,
                        all[0].blockSize());
            } else if (plan.domains() != null && myDomain >= 0) {
                failure = writeOwnRun(fs, p, plan, myDomain, seg, all[0].blockSize());
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        boolean committed = false;
        try {
            RankAccess.agree(op, coll, failure);
            if (!deferred) {
                Exception commitFailure = null;
                if (root) {
                    try {
                        commitParts(fs, p, plan.domains());
                    } catch (IOException | RuntimeException e) {
                        commitFailure = e;
                    }
                }
                RankAccess.agree(op, coll, commitFailure);
                committed = true;
            }
        } catch (IOException | RuntimeException e) {
            if (root) {
                discardQuietly(fs, p, e);
            }
            throw e;
        }
        return new IoResult(
                plan.strategy(),
                mine.length(),
                plan.domains() == null ? 0 : plan.domains().fileLength(),
                plan.domains(),
                myDomain,
                plan.cycles(),
                System.nanoTime() - t0,
                committed,
                plan.reason());
    }

    /**
     * Reads {@code count} elements of {@code memtype} into {@code dst} (element 0 at byte {@code
     * origin}) from etype {@code offset} of this rank's {@code view}; collective over {@code comm}.
     *
     * @throws IllegalArgumentException at every rank if any rank's arguments are invalid
     * @throws IOException at every rank if the file is missing or shorter than a rank's view needs
     *     (naming the rank and bytes), or the file system fails at any rank
     */
    public IoResult readAll(
            Communicator comm, FileView view, long offset, Memory dst, long origin, Datatype memtype, long count)
            throws IOException {
        long t0 = System.nanoTime();
        Collectives coll = collectives(comm);
        String op = "readAll " + path;
        Path p = new Path(path);
        FileSystem fs = null;
        Segment seg = null;
        ViewIntersection mine = null;
        RankAccess me;
        try {
            fs = conf.fileSystem(p);
            seg = segment("readAll", view, offset, dst, origin, memtype, count);
            dst.checkWritable("readAll");
            mine = ViewIntersection.of(view, offset * view.etype().byteSize(), seg.byteSize());
            long length = 0;
            long block = blockSize;
            if (coll.communicator().rank() == 0) { // one name node call per read, not one per rank
                FileStatus status = fs.getFileStatus(p);
                length = status.getLen();
                block = blockSize > 0 ? blockSize : status.getBlockSize();
            }
            me = access(coll, view, mine, length, block, options(SharedFile.supports(fs)));
        } catch (IOException | RuntimeException e) {
            me = RankAccess.failed(e);
        }
        RankAccess[] all = RankAccess.allgather(coll, me);
        RankAccess.throwFirstFailure(op, all);
        RankAccess.throwIfOptionsDiffer(op, all);
        checkLength(op, p, all);
        IoPlan plan = IoPlan.forRead(all, options(SharedFile.supports(fs)));
        Exception failure = null;
        try {
            if (plan.strategy() == Strategy.TWO_PHASE && plan.domains() != null) {
                failure = TwoPhase.read(coll, plan, all, mine, new RankMemory(dst, origin, memtype, count), fs, p);
            } else if (mine.length() > 0) {
                try (ViewReader r = ViewReader.open(fs, p, view)) {
                    r.readAt(offset, dst, origin, memtype, count);
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        RankAccess.agree(op, coll, failure);
        long span = 0;
        for (RankAccess a : all) {
            span = Math.max(span, a.length() == 0 ? 0 : a.fileEnd());
        }
        return new IoResult(
                plan.strategy(),
                mine.length(),
                span,
                plan.domains(),
                plan.domainOf(coll.communicator().rank()),
                plan.cycles(),
                System.nanoTime() - t0,
                true,
                plan.reason());
    }

    /**
     * Makes the file from the parts of a {@link #deferCommit deferred} write that succeeded at every
     * rank ({@code result} is any rank's): joins them and renames them to the path. Call once, on
     * one process. Returns the file's length.
     *
     * @throws IOException naming the part if one is missing; nothing appears at the path
     */
    public long commit(IoResult result) throws IOException {
        Objects.requireNonNull(result, "commit: result is null");
        Path p = new Path(path);
        FileSystem fs = conf.fileSystem(p);
        try {
            return commitParts(fs, p, result.domains());
        } catch (IOException | RuntimeException e) {
            discardQuietly(fs, p, e);
            throw e;
        }
    }

    /**
     * Removes every part and temporary file of this write (after a failed or abandoned attempt; also
     * those of ranks that died). The file itself, if committed, stays. Returns the files removed.
     */
    public int abort() throws IOException {
        Path p = new Path(path);
        return DomainOutput.abort(conf.fileSystem(p), p, writeId);
    }

    private long commitParts(FileSystem fs, Path p, dev.layout.fileview.FileDomains domains) throws IOException {
        return DomainOutput.commit(fs, p, writeId, domains);
    }

    private void discardQuietly(FileSystem fs, Path p, Exception cause) {
        try {
            if (fs != null) {
                DomainOutput.abort(fs, p, writeId);
            }
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * A rank whose data is one contiguous run writes it as its own domain's part, packing in cycles
     * into one reused {@link CycleBuffer} (direct on the local file system, so the write copies once).
     */
    private Exception writeOwnRun(FileSystem fs, Path p, IoPlan plan, int domain, Segment seg, long block) {
        int size = (int) Math.min(cycleBytes, seg.byteSize());
        try (DomainOutput part = DomainOutput.open(fs, p, plan.domains(), domain, writeId, block);
                CycleBuffer buf = CycleBuffer.allocate(size, DomainOutput.shared(fs))) {
            seg.seek(0);
            long at = plan.domains().start(domain);
            for (long done = 0; done < seg.byteSize(); ) {
                int n = (int) seg.pack(buf.memory(), 0, size);
                buf.writeTo(part, at + done, n);
                done += n;
            }
            part.commit();
            return null;
        } catch (IOException | RuntimeException e) {
            return e;
        }
    }

    /** Fails a read at every rank alike if the file (as rank 0 found it) is shorter than any rank's view needs. */
    private static void checkLength(String op, Path p, RankAccess[] all) throws IOException {
        long length = all[0].fileLength();
        for (int r = 0; r < all.length; r++) {
            long end = all[r].fileEnd();
            if (all[r].length() > 0 && end > length) {
                throw new IOException(op + ": rank " + r + " of " + all.length + ": " + p + " has " + length
                        + " bytes, the view needs bytes up to " + end + " (expected: a file of at least " + end
                        + " bytes)");
            }
        }
    }

    private static Collectives collectives(Communicator comm) {
        Objects.requireNonNull(comm, "collective file: communicator is null");
        return Collectives.on(comm.base());
    }

    private static Segment segment(
            String op, FileView view, long offset, Memory mem, long origin, Datatype memtype, long count) {
        if (view == null || mem == null || memtype == null) {
            throw new IllegalArgumentException(op + ": " + (view == null ? "view" : mem == null ? "memory" : "memtype")
                    + " null (expected: a value)");
        }
        if (offset < 0) {
            throw new IllegalArgumentException(op + ": offset " + offset + " (expected: >= 0 etypes)");
        }
        if (count < 0) {
            throw new IllegalArgumentException(op + ": count " + count + " (expected: >= 0)");
        }
        Segment seg = Segment.of(memtype, count, mem, origin); // checks that the elements fit the memory
        long etype = view.etype().byteSize();
        if (seg.byteSize() % etype != 0) {
            throw new IllegalArgumentException(op + ": " + count + " x " + memtype + " is " + seg.byteSize()
                    + " bytes (expected: a multiple of etype " + view.etype() + " size " + etype + ")");
        }
        Math.multiplyExact(offset, etype);
        return seg;
    }

    private PlanOptions options(boolean mapped) {
        return new PlanOptions(strategy, cycleBytes, minDomainBytes, aggregators, mapped);
    }

    private static RankAccess access(
            Collectives coll,
            FileView view,
            ViewIntersection mine,
            long fileLength,
            long blockSize,
            PlanOptions options) {
        boolean any = mine.length() > 0;
        return new RankAccess(
                null,
                view.displacement(),
                view.etype().toString(),
                view.filetype().toString(),
                mine.streamStart(),
                mine.length(),
                any ? mine.fileStart() : 0,
                any ? mine.fileEnd() : 0,
                any ? mine.runCount() : 0,
                fileLength,
                blockSize,
                coll.communicator().transport().host(),
                options.toString());
    }

    @Override
    public String toString() {
        return "CollectiveFile(" + path + ", write " + writeId + ", " + strategy
                + (aggregators > 0 ? ", " + aggregators + " aggregators" : "") + (deferred ? ", deferred commit" : "")
                + ")";
    }
}
