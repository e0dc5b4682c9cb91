/** The Spark-version-sensitive calls (barrier mapPartitions from Java, slot count, the job key derived on each JVM). */
package dev.layout.spark.shim;
