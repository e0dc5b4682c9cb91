/** The Spark-version-sensitive calls (barrier mapPartitions from Java, slot count, job secret). */
package dev.layout.spark.shim;
