package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import java.util.concurrent.CompletableFuture;

/**
 * One collective call, checked and ready to run: its name, the work of one round given the round's
 * sequence number, and the graph schedule it uses (null if none). The three forms of every
 * operation derive from it: {@link #run} (blocking), {@link #start} (non-blocking) and {@link
 * #persistent}. Each takes the round's sequence number on the calling thread, so rounds match
 * across ranks in call order even when they run on the channel's executor.
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

    /** One round on the calling thread. */
    void run(CollectiveChannel ch) {
        body.run(ch.nextSequence());
    }

    /** One round on the channel's executor; the future completes when this rank's part is done. */
    CompletableFuture<Void> start(CollectiveChannel ch) {
        int seq = ch.nextSequence();
        return CompletableFuture.runAsync(() -> body.run(seq), ch.executor());
    }

    /** A handle that runs a round of this call at each start. */
    PersistentCollective persistent(CollectiveChannel ch) {
        return new PersistentCollective(this, ch);
    }
}
