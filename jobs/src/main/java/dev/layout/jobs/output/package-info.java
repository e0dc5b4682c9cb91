/**
 * A job's output directory on any Hadoop file system: opened only after the options are valid,
 * locked against a second run, refused when it holds earlier outputs unless the user asks to
 * overwrite, and written file by file through exclusive temporary names that are renamed into
 * place, so a reader never sees a half-written file.
 */
package dev.layout.jobs.output;
