package dev.layout.bytecode;

import static dev.layout.bytecode.ClassBytes.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

/** The class writer's loops run as written, and what it cannot write is refused by name. */
class ClassBytesTest {
    /** static int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; } as a version-49 hidden class. */
    @Test
    void aCountedLoopRuns() throws Throwable {
        ClassBytes cb = new ClassBytes("dev/layout/bytecode/ClassBytesTest$$Loop", "java/lang/Object", 49);
        ClassBytes.Code c = cb.code();
        int head = c.label();
        int end = c.label();
        c.op(ICONST_0).istore(1).op(ICONST_0).istore(2);
        c.bind(head).iload(2).iload(0).branch(IF_ICMPGE, end);
        c.iload(1).iload(2).op(IADD).istore(1).iinc(2, 1).branch(GOTO, head);
        c.bind(end).iload(1).op(IRETURN);
        c.end(ACC_PUBLIC | ACC_STATIC, "sum", "(I)I", 2, 3);
        MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(cb.toBytes(), true);
        MethodHandle sum = hidden.findStatic(hidden.lookupClass(), "sum", MethodType.methodType(int.class, int.class));
        assertThat((int) sum.invokeExact(10)).isEqualTo(45);
        assertThat((int) sum.invokeExact(0)).isEqualTo(0);
    }

    @Test
    void branchesNeedVersion49AndBoundLabels() {
        ClassBytes modern = new ClassBytes("dev/layout/bytecode/X", "java/lang/Object");
        ClassBytes.Code c = modern.code();
        int l = c.label();
        c.bind(l).branch(GOTO, l);
        assertThatThrownBy(() -> c.end(ACC_STATIC, "spin", "()V", 0, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs class-file version 49");
        ClassBytes old = new ClassBytes("dev/layout/bytecode/Y", "java/lang/Object", 49);
        ClassBytes.Code d = old.code();
        d.branch(GOTO, d.label());
        assertThatThrownBy(() -> d.end(ACC_STATIC, "f", "()V", 0, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("never bound");
        assertThatThrownBy(() -> new ClassBytes("a/B", "java/lang/Object", 62))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 62");
    }
}
