package dev.layout.fileview;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;

/** The view I/O contract on the local file system (checksummed {@code LocalFileSystem}). */
class LocalViewIoTest extends AbstractViewIoContract {
  @TempDir Path temp;

  @Override
  FileSystem fs() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  org.apache.hadoop.fs.Path dir() {
    return new org.apache.hadoop.fs.Path(temp.toUri());
  }
}
