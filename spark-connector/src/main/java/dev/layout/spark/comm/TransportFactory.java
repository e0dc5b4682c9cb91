package dev.layout.spark.comm;

import dev.layout.transport.Transport;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * Makes the network transport of one rank in two steps, so that endpoints can be exchanged in
 * between (once, with {@code BarrierTaskContext.allGather}): {@link #bind} listens and reports an
 * endpoint string, {@link Binding#connect} builds the mesh from everybody's endpoints.
 *
 * <p>Shipped inside Spark closures, hence serializable. {@link #tcp()} is the project's network
 * transport.
 */
public interface TransportFactory extends Serializable {

    /**
     * Listens for the peers of process {@code process} of {@code size} on {@code host}.
     *
     * @param secret shared by all processes of the job; peers prove they hold it when connecting
     */
    Binding bind(int process, int size, String host, byte[] secret) throws IOException;

    /** A bound, not yet connected endpoint. */
    interface Binding extends AutoCloseable {
        /** This process's endpoint, to publish to the others. */
        String endpoint();

        /**
         * Connects to every other process; {@code endpoints.get(i)} is process i's. Waits at most
         * {@code timeout} for the mesh to complete.
         */
        Transport connect(List<String> endpoints, Duration timeout) throws IOException;

        /** Releases the listening socket if {@link #connect} was not called or failed. */
        @Override
        void close();
    }

    /** The project's network transport ({@code TcpTransport}); the default of halo exchanges. */
    static TransportFactory tcp() {
        return TcpTransportFactory.INSTANCE;
    }
}
