package dev.layout.spark.source;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.types.StructType;

/**
 * Column pruning and coordinate filter pushdown. For a box view (a subarray of the shape), range
 * and equality filters on the coordinate columns narrow the box, so only the smaller subarray is
 * read; such filters are exact and not evaluated again. {@code IN} narrows the box to its
 * bounding range and is evaluated again. Other filters, and filters on other views, stay with Spark.
 */
final class FileViewScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
    private final FileViewSpec spec;
    private FileViewSpec narrowed;
    private StructType required;
    private Filter[] pushed = new Filter[0];

    FileViewScanBuilder(FileViewSpec spec) {
        this.spec = spec;
        this.narrowed = spec;
        this.required = spec.schema();
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        if (!spec.isBox()) {
            return filters;
        }
        int d = spec.dimensions();
        long[] lo = new long[d];
        long[] hi = new long[d];
        for (int i = 0; i < d; i++) {
            lo[i] = spec.starts[i];
            hi[i] = spec.starts[i] + spec.subsizes[i];
        }
        List<Filter> residual = new ArrayList<>();
        List<Filter> done = new ArrayList<>();
        for (Filter f : filters) {
            int r = narrow(f, lo, hi);
            if (r == NONE) {
                residual.add(f);
            } else {
                done.add(f);
                if (r == INEXACT) {
                    residual.add(f);
                }
            }
        }
        long[] st = new long[d];
        long[] sub = new long[d];
        for (int i = 0; i < d; i++) {
            st[i] = Math.min(lo[i], spec.shape[i]);
            sub[i] = Math.max(0, Math.min(hi[i], spec.shape[i]) - st[i]);
            if (sub[i] == 0) {
                st[i] = 0;
            }
        }
        narrowed = spec.withBox(st, sub);
        pushed = done.toArray(new Filter[0]);
        return residual.toArray(new Filter[0]);
    }

    private static final int NONE = 0;
    private static final int EXACT = 1;
    private static final int INEXACT = 2;

    /** Narrows [lo, hi) by {@code f} when it constrains one coordinate; returns how well. */
    private int narrow(Filter f, long[] lo, long[] hi) {
        if (f instanceof And a) {
            long[] l2 = lo.clone();
            long[] h2 = hi.clone();
            int x = narrow(a.left(), l2, h2);
            int y = narrow(a.right(), l2, h2);
            if (x == NONE || y == NONE) {
                return NONE; // keep the whole conjunction for Spark; simple and correct
            }
            System.arraycopy(l2, 0, lo, 0, lo.length);
            System.arraycopy(h2, 0, hi, 0, hi.length);
            return x == EXACT && y == EXACT ? EXACT : INEXACT;
        }
        String attr;
        Object v;
        if (f instanceof EqualTo e) {
            attr = e.attribute();
            v = e.value();
        } else if (f instanceof GreaterThan g) {
            attr = g.attribute();
            v = g.value();
        } else if (f instanceof GreaterThanOrEqual g) {
            attr = g.attribute();
            v = g.value();
        } else if (f instanceof LessThan l) {
            attr = l.attribute();
            v = l.value();
        } else if (f instanceof LessThanOrEqual l) {
            attr = l.attribute();
            v = l.value();
        } else if (f instanceof In in) {
            int dim = dimension(in.attribute());
            if (dim < 0 || in.values().length == 0) {
                return NONE;
            }
            long mn = Long.MAX_VALUE;
            long mx = Long.MIN_VALUE;
            for (Object o : in.values()) {
                if (!(o instanceof Integer || o instanceof Long || o instanceof Short || o instanceof Byte)) {
                    return NONE;
                }
                long x = ((Number) o).longValue();
                mn = Math.min(mn, x);
                mx = Math.max(mx, x);
            }
            lo[dim] = Math.max(lo[dim], mn);
            hi[dim] = Math.min(hi[dim], mx + 1);
            return INEXACT;
        } else {
            return NONE;
        }
        int dim = dimension(attr);
        if (dim < 0 || !(v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)) {
            return NONE;
        }
        long x = ((Number) v).longValue();
        if (f instanceof EqualTo) {
            lo[dim] = Math.max(lo[dim], x);
            hi[dim] = Math.min(hi[dim], x + 1);
        } else if (f instanceof GreaterThan) {
            lo[dim] = Math.max(lo[dim], x + 1);
        } else if (f instanceof GreaterThanOrEqual) {
            lo[dim] = Math.max(lo[dim], x);
        } else if (f instanceof LessThan) {
            hi[dim] = Math.min(hi[dim], x);
        } else {
            hi[dim] = Math.min(hi[dim], x + 1);
        }
        if (hi[dim] < lo[dim]) {
            hi[dim] = lo[dim];
        }
        return EXACT;
    }

    private int dimension(String attr) {
        for (int d = 0; d < spec.dimensions(); d++) {
            if (FileViewSpec.coordinateName(d).equals(attr)) {
                return d;
            }
        }
        return -1;
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.clone();
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Scan build() {
        return new FileViewScan(narrowed, required, pushed);
    }
}
