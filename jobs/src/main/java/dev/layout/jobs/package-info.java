/**
 * The spark-submit jobs (heat, life, fileview-read, bench) and what they share: {@link
 * dev.layout.jobs.JobOptions} (validated options with {@code --conf-file}), {@link
 * dev.layout.jobs.Progress} (the driver's progress bar), output writers ({@link
 * dev.layout.jobs.RawField}, {@link dev.layout.jobs.Images}, {@link dev.layout.jobs.Summary}).
 */
package dev.layout.jobs;
