package dev.layout.cli;

import dev.layout.dataloop.Dataloop;
import dev.layout.dataloop.DataloopCompiler;
import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Representation;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/** {@code layout describe "<type>" [--count N] [--external32]}: bounds, the optimized dataloop, block count. */
public final class DescribeCommand implements Subcommand {
    /** Types of more runs than this get their block count by arithmetic, not by walking every block. */
    static final long FLATTEN_LIMIT = 1 << 22;

    @Override
    public String name() {
        return "describe";
    }

    @Override
    public String summary() {
        return "describe a type: size, bounds, the optimized dataloop tree, contiguous blocks";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) {
        Options o = Options.parse("describe", args, Set.of("count"), Set.of("external32", "help"));
        if (o.has("help") || o.positional().size() != 1) {
            out.println("usage: layout describe \"<layout notation>\" [--count N] [--external32]");
            return o.has("help") ? 0 : 2;
        }
        Datatype t = LayoutParser.parse(o.positional().get(0));
        long count = o.getLong("count", 1, 0);
        Representation rep = o.has("external32") ? Representation.EXTERNAL32 : Representation.NATIVE;
        out.println("type:            " + t);
        out.println("combiner:        " + t.combiner().notationName() + ", depth " + t.depth());
        out.println("size:            " + t.byteSize());
        out.println("lb:              " + t.lb());
        out.println("extent:          " + t.extent());
        out.println("true lb:         " + t.trueLb());
        out.println("true extent:     " + t.trueExtent());
        out.println("explicit bounds: " + (t.hasExplicitBounds() ? "yes (sticky lb/ub markers)" : "no"));
        out.println("contiguous:      " + (t.isContiguous() ? "yes" : "no"));
        Segment s = Segment.layout(t, count);
        Dataloop d = rep == Representation.NATIVE ? s.dataloop() : DataloopCompiler.compileCount(t, count, rep);
        Datatype compiled = DataloopCompiler.compiledDescription(t, rep);
        out.println("compiled from:   "
                + (compiled == t ? "the type as given" : compiled + " (normalized, same type map)"));
        out.println("dataloop (count " + count + ", " + rep.name().toLowerCase(java.util.Locale.ROOT) + "):");
        if (d == null) {
            out.println("  (no data)");
        } else {
            for (String line : d.toTreeString().split("\n")) {
                out.println("  " + line);
            }
            out.println("run order:       " + (rep == Representation.NATIVE ? d.runOrder() : "packed order"));
        }
        long runs = s.dataloop() == null ? 0 : s.dataloop().runCount();
        if (runs <= FLATTEN_LIMIT) {
            long blocks = 0;
            while (s.remaining() > 0) {
                List<Piece> p = s.flatten(1 << 16);
                blocks += p.size();
            }
            out.println("contiguous blocks: " + blocks + " (" + s.byteSize() + " bytes packed)");
        } else {
            // Too many to walk: the dataloop's runs by arithmetic (runs that touch across loops counted apart).
            out.println("contiguous blocks: " + (runs == Long.MAX_VALUE ? "at least " : "at most ") + runs
                    + " (by arithmetic; " + Long.toUnsignedString(s.byteSize()) + " bytes packed)");
        }
        return 0;
    }
}
