package dev.layout.spark.source;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.fileview.FileView;
import dev.layout.fileview.RangePlanner;
import dev.layout.fileview.SievingPolicy;
import dev.layout.normalize.Normalizer;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans input partitions along the file's blocks: a partition boundary is put at the first etype
 * of the view whose first byte lies at or after a block boundary (or a {@code splitBytes}
 * multiple), so each partition reads one block, and prefers that block's hosts.
 */
final class FileViewScan implements Scan, Batch {
    private static final Logger LOG = LoggerFactory.getLogger(FileViewScan.class);

    private final FileViewSpec spec;
    private final StructType required;
    private final Filter[] pushed;

    FileViewScan(FileViewSpec spec, StructType required, Filter[] pushed) {
        this.spec = spec;
        this.required = required;
        this.pushed = pushed;
    }

    @Override
    public StructType readSchema() {
        return required;
    }

    @Override
    public String description() {
        return "FileViewScan " + spec + " PushedFilters: " + Arrays.toString(pushed) + " ReadSchema: "
                + required.simpleString();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /** Etypes of the view to read. */
    static long etypeCount(FileViewSpec spec, FileView view, long length) {
        Datatype ft = view.filetype();
        if (spec.shape != null) {
            return view.etypesPerTile();
        }
        if (spec.count >= 0) {
            return spec.count;
        }
        long tiles = length < spec.disp + ft.trueUb() ? 0 : (length - spec.disp - ft.trueUb()) / ft.extent() + 1;
        return Math.multiplyExact(tiles, view.etypesPerTile());
    }

    static long tiles(FileView view, long etypes) {
        long per = view.etypesPerTile();
        return Math.max(1, (etypes + per - 1) / per);
    }

    @Override
    public InputPartition[] planInputPartitions() {
        if (spec.isEmpty()) {
            return new InputPartition[0];
        }
        Configuration conf = SparkSession.active().sparkContext().hadoopConfiguration();
        try {
            Path path = new Path(spec.path);
            FileSystem fs = path.getFileSystem(conf);
            FileStatus st = fs.getFileStatus(path);
            FileView view = spec.view();
            long n = etypeCount(spec, view, st.getLen());
            if (n == 0) {
                return new InputPartition[0];
            }
            long esize = view.etype().byteSize();
            Segment seg = Segment.layout(view.filetype(), tiles(view, n));
            long end = new RangePlanner(view, SievingPolicy.adjacentOnly()).fileEnd(0, Math.multiplyExact(n, esize));
            if (end > st.getLen()) {
                throw new IOException("fileview: the view " + spec + " reaches file byte " + end + " of " + path
                        + ", past its end at " + st.getLen() + " bytes");
            }
            BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, st.getLen());
            long split = spec.splitBytes > 0 ? spec.splitBytes : Math.max(1, st.getBlockSize());
            TreeSet<Long> cuts = new TreeSet<>();
            for (BlockLocation b : blocks) {
                if (b.getOffset() > 0) {
                    cuts.add(b.getOffset());
                }
            }
            for (long c = split; c < st.getLen(); c += split) {
                cuts.add(c);
            }
            List<Long> starts = new ArrayList<>();
            starts.add(0L);
            for (long c : cuts) {
                long k = firstAtOrAfter(seg, view, esize, n, c);
                if (k > starts.get(starts.size() - 1) && k < n) {
                    starts.add(k);
                }
            }
            InputPartition[] out = new InputPartition[starts.size()];
            for (int i = 0; i < out.length; i++) {
                long a = starts.get(i);
                long b = i + 1 < out.length ? starts.get(i + 1) : n;
                out[i] = new FileViewInputPartition(a, b, hostsAt(blocks, fileByte(seg, view, a, esize)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** File byte of the first data byte of etype {@code k} of the view. */
    static long fileByte(Segment seg, FileView view, long k, long esize) {
        seg.seek(k * esize);
        return view.displacement() + seg.flatten(1).get(0).offset();
    }

    /** The first etype whose first byte is at or after {@code cut} (tiles in file order, as views require). */
    private static long firstAtOrAfter(Segment seg, FileView view, long esize, long n, long cut) {
        long lo = 0;
        long hi = n;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (fileByte(seg, view, mid, esize) >= cut) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private static String[] hostsAt(BlockLocation[] blocks, long offset) throws IOException {
        for (BlockLocation b : blocks) {
            if (offset >= b.getOffset() && offset < b.getOffset() + b.getLength()) {
                return b.getHosts();
            }
        }
        return new String[0];
    }

    /**
     * The readers executors run, with the view's filetype shipped as its normalized notation (see
     * {@link FileViewSpec#shipped}); logs the shipped description's size and cost before and after.
     */
    @Override
    public PartitionReaderFactory createReaderFactory() {
        Configuration conf = SparkSession.active().sparkContext().hadoopConfiguration();
        if (spec.isEmpty()) {
            return new FileViewReaderFactory(spec, required, HadoopConf.of(conf)); // no partitions: nothing is read
        }
        FileViewSpec.Shipped shipped = spec.shipped(Normalizer.defaults());
        LOG.info("fileview {}: filetype shipped to executors normalized, {}", spec.path, shipped.shipment());
        return new FileViewReaderFactory(shipped.spec(), required, HadoopConf.of(conf));
    }
}
