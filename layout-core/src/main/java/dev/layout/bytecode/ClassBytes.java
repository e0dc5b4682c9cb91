package dev.layout.bytecode;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal class-file writer for the classes layout generates: AutoMap's straight-line accessors
 * (version 61) and the engine's word kernels (simple counted loops, written as version 49 so that
 * no StackMapTable is needed). Just enough constant pool, fields, methods and forward/backward
 * branches.
 */
public final class ClassBytes {
    public static final int ACC_PUBLIC = 0x0001, ACC_STATIC = 0x0008, ACC_FINAL = 0x0010, ACC_SUPER = 0x0020;

    // opcodes used by the generators
    public static final int ALOAD = 0x19, ASTORE = 0x3a, LLOAD = 0x16, ILOAD = 0x15, ISTORE = 0x36, LSTORE = 0x37;
    public static final int LADD = 0x61, IADD = 0x60, LMUL = 0x69, I2L = 0x85, I2S = 0x93, I2C = 0x92, IINC = 0x84;
    public static final int NEW = 0xbb, DUP = 0x59, CHECKCAST = 0xc0, GETFIELD = 0xb4, PUTFIELD = 0xb5, GOTO = 0xa7;
    public static final int GETSTATIC = 0xb2, INVOKEVIRTUAL = 0xb6, INVOKESPECIAL = 0xb7, INVOKESTATIC = 0xb8;
    public static final int AALOAD = 0x32, LALOAD = 0x2f, ICONST_0 = 0x03, ACONST_NULL = 0x01, IF_ICMPGE = 0xa2;
    public static final int RETURN = 0xb1, ARETURN = 0xb0, IRETURN = 0xac, LRETURN = 0xad;

    private final ByteArrayOutputStream pool = new ByteArrayOutputStream();
    private final Map<String, Integer> entries = new HashMap<>();
    private int cpCount = 1;
    private final List<byte[]> fields = new ArrayList<>();
    private final List<byte[]> methods = new ArrayList<>();
    private final int thisClass;
    private final int superClass;
    private final String thisName;
    private final int version;

    public ClassBytes(String internalName, String superInternalName) {
        this(internalName, superInternalName, 61);
    }

    /**
     * A class of the given class-file major version. Version 49 (Java 5) predates StackMapTable: the
     * JVM infers frames, so generated code may branch (loops) without this writer computing frames.
     */
    public ClassBytes(String internalName, String superInternalName, int majorVersion) {
        if (majorVersion < 49 || majorVersion > 61) {
            throw new IllegalArgumentException(
                    "ClassBytes: class-file version " + majorVersion + " (expected: 49 to 61)");
        }
        this.version = majorVersion;
        thisName = internalName;
        thisClass = classRef(internalName);
        superClass = classRef(superInternalName);
    }

    public String thisName() {
        return thisName;
    }

    // ---- constant pool ---------------------------------------------------------------------------

    /** The pool index of the constant {@code key}: its {@code tag}, then {@code body}, written on first use. */
    private int entry(String key, int slots, int tag, IoWriter body) {
        Integer i = entries.get(key);
        if (i != null) {
            return i;
        }
        int idx = cpCount;
        pool.write(tag);
        pool.writeBytes(bytes(body));
        cpCount += slots;
        entries.put(key, idx);
        return idx;
    }

    private interface IoWriter {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] bytes(IoWriter w) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try {
            w.write(new DataOutputStream(b));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return b.toByteArray();
    }

    public int utf8(String s) {
        return entry("U" + s, 1, 1, o -> o.writeUTF(s));
    }

    /** A constant whose body after the tag is two-byte pool indices. */
    private int refs(String key, int tag, int... refs) {
        return entry(key, 1, tag, o -> {
            for (int r : refs) {
                o.writeShort(r);
            }
        });
    }

    public int classRef(String internalName) {
        return refs("C" + internalName, 7, utf8(internalName));
    }

    private int nameAndType(String name, String desc) {
        return refs("N" + name + ":" + desc, 12, utf8(name), utf8(desc));
    }

    // ---- members ------------------------------------------------------------------------------------

    public void field(int access, String name, String desc) {
        fields.add(bytes(o -> {
            o.writeShort(access);
            o.writeShort(utf8(name));
            o.writeShort(utf8(desc));
            o.writeShort(0);
        }));
    }

    /**
     * A method body. Branches ({@link #label}, {@link #branch}, {@link #bind}) need a class of version
     * 49, which carries no StackMapTable.
     */
    public final class Code {
        final ByteArrayOutputStream code = new ByteArrayOutputStream();

        public Code op(int opcode) {
            code.write(opcode);
            return this;
        }

        public Code op1(int opcode, int u1) {
            code.write(opcode);
            code.write(u1);
            return this;
        }

        public Code op2(int opcode, int u2) {
            code.write(opcode);
            code.write(u2 >>> 8);
            code.write(u2 & 0xff);
            return this;
        }

