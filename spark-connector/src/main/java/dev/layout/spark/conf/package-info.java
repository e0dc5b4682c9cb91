/**
 * The option names users pass to the {@code fileview} data source ({@link
 * dev.layout.spark.conf.FileViewOptions}), apart from the source that reads them so that user code
 * can name them without depending on the source's internals.
 */
package dev.layout.spark.conf;
