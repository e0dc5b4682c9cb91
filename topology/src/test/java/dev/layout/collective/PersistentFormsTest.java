package dev.layout.collective;

import static dev.layout.collective.Harness.longs;
import static dev.layout.collective.Harness.pattern;
import static dev.layout.collective.Harness.toLongs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every operation has blocking, non-blocking and persistent forms, and the new ones work. */
class PersistentFormsTest {

    @Test
    void everyBlockingOperationHasANonBlockingAndAPersistentForm() throws Exception {
        List<String> missing = new ArrayList<>();
        int operations = 0;
        for (Method m : Collectives.class.getMethods()) {
            if (m.getDeclaringClass() != Collectives.class
                    || Modifier.isStatic(m.getModifiers())
                    || m.getReturnType() != void.class) {
                continue;
            }
            operations++;
            Class<?>[] params = m.getParameterTypes();
            String form = m.getName() + Arrays.toString(params);
            try {
                assertThat(NonBlockingCollectives.class
                                .getMethod(m.getName(), params)
                                .getReturnType())
                        .isEqualTo(CompletableFuture.class);
            } catch (NoSuchMethodException e) {
                missing.add("nonBlocking()." + form);
            }
            try {
                assertThat(PersistentCollectives.class
                                .getMethod(m.getName(), params)
                                .getReturnType())
                        .isEqualTo(PersistentCollective.class);
            } catch (NoSuchMethodException e) {
                missing.add("persistent()." + form);
            }
        }
        assertThat(missing).isEmpty();
        assertThat(operations).isGreaterThanOrEqualTo(30);
        // and no form without its blocking operation
        assertThat(declaredPublicMethods(NonBlockingCollectives.class)).isEqualTo(operations);
        assertThat(declaredPublicMethods(PersistentCollectives.class)).isEqualTo(operations);
    }

