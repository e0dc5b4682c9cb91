/** The bench job: every benchmark suite of the project in one run, with RESULTS.md and charts. */
package dev.layout.jobs.bench;
