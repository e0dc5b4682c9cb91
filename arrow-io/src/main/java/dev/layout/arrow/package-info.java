/**
 * Layout datatypes over Arrow memory: {@link dev.layout.arrow.ArrowMemory} (a zero-copy {@code
 * Memory} over an {@code ArrowBuf}), {@link dev.layout.arrow.VectorRegions} (the datatypes of rows,
 * columns, faces and halos of row-major arrays in fixed-width vectors), {@link
 * dev.layout.arrow.VectorPacking} (pack/unpack between vectors and byte streams) and {@link
 * dev.layout.arrow.LayoutIpc} (packed messages as Arrow IPC streams, the datatype's notation in the
 * schema metadata). The engine itself lives in layout-core; nothing here copies data except where
 * Arrow IPC requires it. Grids with ghost cells are in {@code dev.layout.arrow.grid}.
 */
package dev.layout.arrow;
