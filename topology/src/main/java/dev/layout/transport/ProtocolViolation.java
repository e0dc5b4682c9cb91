package dev.layout.transport;

import java.io.IOException;

/** A frame that breaks the protocol: the connection is dropped, the reason logged. */
final class ProtocolViolation extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolViolation(String m) {
        super(m);
    }
}
