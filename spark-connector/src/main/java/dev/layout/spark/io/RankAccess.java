package dev.layout.spark.io;

import dev.layout.collective.Collectives;
import dev.layout.fileview.FileView;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What one rank tells the others before a collective access: its view (as layout notation, a few
 * dozen bytes whatever the data), where its data lies in the view's stream and in the file, how
 * many file runs it has, and the file facts it saw (a read: only rank 0 asks the file system for
 * the file's length and block size, one call per read); or why it cannot take part. Every rank gets
 * every rank's access ({@link #allgather}) and computes the same plan from them.
 *
 * @param failure null, or {@code "A"} (bad argument) / {@code "I"} (I/O) followed by the message
 * @param host the machine the rank runs on ({@link dev.layout.transport.Transport#host}), for the
 *     choice of aggregators
 * @param options the plan's options as the rank was given them ({@link PlanOptions#toString}): the
 *     plan is computed from them at every rank, so they must agree
 */
record RankAccess(
        String failure,
        long displacement,
        String etype,
        String filetype,
        long streamStart,
        long length,
        long fileStart,
        long fileEnd,
        long runs,
        long fileLength,
        long blockSize,
        String host,
        String options) {

    static RankAccess failed(Exception e) {
        return new RankAccess(
                (e instanceof IOException || e instanceof UncheckedIOException ? "I" : "A") + e.getMessage(),
                0,
                "",
                "",
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                "",
                "");
    }

    FileView view() {
        return FileView.parse(displacement, etype, filetype);
    }

    byte[] encode() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeBoolean(failure != null);
            out.writeUTF(failure == null ? "" : clip(failure));
            out.writeLong(displacement);
            writeString(out, etype);
            writeString(out, filetype);
            for (long v : new long[] {streamStart, length, fileStart, fileEnd, runs, fileLength, blockSize}) {
                out.writeLong(v);
            }
            writeString(out, host);
            writeString(out, options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    static RankAccess decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            boolean failed = in.readBoolean();
            String failure = in.readUTF();
            long disp = in.readLong();
            String etype = readString(in);
            String filetype = readString(in);
            long[] v = new long[7];
            for (int i = 0; i < v.length; i++) {
                v[i] = in.readLong();
            }
            String host = readString(in);
            String options = readString(in);
            return new RankAccess(
                    failed ? failure : null,
                    disp,
                    etype,
                    filetype,
                    v[0],
                    v[1],
                    v[2],
                    v[3],
                    v[4],
                    v[5],
                    v[6],
                    host,
                    options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String clip(String s) {
        return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every rank's access, in rank order: one collective round ({@link Collectives#allgatherAny}). */
    static RankAccess[] allgather(Collectives coll, RankAccess mine) {
        byte[][] all = new byte[coll.communicator().size()][];
        coll.allgatherAny(mine.encode(), all);
        RankAccess[] out = new RankAccess[all.length];
        for (int r = 0; r < all.length; r++) {
            out[r] = decode(all[r]);
        }
        return out;
    }

    /**
     * Rethrows, at every rank alike, the first failure any rank reported: an {@link
     * IllegalArgumentException} for a bad argument, an {@link IOException} otherwise, naming the
     * rank.
     */
    static void throwFirstFailure(String op, RankAccess[] all) throws IOException {
        for (int r = 0; r < all.length; r++) {
            String f = all[r].failure();
            if (f != null) {
                String msg = op + ": rank " + r + " of " + all.length + ": " + f.substring(1);
                if (f.startsWith("A")) {
                    throw new IllegalArgumentException(msg);
                }
                throw new IOException(msg);
            }
        }
    }

    /**
     * Fails the call at every rank alike if a rank was given other plan options than rank 0, naming
     * the rank and both: the ranks would compute different plans and disagree about what they
     * exchange.
     */
    static void throwIfOptionsDiffer(String op, RankAccess[] all) {
        for (int r = 1; r < all.length; r++) {
            if (!all[r].options().equals(all[0].options())) {
                throw new IllegalArgumentException(op + ": rank " + r + " of " + all.length + ": options "
                        + all[r].options() + " (expected: rank 0's " + all[0].options()
                        + "; every rank calls with the same CollectiveFile)");
            }
        }
    }

    /**
     * Agrees on the outcome of a phase: every rank passes its own failure (or null) and all throw
     * the first one (by rank), or all return.
     */
    static void agree(String op, Collectives coll, Exception mine) throws IOException {
        byte[] status = mine == null ? new byte[0] : failed(mine).encode(); // nothing to say: an empty array
        byte[][] all = new byte[coll.communicator().size()][];
        coll.allgatherAny(status, all);
        RankAccess ok = new RankAccess(null, 0, "", "", 0, 0, 0, 0, 0, 0, 0, "", "");
        RankAccess[] decoded = new RankAccess[all.length];
        for (int r = 0; r < all.length; r++) {
            decoded[r] = all[r].length == 0 ? ok : decode(all[r]);
        }
        throwFirstFailure(op, decoded);
    }
}
