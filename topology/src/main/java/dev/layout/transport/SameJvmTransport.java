package dev.layout.transport;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A network transport that talks to the processes living in its own JVM in process: messages to
 * them go through an {@link InProcessTransport} fabric (a receive posted with {@link #postReceive}
 * is filled by its sender with one copy), everything else through the network transport. Spark
 * places several ranks of a job in one executor JVM; without this they would pack, send over
 * loopback TCP and unpack.
 *
 * <p>Which processes share the JVM is known from their endpoints: a process {@link #register}s its
 * endpoint when it binds, before endpoints are exchanged, and keeps the registration until its
 * transport closes, so two live processes always agree on whether they are in one JVM (each pair
 * uses one path both ways, which keeps messages of one key in order). Closing this transport closes
 * only its own endpoint of the shared fabric; the fabric goes when its last process closes.
 */
public final class SameJvmTransport implements Transport {

    private static final Set<String> REGISTERED = ConcurrentHashMap.newKeySet();
    private static final Map<List<String>, Shared> FABRICS = new HashMap<>();

    private final Transport remote;
    private final InProcessTransport local;
    private final boolean[] inJvm;
    private final List<String> endpoints;
    private final Registration registration;

    private SameJvmTransport(
            Transport remote, InProcessTransport local, boolean[] inJvm, List<String> endpoints, Registration reg) {
        this.remote = remote;
        this.local = local;
        this.inJvm = inJvm;
        this.endpoints = endpoints;
        this.registration = reg;
    }

    /** An endpoint marked as living in this JVM until {@link #close}d. */
    public static final class Registration implements AutoCloseable {
        private final String endpoint;

        private Registration(String endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public void close() {
            REGISTERED.remove(endpoint);
        }
    }

    /**
     * Marks {@code endpoint} (a bound listener's address) as living in this JVM.
     *
     * @throws IllegalArgumentException if it is registered already (two listeners cannot share one)
     */
    public static Registration register(String endpoint) {
        Objects.requireNonNull(endpoint, "sameJvm: endpoint is null");
        if (!REGISTERED.add(endpoint)) {
            throw new IllegalArgumentException("sameJvm: endpoint " + endpoint + " (expected: registered once)");
        }
        return new Registration(endpoint);
    }

    /**
     * {@code remote} (process {@code remote.process()} of {@code endpoints.size()}), talking in
     * process to itself and to every process whose endpoint is registered in this JVM. Takes over
     * {@code registration} (this process's own), released on close.
     *
     * @throws IllegalArgumentException if endpoints do not match the transport's size, or the
     *     registration is not of this process's endpoint
     */
    public static SameJvmTransport over(Transport remote, List<String> endpoints, Registration registration) {
        Objects.requireNonNull(remote, "sameJvm: remote is null");
        Objects.requireNonNull(registration, "sameJvm: registration is null");
        int n = remote.size();
        int me = remote.process();
        if (endpoints.size() != n) {
            throw new IllegalArgumentException(
                    "sameJvm: endpoints " + endpoints.size() + " (expected: " + n + ", one per process)");
        }
        if (!endpoints.get(me).equals(registration.endpoint)) {
            throw new IllegalArgumentException("sameJvm: registration " + registration.endpoint + " (expected: "
                    + endpoints.get(me) + ", process " + me + "'s endpoint)");
        }
        boolean[] inJvm = new boolean[n];
        for (int p = 0; p < n; p++) {
            inJvm[p] = p == me || REGISTERED.contains(endpoints.get(p));
        }
        List<String> key = List.copyOf(endpoints);
        InProcessTransport local;
        synchronized (FABRICS) {
            Shared shared = FABRICS.computeIfAbsent(key, k -> new Shared(InProcessTransport.createClosingEach(n)));
            shared.users++;
            local = shared.endpoints.get(me);
        }
        return new SameJvmTransport(remote, local, inJvm, key, registration);
    }

    /** The messages this process sent in process (to processes of its own JVM). */
    public long localMessages() {
        return local.sentMessages();
    }

    private Transport via(int peer) {
        return peer >= 0 && peer < inJvm.length && inJvm[peer] ? local : remote;
    }

    @Override
    public int process() {
        return remote.process();
    }

    @Override
    public String host() {
        return remote.host();
    }

    @Override
    public int size() {
        return remote.size();
    }

    @Override
    public void send(int dest, long context, int tag, byte[] payload) throws IOException {
        via(dest).send(dest, context, tag, payload);
    }

    @Override
    public void sendOwned(int dest, long context, int tag, byte[] payload) throws IOException {
        via(dest).sendOwned(dest, context, tag, payload);
    }

    @Override
    public byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
        return via(source).receive(source, context, tag, timeout);
    }

    @Override
    public void sendTyped(int dest, long context, int tag, Datatype type, long count, Memory memory, long origin)
            throws IOException {
        via(dest).sendTyped(dest, context, tag, type, count, memory, origin);
    }

    @Override
    public long receiveTyped(
            int source, long context, int tag, Datatype type, long count, Memory memory, long origin, Duration timeout)
            throws IOException {
        return via(source).receiveTyped(source, context, tag, type, count, memory, origin, timeout);
    }

    @Override
    public PostedReceive postReceive(int source, long context, int tag, TypedRegion into) throws IOException {
        return via(source).postReceive(source, context, tag, into);
    }

    @Override
    public void sendToPosted(int dest, long context, int tag, TypedRegion from, Duration timeout) throws IOException {
        via(dest).sendToPosted(dest, context, tag, from, timeout);
    }

    @Override
    public long sentMessages() {
        return remote.sentMessages() + local.sentMessages();
    }

    @Override
    public long sentBytes() {
        return remote.sentBytes() + local.sentBytes();
    }

    @Override
    public void close() {
        try {
            local.close();
            synchronized (FABRICS) {
                Shared shared = FABRICS.get(endpoints);
                if (shared != null && --shared.users == 0) {
                    FABRICS.remove(endpoints);
                }
            }
        } finally {
            try {
                remote.close();
            } finally {
                registration.close();
            }
        }
    }

    @Override
    public String toString() {
        return "sameJvm(" + remote + ", in process with " + (localPeers()) + " others)";
    }

    private int localPeers() {
        int k = -1;
        for (boolean b : inJvm) {
            k += b ? 1 : 0;
        }
        return k;
    }

    private static final class Shared {
        final List<InProcessTransport> endpoints;
        int users;

        Shared(List<InProcessTransport> endpoints) {
            this.endpoints = endpoints;
        }
    }
}
