package dev.layout.transport;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;

/**
 * The receive side's matching of a transport: arrivals queued per (source, context, tag) in arrival
 * order, and receives that take the oldest arrival of their key, waiting at most their timeout.
 * Shared by {@link InProcessTransport} (arrivals are payloads) and {@link TcpTransport} (eager
 * payloads and rendezvous requests).
 *
 * @param <E> what an arrival is
 */
final class MatchQueue<E> {
    /** What a receive matches on. */
    record Key(int source, long context, int tag) {}

    /** Why a waiting receive must stop although nothing arrived (transport closed, peer gone), or null. */
    interface Stop {
        IOException check(Key key);
    }

    private final int process;
    private final IntFunction<String> where;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Map<Key, ArrayDeque<E>> queues = new HashMap<>();

    /**
     * @param process the receiving process (for messages)
     * @param where how a source process is described after its number in messages ("" or " (host:port)")
     */
    MatchQueue(int process, IntFunction<String> where) {
        this.process = process;
        this.where = where;
    }

    void put(Key key, E arrival) {
        lock.lock();
        try {
            queues.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(arrival);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting receive to look at its {@link Stop} again. */
    void wakeAll() {
        lock.lock();
        try {
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The oldest arrival of key, waiting at most timeout.
     *
     * @throws TransportTimeoutException naming op, both processes, context and tag if none arrives in time
     * @throws IOException what stop returns, as soon as it returns one
     */
    E take(Key key, Duration timeout, String op, Stop stop) throws IOException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (true) {
                ArrayDeque<E> q = queues.get(key);
                if (q != null) {
                    E e = q.pollFirst();
                    if (q.isEmpty()) {
                        queues.remove(key);
                    }
                    return e;
                }
                IOException stopped = stop.check(key);
                if (stopped != null) {
                    throw stopped;
                }
                if (remaining <= 0) {
                    throw new TransportTimeoutException(
                            op + ": no message from process " + key.source() + where.apply(key.source())
                                    + " to process " + process + " (context " + Long.toHexString(key.context())
                                    + ", tag " + key.tag()
                                    + ") within " + timeout);
                }
                try {
                    remaining = arrived.awaitNanos(remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException(
                            op + ": interrupted while process " + process + " waited for process " + key.source());
                }
            }
        } finally {
            lock.unlock();
        }
    }
}
