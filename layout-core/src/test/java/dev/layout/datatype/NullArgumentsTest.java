package dev.layout.datatype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's TestNulls, for our public entry points: every reference parameter of every public
 * method of Datatype, Segment and Packing, passed null in turn, gives a NullPointerException whose
 * message names the operation, never a failure deeper inside or a half-built object.
 */
class NullArgumentsTest {
    record Call(String name, Method method, Object target, int nullIndex) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Call> calls() {
        Segment segment = Segment.of(Primitive.INT32, 1, Memory.ofArray(new byte[8]), 0);
        List<Call> out = new ArrayList<>();
        for (Class<?> c : List.of(Datatype.class, Segment.class, Packing.class)) {
            for (Method m : c.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers())) {
                    continue;
                }
                Object target = Modifier.isStatic(m.getModifiers()) ? null : segment;
                if (target == null && !Modifier.isStatic(m.getModifiers())) {
                    continue;
                }
                if (c == Datatype.class && !Modifier.isStatic(m.getModifiers())) {
                    continue;
                }
                Class<?>[] p = m.getParameterTypes();
                for (int i = 0; i < p.length; i++) {
                    if (!p[i].isPrimitive()) {
                        out.add(new Call(c.getSimpleName() + "." + m.getName() + " arg " + i, m, target, i));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void nullIsRejectedWithANamedNullPointerException(Call call) throws Exception {
        Class<?>[] p = call.method().getParameterTypes();
        Object[] args = new Object[p.length];
        for (int i = 0; i < p.length; i++) {
            args[i] = i == call.nullIndex() ? null : sample(p[i]);
        }
        try {
            call.method().invoke(call.target(), args);
            fail("accepted null: " + call);
        } catch (InvocationTargetException e) {
            assertThat(e.getCause()).as(call.toString()).isInstanceOf(NullPointerException.class);
            assertThat(e.getCause().getMessage())
                    .as(call.toString())
                    .isNotBlank()
                    .contains("null");
        }
    }

    private static Object sample(Class<?> type) {
        if (type == long.class) {
            return 1L;
        }
        if (type == int.class) {
            return 1;
        }
        if (type == Datatype.class) {
            return Primitive.INT32;
        }
        if (type == long[].class) {
            return new long[] {1};
        }
        if (type == List.class) {
            return List.of(Primitive.INT32);
        }
        if (type == Order.class) {
            return Order.C;
        }
        if (type == Distribution[].class) {
            return new Distribution[] {Distribution.BLOCK};
        }
        if (type == Memory.class) {
            return Memory.ofArray(new byte[64]);
        }
        if (type == byte[].class) {
            return new byte[64];
        }
        if (type == dev.layout.dataloop.LeafAction.class) {
            return (dev.layout.dataloop.LeafAction) (o, l, s) -> {};
        }
        throw new AssertionError("no sample for " + type);
    }
}
