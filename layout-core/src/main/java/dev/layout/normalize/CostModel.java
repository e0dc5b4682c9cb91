package dev.layout.normalize;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * A cost model for type paths, as a value.
 *
 * <p>Every model here is <em>level-additive</em>: the cost of a path {@code T_0, …, T_(m-1)} is
 * the sum over its nodes of {@link #nodeCost(TypePath.Kind, long, long) nodeCost(kind_k, c_k,
 * M_k)}, where {@code c_k} is the node's count and {@code M_k = c_0·…·c_(k-1)} is the number of
 * times the node is visited ({@code M_0 = 1}). Node costs must be non-negative. This is the only
 * property the reconstruction relies on, so any model of this shape is optimized exactly: a new
 * model is a new implementation of this interface (for example a weighted sum of {@link Storage}
 * and {@link Processing}, see {@link #sum(CostModel, CostModel)}).
 *
 * <p>The two models of the paper:
 *
 * <ul>
 *   <li>{@link Storage} (section 2): {@code con = Kcon}, {@code vec = Kvec}, {@code idx = Kidx +
 *       c}: words stored for the description.
 *   <li>{@link Processing} (section 4): {@code M·(K_T + c·C_T)}: work to traverse the description.
 * </ul>
 *
 * <pre>{@code
 * CostModel storage = CostModel.storage(1, 4, 3);
 * TypePath p = TypePath.parse("idx(3,<2,9,1>,vec(4,2,con(1)))");
 * long words = p.cost(storage);  // (3+3) + 4 + 1 = 11
 * }</pre>
 *
 * <p>Defaults live in {@code conf/normalizer.properties} and, identically, in {@link #DEFAULTS}
 * (see {@link #fromProperties(Properties)} for the keys).
 */
public interface CostModel {

    /** Property key prefix, e.g. {@code normalizer.storage.kidx}. */
    String PREFIX = "normalizer.";

    /**
     * The code defaults, identical to {@code conf/normalizer.properties}: the storage constants of
     * the paper's examples (Kcon, Kvec, Kidx) = (1, 4, 3) and processing (1, 2, 3, 1, 1, 2).
     */
    Properties DEFAULTS = defaultProperties();

    /**
     * The cost of one node of {@code kind} with count {@code count}, visited {@code multiplier}
     * times. Never negative.
     *
     * @throws IllegalArgumentException if the cost overflows a {@code long}
     */
    long nodeCost(TypePath.Kind kind, long count, long multiplier);

    /** The model's name as used on the command line: {@code storage}, {@code processing}, … */
    String name();

    /** The cost of {@code path} under this model, the same as {@code path.cost(this)}. */
    default long cost(TypePath path) {
        return path.cost(this);
    }

    /**
     * The storage model of section 2.
     *
     * @throws IllegalArgumentException if a constant is negative
     */
    static Storage storage(long kcon, long kvec, long kidx) {
        return new Storage(kcon, kvec, kidx);
    }

    /**
     * The processing model of section 4.
     *
     * @throws IllegalArgumentException if a constant is negative
     */
    static Processing processing(long kcon, long kvec, long kidx, long ccon, long cvec, long cidx) {
        return new Processing(kcon, kvec, kidx, ccon, cvec, cidx);
    }

    /** The sum of two level-additive models, node by node; still level-additive. */
    static CostModel sum(CostModel a, CostModel b) {
        return new Sum(a, b);
    }

    /**
     * {@code model} with idx nodes of at most {@code maxCount} entries: a longer idx node costs
     * {@link Long#MAX_VALUE}, the saturated cost, which the normalizer never chooses. Still
     * level-additive. The dataloop compiler normalizes under it so that normalization never trades
     * vectors for an index list longer than the description already stores (see {@code
     * dev.layout.dataloop.EngineNormalization}).
     *
     * @throws IllegalArgumentException if maxCount is below 1
     * @throws NullPointerException if model is null
     */
    static CostModel withIdxLimit(CostModel model, long maxCount) {
        return new IdxLimit(model, maxCount);
    }

    /** The default model: {@code normalizer.model} of {@link #DEFAULTS}. */
    static CostModel defaults() {
        return fromProperties(DEFAULTS);
    }

    /** The model named by {@code normalizer.model} in {@code props} (missing keys: defaults). */
    static CostModel fromProperties(Properties props) {
        return fromProperties(props, value(props, "model"));
    }

    /**
     * The model {@code name} ({@code storage} or {@code processing}) with its constants from {@code
     * props}: {@code normalizer.<name>.kcon}, {@code .kvec}, {@code .kidx} and for processing {@code
     * .ccon}, {@code .cvec}, {@code .cidx}. Missing keys take the defaults.
     *
     * @throws IllegalArgumentException if the name is unknown or a constant is not a non-negative
     *     integer
     */
    static CostModel fromProperties(Properties props, String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "storage" ->
                storage(
                        constant(props, "storage.kcon"),
                        constant(props, "storage.kvec"),
                        constant(props, "storage.kidx"));
            case "processing" ->
                processing(
                        constant(props, "processing.kcon"),
                        constant(props, "processing.kvec"),
                        constant(props, "processing.kidx"),
                        constant(props, "processing.ccon"),
                        constant(props, "processing.cvec"),
                        constant(props, "processing.cidx"));
            default ->
                throw new IllegalArgumentException("cost model: name '" + name + "' (expected: storage or processing)");
        };
    }

    /**
     * Loads a properties file such as {@code conf/normalizer.properties}.
     *
     * @throws IOException if the file cannot be read (the message names the path)
     * @throws IllegalArgumentException as {@link #fromProperties(Properties)}
     */
    static CostModel load(Path file) throws IOException {
        Properties p = new Properties(DEFAULTS);
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        return fromProperties(p);
    }

    private static String value(Properties props, String key) {
        String v = props.getProperty(PREFIX + key);
        return v != null ? v : DEFAULTS.getProperty(PREFIX + key);
    }

    private static long constant(Properties props, String key) {
        String v = value(props, key);
        try {
            long c = Long.parseLong(v.strip());
            if (c < 0) {
                throw new NumberFormatException();
            }
            return c;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "cost model: " + PREFIX + key + " '" + v + "' (expected: an integer >= 0)");
        }
    }

    private static Properties defaultProperties() {
        Properties p = new Properties();
        p.setProperty(PREFIX + "model", "storage");
        p.setProperty(PREFIX + "storage.kcon", "1");
        p.setProperty(PREFIX + "storage.kvec", "4");
        p.setProperty(PREFIX + "storage.kidx", "3");
        p.setProperty(PREFIX + "processing.kcon", "1");
        p.setProperty(PREFIX + "processing.kvec", "2");
        p.setProperty(PREFIX + "processing.kidx", "3");
        p.setProperty(PREFIX + "processing.ccon", "1");
        p.setProperty(PREFIX + "processing.cvec", "1");
        p.setProperty(PREFIX + "processing.cidx", "2");
        return p;
    }

    private static void checkNonNegative(String model, String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(model + ": " + name + " " + value + " (expected: >= 0)");
        }
    }

    /**
     * Storage cost (section 2): {@code cost(con(c)) = Kcon}, {@code cost(vec(c,d,C)) = Kvec}, {@code
     * cost(idx(c,<…>,C)) = Kidx + c}; the multiplier is ignored.
     */
    record Storage(long kcon, long kvec, long kidx) implements CostModel {
        /** @throws IllegalArgumentException if a constant is negative */
        public Storage {
            checkNonNegative("storage", "Kcon", kcon);
            checkNonNegative("storage", "Kvec", kvec);
            checkNonNegative("storage", "Kidx", kidx);
        }

        @Override
        public long nodeCost(TypePath.Kind kind, long count, long multiplier) {
            return switch (kind) {
                case CON -> kcon;
                case VEC -> kvec;
                case IDX -> Arith.add("storage cost", kidx, count);
            };
        }

        @Override
        public String name() {
            return "storage";
        }

        @Override
        public String toString() {
            return "storage(Kcon=" + kcon + ",Kvec=" + kvec + ",Kidx=" + kidx + ")";
        }
    }

    /**
     * Processing cost (section 4): node {@code T_k} costs {@code M_k·(K_T + c_k·C_T)}, where {@code
     * M_k} is the product of the counts above it and {@code (K_T, C_T)} are the per-visit and
     * per-element constants of its kind.
     */
    record Processing(long kcon, long kvec, long kidx, long ccon, long cvec, long cidx) implements CostModel {
        /** @throws IllegalArgumentException if a constant is negative */
        public Processing {
            checkNonNegative("processing", "Kcon", kcon);
            checkNonNegative("processing", "Kvec", kvec);
            checkNonNegative("processing", "Kidx", kidx);
            checkNonNegative("processing", "Ccon", ccon);
            checkNonNegative("processing", "Cvec", cvec);
            checkNonNegative("processing", "Cidx", cidx);
        }

        @Override
        public long nodeCost(TypePath.Kind kind, long count, long multiplier) {
            long k;
            long c;
            switch (kind) {
                case CON -> {
                    k = kcon;
                    c = ccon;
                }
                case VEC -> {
                    k = kvec;
                    c = cvec;
                }
                default -> {
                    k = kidx;
                    c = cidx;
                }
            }
            String op = "processing cost";
            return Arith.mul(op, multiplier, Arith.add(op, k, Arith.mul(op, count, c)));
        }

        @Override
        public String name() {
            return "processing";
        }

        @Override
        public String toString() {
            return "processing(Kcon=" + kcon + ",Kvec=" + kvec + ",Kidx=" + kidx + ",Ccon=" + ccon + ",Cvec=" + cvec
                    + ",Cidx=" + cidx + ")";
        }
    }

    /** A model whose idx nodes longer than {@code maxCount} cost {@link Long#MAX_VALUE} (never chosen). */
    record IdxLimit(CostModel model, long maxCount) implements CostModel {
        /**
         * @throws IllegalArgumentException if maxCount is below 1
         * @throws NullPointerException if model is null
         */
        public IdxLimit {
            java.util.Objects.requireNonNull(model, "model");
            if (maxCount < 1) {
                throw new IllegalArgumentException("idx limit: maxCount " + maxCount + " (expected: >= 1)");
            }
        }

        @Override
        public long nodeCost(TypePath.Kind kind, long count, long multiplier) {
            return kind == TypePath.Kind.IDX && count > maxCount
                    ? Long.MAX_VALUE
                    : model.nodeCost(kind, count, multiplier);
        }

        @Override
        public String name() {
            return model.name();
        }

        @Override
        public String toString() {
            return model + " with idx nodes <= " + maxCount;
        }
    }

    /** Node-by-node sum of two models. */
    record Sum(CostModel first, CostModel second) implements CostModel {
        /** @throws NullPointerException if a model is null */
        public Sum {
            java.util.Objects.requireNonNull(first, "first");
            java.util.Objects.requireNonNull(second, "second");
        }

        @Override
        public long nodeCost(TypePath.Kind kind, long count, long multiplier) {
            return Arith.add("cost", first.nodeCost(kind, count, multiplier), second.nodeCost(kind, count, multiplier));
        }

        @Override
        public String name() {
            return first.name() + "+" + second.name();
        }

        @Override
        public String toString() {
            return first + "+" + second;
        }
    }
}
