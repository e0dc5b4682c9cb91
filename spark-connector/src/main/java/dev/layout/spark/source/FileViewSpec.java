package dev.layout.spark.source;

import static dev.layout.spark.conf.FileViewOptions.*;

import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.fileview.FileView;
import dev.layout.normalize.Normalizer;
import dev.layout.notation.LayoutParser;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The parsed options of one fileview table: path, displacement, etype, and either a box (a
 * subarray of {@code shape}, which coordinate filters can narrow) or a filetype in the notation.
 * Serializable: types travel as notation strings and are parsed again on executors. What ships to
 * executors is {@link #shipped}: the filetype as the notation of its normalized (least-cost)
 * description, whatever the options described.
 */
final class FileViewSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One value column: a primitive at a byte offset of the packed etype. */
    record Member(String name, Primitive type, int packedOffset) implements Serializable {}

    final String path;
    final long disp;
    final String etype;
    /** Filetype notation when the view is not a box; null for a box. */
    final String filetype;
    /** Global shape (slowest first), or null: the whole file is one dimension of etypes. */
    final long[] shape;

    final Order order;
    /** The box (when {@code filetype == null && shape != null}). */
    final long[] starts;

    final long[] subsizes;
    /** Etypes to read for views without a shape (-1: every whole tile). */
    final long count;

    final long splitBytes;
    final int batchRows;
    /** The normalized filetype's notation, which executors parse (null before {@link #shipped}). */
    final String shippedFiletype;

    private transient Datatype etypeType;
    private transient Datatype filetypeType;
    private transient List<Member> members;

    private FileViewSpec(
            String path,
            long disp,
            String etype,
            String filetype,
            long[] shape,
            Order order,
            long[] starts,
            long[] subsizes,
            long count,
            long splitBytes,
            int batchRows,
            String shippedFiletype) {
        this.path = path;
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.shape = shape;
        this.order = order;
        this.starts = starts;
        this.subsizes = subsizes;
        this.count = count;
        this.splitBytes = splitBytes;
        this.batchRows = batchRows;
        this.shippedFiletype = shippedFiletype;
    }

    /** Parses the options (keys in any case). */
    static FileViewSpec parse(Map<String, String> raw) {
        Map<String, String> o = new java.util.HashMap<>();
        raw.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
        checkKnown(o);
        String path = required(o, PATH);
        String et = required(o, ETYPE);
        Datatype etype = LayoutParser.parse(et);
        members(etype); // validates
        long disp = longOpt(o, DISP, 0);
        if (disp < 0) {
            throw new IllegalArgumentException("fileview: option disp " + disp + " (expected: >= 0)");
        }
        long count = longOpt(o, COUNT, -1);
        long split = longOpt(o, SPLIT_BYTES, 0);
        int batch = (int) longOpt(o, BATCH_ROWS, 65536);
        if (batch < 1) {
            throw new IllegalArgumentException("fileview: option batchRows " + batch + " (expected: >= 1)");
        }
        Order order = parseOrder(o.getOrDefault(ORDER.toLowerCase(Locale.ROOT), "C"));
        long[] shape = o.containsKey(SHAPE.toLowerCase(Locale.ROOT))
                ? dims(o.get(SHAPE.toLowerCase(Locale.ROOT)), SHAPE)
                : null;
        String ft = o.get(FILETYPE.toLowerCase(Locale.ROOT));
        if (ft != null) {
            Datatype f = LayoutParser.parse(ft);
            if (f instanceof Subarray s
                    && s.oldType().equals(etype)
                    && (shape == null || Arrays.equals(shape, s.sizes()))) {
                return new FileViewSpec(
                        path, disp, et, null, s.sizes(), s.order(), s.starts(), s.subsizes(), -1, split, batch, null);
            }
            if (shape == null && f instanceof Darray d && d.oldType().equals(etype)) {
                return new FileViewSpec(
                        path, disp, et, f.toString(), d.gsizes(), d.order(), null, null, -1, split, batch, null);
            }
            return new FileViewSpec(
                    path,
                    disp,
                    et,
                    f.toString(),
                    shape,
                    order,
                    null,
                    null,
                    shape == null ? count : -1,
                    split,
                    batch,
                    null);
        }
        if (shape == null) {
            for (String k : List.of(SUBARRAY, STARTS, SUBSIZES, PROCS)) {
                if (o.containsKey(k.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(
                            "fileview: option " + k + " needs option shape (expected: e.g. shape=64x32)");
                }
            }
            return new FileViewSpec(path, disp, et, et, null, Order.C, null, null, count, split, batch, null);
        }
        int d = shape.length;
        if (o.containsKey(PROCS.toLowerCase(Locale.ROOT))) {
            long[] procs = dims(o.get(PROCS.toLowerCase(Locale.ROOT)), PROCS);
            checkRank(procs.length, d, PROCS);
            long size = 1;
            for (long p : procs) {
                size = Math.multiplyExact(size, p);
            }
            long rank = longOpt(o, RANK, 0);
            Distribution[] dist = new Distribution[d];
            long[] dargs = new long[d];
            Arrays.fill(dist, Distribution.BLOCK);
            Arrays.fill(dargs, Datatype.DEFAULT_DARG);
            String ds = o.get(DISTRIBS.toLowerCase(Locale.ROOT));
            if (ds != null) {
                String[] p = ds.split(",");
                checkRank(p.length, d, DISTRIBS);
                for (int i = 0; i < d; i++) {
                    dist[i] = Distribution.valueOf(p[i].trim().toUpperCase(Locale.ROOT));
                }
            }
            String da = o.get(DARGS.toLowerCase(Locale.ROOT));
            if (da != null) {
                String[] p = da.split(",");
                checkRank(p.length, d, DARGS);
                for (int i = 0; i < d; i++) {
                    String s = p[i].trim();
                    dargs[i] = s.equalsIgnoreCase("default") ? Datatype.DEFAULT_DARG : Long.parseLong(s);
                }
            }
            Datatype f = Datatype.darray(size, rank, shape, dist, dargs, procs, order, etype);
            return new FileViewSpec(path, disp, et, f.toString(), shape, order, null, null, -1, split, batch, null);
        }
        long[] st = new long[d];
        long[] sub = shape.clone();
        if (o.containsKey(SUBARRAY.toLowerCase(Locale.ROOT))) {
            String[] r = o.get(SUBARRAY.toLowerCase(Locale.ROOT)).split(",");
            checkRank(r.length, d, SUBARRAY);
            for (int i = 0; i < d; i++) {
                String[] lh = r[i].trim().split(":", -1);
                if (lh.length != 2) {
                    throw new IllegalArgumentException(
                            "fileview: option subarray range '" + r[i] + "' (expected: lo:hi, e.g. 0:32)");
                }
                long lo = lh[0].isBlank() ? 0 : Long.parseLong(lh[0].trim());
                long hi = lh[1].isBlank() ? shape[i] : Long.parseLong(lh[1].trim());
                st[i] = lo;
                sub[i] = hi - lo;
            }
        } else if (o.containsKey(STARTS.toLowerCase(Locale.ROOT)) || o.containsKey(SUBSIZES.toLowerCase(Locale.ROOT))) {
            if (o.containsKey(STARTS.toLowerCase(Locale.ROOT))) {
                st = dims(o.get(STARTS.toLowerCase(Locale.ROOT)), STARTS);
                checkRank(st.length, d, STARTS);
            }
            if (o.containsKey(SUBSIZES.toLowerCase(Locale.ROOT))) {
                sub = dims(o.get(SUBSIZES.toLowerCase(Locale.ROOT)), SUBSIZES);
                checkRank(sub.length, d, SUBSIZES);
            } else {
                for (int i = 0; i < d; i++) {
                    sub[i] = shape[i] - st[i];
                }
            }
        }
        Datatype.subarray(shape, sub, st, order, etype); // validates the box
        return new FileViewSpec(path, disp, et, null, shape, order, st, sub, -1, split, batch, null);
    }

    /** This spec as it ships to executors, and what normalizing its filetype did to the shipped description. */
    record Shipped(FileViewSpec spec, Normalizer.Shipment shipment) {}

    /**
     * This view as it ships to executors: the filetype (the box's subarray, the darray, or the
     * filetype option) replaced by the notation of its normalized form (same type map, lb and
     * extent), which executors parse instead of rebuilding the view from the options.
     */
    Shipped shipped(Normalizer normalizer) {
        Normalizer.Shipment s = dev.layout.normalize.Shipping.smallest(normalizer, filetypeType());
        FileViewSpec spec = new FileViewSpec(
                path,
                disp,
                etype,
                filetype,
                shape,
                order,
                starts,
                subsizes,
                count,
                splitBytes,
                batchRows,
                s.notation());
        return new Shipped(spec, s);
    }

    /** The same view narrowed to another box (which may be empty). */
    FileViewSpec withBox(long[] newStarts, long[] newSubsizes) {
        return new FileViewSpec(
                path, disp, etype, null, shape, order, newStarts, newSubsizes, -1, splitBytes, batchRows, null);
    }

    boolean isBox() {
        return filetype == null;
    }

    boolean isEmpty() {
        if (!isBox()) {
            return false;
        }
        for (long s : subsizes) {
            if (s <= 0) {
                return true;
            }
        }
        return false;
    }

    int dimensions() {
        return shape == null ? 1 : shape.length;
    }

    Datatype etypeType() {
        if (etypeType == null) {
            etypeType = LayoutParser.parse(etype);
        }
        return etypeType;
    }

    Datatype filetypeType() {
        if (filetypeType == null) {
            filetypeType = shippedFiletype != null
                    ? LayoutParser.parse(shippedFiletype)
                    : isBox()
                            ? Datatype.subarray(shape, subsizes, starts, order, etypeType())
                            : LayoutParser.parse(filetype);
        }
        return filetypeType;
    }

    FileView view() {
        return new FileView(disp, etypeType(), filetypeType());
    }

    List<Member> members() {
        if (members == null) {
            members = members(etypeType());
        }
        return members;
    }

    static List<Member> members(Datatype etype) {
        List<Member> out = new ArrayList<>();
        if (etype instanceof Primitive p) {
            out.add(new Member(VALUE, p, 0));
            return out;
        }
        if (etype instanceof Struct s) {
            int off = 0;
            for (int i = 0; i < s.memberCount(); i++) {
                if (!(s.type(i) instanceof Primitive p)) {
                    throw new IllegalArgumentException(
                            "fileview: etype member " + i + " is " + s.type(i) + " (expected: a primitive)");
                }
                long b = s.blocklength(i);
                for (long j = 0; j < b; j++) {
                    out.add(new Member(b == 1 ? MEMBER_PREFIX + i : MEMBER_PREFIX + i + "_" + j, p, off));
                    off += p.byteSize();
                }
            }
            return out;
        }
        throw new IllegalArgumentException(
                "fileview: etype " + etype + " (expected: a primitive or a struct of primitives)");
    }

    static String coordinateName(int d) {
        return COORDINATE_PREFIX + d;
    }

    /** Coordinates (int, or long for a shapeless view), then the value columns. */
    StructType schema() {
        List<StructField> f = new ArrayList<>();
        for (int d = 0; d < dimensions(); d++) {
            f.add(DataTypes.createStructField(
                    coordinateName(d), shape == null ? DataTypes.LongType : DataTypes.IntegerType, false));
        }
        for (Member m : members()) {
            f.add(DataTypes.createStructField(m.name(), sparkType(m.type()), false));
        }
        return DataTypes.createStructType(f);
    }

    static DataType sparkType(Primitive p) {
        return switch (p) {
            case BYTE, INT8 -> DataTypes.ByteType;
            case INT16, UINT8 -> DataTypes.ShortType;
            case INT32, UINT16 -> DataTypes.IntegerType;
            case INT64, UINT32, UINT64 -> DataTypes.LongType;
            case FLOAT32 -> DataTypes.FloatType;
            case FLOAT64 -> DataTypes.DoubleType;
        };
    }

    long elementCount() {
        long n = 1;
        for (long s : shape) {
            n = Math.multiplyExact(n, s);
        }
        return n;
    }

    @Override
    public String toString() {
        String v = isBox()
                ? "subarray(" + Arrays.toString(shape) + ", " + Arrays.toString(subsizes) + ", "
                        + Arrays.toString(starts) + ", " + order + ")"
                : filetype;
        return "fileview(" + path + ", disp " + disp + ", " + etype + ", " + v + ")";
    }

    private static void checkRank(int n, int d, String opt) {
        if (n != d) {
            throw new IllegalArgumentException(
                    "fileview: option " + opt + " has " + n + " dimensions (expected: " + d + ", as shape)");
        }
    }

    private static Order parseOrder(String s) {
        return switch (s.trim().toUpperCase(Locale.ROOT)) {
            case "C" -> Order.C;
            case "F", "FORTRAN" -> Order.F;
            default -> throw new IllegalArgumentException("fileview: option order '" + s + "' (expected: C or F)");
        };
    }

    /** Every option this source reads (lower case); anything else is a typo, refused rather than ignored. */
    private static final List<String> KNOWN = java.util.stream.Stream.of(
                    PATH,
                    ETYPE,
                    DISP,
                    FILETYPE,
                    SHAPE,
                    ORDER,
                    SUBARRAY,
                    STARTS,
                    SUBSIZES,
                    PROCS,
                    RANK,
                    DISTRIBS,
                    DARGS,
                    COUNT,
                    SPLIT_BYTES,
                    BATCH_ROWS)
            .map(k -> k.toLowerCase(Locale.ROOT))
            .toList();

    private static void checkKnown(Map<String, String> o) {
        for (String k : o.keySet()) {
            // Spark adds "paths" for load(path...); session options arrive without their prefix.
            if (KNOWN.contains(k) || k.equals("paths") || k.startsWith("spark.") || k.startsWith("__")) {
                continue;
            }
            String near = null;
            int best = 3;
            for (String c : KNOWN) {
                int d = distance(k, c);
                if (d < best) {
                    best = d;
                    near = c;
                }
            }
            throw new IllegalArgumentException(
                    "fileview: unknown option " + k + (near != null ? " (did you mean " + near + "?)" : "")
                            + " (expected: one of " + String.join(", ", KNOWN) + ")");
        }
    }

    /** Levenshtein distance, for the suggestion of an unknown option. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(
                        Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    static long[] dims(String s, String opt) {
        String[] p = s.trim().split("[x,]", -1);
        long[] out = new long[p.length];
        for (int i = 0; i < p.length; i++) {
            if (p[i].isBlank()) {
                throw new IllegalArgumentException("fileview: option " + opt + " '" + s
                        + "' has an empty entry (expected: integers like 64x32 or 64,32)");
            }
            try {
                out[i] = Long.parseLong(p[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "fileview: option " + opt + " '" + s + "' (expected: integers like 64x32 or 64,32)");
            }
            if (out[i] < 0) {
                throw new IllegalArgumentException(
                        "fileview: option " + opt + " '" + s + "' has a negative entry (expected: >= 0)");
            }
        }
        return out;
    }

    private static String required(Map<String, String> o, String key) {
        String v = o.get(key.toLowerCase(Locale.ROOT));
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("fileview: option " + key + " is missing (expected: "
                    + switch (key) {
                        case PATH -> "the array file's path";
                        case ETYPE -> "an element type such as float64";
                        default -> "a value";
                    }
                    + ")");
        }
        return v;
    }

    private static long longOpt(Map<String, String> o, String key, long dflt) {
        String v = o.get(key.toLowerCase(Locale.ROOT));
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fileview: option " + key + " '" + v + "' (expected: an integer)");
        }
    }
}
