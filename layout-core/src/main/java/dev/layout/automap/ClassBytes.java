package dev.layout.automap;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal class-file writer (version 61, Java 17) for the straight-line accessor classes AutoMap
 * generates: no branches, hence no StackMapTable. Just enough constant pool, fields and methods.
 */
final class ClassBytes {
  static final int ACC_PUBLIC = 0x0001;
  static final int ACC_STATIC = 0x0008;
  static final int ACC_FINAL = 0x0010;
  static final int ACC_SUPER = 0x0020;

  // opcodes used by the generators
  static final int ALOAD = 0x19, ASTORE = 0x3a, LLOAD = 0x16, ILOAD = 0x15, FLOAD = 0x17, DLOAD = 0x18;
  static final int LADD = 0x61, NEW = 0xbb, DUP = 0x59, CHECKCAST = 0xc0, GETFIELD = 0xb4, PUTFIELD = 0xb5;
  static final int GETSTATIC = 0xb2, INVOKEVIRTUAL = 0xb6, INVOKESPECIAL = 0xb7, INVOKESTATIC = 0xb8, AALOAD = 0x32;
  static final int I2S = 0x93, I2C = 0x92, I2B = 0x91, RETURN = 0xb1, ARETURN = 0xb0, IRETURN = 0xac, LRETURN = 0xad;
  static final int FRETURN = 0xae, DRETURN = 0xaf;

  private final ByteArrayOutputStream pool = new ByteArrayOutputStream();
  private final DataOutputStream cp = new DataOutputStream(pool);
  private final Map<String, Integer> entries = new HashMap<>();
  private int cpCount = 1;
  private final List<byte[]> fields = new ArrayList<>();
  private final List<byte[]> methods = new ArrayList<>();
  private final int thisClass;
  private final int superClass;
  private final String thisName;

  ClassBytes(String internalName, String superInternalName) {
    thisName = internalName;
    thisClass = classRef(internalName);
    superClass = classRef(superInternalName);
  }

  String thisName() {
    return thisName;
  }

  // ---- constant pool ---------------------------------------------------------------------------

  private int entry(String key, int slots, IoWriter w) {
    Integer i = entries.get(key);
    if (i != null) {
      return i;
    }
    int idx = cpCount;
    try {
      w.write(cp);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    cpCount += slots;
    entries.put(key, idx);
    return idx;
  }

  private interface IoWriter {
    void write(DataOutputStream out) throws IOException;
  }

  int utf8(String s) {
    return entry("U" + s, 1, o -> {
      o.writeByte(1);
      o.writeUTF(s);
    });
  }

  int classRef(String internalName) {
    int n = utf8(internalName);
    return entry("C" + internalName, 1, o -> {
      o.writeByte(7);
      o.writeShort(n);
    });
  }

  int string(String s) {
    int n = utf8(s);
    return entry("S" + s, 1, o -> {
      o.writeByte(8);
      o.writeShort(n);
    });
  }

  int integer(int v) {
    return entry("I" + v, 1, o -> {
      o.writeByte(3);
      o.writeInt(v);
    });
  }

  int longConst(long v) {
    return entry("J" + v, 2, o -> {
      o.writeByte(5);
      o.writeLong(v);
    });
  }

  private int nameAndType(String name, String desc) {
    int n = utf8(name);
    int d = utf8(desc);
    return entry("N" + name + ":" + desc, 1, o -> {
      o.writeByte(12);
      o.writeShort(n);
      o.writeShort(d);
    });
  }

  int fieldRef(String owner, String name, String desc) {
    int c = classRef(owner);
    int nt = nameAndType(name, desc);
    return entry("F" + owner + "." + name + ":" + desc, 1, o -> {
      o.writeByte(9);
      o.writeShort(c);
      o.writeShort(nt);
    });
  }

  int methodRef(String owner, String name, String desc) {
    int c = classRef(owner);
    int nt = nameAndType(name, desc);
    return entry("M" + owner + "." + name + ":" + desc, 1, o -> {
      o.writeByte(10);
      o.writeShort(c);
      o.writeShort(nt);
    });
  }

  // ---- members ------------------------------------------------------------------------------------

  void field(int access, String name, String desc) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream o = new DataOutputStream(b);
    try {
      o.writeShort(access);
      o.writeShort(utf8(name));
      o.writeShort(utf8(desc));
      o.writeShort(0);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    fields.add(b.toByteArray());
  }

  /** A straight-line method body. */
  final class Code {
    final ByteArrayOutputStream code = new ByteArrayOutputStream();

    Code op(int opcode) {
      code.write(opcode);
      return this;
    }

    Code op1(int opcode, int u1) {
      code.write(opcode);
      code.write(u1);
      return this;
    }

    Code op2(int opcode, int u2) {
      code.write(opcode);
      code.write(u2 >>> 8);
      code.write(u2 & 0xff);
      return this;
    }

    Code aload(int local) {
      return op1(ALOAD, local);
    }

    Code astore(int local) {
      return op1(ASTORE, local);
    }

    Code lload(int local) {
      return op1(LLOAD, local);
    }

    Code ldcInt(int v) {
      return op2(0x13, integer(v)); // ldc_w
    }

    Code ldcString(String s) {
      return op2(0x13, string(s));
    }

    Code ldcLong(long v) {
      return op2(0x14, longConst(v)); // ldc2_w
    }

    Code checkcast(String internalName) {
      return op2(CHECKCAST, classRef(internalName));
    }

    Code invoke(int opcode, String owner, String name, String desc) {
      return op2(opcode, methodRef(owner, name, desc));
    }

    Code field(int opcode, String owner, String name, String desc) {
      return op2(opcode, fieldRef(owner, name, desc));
    }

    void end(int access, String name, String desc, int maxStack, int maxLocals) {
      byte[] c = code.toByteArray();
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream o = new DataOutputStream(b);
      try {
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
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      methods.add(b.toByteArray());
    }
  }

  Code code() {
    return new Code();
  }

  /** A public no-arg constructor calling the superclass's. */
  void defaultConstructor(String superInternalName) {
    code().aload(0).invoke(INVOKESPECIAL, superInternalName, "<init>", "()V").op(RETURN).end(ACC_PUBLIC, "<init>", "()V", 1, 1);
  }

  byte[] toBytes() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream o = new DataOutputStream(b);
    try {
      o.writeInt(0xCAFEBABE);
      o.writeShort(0);
      o.writeShort(61);
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
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return b.toByteArray();
  }

  static String internalName(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  static String descriptor(Class<?> c) {
    if (c.isPrimitive()) {
      if (c == int.class) return "I";
      if (c == long.class) return "J";
      if (c == boolean.class) return "Z";
      if (c == byte.class) return "B";
      if (c == short.class) return "S";
      if (c == char.class) return "C";
      if (c == float.class) return "F";
      if (c == double.class) return "D";
      if (c == void.class) return "V";
    }
    if (c.isArray()) {
      return c.getName().replace('.', '/');
    }
    return "L" + internalName(c) + ";";
  }

  /** The class-file name of a class to be defined in {@code host}'s package. */
  static String hiddenName(Class<?> host, String suffix) {
    String pkg = host.getPackageName();
    String simple = host.getName().substring(pkg.isEmpty() ? 0 : pkg.length() + 1).replace('$', '_');
    return (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + simple + "$$" + suffix;
  }
}
