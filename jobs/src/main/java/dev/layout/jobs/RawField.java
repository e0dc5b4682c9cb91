package dev.layout.jobs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** Raw little-endian float64 fields in C order, no header: the heat job's input and output format. */
public final class RawField {
    private RawField() {}

    public static double[] read(Path path, long expectedCount) throws IOException {
        long size = Files.size(path);
        if (size != expectedCount * 8) {
            throw new IOException(path + ": " + size + " bytes (expected: " + expectedCount * 8 + " = " + expectedCount
                    + " float64 values)");
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[(int) expectedCount];
        b.asDoubleBuffer().get(out);
        return out;
    }

    public static void write(double[] values, Path path) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(values);
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        Files.write(tmp, b.array());
        Files.move(tmp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
