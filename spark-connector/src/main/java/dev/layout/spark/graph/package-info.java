/**
 * Object graphs over communicators: {@link dev.layout.spark.graph.GraphTransfer} moves AutoLink's
 * packets ({@code dev.layout.autolink}) with point-to-point messages and the byte collectives, so a
 * graph can be sent, broadcast, gathered or exchanged all-to-all between ranks (threads, processes
 * or Spark barrier tasks).
 */
package dev.layout.spark.graph;
