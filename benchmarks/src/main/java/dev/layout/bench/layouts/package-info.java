/**
 * {@code layout bench layouts}: the engine against the hand loop on application layouts drawn at
 * random from a seed ({@link dev.layout.bench.layouts.LayoutDraws}), to measure it where nothing was
 * tuned.
 */
package dev.layout.bench.layouts;
