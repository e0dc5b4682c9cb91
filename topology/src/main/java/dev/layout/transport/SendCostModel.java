package dev.layout.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The cost model that picks {@link SendStrategy#PACK} or {@link SendStrategy#GATHER} per message.
 * The wire time is the same for both, so only the local work is modelled, in nanoseconds:
 *
 * <pre>
 *   pack   = packNsPerBlock * blocks + packNsPerByte * bytes
 *   gather = gatherNsPerBlock * blocks + gatherNsPerCall * ceil(blocks / batchBlocks)
 *            (+ heapNsPerByte * bytes when the memory is on the Java heap: the JDK copies heap
 *             buffers into a direct buffer before a gathering write)
 * </pre>
 *
 * Gather wins for few large blocks, pack for many small ones (the paper's struct case). The model
 * is the starting point of {@link AdaptiveSendPolicy}, which corrects it from measured sends; its
 * constants come from {@code conf/transport.properties} if present (written by the benchmarks
 * module's {@code TransportCalibration}), else {@link #DEFAULTS}, measured on the development
 * machine: no per-machine file is needed.
 *
 * @param packNsPerBlock engine cost per contiguous block when packing
 * @param packNsPerByte engine copy cost per byte
 * @param gatherNsPerBlock cost per gathered block (buffer view, iovec entry, kernel per-segment work)
 * @param gatherNsPerCall cost per gathering write call
 * @param heapNsPerByte extra per-byte cost of gathering from heap memory
 * @param batchBlocks blocks per gathering write (at most the system's IOV_MAX, 1024 on Linux)
 * @param minGatherBytes below this size a message is always packed (one small write is cheapest)
 */
public record SendCostModel(
        double packNsPerBlock,
        double packNsPerByte,
        double gatherNsPerBlock,
        double gatherNsPerCall,
        double heapNsPerByte,
        int batchBlocks,
        long minGatherBytes) {

    /** Built-in constants (keep equal to conf/transport.properties). */
    public static final SendCostModel DEFAULTS = new SendCostModel(1.273, 0.106, 107.158, 713.3, 0.106, 512, 16384);

    public SendCostModel {
        if (!(packNsPerBlock >= 0
                && packNsPerByte >= 0
                && gatherNsPerBlock >= 0
                && gatherNsPerCall >= 0
                && heapNsPerByte >= 0)) {
            throw new IllegalArgumentException("sendCostModel: negative or NaN constant (expected: >= 0)");
        }
        if (batchBlocks < 1 || batchBlocks > 1024) {
            throw new IllegalArgumentException("sendCostModel: batchBlocks " + batchBlocks + " (expected: 1..1024)");
        }
        if (minGatherBytes < 0) {
            throw new IllegalArgumentException("sendCostModel: minGatherBytes " + minGatherBytes + " (expected: >= 0)");
        }
    }

    /** Modelled local cost of packing, ns. */
    public double packCost(long blocks, long bytes) {
        return packNsPerBlock * blocks + packNsPerByte * bytes;
    }

    /** Modelled local cost of a gathering send, ns. */
    public double gatherCost(long blocks, long bytes, boolean heap) {
        long calls = (blocks + batchBlocks - 1) / batchBlocks;
        return gatherNsPerBlock * blocks + gatherNsPerCall * calls + (heap ? heapNsPerByte * bytes : 0);
    }

    /** The cheaper of pack and gather for a message of {@code blocks} contiguous blocks and {@code bytes} bytes. */
    public SendStrategy choose(long blocks, long bytes, boolean heap) {
        if (bytes < minGatherBytes || blocks <= 0) {
            return SendStrategy.PACK;
        }
        return gatherCost(blocks, bytes, heap) < packCost(blocks, bytes) ? SendStrategy.GATHER : SendStrategy.PACK;
    }

    /** The model in {@code transport.cost.*} properties, missing keys from {@link #DEFAULTS}. */
    public static SendCostModel fromProperties(Properties p) {
        SendCostModel d = DEFAULTS;
        try {
            return new SendCostModel(
                    dbl(p, "transport.cost.pack.nsPerBlock", d.packNsPerBlock),
                    dbl(p, "transport.cost.pack.nsPerByte", d.packNsPerByte),
                    dbl(p, "transport.cost.gather.nsPerBlock", d.gatherNsPerBlock),
                    dbl(p, "transport.cost.gather.nsPerCall", d.gatherNsPerCall),
                    dbl(p, "transport.cost.gather.heapNsPerByte", d.heapNsPerByte),
                    Integer.parseInt(p.getProperty("transport.cost.gather.batchBlocks", Integer.toString(d.batchBlocks))
                            .trim()),
                    Long.parseLong(p.getProperty("transport.cost.gather.minBytes", Long.toString(d.minGatherBytes))
                            .trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "sendCostModel: " + e.getMessage() + " (expected: numbers in transport.cost.*)");
        }
    }

    /**
     * The model from {@code conf/transport.properties} under {@code confDir} (or {@code
     * $LAYOUT_CONF}, or {@code ./conf}), or {@link #DEFAULTS} if there is no such file.
     */
    public static SendCostModel load(Path confDir) {
        Path file = confDir.resolve("transport.properties");
        if (!Files.isRegularFile(file)) {
            return DEFAULTS;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            return DEFAULTS;
        }
        return fromProperties(p);
    }

    /** {@link #load(Path)} from {@code $LAYOUT_CONF} or {@code ./conf}. */
    public static SendCostModel load() {
        String dir = System.getenv("LAYOUT_CONF");
        return load(Path.of(dir == null || dir.isBlank() ? "conf" : dir));
    }

    /** Writes the {@code transport.cost.*} keys. */
    public void store(Writer out) throws IOException {
        out.write(String.format(
                Locale.ROOT,
                "transport.cost.pack.nsPerBlock=%.3f%ntransport.cost.pack.nsPerByte=%.4f%n"
                        + "transport.cost.gather.nsPerBlock=%.3f%ntransport.cost.gather.nsPerCall=%.1f%n"
                        + "transport.cost.gather.heapNsPerByte=%.4f%ntransport.cost.gather.batchBlocks=%d%n"
                        + "transport.cost.gather.minBytes=%d%n",
                packNsPerBlock,
                packNsPerByte,
                gatherNsPerBlock,
                gatherNsPerCall,
                heapNsPerByte,
                batchBlocks,
                minGatherBytes));
    }

    private static double dbl(Properties p, String key, double def) {
        String v = p.getProperty(key);
        return v == null ? def : Double.parseDouble(v.trim());
    }
}
