package dev.layout.spark.comm;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 under the job secret: the proof peers of this package give when they connect. */
final class Hmac {
  private Hmac() {}

  /** HMAC-SHA256 of the parts, in order, under {@code secret} (an empty secret counts as one zero byte). */
  static byte[] sha256(byte[] secret, byte[]... parts) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(new SecretKeySpec(secret.length == 0 ? new byte[1] : secret, "HmacSHA256"));
      for (byte[] p : parts) {
        m.update(p);
      }
      return m.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("hmac: HmacSHA256 unavailable", e);
    }
  }
}
