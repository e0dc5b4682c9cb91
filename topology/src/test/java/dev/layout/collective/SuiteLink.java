package dev.layout.collective;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire format between {@link SuiteCoordinator} (the IT's JVM) and the {@link ClusterSuiteChild}
 * JVMs: length-prefixed frames over one loopback socket per child. Every message names the run it
 * belongs to (test id, run index within the test, rank count) so that the coordinator can check
 * that all JVMs are at the same run.
 */
final class SuiteLink {
    /** Most items in one message (ranks of a run); a larger count is a corrupt frame. */
    static final int MAX_ITEMS = 4096;
    /** Largest item (a serialized rank outcome or summary). */
    static final int MAX_ITEM_BYTES = 64 << 20;

    private SuiteLink() {}

    enum Kind {
        /** child: run = its jvm index, n = the jvm count, text = the token from its environment. */
        HELLO,
        /** child: about to run n ranks; items = "rank host:port" of its local ranks. */
        RUN,
        /** coordinator: items = the n endpoints in rank order. */
        ENDPOINTS,
        /** child: its local ranks are done; items = serialized {@link ProcessRanks.RankOutcome}s. */
        DONE,
        /** coordinator: items = all n outcomes in rank order. */
        OUTCOMES,
        /** child: the launcher's summary, one serialized {@link ChildSummary} item. */
        SUMMARY,
        /** coordinator: the suite is abandoned; text says why. */
        ABORT
    }

    /** One frame: the kind, the run it belongs to, items and a text. */
    record Message(Kind kind, String testId, int run, int n, List<byte[]> items, String text) {
        static Message of(Kind kind, String text) {
            return new Message(kind, "", 0, 0, List.of(), text);
        }

        /** The run as the error messages show it. */
        String runName() {
            return testId + " run " + run + " (" + n + " ranks)";
        }
    }

    /**
     * What one child's launcher reported: counts from JUnit's {@code TestExecutionSummary}, the unique
     * ids of the tests that passed, runs of ranks taken part in, a report of each failure.
     */
    record ChildSummary(
            int jvm,
            long found,
            long started,
            long succeeded,
            long failed,
            long aborted,
            long skipped,
            List<String> passed,
            long runs,
            String report)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    static void write(DataOutputStream out, Message m) throws IOException {
        out.writeByte(m.kind().ordinal());
        out.writeUTF(m.testId());
        out.writeInt(m.run());
        out.writeInt(m.n());
        out.writeInt(m.items().size());
        for (byte[] item : m.items()) {
            out.writeInt(item.length);
            out.write(item);
        }
        writeLongUtf(out, m.text());
        out.flush();
    }

    static Message read(DataInputStream in) throws IOException {
        int kind = in.readUnsignedByte();
        if (kind >= Kind.values().length) {
            throw new IOException(
                    "suite link: message kind " + kind + " (expected: 0.." + (Kind.values().length - 1) + ")");
        }
        String testId = in.readUTF();
        int run = in.readInt();
        int n = in.readInt();
        int count = in.readInt();
        if (count < 0 || count > MAX_ITEMS) {
            throw new IOException("suite link: item count " + count + " (expected: 0.." + MAX_ITEMS + ")");
        }
        List<byte[]> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = in.readInt();
            if (length < 0 || length > MAX_ITEM_BYTES) {
                throw new IOException("suite link: item length " + length + " (expected: 0.." + MAX_ITEM_BYTES + ")");
            }
            byte[] item = new byte[length];
            in.readFully(item);
            items.add(item);
        }
        return new Message(Kind.values()[kind], testId, run, n, items, readLongUtf(in));
    }

    /** writeUTF is limited to 64 KiB; failure reports can be longer. */
    private static void writeLongUtf(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readLongUtf(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_ITEM_BYTES) {
            throw new IOException("suite link: text length " + length + " (expected: 0.." + MAX_ITEM_BYTES + ")");
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    static Object deserialize(byte[] b) throws IOException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException(
                    "suite link: class " + e.getMessage() + " of a serialized item not on this class path", e);
        }
    }
}
