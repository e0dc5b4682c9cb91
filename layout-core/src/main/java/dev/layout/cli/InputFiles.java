package dev.layout.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The check every command makes before reading a local file it was given, so that the error says
 * why the file cannot be read ({@code not found}, {@code is a directory}, {@code not readable})
 * instead of the JDK's bare path or "Is a directory".
 */
public final class InputFiles {
    private InputFiles() {}

    /**
     * The path of {@code file}, an existing readable regular file.
     *
     * @param what how the command names the file in errors ({@code "pack: --in"})
     * @throws IOException {@code "<what> <file>: not found"}, {@code ": is a directory"} or {@code ": not readable"}
     */
    public static Path readable(String what, String file) throws IOException {
        Path p = Path.of(file);
        if (Files.isDirectory(p)) {
            throw new IOException(what + " " + file + ": is a directory");
        }
        if (!Files.exists(p)) {
            throw new IOException(what + " " + file + ": not found");
        }
        if (!Files.isReadable(p)) {
            throw new IOException(what + " " + file + ": not readable");
        }
        return p;
    }
}
