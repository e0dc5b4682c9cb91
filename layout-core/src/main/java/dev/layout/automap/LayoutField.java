package dev.layout.automap;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Mapping directives for one field of a record (on the record component) or of a plain class (on
 * the field; only annotated fields of a plain class are mapped). The Java counterpart of AutoMap's
 * comment directives.
 *
 * <pre>{@code
 * record Pen(@LayoutField(length = 20) byte[] brand, int content, long unitPrice) {}
 * RecordLayouts.of(Pen.class).datatype();
 * // struct([20,1,1], [0,20,24], [int8,int32,int64])
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface LayoutField {
    /** Position of the field in the layout (fields are laid out by ascending order); -1 = declaration order (records only). */
    int order() default -1;

    /** Explicit byte offset of the field from the start of the record; -1 = next free (aligned) offset. */
    long offset() default -1;

    /** Element count of an array field (required for arrays: the layout is fixed-size). */
    int length() default -1;

    /** Map {@code byte/short/int/long} (and their arrays) to {@code uint8/16/32/64} instead of {@code int8..int64}. */
    boolean unsigned() default false;
}
