package dev.layout.transport;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.LayoutLimitException;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.TypeSignature;

/**
 * What a typed receive checks about an incoming message before any byte reaches user memory: the
 * message may be at most the receive type's bytes, and a shorter message must end on a primitive
 * of the receive type's signature (MPI lets a shorter message fill a prefix of the receive buffer,
 * but its signature must be a prefix of the receive type's: a message ending inside a float64
 * cannot have been sent with a matching type, and unpacking it would tear that element).
 */
final class ReceiveChecks {
    private ReceiveChecks() {}

    /**
     * Null if a message of {@code length} bytes may be unpacked into elements of {@code type}
     * ({@code typeBytes} packed bytes in all, for the receive's count); otherwise why not, as the end of a
     * sentence starting "message of N bytes from ...". A signature beyond {@link
     * TypeSignature#MAX_RUNS} runs per element is not walked: such a message is checked for its
     * length only.
     */
    static String violation(Datatype type, long typeBytes, long length) {
        if (length > typeBytes) {
            return "is longer than the receive type's " + typeBytes + " bytes";
        }
        long unit = type.byteSize();
        if (length == typeBytes || unit == 0 || length % unit == 0) {
            return null;
        }
        long within = length % unit; // the partial element is a prefix of one element's signature
        Primitive p = type.homogeneousPrimitive();
        if (p != null) {
            return within % p.byteSize() == 0 ? null : inside(p, within % p.byteSize(), type);
        }
        TypeSignature signature;
        try {
            signature = TypeSignature.of(type);
        } catch (LayoutLimitException e) {
            return null;
        }
        long at = 0;
        for (TypeSignature.Run r : signature.runs()) {
            long size = r.primitive().byteSize();
            long bytes = size * r.count();
            if (within < at + bytes) {
                long into = (within - at) % size;
                return into == 0 ? null : inside(r.primitive(), into, type);
            }
            at += bytes;
        }
        return null;
    }

    private static String inside(Primitive p, long into, Datatype type) {
        return "ends inside a primitive of the receive type " + type + ": " + into + " of the " + p.byteSize()
                + " bytes of a " + p + " (expected: a length ending on a primitive of the type's signature)";
    }
}
