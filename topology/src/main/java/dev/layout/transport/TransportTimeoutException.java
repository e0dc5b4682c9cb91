package dev.layout.transport;

import java.io.IOException;

/** A receive did not see a matching message within its timeout. */
public final class TransportTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    public TransportTimeoutException(String message) {
        super(message);
    }
}
