package dev.layout.collective;

/**
 * One collective call, checked and ready to run: its name, the work of one round given the round's
 * sequence number, and the graph schedule it uses (null if none). {@link Collectives} runs it now
 * (blocking), later (non-blocking) or as a {@link PersistentCollective}.
 */
record Prepared(String name, Body body, Schedule schedule) {
  /** The work of one call, given its sequence number. */
  @FunctionalInterface
  interface Body {
    void run(int seq);
  }

  Prepared(String name, Body body) {
    this(name, body, null);
  }
}
