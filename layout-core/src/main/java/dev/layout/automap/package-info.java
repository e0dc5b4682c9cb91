/**
 * AutoMap: struct datatypes derived from Java records and {@link dev.layout.automap.LayoutField}
 * classes ({@link dev.layout.automap.RecordLayouts}), with generated codecs that write and read
 * instances and arrays of instances in a {@link dev.layout.memory.Memory}.
 */
package dev.layout.automap;
