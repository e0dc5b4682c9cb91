package dev.layout.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Credit flow control of one connection, both directions: the credit this side may still spend on
 * eager messages to the peer, and the eager bytes the peer has buffered here against the grant
 * this side gave it. Each eager message is charged its length plus {@link #MESSAGE_OVERHEAD}, on
 * both sides, so that the grant bounds the receiver's heap even for empty messages (a queued
 * message costs about 226 bytes beside its payload; counting payload only, a peer could queue
 * millions of empty messages against any grant).
 */
final class CreditFlow {
    /** What one queued eager message is charged beside its payload. */
    static final long MESSAGE_OVERHEAD = 256;

    private final long grant;
    private final AtomicLong credits;
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong toReturn = new AtomicLong();

    /**
     * @param budget what the peer granted this side (its peerBufferBytes)
     * @param grant what this side grants the peer (our peerBufferBytes)
     */
    CreditFlow(long budget, long grant) {
        this.credits = new AtomicLong(budget);
        this.grant = grant;
    }

    /** Takes the credit for an eager message of n bytes, if there is enough. */
    boolean tryTake(long n) {
        long cost = n + MESSAGE_OVERHEAD;
        while (true) {
            long c = credits.get();
            if (c < cost) {
                return false;
            }
            if (credits.compareAndSet(c, c - cost)) {
                return true;
            }
        }
    }

    /** The peer returned n bytes of credit. */
    void returned(long n) {
        credits.addAndGet(n);
    }

    /** Accounts an arriving eager message of n bytes; false (nothing accounted) if it exceeds the grant. */
    boolean admit(long n) {
        long cost = n + MESSAGE_OVERHEAD;
        while (true) {
            long b = buffered.get();
            if (b + cost > grant) {
                return false;
            }
            if (buffered.compareAndSet(b, b + cost)) {
                return true;
            }
        }
    }

    /** Bytes of the grant in use (buffered eager messages and their overhead). */
    long buffered() {
        return buffered.get();
    }

    /**
     * An eager message of n bytes was consumed; returns the credit to send back now (an eighth of the
     * grant gathered, or everything once nothing is buffered), or 0 to wait for more.
     */
    long consumed(long n) {
        long cost = n + MESSAGE_OVERHEAD;
        buffered.addAndGet(-cost);
        long pending = toReturn.addAndGet(cost);
        if (pending >= Math.max(1, grant / 8) || buffered.get() == 0 && pending > 0) {
            return Math.max(0, toReturn.getAndSet(0));
        }
        return 0;
    }
}
