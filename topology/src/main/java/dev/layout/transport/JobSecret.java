package dev.layout.transport;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-job shared secret every {@link TcpTransport} connection proves knowledge of (HMAC-SHA256
 * challenge-response with a fresh nonce on each side); it never travels on the wire. On Spark it
 * is derived from the application's authentication secret when {@code spark.authenticate} is on.
 *
 * <pre>{@code
 * JobSecret s = JobSecret.random();
 * String forChildren = s.toBase64();          // hand over through an environment variable, not argv
 * JobSecret same = JobSecret.fromBase64(forChildren);
 * }</pre>
 *
 * {@link #toString()} never shows the key.
 */
public final class JobSecret {
    /** The environment variable the launchers use to hand a secret to child processes. */
    public static final String ENV = "LAYOUT_JOB_SECRET";

    static final int MIN_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private final byte[] key;

    private JobSecret(byte[] key) {
        this.key = key;
    }

    /** 32 random bytes. */
    public static JobSecret random() {
        byte[] k = new byte[32];
        RANDOM.nextBytes(k);
        return new JobSecret(k);
    }

    /**
     * A secret from raw bytes (copied).
     *
     * @throws IllegalArgumentException if fewer than 16 bytes
     */
    public static JobSecret of(byte[] key) {
        if (key == null || key.length < MIN_BYTES) {
            throw new IllegalArgumentException("jobSecret: key of " + (key == null ? "null" : key.length + " bytes")
                    + " (expected: >= " + MIN_BYTES + " bytes)");
        }
        return new JobSecret(key.clone());
    }

    /**
     * A secret derived from a text (e.g. Spark's authentication secret): the SHA-256 of its UTF-8 bytes.
     *
     * @throws IllegalArgumentException if the text is null or empty
     */
    public static JobSecret derive(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("jobSecret: text empty (expected: a non-empty secret)");
        }
        try {
            return new JobSecret(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("jobSecret: SHA-256 unavailable", e);
        }
    }

    /**
     * The secret of a job whose shared secret comes as bytes of any length: the bytes themselves
     * when 16 or more (our random secrets are 32), else derived from them as text (Spark's own
     * authentication secret may be short text).
     *
     * @throws IllegalArgumentException if secret is null or empty
     */
    public static JobSecret forJob(byte[] secret) {
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException(
                    "jobSecret: secret " + (secret == null ? "null" : "empty") + " (expected: >= 1 byte)");
        }
        return secret.length >= MIN_BYTES
                ? of(secret)
                : derive(new String(secret, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException if not base64 or fewer than 16 bytes */
    public static JobSecret fromBase64(String text) {
        try {
            return of(Base64.getDecoder().decode(text == null ? "" : text.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("jobSecret: " + e.getMessage() + " (expected: base64 of >= 16 bytes)");
        }
    }

    public String toBase64() {
        return Base64.getEncoder().encodeToString(key);
    }

    /** HMAC-SHA256 of the parts, in order, under this secret: the proof a peer gives without sending the key. */
    public byte[] hmac(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] p : parts) {
                mac.update(p);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("jobSecret: HmacSHA256 unavailable", e);
        }
    }

    static byte[] nonce() {
        byte[] n = new byte[32];
        RANDOM.nextBytes(n);
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobSecret s && MessageDigest.isEqual(key, s.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "JobSecret[" + key.length + " bytes]";
    }
}
