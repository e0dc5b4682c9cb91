package dev.layout.spark.conf;

/**
 * Option names of the {@code fileview} data source ({@code spark.read.format("fileview")} and
 * {@code df.write.format("fileview")}). Names are case-insensitive, as every Spark option.
 *
 * <p>A view is {@code (disp, etype, filetype)}. The filetype is either given in the layout notation
 * ({@link #FILETYPE}) or built from {@link #SHAPE} and one of: nothing (the whole array), a box
 * ({@link #SUBARRAY}, or {@link #STARTS} + {@link #SUBSIZES}), or a block darray ({@link #PROCS} +
 * {@link #RANK}, optionally {@link #DISTRIBS} and {@link #DARGS}). Without shape nor filetype the
 * view is the whole file as a sequence of etypes (one coordinate column {@code i0} of type long).
 */
public final class FileViewOptions {
    private FileViewOptions() {}

    /** The source's short name. */
    public static final String SHORT_NAME = "fileview";
    /** File path (HDFS, local, any Hadoop file system). Required. */
    public static final String PATH = "path";
    /** Element type in the layout notation: a primitive ({@code float64}) or a struct of primitives. Required. */
    public static final String ETYPE = "etype";
    /** Displacement in bytes of the array in the file. Default 0. */
    public static final String DISP = "disp";
    /** Filetype in the layout notation (e.g. {@code subarray([8,8],[4,4],[0,4],C,float64)}, {@code darray(...)}). */
    public static final String FILETYPE = "filetype";
    /** Global array shape, slowest dimension first: {@code 64x32} or {@code 64,32}. Inferred from a subarray/darray filetype. */
    public static final String SHAPE = "shape";
    /** Storage order of the array: {@code C} (default) or {@code F}. */
    public static final String ORDER = "order";
    /** A box as half-open ranges per dimension, {@code 0:32,16:32}; builds a subarray filetype. */
    public static final String SUBARRAY = "subarray";
    /** Box starts per dimension ({@code 0,16}); with {@link #SUBSIZES}. */
    public static final String STARTS = "starts";
    /** Box sizes per dimension ({@code 32x16}); with {@link #STARTS} (default starts 0). */
    public static final String SUBSIZES = "subsizes";
    /** Process grid of a darray filetype ({@code 2x2}); with {@link #RANK}. */
    public static final String PROCS = "procs";
    /** Rank whose darray part is read. Default 0. */
    public static final String RANK = "rank";
    /** Darray distributions per dimension ({@code block,cyclic,none}). Default block. */
    public static final String DISTRIBS = "distribs";
    /** Darray distribution arguments per dimension ({@code default,2}). Default {@code default}. */
    public static final String DARGS = "dargs";
    /** Number of etypes to read (views without a shape only). Default: every whole tile in the file. */
    public static final String COUNT = "count";
    /** Maximum bytes of file per input partition (split inside HDFS blocks). Default: the file's block size. */
    public static final String SPLIT_BYTES = "splitBytes";
    /** Rows per columnar batch. Default 65536. */
    public static final String BATCH_ROWS = "batchRows";

    /** Prefix of the coordinate columns: {@code i0, i1, ...} (slowest dimension first). */
    public static final String COORDINATE_PREFIX = "i";
    /** The value column of a primitive etype. */
    public static final String VALUE = "value";
    /** Prefix of the value columns of a struct etype: {@code v0, v1, ...}, {@code v2_0, v2_1} for a member with blocklength 2. */
    public static final String MEMBER_PREFIX = "v";
}
