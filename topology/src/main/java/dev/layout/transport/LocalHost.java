package dev.layout.transport;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This machine's name, looked up once per JVM ({@link Transport#host}'s default). */
final class LocalHost {
    static final String NAME = lookUp();

    private LocalHost() {}

    private static String lookUp() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost"; // no resolvable name: every process of this machine says the same
        }
    }
}
