package dev.layout.transport;

/** What a {@link TcpTransport} receive can find queued for its key: a whole eager message, or a rendezvous request. */
sealed interface Arrival {
    /** An eager message; conn is null for a message a process sent itself (no credit to return). */
    record Eager(Connection conn, byte[] data) implements Arrival {}

    /**
     * A request to send length bytes as message msgId over conn, waiting for its clear-to-send; report:
     * the sender asked for a {@link Frame#DONE} once the message is consumed.
     */
    record Rts(Connection conn, int msgId, long length, boolean report) implements Arrival {}
}