    private static long declaredPublicMethods(Class<?> c) {
        return Arrays.stream(c.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .count();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 16})
    void persistentHandlesReadTheirBuffersAtEveryStart(int p) {
        int root = p - 1;
        Harness.run(p, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();
            // gatherv with unequal (zero) counts
            int[] counts = new int[p];
            int[] displs = new int[p];
            int total = 0;
            for (int q = 0; q < p; q++) {
                counts[q] = (q + 1) % 3;
                displs[q] = total;
                total += counts[q];
            }
            byte[] mine = new byte[counts[r]];
            byte[] gathered = new byte[total];
            PersistentCollective gv = c.persistent().gatherv(mine, gathered, counts, displs, root);
            // scatterv, the mirror image
            byte[] all = new byte[total];
            byte[] part = new byte[counts[r]];
            PersistentCollective sv = c.persistent().scatterv(all, counts, displs, part, root);
            // reduce_scatter_block, scan, exscan
            byte[] contributions = new byte[8 * p];
            byte[] rs = new byte[8];
            PersistentCollective rsb = c.persistent().reduceScatterBlock(contributions, rs, StandardOp.LONG_SUM);
            byte[] operand = new byte[8];
            byte[] scan = new byte[8];
            byte[] ex = longs(-1);
            PersistentCollective sc = c.persistent().scan(operand, scan, StandardOp.LONG_SUM);
            PersistentCollective exs = c.persistent().exscan(operand, ex, StandardOp.LONG_SUM);
            // allgatherAny, arrays of unequal (zero) lengths
            byte[] word = new byte[r % 3];
            byte[][] words = new byte[p][];
            PersistentCollective aga = c.persistent().allgatherAny(word, words);
            for (int round = 0; round < 3; round++) {
                System.arraycopy(pattern(r, round, counts[r]), 0, mine, 0, counts[r]);
                gv.run();
                if (r == root) {
                    for (int q = 0; q < p; q++) {
                        assertThat(Arrays.copyOfRange(gathered, displs[q], displs[q] + counts[q]))
                                .isEqualTo(pattern(q, round, counts[q]));
                    }
                    for (int q = 0; q < p; q++) {
                        System.arraycopy(pattern(q, 10 + round, counts[q]), 0, all, displs[q], counts[q]);
                    }
                }
                PersistentCollective.await(sv.start(), Harness.TIMEOUT);
                System.arraycopy(pattern(r, 20 + round, word.length), 0, word, 0, word.length);
                aga.run();
                for (int q = 0; q < p; q++) {
                    assertThat(words[q]).isEqualTo(pattern(q, 20 + round, q % 3));
                }
                assertThat(part).isEqualTo(pattern(r, 10 + round, counts[r]));

                long[] contrib = new long[p];
                for (int q = 0; q < p; q++) {
                    contrib[q] = (long) r * 10 + q + round;
                }
                System.arraycopy(longs(contrib), 0, contributions, 0, 8 * p);
                rsb.run();
                long sum = 0;
                for (int q = 0; q < p; q++) {
                    sum += (long) q * 10 + r + round;
                }
                assertThat(toLongs(rs)).containsExactly(sum);

                System.arraycopy(longs(r + round), 0, operand, 0, 8);
                CompletableFuture<Void> a = sc.start();
                CompletableFuture<Void> b = exs.start();
                PersistentCollective.await(a, Harness.TIMEOUT);
                PersistentCollective.await(b, Harness.TIMEOUT);
                long prefix = 0;
                for (int q = 0; q <= r; q++) {
                    prefix += q + round;
                }
                assertThat(toLongs(scan)).containsExactly(prefix);
                assertThat(toLongs(ex)).containsExactly(r == 0 ? -1 : prefix - r - round);
            }
            return null;
        });
    }

    @Test
    void nonBlockingAndPersistentDatatypeFormsOnAStencil() {
        CartesianNaming grid = CartesianNaming.of(new int[] {4, 4}, new boolean[] {true, true}, RankOrder.C);
        Datatype strided = Datatype.vector(2, 1, 2, Primitive.FLOAT64);
        Harness.run(16, world -> {
            Communicator g = StencilCollectivesTest.stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            DistGraph topo = (DistGraph) g.topology();
            int[] s = topo.sources();
            int r = g.rank();
            Collectives c = Collectives.on(g).withPolicy(SchedulePolicy.COMBINING);
            double[] mine = new double[4];
            byte[] send = Harness.doubles(mine);
            byte[] recv = new byte[16 * s.length];
            PersistentCollective handle = c.persistent()
                    .allgather(BlockSpec.of(send, 0, 1, strided), BlockSpec.of(recv, 0, 2, Primitive.FLOAT64));
            assertThat(handle.schedule().kind()).isEqualTo(Schedule.Kind.COMBINING);
            byte[] sum = new byte[16];
            PersistentCollective reduce = c.persistent()
                    .allreduce(
                            BlockSpec.of(send, 0, 1, strided),
                            BlockSpec.of(sum, 0, 2, Primitive.FLOAT64),
                            Reduction.SUM);
            for (int round = 0; round < 3; round++) {
                System.arraycopy(Harness.doubles(r + round, -5, r * 2.0, -5), 0, send, 0, 32);
                PersistentCollective.await(handle.start(), Harness.TIMEOUT);
                double[] got = Harness.toDoubles(recv);
                for (int k = 0; k < s.length; k++) {
                    assertThat(got[2 * k]).isEqualTo(s[k] + round);
                    assertThat(got[2 * k + 1]).isEqualTo(s[k] * 2.0);
                }
                reduce.run();
                double e0 = 0;
                double e1 = 0;
                for (int q : s) {
                    e0 += q + round;
                    e1 += q * 2.0;
                }
                assertThat(Harness.toDoubles(sum)).containsExactly(e0, e1);
            }
            // non-blocking typed alltoall and gather, overlapping
            byte[] a2aRecv = new byte[8 * s.length];
            double[] out = new double[topo.outdegree()];
            for (int i = 0; i < out.length; i++) {
                out[i] = r * 100 + i;
            }
            CompletableFuture<Void> f1 = c.nonBlocking()
                    .alltoall(
                            BlockSpec.of(Harness.doubles(out), 0, 1, Primitive.FLOAT64),
                            BlockSpec.of(a2aRecv, 0, 1, Primitive.FLOAT64));
            byte[] gathered = new byte[8 * s.length];
            CompletableFuture<Void> f2 = c.nonBlocking()
                    .gather(
                            BlockSpec.of(Harness.doubles(r), 0, 1, Primitive.FLOAT64),
                            r == 5 ? BlockSpec.of(gathered, 0, 1, Primitive.FLOAT64) : null,
                            5);
            PersistentCollective.await(f1, Harness.TIMEOUT);
            PersistentCollective.await(f2, Harness.TIMEOUT);
            byte[] reference = new byte[8 * s.length];
            Collectives.on(g).withPolicy(SchedulePolicy.DIRECT).alltoall(Harness.doubles(out), reference, 8);
            assertThat(a2aRecv).isEqualTo(reference);
            if (r == 5) {
                assertThat(Harness.toDoubles(gathered))
                        .containsExactly(Arrays.stream(s).asDoubleStream().toArray());
            }
            return null;
        });
    }
}
