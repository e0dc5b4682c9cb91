package dev.layout.transport;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Measures the constants of the {@link SendCostModel} on this machine (a few seconds) and writes
 * {@code conf/transport.properties}:
 *
 * <pre>
 *   java -cp ... dev.layout.transport.TransportCalibration [--conf DIR] [--dry-run]
 * </pre>
 *
 * Packing is timed through the engine for 4-byte and 64 KiB blocks (two equations give the
 * per-block and per-byte costs); gathering is timed as writes to a loopback socket drained by
 * another thread, for 8-byte blocks against one block of the same total (the difference is the
 * per-block cost, the wire time cancels), and for single small writes (the per-call cost).
 */
public final class TransportCalibration {
    private static final int TOTAL = 4 << 20;

    private TransportCalibration() {}

    public static void main(String[] args) throws IOException {
        Path conf = Path.of("conf");
        boolean dry = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--conf") && i + 1 < args.length) {
                conf = Path.of(args[++i]);
            } else if (args[i].equals("--dry-run")) {
                dry = true;
            } else {
                System.err.println("layout: error: calibrate: unknown argument '" + args[i]
                        + "' (expected: [--conf DIR] [--dry-run])");
                System.exit(2);
            }
        }
        SendCostModel m = calibrate(System.out);
        StringWriter w = new StringWriter();
        header(w);
        m.store(w);
        if (dry) {
            System.out.print(w);
            return;
        }
        Files.createDirectories(conf);
        Path file = conf.resolve("transport.properties");
        Files.writeString(file, w.toString());
        System.out.println("wrote " + file);
    }

    static void header(Writer w) throws IOException {
        w.write("# Cost model of adaptive typed sends in TcpTransport (dev.layout.transport.SendCostModel):\n"
                + "#   pack   = pack.nsPerBlock * blocks + pack.nsPerByte * bytes\n"
                + "#   gather = gather.nsPerBlock * blocks + gather.nsPerCall * ceil(blocks / gather.batchBlocks)\n"
                + "#            + gather.heapNsPerByte * bytes (heap memory only)\n"
                + "# gather is used when cheaper and the message has at least gather.minBytes bytes.\n"
                + "# Written by: java -cp <classes> dev.layout.transport.TransportCalibration (" + Runtime.version()
                + ", " + Runtime.getRuntime().availableProcessors() + " cpus)\n");
    }

    /** Runs the measurements and returns the fitted model (progress on {@code out}). */
    public static SendCostModel calibrate(PrintStream out) throws IOException {
        ByteBuffer src = ByteBuffer.allocateDirect(2 * TOTAL).order(ByteOrder.LITTLE_ENDIAN);
        Memory user = Memory.ofBuffer(src);
        Memory stage = Memory.ofBuffer(ByteBuffer.allocateDirect(TOTAL));
        Datatype small = Datatype.vector(TOTAL / 4, 1, 2, Primitive.FLOAT32);
        Datatype large = Datatype.vector(TOTAL / 65536, 16384, 32768, Primitive.FLOAT32);
        double tSmall = best(() -> Segment.of(small, 1, user, 0).pack(stage, 0, TOTAL));
        double tLarge = best(() -> Segment.of(large, 1, user, 0).pack(stage, 0, TOTAL));
        double packByte = tLarge / TOTAL;
        double packBlock = Math.max(0, (tSmall - packByte * TOTAL) / (TOTAL / 4.0));
        out.printf(
                Locale.ROOT,
                "pack: %.1f us for 4 MiB in 4-byte blocks, %.1f us in 64 KiB blocks%n",
                tSmall / 1e3,
                tLarge / 1e3);

        int batch = SendCostModel.DEFAULTS.batchBlocks();
        // a gathering send flattens the type into pieces before handing them to the socket
        double tFlatten = best(() -> {
            Segment seg = Segment.of(small, 1, user, 0);
            long n = 0;
            while (seg.remaining() > 0) {
                n += seg.flatten(batch).size();
            }
            return n;
        });
        double flattenBlock = tFlatten / (TOTAL / 4.0);
        out.printf(Locale.ROOT, "flatten: %.1f us for %d blocks%n", tFlatten / 1e3, TOTAL / 4);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
            try (SocketChannel w = SocketChannel.open(server.getLocalAddress());
                    SocketChannel r = server.accept()) {
                w.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                Thread drain = new Thread(
                        () -> {
                            ByteBuffer sink = ByteBuffer.allocateDirect(1 << 20);
                            try {
                                while (r.read(sink.clear()) >= 0) {
                                    // discard
                                }
                            } catch (IOException ignored) {
                                // closed at the end
                            }
                        },
                        "layout-calibrate-drain");
                drain.setDaemon(true);
                drain.start();
                int blocks = TOTAL / 16;
                double tGatherSmall = best(() -> {
                    ByteBuffer[] iov = new ByteBuffer[batch];
                    for (int b = 0; b < blocks; b += batch) {
                        int k = Math.min(batch, blocks - b);
                        for (int i = 0; i < k; i++) {
                            iov[i] = src.slice((b + i) * 16, 8);
                        }
                        gather(w, iov, k);
                    }
                    return blocks;
                });
                double tGatherOne = best(() -> {
                    ByteBuffer[] iov = {src.slice(0, blocks * 8)};
                    gather(w, iov, 1);
                    return 1;
                });
                double tCall = best(() -> {
                            ByteBuffer one = src.slice(0, 64);
                            for (int i = 0; i < 1000; i++) {
                                one.clear();
                                w.write(one);
                            }
                            return 1000;
                        })
                        / 1000;
                double calls = Math.ceil((double) blocks / batch);
                double gatherBlock = flattenBlock + Math.max(0, (tGatherSmall - tGatherOne - calls * tCall) / blocks);
                out.printf(
                        Locale.ROOT,
                        "gather: %.1f us for %d 8-byte blocks, %.1f us as one block, %.2f us per call%n",
                        tGatherSmall / 1e3,
                        blocks,
                        tGatherOne / 1e3,
                        tCall / 1e3);
                SendCostModel m = new SendCostModel(
                        round(packBlock),
                        round(packByte),
                        round(gatherBlock),
                        round(tCall),
                        round(packByte),
                        batch,
                        SendCostModel.DEFAULTS.minGatherBytes());
                long breakEven = Math.round((m.gatherNsPerBlock() + m.gatherNsPerCall() / batch - m.packNsPerBlock())
                        / Math.max(1e-9, m.packNsPerByte()));
                out.printf(Locale.ROOT, "model: %s; gather pays from a mean block of about %d bytes%n", m, breakEven);
                w.shutdownOutput();
                return m;
            }
        }
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static void gather(SocketChannel ch, ByteBuffer[] iov, int len) throws IOException {
        int i = 0;
        while (i < len) {
            ch.write(iov, i, len - i);
            while (i < len && !iov[i].hasRemaining()) {
                i++;
            }
        }
    }

    private interface Work {
        long run() throws IOException;
    }

    /** The best of 15 timed runs after 5 warm-ups, in ns. */
    private static double best(Work w) throws IOException {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            long t0 = System.nanoTime();
            w.run();
            long dt = System.nanoTime() - t0;
            if (i >= 5) {
                best = Math.min(best, dt);
            }
        }
        return best;
    }
}
