/**
 * AutoLink's communication-independent part: {@link dev.layout.autolink.GraphCodec} aggregates an
 * object graph of {@link dev.layout.autolink.TypeRegistry registered} node types into bounded
 * {@link dev.layout.autolink.Packet}s (per-type Arrow record batches, references as int32 indices
 * coded as differences, bodies ZSTD-compressed with Arrow's standard IPC body compression) and
 * expands packets back into an isomorphic graph. Aggregation marks each node with one probe of an
 * identity table and records every reference index during the traversal, so building a packet
 * copies indices instead of looking targets up again. A small graph (up to {@link
 * dev.layout.autolink.GraphCodec.Builder#compactMaxNodes} nodes) travels as one compact packet
 * instead ({@code CompactEncoder}, {@code CompactDecoder}): rows in traversal order, references as
 * node numbers, no Arrow and no compression, which at a thousand nodes cost several times the
 * traversal; a codec keeps one compact encoder and decoder per thread, so that their tables are
 * not allocated on every call. Node types of primitives and single references have a {@code
 * FlatRow}: their records are read and written in the per-packet loop itself, one bounds check per
 * record. On the receiving side {@link dev.layout.autolink.GraphExpander}
 * follows the stream (header, packets, linking) and {@code ColumnarBatchReader} reads each
 * columnar packet.
 *
 * <p>Transfer layers (topology communicators, Spark) are meant to sit on top and only move packets:
 * send/recv sends {@code aggregate(root)} and feeds {@link dev.layout.autolink.GraphExpander#accept}
 * on the receiver; bcast sends the same packets to every rank; gather and alltoall run one
 * aggregate/expand per peer. Packets are self-delimiting byte arrays
 * ({@link dev.layout.autolink.Packet#bytes()}, {@link dev.layout.autolink.Packet#wrap}), so any byte
 * transport works.
 */
package dev.layout.autolink;
