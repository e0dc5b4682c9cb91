package dev.layout.fileview;

import dev.layout.dataloop.Packing;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Test data: a row-major float64 array whose element i holds the value i. */
final class Cubes {
    private Cubes() {}

    static byte[] bytes(long elements) {
        byte[] b = new byte[Math.toIntExact(elements * 8)];
        Memory m = Memory.ofArray(b);
        for (long i = 0; i < elements; i++) {
            m.putDouble(8 * i, i);
        }
        return b;
    }

    static byte[] write(FileSystem fs, Path p, long elements) throws IOException {
        byte[] b = bytes(elements);
        try (OutputStream out = fs.create(p, true)) {
            out.write(b);
        }
        return b;
    }

    /** What a view shows: the naive pack of {@code tiles} tiles of the filetype from the displacement. */
    static byte[] expected(byte[] file, FileView view, long tiles) {
        return Packing.pack(Datatype.contiguous(tiles, view.filetype()), 1, file, view.displacement());
    }
}
