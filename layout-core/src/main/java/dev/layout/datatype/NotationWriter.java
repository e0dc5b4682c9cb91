package dev.layout.datatype;

/**
 * Prints a datatype in the canonical spelling of the layout notation: {@code ", "} between
 * arguments, {@code ","} inside brackets. Depth is bounded by {@link TypeLimits#MAX_DEPTH}.
 */
final class NotationWriter {
    private NotationWriter() {}

    static String write(Datatype t) {
        StringBuilder sb = new StringBuilder();
        write(t, sb);
        return sb.toString();
    }

    private static void write(Datatype t, StringBuilder sb) {
        switch (t.combiner()) {
            case NAMED -> sb.append(((Primitive) t).notationName());
            case CONTIGUOUS -> {
                Contiguous c = (Contiguous) t;
                sb.append("contig(").append(c.count()).append(", ");
                write(c.oldType(), sb);
                sb.append(')');
            }
            case VECTOR, HVECTOR -> {
                Vector v = (Vector) t;
                sb.append(t.combiner().notationName())
                        .append('(')
                        .append(v.count())
                        .append(", ")
                        .append(v.blocklength())
                        .append(", ")
                        .append(v.stride())
                        .append(", ");
                write(v.oldType(), sb);
                sb.append(')');
            }
            case INDEXED, HINDEXED -> {
                Indexed x = (Indexed) t;
                sb.append(t.combiner().notationName()).append('(');
                list(x.blocklengths(), sb);
                sb.append(", ");
                list(x.displacements(), sb);
                sb.append(", ");
                write(x.oldType(), sb);
                sb.append(')');
            }
            case INDEXED_BLOCK, HINDEXED_BLOCK -> {
                Indexed x = (Indexed) t;
                sb.append(t.combiner().notationName())
                        .append('(')
                        .append(x.uniformBlocklength())
                        .append(", ");
                list(x.displacements(), sb);
                sb.append(", ");
                write(x.oldType(), sb);
                sb.append(')');
            }
            case STRUCT -> {
                Struct s = (Struct) t;
                sb.append("struct(");
                list(s.blocklengths(), sb);
                sb.append(", ");
                list(s.byteDisplacements(), sb);
                sb.append(", [");
                for (int i = 0; i < s.memberCount(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    write(s.type(i), sb);
                }
                sb.append("])");
            }
            case SUBARRAY -> {
                Subarray s = (Subarray) t;
                sb.append("subarray(");
                list(s.sizes(), sb);
                sb.append(", ");
                list(s.subsizes(), sb);
                sb.append(", ");
                list(s.starts(), sb);
                sb.append(", ").append(s.order().name()).append(", ");
                write(s.oldType(), sb);
                sb.append(')');
            }
            case DARRAY -> {
                Darray d = (Darray) t;
                sb.append("darray(")
                        .append(d.size())
                        .append(", ")
                        .append(d.rank())
                        .append(", ");
                list(d.gsizes(), sb);
                sb.append(", [");
                Distribution[] ds = d.distribs();
                for (int i = 0; i < ds.length; i++) {
                    sb.append(i > 0 ? "," : "").append(ds[i].notationName());
                }
                sb.append("], [");
                long[] a = d.dargs();
                for (int i = 0; i < a.length; i++) {
                    sb.append(i > 0 ? "," : "");
                    if (a[i] == Datatype.DEFAULT_DARG) {
                        sb.append("default");
                    } else {
                        sb.append(a[i]);
                    }
                }
                sb.append("], ");
                list(d.psizes(), sb);
                sb.append(", ").append(d.order().name()).append(", ");
                write(d.oldType(), sb);
                sb.append(')');
            }
            case RESIZED -> {
                Resized r = (Resized) t;
                sb.append("resized(")
                        .append(r.lb())
                        .append(", ")
                        .append(r.extent())
                        .append(", ");
                write(r.oldType(), sb);
                sb.append(')');
            }
        }
    }

    private static void list(long[] values, StringBuilder sb) {
        sb.append('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(values[i]);
        }
        sb.append(']');
    }
}
