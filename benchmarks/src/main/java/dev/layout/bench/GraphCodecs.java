package dev.layout.bench;

import com.esotericsoftware.kryo.kryo5.Kryo;
import com.esotericsoftware.kryo.kryo5.io.Input;
import com.esotericsoftware.kryo.kryo5.io.Output;
import dev.layout.autolink.GraphCodec;
import dev.layout.autolink.Packet;
import dev.layout.autolink.TypeRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fory.Fory;
import org.apache.fory.config.Language;

/**
 * Encode+decode round trips of one graph with AutoLink, Kryo 5, Apache Fory and Java serialization;
 * each returns the encoded bytes. Only AutoLink compresses (ZSTD, on the columnar packets of graphs
 * above {@code GraphCodec.DEFAULT_COMPACT_MAX_NODES}); Kryo and Fory write their plain binary forms
 * (Fory with its default varint numbers).
 */
public final class GraphCodecs {
    private GraphCodecs() {}

    /** A decoded graph and the number of bytes that crossed the "wire". */
    public record Result(Object graph, long bytes) {}

    public static GraphCodec autolink(BufferAllocator allocator) {
        return GraphCodec.builder(TypeRegistry.of(GraphShapes.classes()))
                .allocator(allocator)
                .packetRows(1 << 16)
                .build();
    }

    public static Result autolink(GraphCodec codec, Object root) {
        List<Packet> wire = new ArrayList<>();
        long bytes = 0;
        var it = codec.aggregate(root);
        while (it.hasNext()) {
            Packet p = it.next();
            bytes += p.byteSize();
            wire.add(p);
        }
        return new Result(codec.expand(wire.iterator()), bytes);
    }

    /**
     * Kryo as a user sending many graphs would hold it: one instance with references on and classes
     * registered, and one {@link Output} and {@link Input} reused across calls (the output keeps the
     * capacity of the largest graph so far; {@link Output#toBytes} copies the message out, as
     * AutoLink's and Fory's calls do). Not thread-safe, like Kryo itself.
     */
    public static final class KryoSession {
        final Kryo kryo = new Kryo();
        final Output out = new Output(4096, -1);
        final Input in = new Input();

        KryoSession() {
            kryo.setReferences(true);
            kryo.setRegistrationRequired(true);
            for (Class<?> c : GraphShapes.classes()) {
                kryo.register(c);
            }
        }
    }

    public static KryoSession kryo() {
        return new KryoSession();
    }

    public static Result kryo(KryoSession k, Object root) {
        k.out.reset();
        k.kryo.writeClassAndObject(k.out, root);
        byte[] b = k.out.toBytes();
        k.in.setBuffer(b);
        Object back = k.kryo.readClassAndObject(k.in);
        return new Result(back, b.length);
    }

    /**
     * Fory as a user wanting the fastest correct round trip of a cyclic graph: Java mode, reference
     * tracking, classes registered, code generation on (synchronous, so that the generated serializers
     * are the ones measured), schema-consistent mode (both sides have the same classes, as AutoLink's
     * registry fingerprint requires too; Fory 1.6's default, compatible mode, writes and checks class
     * metadata and took about 1.4x as long on the 10^3-node tree), and a depth limit past the deepest
     * graph of the benchmark (Fory recurses once per node of a list; the caller runs it on a thread with
     * a large stack). Fory allocates a table of that many entries, so the limit is not simply the
     * largest int. Numbers keep Fory's default varint coding: fixed-width numbers were faster on the
     * 10^5-node tree and slower on the 10^3-node grid, so neither is the fastest everywhere.
     */
    static final int FORY_MAX_DEPTH = 1 << 21;

    public static Fory fory() {
        Fory f = Fory.builder()
                .withLanguage(Language.JAVA)
                .withRefTracking(true)
                .requireClassRegistration(true)
                .withCodegen(true)
                .withAsyncCompilation(false)
                .withCompatible(false)
                .withMaxDepth(FORY_MAX_DEPTH)
                .build();
        for (Class<?> c : GraphShapes.classes()) {
            f.register(c);
        }
        return f;
    }

    public static Result fory(Fory f, Object root) {
        byte[] b = f.serialize(root);
        return new Result(f.deserialize(b), b.length);
    }

    public static Result java(Object root) {
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream(1 << 20);
            try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
                oos.writeObject(root);
            }
            byte[] b = bos.toByteArray();
            try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(b))) {
                return new Result(ois.readObject(), b.length);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
