/**
 * The layout notation: {@link dev.layout.notation.LayoutParser} turns text such as {@code
 * vector(4, 1, 4, float32)} into a {@link dev.layout.datatype.Datatype}, {@link
 * dev.layout.notation.LayoutPrinter} prints the canonical spelling back. Syntax errors carry line,
 * column, what was expected and what was found ({@link dev.layout.notation.LayoutSyntaxException}).
 */
package dev.layout.notation;
