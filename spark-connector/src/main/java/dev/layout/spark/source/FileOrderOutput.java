package dev.layout.spark.source;

import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.DomainOutput;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One task's bytes of a {@link FileViewWrite}, given in file order, into one {@link DomainOutput}
 * per file domain they fall in (one piece each). Bytes that continue the previous ones are gathered
 * in a reused buffer and written with one positional write; a gap is a hole of the shared file or
 * zeros in a part. Commits the pieces as the {@link FileViewWrite.Part}s of the task.
 */
final class FileOrderOutput implements Closeable {
    private final FileSystem fs;
    private final Path target;
    private final String jobId;
    private final String partPrefix;
    private final FileDomains domains;
    private final long blockSize;
    private final byte[] buf;
    /** The ranges written and committed. */
    private final List<FileViewWrite.Part> done = new ArrayList<>();

    /** The piece being written: its output, domain and first file byte. */
    private DomainOutput out;

    private int domain;
    private long pieceStart;
    /** File byte of buf[0]; bytes in buf; the file byte after the last byte given. */
    private long bufStart;

    private int buffered;
    private long end = -1;

    FileOrderOutput(
            FileSystem fs,
            Path target,
            String jobId,
            String partPrefix,
            FileDomains domains,
            long blockSize,
            int bufferBytes) {
        this.fs = fs;
        this.target = target;
        this.jobId = jobId;
        this.partPrefix = partPrefix;
        this.domains = domains;
        this.blockSize = blockSize;
        this.buf = new byte[bufferBytes];
    }

    /**
     * Writes {@code len} bytes of {@code src} at file byte {@code at}, at or after the end of the
     * bytes given before.
     */
    void write(long at, byte[] src, int off, int len) throws IOException {
        if (at < end) {
            throw new IllegalStateException(
                    "fileview: file byte " + at + " given after byte " + (end - 1) + " (expected: file order)");
        }
        while (len > 0) {
            int d = out != null && at < domains.end(domain) ? domain : domains.domainOf(at);
            if (out != null && d != domain) {
                finishPiece();
            }
            if (out == null) {
                out = DomainOutput.openRange(fs, target, jobId, partName(d), domains, d, at, blockSize);
                domain = d;
                pieceStart = at;
                bufStart = at;
            } else if (at != bufStart + buffered) {
                flush();
                out.skipTo(at); // zeros between the bytes
                bufStart = at;
            }
            int n = (int) Math.min(len, domains.end(d) - at);
            if (n >= buf.length) {
                flush();
                out.write(at, src, off, n);
                bufStart = at + n;
            } else {
                if (buf.length - buffered < n) {
                    flush();
                }
                System.arraycopy(src, off, buf, buffered, n);
                buffered += n;
            }
            at += n;
            off += n;
            len -= n;
            end = at;
        }
    }

    private void flush() throws IOException {
        if (buffered > 0) {
            out.write(bufStart, buf, 0, buffered);
            bufStart += buffered;
            buffered = 0;
        }
    }

    private String partName(int d) {
        return partPrefix + String.format("%05d", d);
    }

    private void finishPiece() throws IOException {
        DomainOutput o = out;
        try (o) {
            flush();
            try {
                o.commit();
            } catch (IOException e) {
                if (DomainOutput.shared(fs) || !fs.exists(part(domain))) {
                    throw e;
                }
                // Another attempt of this task committed the same bytes first (its part is whole).
            }
            done.add(new FileViewWrite.Part(part(domain).toString(), pieceStart, end));
        } finally {
            out = null;
            buffered = 0;
        }
    }

    private Path part(int d) {
        return DomainOutput.rangePart(target, jobId, partName(d));
    }

    /** Commits the last piece; returns the pieces written, in file order. */
    List<FileViewWrite.Part> commit() throws IOException {
        if (out != null) {
            finishPiece();
        }
        List<FileViewWrite.Part> parts = List.copyOf(done);
        done.clear();
        return parts;
    }

    /** Without {@link #commit()}: closes the output (a part not committed is deleted). */
    @Override
    public void close() throws IOException {
        if (out != null) {
            DomainOutput o = out;
            out = null;
            buffered = 0;
            o.close();
        }
    }
}
