package dev.layout.transport;

import java.net.InetSocketAddress;

/**
 * Where one process of a {@link TcpTransport} listens: a host name or address and a TCP port.
 *
 * <pre>{@code
 * Endpoint e = Endpoint.parse("10.0.0.7:41000");
 * e.toString();   // "10.0.0.7:41000"
 * }</pre>
 *
 * @param host a host name or literal address (IPv6 literals without brackets)
 * @param port 0..65535 (0 only for binding to an ephemeral port)
 */
public record Endpoint(String host, int port) {

    public Endpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("endpoint: host '" + host + "' (expected: a host name or address)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("endpoint: port " + port + " (expected: 0..65535)");
        }
    }

    /**
     * Parses {@code host:port} (IPv6 as {@code [addr]:port}).
     *
     * @throws IllegalArgumentException if the text has no port or the port is not a number in range
     */
    public static Endpoint parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("endpoint: text null (expected: host:port)");
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("endpoint: '" + text + "' (expected: host:port)");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "endpoint: port '" + text.substring(colon + 1) + "' (expected: 0..65535)");
        }
        return new Endpoint(host, port);
    }

    /** The socket address (resolves the host name). */
    public InetSocketAddress toSocketAddress() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
