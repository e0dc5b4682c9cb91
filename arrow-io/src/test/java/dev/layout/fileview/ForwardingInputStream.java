package dev.layout.fileview;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;

/** An input stream that forwards every call to a file system's stream; test file systems override what they count or break. */
class ForwardingInputStream extends FSInputStream {
    protected final FSDataInputStream in;

    ForwardingInputStream(FSDataInputStream in) {
        this.in = in;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        return in.read(position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        in.readFully(position, buffer, offset, length);
    }

    @Override
    public void seek(long pos) throws IOException {
        in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
        return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) throws IOException {
        return in.seekToNewSource(targetPos);
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        return in.read(buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
