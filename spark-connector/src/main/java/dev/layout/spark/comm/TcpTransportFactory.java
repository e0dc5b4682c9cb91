package dev.layout.spark.comm;

import dev.layout.transport.Endpoint;
import dev.layout.transport.JobSecret;
import dev.layout.transport.SameJvmTransport;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import dev.layout.transport.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Barrier tasks over the project's network transport ({@link TcpTransport}: HMAC-authenticated
 * handshake, eager/rendezvous with bounded per-peer memory, adaptive pack/gather typed sends).
 * Connections are opened lazily, so a graph communicator only ever connects to its neighbours.
 * Ranks that Spark placed in one executor JVM talk in process ({@link SameJvmTransport}).
 */
final class TcpTransportFactory implements TransportFactory {
    private static final long serialVersionUID = 1L;
    static final TcpTransportFactory INSTANCE = new TcpTransportFactory();

    @Override
    public Binding bind(int process, int size, String host, byte[] secret) throws IOException {
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint(host, 0));
        JobSecret s = JobSecret.forJob(secret);
        SameJvmTransport.Registration registration;
        try {
            registration = SameJvmTransport.register(l.endpoint().toString());
        } catch (RuntimeException e) {
            l.close();
            throw e;
        }
        return new Binding() {
            private boolean connected;

            @Override
            public String endpoint() {
                return l.endpoint().toString();
            }

            @Override
            public Transport connect(List<String> endpoints, Duration timeout) {
                if (endpoints.size() != size) {
                    throw new IllegalArgumentException(
                            "tcp: endpoints " + endpoints.size() + " (expected: " + size + ", one per rank)");
                }
                List<Endpoint> all = new ArrayList<>();
                for (String e : endpoints) {
                    all.add(Endpoint.parse(e));
                }
                TcpTransport tcp = l.open(
                        process,
                        all,
                        s,
                        TcpOptions.defaults().withConnectTimeout(timeout).withSendTimeout(timeout));
                connected = true; // the transport now holds the registration until it closes
                return SameJvmTransport.over(tcp, endpoints, registration);
            }

            @Override
            public void close() {
                l.close();
                if (!connected) {
                    registration.close();
                }
            }
        };
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