        private final java.util.List<int[]> fixups = new ArrayList<>(); // {position of the opcode, label}
        private final java.util.List<Integer> labels = new ArrayList<>();

        /** A new, unbound branch target. */
        public int label() {
            labels.add(-1);
            return labels.size() - 1;
        }

        /** Binds {@code label} to the current position. */
        public Code bind(int label) {
            labels.set(label, code.size());
            return this;
        }

        /** A two-byte-offset branch ({@code goto}, {@code if_icmpge}, ...) to {@code label}. */
        public Code branch(int opcode, int label) {
            fixups.add(new int[] {code.size(), label});
            return op2(opcode, 0); // the offset, written when the code is resolved
        }

        public Code iload(int local) {
            return op1(ILOAD, local);
        }

        public Code istore(int local) {
            return op1(ISTORE, local);
        }

        public Code lstore(int local) {
            return op1(LSTORE, local);
        }

        public Code iinc(int local, int delta) {
            op1(IINC, local).code.write(delta);
            return this;
        }

        private byte[] resolved() {
            byte[] c = code.toByteArray();
            for (int[] f : fixups) {
                int target = labels.get(f[1]);
                if (target < 0) {
                    throw new IllegalStateException("ClassBytes: label " + f[1] + " branched to but never bound");
                }
                int rel = target - f[0];
                c[f[0] + 1] = (byte) (rel >> 8);
                c[f[0] + 2] = (byte) rel;
            }
            return c;
        }

        public Code aload(int local) {
            return op1(ALOAD, local);
        }

        public Code astore(int local) {
            return op1(ASTORE, local);
        }

        public Code lload(int local) {
            return op1(LLOAD, local);
        }

        public Code ldcInt(int v) {
            return op2(0x13, entry("I" + v, 1, 3, o -> o.writeInt(v))); // ldc_w
        }

        public Code ldcString(String s) {
            return op2(0x13, refs("S" + s, 8, utf8(s)));
        }

        public Code ldcLong(long v) {
            return op2(0x14, entry("J" + v, 2, 5, o -> o.writeLong(v))); // ldc2_w
        }

        public Code checkcast(String internalName) {
            return op2(CHECKCAST, classRef(internalName));
        }

        public Code invoke(int opcode, String owner, String name, String desc) {
            return op2(
                    opcode, refs("M" + owner + "." + name + ":" + desc, 10, classRef(owner), nameAndType(name, desc)));
        }

        public Code field(int opcode, String owner, String name, String desc) {
            return op2(
                    opcode, refs("F" + owner + "." + name + ":" + desc, 9, classRef(owner), nameAndType(name, desc)));
        }

        public void end(int access, String name, String desc, int maxStack, int maxLocals) {
            if (!fixups.isEmpty() && version >= 50) {
                throw new IllegalStateException(
                        "ClassBytes: a method with branches needs class-file version 49 (no StackMapTable written), not "
                                + version);
            }
            byte[] c = resolved();
            methods.add(bytes(o -> {
                o.writeShort(access);
                o.writeShort(utf8(name));
                o.writeShort(utf8(desc));
                o.writeShort(1);
                o.writeShort(utf8("Code"));
                o.writeInt(12 + c.length);
                o.writeShort(Math.min(maxStack, 65535));
                o.writeShort(maxLocals);
                o.writeInt(c.length);
                o.write(c);
                o.writeShort(0); // exception table
                o.writeShort(0); // attributes
            }));
        }
    }

    public Code code() {
        return new Code();
    }

    /** A public no-arg constructor calling the superclass's. */
    public void defaultConstructor(String superInternalName) {
        code().aload(0)
                .invoke(INVOKESPECIAL, superInternalName, "<init>", "()V")
                .op(RETURN)
                .end(ACC_PUBLIC, "<init>", "()V", 1, 1);
    }

    public byte[] toBytes() {
        return bytes(o -> {
            o.writeInt(0xCAFEBABE);
            o.writeShort(0);
            o.writeShort(version);
            o.writeShort(cpCount);
            o.write(pool.toByteArray());
            o.writeShort(ACC_PUBLIC | ACC_FINAL | ACC_SUPER);
            o.writeShort(thisClass);
            o.writeShort(superClass);
            o.writeShort(0);
            o.writeShort(fields.size());
            for (byte[] f : fields) {
                o.write(f);
            }
            o.writeShort(methods.size());
            for (byte[] m : methods) {
                o.write(m);
            }
            o.writeShort(0);
        });
    }

    public static String internalName(Class<?> c) {
        return c.getName().replace('.', '/');
    }

    public static String descriptor(Class<?> c) {
        return c.descriptorString();
    }

    /** The class-file name of a class to be defined in {@code host}'s package. */
    public static String hiddenName(Class<?> host, String suffix) {
        String pkg = host.getPackageName();
        String simple =
                host.getName().substring(pkg.isEmpty() ? 0 : pkg.length() + 1).replace('$', '_');
        return (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + simple + "$$" + suffix;
    }
}
