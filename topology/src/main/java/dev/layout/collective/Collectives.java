package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.comm.Communicator;
import dev.layout.topology.DistGraph;
import dev.layout.topology.TopologyKind;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * The collective operations of one communicator, with the meaning its structure gives them:
 *
 * <ul>
 *   <li>FULL: the MPI meanings (rank order everywhere, reductions folded in rank order).
 *   <li>INTER: the MPI inter-communicator meanings; rooted operations take {@link
 *       Communicator#ROOT} at the root, {@link Communicator#PROC_NULL} at the rest of its group and
 *       the root's rank at the remote group. scan and exscan are undefined.
 *   <li>GRAPH (s = in-neighbours, t = out-neighbours in order, repeated edges counting repeatedly):
 *       barrier waits for the in-neighbours; bcast goes from the root to its out-neighbours;
 *       gather(v) collects block i from s[i] at the root, scatter(v) sends block i to t[i] (a rank
 *       listing the root k times receives k blocks, consecutively); reduce folds the blocks of
 *       s[0], s[1], ... at the root (its own data only through a self-loop; untouched without
 *       in-neighbours); allreduce does that at every rank; allgather(v) and alltoall(v,w) have the
 *       MPI_Neighbor_* meanings. reduce_scatter, scan and exscan are refused.
 * </ul>
 *
 * <p>Buffers are byte arrays; counts and displacements are in bytes. Each operation comes in three
 * forms: blocking ({@code allreduce}), non-blocking ({@code iallreduce}, a future that completes
 * when this rank's part is done) and persistent ({@code allreduceInit}, checked and scheduled once,
 * started many times). Every rank calls the collectives of a communicator in the same order. On a
 * graph whose Cartesianity check succeeded, the neighbourhood exchanges (alltoall family,
 * allgather, allreduce) run the direct or the message-combining {@link Schedule}, as the {@link
 * SchedulePolicy} and the {@link ScheduleSelector} decide.
 *
 * <pre>{@code
 * Collectives coll = Collectives.on(stencilComm);
 * coll.alltoall(send, recv, 8);                            // 8 bytes to/from each neighbour
 * coll.allreduce(alive, liveNeighbours, StandardOp.INT_SUM);
 * Collectives.on(stencilComm.base()).allreduce(local, global, StandardOp.DOUBLE_MAX);
 * }</pre>
 */
public final class Collectives {

  /** The work of one call, given its sequence number. */
  @FunctionalInterface
  interface Body {
    void run(int seq);
  }

  private record Prepared(String name, Body body, Schedule schedule) {
    Prepared(String name, Body body) {
      this(name, body, null);
    }
  }

  private final Communicator comm;
  private final CollectiveChannel ch;
  private final SchedulePolicy policy;
  private final ScheduleSelector selector;
  private Schedule direct;
  private Schedule combining;

  private Collectives(Communicator comm, SchedulePolicy policy, ScheduleSelector selector) {
    this.comm = comm;
    this.ch = comm.channel();
    this.policy = policy;
    this.selector = selector;
  }

  /** The collectives of {@code comm}, schedule policy AUTO with the default cost model. */
  public static Collectives on(Communicator comm) {
    if (comm == null) {
      throw new IllegalArgumentException("collectives: communicator null (expected: a Communicator)");
    }
    return new Collectives(comm, SchedulePolicy.AUTO, ScheduleSelector.DEFAULT);
  }

  /** The same collectives with another schedule policy. */
  public Collectives withPolicy(SchedulePolicy p) {
    if (p == null) {
      throw new IllegalArgumentException("collectives: policy null (expected: AUTO, DIRECT or COMBINING)");
    }
    return new Collectives(comm, p, selector);
  }

  /** The same collectives with another cost model. */
  public Collectives withSelector(ScheduleSelector s) {
    if (s == null) {
      throw new IllegalArgumentException("collectives: selector null (expected: a ScheduleSelector)");
    }
    return new Collectives(comm, policy, s);
  }

  public Communicator communicator() {
    return comm;
  }

  /**
   * The schedule that neighbourhood exchanges of {@code blockBytes} per block (0 if unknown) use
   * on this graph communicator under the current policy.
   *
   * @throws IllegalArgumentException if the communicator is not a graph, or COMBINING is forced on
   *     a general graph
   */
  public Schedule schedule(long blockBytes) {
    if (comm.kind() != TopologyKind.GRAPH) {
      throw new IllegalArgumentException(
          "schedule: topology " + comm.kind() + " (expected: GRAPH)");
    }
    DistGraph g = graph();
    Schedule.Kind kind =
        switch (policy) {
          case DIRECT -> Schedule.Kind.DIRECT;
          case COMBINING -> Schedule.Kind.COMBINING;
          case AUTO -> selector.choose(g, blockBytes);
        };
    synchronized (this) {
      if (kind == Schedule.Kind.DIRECT) {
        if (direct == null) {
          direct = Schedule.direct(g, comm.rank());
        }
        return direct;
      }
      if (combining == null) {
        combining = Schedule.combining(g, comm.rank());
      }
      return combining;
    }
  }

  private DistGraph graph() {
    return (DistGraph) comm.topology();
  }

  // ---------------------------------------------------------------------------------------------
  // forms

  private void now(Prepared p) {
    p.body.run(ch.nextSequence());
  }

  private CompletableFuture<Void> later(Prepared p) {
    int seq = ch.nextSequence();
    return CompletableFuture.runAsync(() -> p.body.run(seq), ch.executor());
  }

  private PersistentCollective init(Prepared p) {
    return new PersistentCollective(p.name, p.body, ch, p.schedule);
  }

  // ---------------------------------------------------------------------------------------------
  // barrier

  public void barrier() {
    now(prepareBarrier());
  }

  public CompletableFuture<Void> ibarrier() {
    return later(prepareBarrier());
  }

  public PersistentCollective barrierInit() {
    return init(prepareBarrier());
  }

  private Prepared prepareBarrier() {
    String op = "barrier";
    byte[] empty = new byte[0];
    int me = comm.rank();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (me == 0) {
          for (int q = 1; q < comm.size(); q++) {
            ch.receive(op, seq, q);
          }
          for (int q = 1; q < comm.size(); q++) {
            ch.send(op, seq, q, empty);
          }
        } else {
          ch.send(op, seq, 0, empty);
          ch.receive(op, seq, 0);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        for (int q = 0; q < comm.remoteSize(); q++) {
          ch.send(op, seq, q, empty);
        }
        for (int q = 0; q < comm.remoteSize(); q++) {
          ch.receive(op, seq, q);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          for (int q : t) {
            if (q != me) {
              ch.send(op, seq, q, empty);
            }
          }
          for (int q : s) {
            if (q != me) {
              ch.receive(op, seq, q);
            }
          }
        });
      }
    };
  }

  // ---------------------------------------------------------------------------------------------
  // bcast

  /** Broadcasts root's {@code buffer} (every receiving rank passes a buffer of the same length). */
  public void bcast(byte[] buffer, int root) {
    now(prepareBcast(buffer, root));
  }

  public CompletableFuture<Void> ibcast(byte[] buffer, int root) {
    return later(prepareBcast(buffer, root));
  }

  public PersistentCollective bcastInit(byte[] buffer, int root) {
    return init(prepareBcast(buffer, root));
  }

  private Prepared prepareBcast(byte[] buffer, int root) {
    String op = "bcast";
    checkRoot(op, root);
    notNull(op, "buffer", buffer);
    int me = comm.rank();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (me == root) {
          for (int q = 0; q < comm.size(); q++) {
            if (q != me) {
              ch.send(op, seq, q, buffer);
            }
          }
        } else {
          copyExact(op, "buffer", ch.receive(op, seq, root), buffer, 0, buffer.length, root);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (root == Communicator.ROOT) {
          for (int q = 0; q < comm.remoteSize(); q++) {
            ch.send(op, seq, q, buffer);
          }
        } else if (root >= 0) {
          copyExact(op, "buffer", ch.receive(op, seq, root), buffer, 0, buffer.length, root);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          if (me == root) {
            for (int q : t) {
              if (q != me) {
                ch.send(op, seq, q, buffer);
              }
            }
          } else {
            for (int q : s) {
              if (q == root) {
                copyExact(op, "buffer", ch.receive(op, seq, root), buffer, 0, buffer.length, root);
              }
            }
          }
        });
      }
    };
  }

  // ---------------------------------------------------------------------------------------------
  // gather(v)

  /**
   * Gathers equal blocks at the root: block size is {@code send.length} (at an INTER root, {@code
   * recv.length / remoteSize}); block i lands at {@code i * blockSize}. {@code recv} matters only
   * at the root.
   */
  public void gather(byte[] send, byte[] recv, int root) {
    now(prepareGather(send, recv, root));
  }

  public CompletableFuture<Void> igather(byte[] send, byte[] recv, int root) {
    return later(prepareGather(send, recv, root));
  }

  public PersistentCollective gatherInit(byte[] send, byte[] recv, int root) {
    return init(prepareGather(send, recv, root));
  }

  private Prepared prepareGather(byte[] send, byte[] recv, int root) {
    String op = "gather";
    checkRoot(op, root);
    if (!isRoot(root)) {
      return prepareGatherv(op, send, recv, null, null, root);
    }
    int n = rootBlockCount(false);
    int bs;
    if (comm.kind() == TopologyKind.INTER) {
      notNull(op, "recv", recv);
      bs = n == 0 ? 0 : recv.length / n;
    } else {
      notNull(op, "send", send);
      bs = send.length;
    }
    return prepareGatherv(op, send, recv, uniform(n, bs), displacements(n, bs), root);
  }

  /** Gathers block i with {@code recvCounts[i]} bytes at {@code displs[i]} of root's recv. */
  public void gatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    now(prepareGatherv("gatherv", send, recv, recvCounts, displs, root));
  }

  public CompletableFuture<Void> igatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    return later(prepareGatherv("gatherv", send, recv, recvCounts, displs, root));
  }

  private boolean isRoot(int root) {
    return comm.kind() == TopologyKind.INTER ? root == Communicator.ROOT : comm.rank() == root;
  }

  /** Blocks at the root: p, indegree (gather) / outdegree (scatter), or the remote size. */
  private int rootBlockCount(boolean outgoing) {
    return switch (comm.kind()) {
      case FULL -> comm.size();
      case INTER -> comm.remoteSize();
      case GRAPH -> outgoing ? graph().outdegree() : graph().indegree();
    };
  }

  private Prepared prepareGatherv(
      String op, byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    checkRoot(op, root);
    int me = comm.rank();
    boolean atRoot = isRoot(root);
    if (atRoot) {
      checkLayout(op, "recv", recv, "recvCounts", recvCounts, displs, rootBlockCount(false));
    }
    if (comm.kind() != TopologyKind.INTER || root >= 0) {
      notNull(op, "send", send);
    }
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.size(); q++) {
            byte[] b = q == me ? send : ch.receive(op, seq, q);
            copyExact(op, "recvCounts[" + q + "]", b, recv, displs[q], recvCounts[q], q);
          }
        } else {
          ch.send(op, seq, root, send);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.remoteSize(); q++) {
            copyExact(op, "recvCounts[" + q + "]", ch.receive(op, seq, q), recv, displs[q], recvCounts[q], q);
          }
        } else if (root >= 0) {
          ch.send(op, seq, root, send);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          if (atRoot) {
            for (int k = 0; k < s.length; k++) {
              byte[] b = s[k] == me ? send : ch.receive(op, seq, s[k]);
              copyExact(op, "recvCounts[" + k + "]", b, recv, displs[k], recvCounts[k], s[k]);
            }
          } else {
            for (int q : t) {
              if (q == root) {
                ch.send(op, seq, root, send);
              }
            }
          }
        });
      }
    };
  }

  // ---------------------------------------------------------------------------------------------
  // scatter(v)

  /**
   * Scatters equal blocks from the root: block size is {@code send.length / n} at the root (n = p,
   * outdegree or remote size); every receiver gets {@code recv.length} bytes.
   */
  public void scatter(byte[] send, byte[] recv, int root) {
    now(prepareScatter(send, recv, root));
  }

  public CompletableFuture<Void> iscatter(byte[] send, byte[] recv, int root) {
    return later(prepareScatter(send, recv, root));
  }

  public PersistentCollective scatterInit(byte[] send, byte[] recv, int root) {
    return init(prepareScatter(send, recv, root));
  }

  private Prepared prepareScatter(byte[] send, byte[] recv, int root) {
    String op = "scatter";
    checkRoot(op, root);
    if (!isRoot(root)) {
      return prepareScatterv(op, send, null, null, recv, root);
    }
    notNull(op, "send", send);
    int n = rootBlockCount(true);
    if (n > 0 && send.length % n != 0) {
      throw new IllegalArgumentException(
          op + ": send length " + send.length + " (expected: a multiple of the block count " + n + ")");
    }
    int bs = n == 0 ? 0 : send.length / n;
    return prepareScatterv(op, send, uniform(n, bs), displacements(n, bs), recv, root);
  }

  /** Scatters block i ({@code sendCounts[i]} bytes at {@code displs[i]} of root's send). */
  public void scatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    now(prepareScatterv("scatterv", send, sendCounts, displs, recv, root));
  }

  public CompletableFuture<Void> iscatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    return later(prepareScatterv("scatterv", send, sendCounts, displs, recv, root));
  }

  private Prepared prepareScatterv(
      String op, byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    checkRoot(op, root);
    int me = comm.rank();
    boolean atRoot = isRoot(root);
    if (atRoot) {
      checkLayout(op, "send", send, "sendCounts", sendCounts, displs, rootBlockCount(true));
    }
    boolean receives = comm.kind() == TopologyKind.INTER ? root >= 0 : true;
    if (receives) {
      notNull(op, "recv", recv);
    }
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.size(); q++) {
            byte[] b = slice(send, displs[q], sendCounts[q]);
            if (q == me) {
              copyExact(op, "recv", b, recv, 0, recv.length, q);
            } else {
              ch.send(op, seq, q, b);
            }
          }
        } else {
          copyExact(op, "recv", ch.receive(op, seq, root), recv, 0, recv.length, root);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.remoteSize(); q++) {
            ch.send(op, seq, q, slice(send, displs[q], sendCounts[q]));
          }
        } else if (root >= 0) {
          copyExact(op, "recv", ch.receive(op, seq, root), recv, 0, recv.length, root);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          ArrayDeque<byte[]> self = new ArrayDeque<>();
          if (atRoot) {
            for (int i = 0; i < t.length; i++) {
              byte[] b = slice(send, displs[i], sendCounts[i]);
              if (t[i] == me) {
                self.addLast(b);
              } else {
                ch.send(op, seq, t[i], b);
              }
            }
          }
          int offset = 0;
          int blocks = 0;
          for (int q : s) {
            if (q != root) {
              continue;
            }
            byte[] b = q == me ? self.pollFirst() : ch.receive(op, seq, root);
            if (b == null || offset + b.length > recv.length) {
              throw new IllegalArgumentException(
                  op + ": recv length " + recv.length + " (expected: room for block " + blocks
                      + " from root " + root + ")");
            }
            System.arraycopy(b, 0, recv, offset, b.length);
            offset += b.length;
            blocks++;
          }
        });
      }
    };
  }

  // ---------------------------------------------------------------------------------------------
  // reduce, allreduce

  /** Reduces into root's {@code recv} (see the class comment for the order of operands). */
  public void reduce(byte[] send, byte[] recv, ReduceOp op, int root) {
    now(prepareReduce(send, recv, op, root));
  }

  public CompletableFuture<Void> ireduce(byte[] send, byte[] recv, ReduceOp op, int root) {
    return later(prepareReduce(send, recv, op, root));
  }

  public PersistentCollective reduceInit(byte[] send, byte[] recv, ReduceOp op, int root) {
    return init(prepareReduce(send, recv, op, root));
  }

  private Prepared prepareReduce(byte[] send, byte[] recv, ReduceOp rop, int root) {
    String op = "reduce";
    checkRoot(op, root);
    checkOp(op, rop);
    int me = comm.rank();
    boolean atRoot = isRoot(root);
    boolean sends = comm.kind() != TopologyKind.INTER || root >= 0;
    if (sends) {
      checkOperand(op, "send", send, rop);
    }
    if (atRoot) {
      checkOperand(op, "recv", recv, rop);
      if (send != null && comm.kind() != TopologyKind.INTER && send.length != recv.length) {
        throw new IllegalArgumentException(
            op + ": recv length " + recv.length + " (expected: send length " + send.length + ")");
      }
    }
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (atRoot) {
          Fold f = new Fold(op, rop, recv.length);
          for (int q = 0; q < comm.size(); q++) {
            f.add(q == me ? send : ch.receive(op, seq, q), q);
          }
          f.writeTo(recv);
        } else {
          ch.send(op, seq, root, send);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (atRoot) {
          Fold f = new Fold(op, rop, recv.length);
          for (int q = 0; q < comm.remoteSize(); q++) {
            f.add(ch.receive(op, seq, q), q);
          }
          f.writeTo(recv);
        } else if (root >= 0) {
          ch.send(op, seq, root, send);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          if (atRoot) {
            Fold f = new Fold(op, rop, recv.length);
            for (int q : s) {
              f.add(q == me ? send : ch.receive(op, seq, q), q);
            }
            f.writeTo(recv);
          } else {
            for (int q : t) {
              if (q == root) {
                ch.send(op, seq, root, send);
              }
            }
          }
        });
      }
    };
  }

  /** Every rank gets the reduction (on a graph: of its in-neighbours' blocks, in order). */
  public void allreduce(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareAllreduce(send, recv, op));
  }

  public CompletableFuture<Void> iallreduce(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareAllreduce(send, recv, op));
  }

  public PersistentCollective allreduceInit(byte[] send, byte[] recv, ReduceOp op) {
    return init(prepareAllreduce(send, recv, op));
  }

  private Prepared prepareAllreduce(byte[] send, byte[] recv, ReduceOp rop) {
    String op = "allreduce";
    checkOp(op, rop);
    checkOperand(op, "send", send, rop);
    checkOperand(op, "recv", recv, rop);
    if (send.length != recv.length) {
      throw new IllegalArgumentException(
          op + ": recv length " + recv.length + " (expected: send length " + send.length + ")");
    }
    int me = comm.rank();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (me == 0) {
          Fold f = new Fold(op, rop, recv.length);
          for (int q = 0; q < comm.size(); q++) {
            f.add(q == 0 ? send : ch.receive(op, seq, q), q);
          }
          f.writeTo(recv);
          for (int q = 1; q < comm.size(); q++) {
            ch.send(op, seq, q, recv);
          }
        } else {
          ch.send(op, seq, 0, send);
          copyExact(op, "recv", ch.receive(op, seq, 0), recv, 0, recv.length, 0);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        for (int q = 0; q < comm.remoteSize(); q++) {
          ch.send(op, seq, q, send);
        }
        Fold f = new Fold(op, rop, recv.length);
        for (int q = 0; q < comm.remoteSize(); q++) {
          f.add(ch.receive(op, seq, q), q);
        }
        f.writeTo(recv);
      });
      case GRAPH -> {
        Schedule sched = schedule(send.length);
        int[] s = graph().sources();
        int t = graph().outdegree();
        yield new Prepared(op, seq -> {
          byte[][] out = new byte[t][];
          java.util.Arrays.fill(out, send.clone());
          byte[][] in = sched.exchange(ch, op, seq, out);
          Fold f = new Fold(op, rop, recv.length);
          for (int k = 0; k < in.length; k++) {
            f.add(in[k], s[k]);
          }
          f.writeTo(recv);
        }, sched);
      }
    };
  }

  // ---------------------------------------------------------------------------------------------
  // allgather(v)

  /** Block i ({@code send.length} bytes) from rank i, in-neighbour i or remote rank i. */
  public void allgather(byte[] send, byte[] recv) {
    now(prepareAllgather(send, recv));
  }

  public CompletableFuture<Void> iallgather(byte[] send, byte[] recv) {
    return later(prepareAllgather(send, recv));
  }

  public PersistentCollective allgatherInit(byte[] send, byte[] recv) {
    return init(prepareAllgather(send, recv));
  }

  private Prepared prepareAllgather(byte[] send, byte[] recv) {
    notNull("allgather", "send", send);
    int n = recvBlockCount();
    return prepareAllgatherv("allgather", send, recv, uniform(n, send.length), displacements(n, send.length), send.length);
  }

  public void allgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
    now(prepareAllgatherv("allgatherv", send, recv, recvCounts, displs, 0));
  }

  public CompletableFuture<Void> iallgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
    return later(prepareAllgatherv("allgatherv", send, recv, recvCounts, displs, 0));
  }

  public PersistentCollective allgathervInit(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
    return init(prepareAllgatherv("allgatherv", send, recv, recvCounts, displs, 0));
  }

  private Prepared prepareAllgatherv(
      String op, byte[] send, byte[] recv, int[] recvCounts, int[] displs, long blockHint) {
    notNull(op, "send", send);
    int n = recvBlockCount();
    checkLayout(op, "recv", recv, "recvCounts", recvCounts, displs, n);
    Block[] sendBlocks = new Block[sendBlockCount()];
    java.util.Arrays.fill(sendBlocks, ByteBlock.of(send));
    Block[] recvBlocks = new Block[n];
    for (int i = 0; i < n; i++) {
      recvBlocks[i] = new ByteBlock(recv, displs[i], recvCounts[i]);
    }
    return prepareAlltoallw(op, sendBlocks, recvBlocks, blockHint);
  }

  private int sendBlockCount() {
    return switch (comm.kind()) {
      case FULL -> comm.size();
      case INTER -> comm.remoteSize();
      case GRAPH -> graph().outdegree();
    };
  }

  private int recvBlockCount() {
    return switch (comm.kind()) {
      case FULL -> comm.size();
      case INTER -> comm.remoteSize();
      case GRAPH -> graph().indegree();
    };
  }

  // ---------------------------------------------------------------------------------------------
  // alltoall(v,w)

  /** Block i of {@code blockBytes} bytes to rank / out-neighbour / remote rank i, and back. */
  public void alltoall(byte[] send, byte[] recv, int blockBytes) {
    now(prepareAlltoall(send, recv, blockBytes));
  }

  public CompletableFuture<Void> ialltoall(byte[] send, byte[] recv, int blockBytes) {
    return later(prepareAlltoall(send, recv, blockBytes));
  }

  public PersistentCollective alltoallInit(byte[] send, byte[] recv, int blockBytes) {
    return init(prepareAlltoall(send, recv, blockBytes));
  }

  private Prepared prepareAlltoall(byte[] send, byte[] recv, int blockBytes) {
    String op = "alltoall";
    if (blockBytes < 0) {
      throw new IllegalArgumentException(op + ": blockBytes " + blockBytes + " (expected: >= 0)");
    }
    int ns = sendBlockCount();
    int nr = recvBlockCount();
    return prepareAlltoallv(
        op, send, uniform(ns, blockBytes), displacements(ns, blockBytes),
        recv, uniform(nr, blockBytes), displacements(nr, blockBytes), blockBytes);
  }

  public void alltoallv(byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts, int[] rdispls) {
    now(prepareAlltoallv("alltoallv", send, sendCounts, sdispls, recv, recvCounts, rdispls, 0));
  }

  public CompletableFuture<Void> ialltoallv(
      byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts, int[] rdispls) {
    return later(prepareAlltoallv("alltoallv", send, sendCounts, sdispls, recv, recvCounts, rdispls, 0));
  }

  public PersistentCollective alltoallvInit(
      byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts, int[] rdispls) {
    return init(prepareAlltoallv("alltoallv", send, sendCounts, sdispls, recv, recvCounts, rdispls, 0));
  }

  private Prepared prepareAlltoallv(
      String op, byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts,
      int[] rdispls, long blockHint) {
    int ns = sendBlockCount();
    int nr = recvBlockCount();
    checkLayout(op, "send", send, "sendCounts", sendCounts, sdispls, ns);
    checkLayout(op, "recv", recv, "recvCounts", recvCounts, rdispls, nr);
    Block[] sb = new Block[ns];
    for (int i = 0; i < ns; i++) {
      sb[i] = new ByteBlock(send, sdispls[i], sendCounts[i]);
    }
    Block[] rb = new Block[nr];
    for (int i = 0; i < nr; i++) {
      rb[i] = new ByteBlock(recv, rdispls[i], recvCounts[i]);
    }
    return prepareAlltoallw(op, sb, rb, blockHint);
  }

  /**
   * Block i of {@code send} to rank / out-neighbour / remote rank i, block i of {@code recv} from
   * rank / in-neighbour / remote rank i; each block packs and unpacks itself (see {@link Block}).
   * All send blocks are packed before any receive block is unpacked, so send and receive blocks
   * may live in the same array (as halo exchanges do).
   */
  public void alltoallw(Block[] send, Block[] recv) {
    now(prepareAlltoallw("alltoallw", send, recv, 0));
  }

  public CompletableFuture<Void> ialltoallw(Block[] send, Block[] recv) {
    return later(prepareAlltoallw("alltoallw", send, recv, 0));
  }

  public PersistentCollective alltoallwInit(Block[] send, Block[] recv) {
    return init(prepareAlltoallw("alltoallw", send, recv, 0));
  }

  private Prepared prepareAlltoallw(String op, Block[] send, Block[] recv, long blockHint) {
    int ns = sendBlockCount();
    int nr = recvBlockCount();
    checkBlocks(op, "send", send, ns);
    checkBlocks(op, "recv", recv, nr);
    Block[] sb = send.clone();
    Block[] rb = recv.clone();
    int me = comm.rank();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        byte[][] packed = packAll(sb);
        for (int q = 0; q < ns; q++) {
          if (q != me) {
            ch.send(op, seq, q, packed[q]);
          }
        }
        for (int q = 0; q < nr; q++) {
          unpackExact(op, rb[q], q == me ? packed[q] : ch.receive(op, seq, q), q, q);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        byte[][] packed = packAll(sb);
        for (int q = 0; q < ns; q++) {
          ch.send(op, seq, q, packed[q]);
        }
        for (int q = 0; q < nr; q++) {
          unpackExact(op, rb[q], ch.receive(op, seq, q), q, q);
        }
      });
      case GRAPH -> {
        Schedule sched = schedule(blockHint);
        int[] s = graph().sources();
        yield new Prepared(op, seq -> {
          byte[][] in = sched.exchange(ch, op, seq, packAll(sb));
          for (int k = 0; k < nr; k++) {
            unpackExact(op, rb[k], in[k], k, s[k]);
          }
        }, sched);
      }
    };
  }

  private static byte[][] packAll(Block[] blocks) {
    byte[][] out = new byte[blocks.length][];
    for (int i = 0; i < blocks.length; i++) {
      out[i] = blocks[i].pack();
    }
    return out;
  }

  private void unpackExact(String op, Block block, byte[] data, int index, int from) {
    if (data.length != block.byteSize()) {
      throw new IllegalArgumentException(
          op + ": block " + index + " from rank " + from + " has " + data.length + " bytes (expected: "
              + block.byteSize() + " at rank " + comm.rank() + ")");
    }
    block.unpack(data);
  }

  // ---------------------------------------------------------------------------------------------
  // reduce_scatter_block, scan, exscan (undefined on graphs)

  /**
   * Block i ({@code recv.length} bytes) of the reduction over all ranks (INTER: over the remote
   * group) lands at rank i.
   *
   * @throws UnsupportedOperationException on a graph communicator
   */
  public void reduceScatterBlock(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareReduceScatterBlock(send, recv, op));
  }

  public CompletableFuture<Void> ireduceScatterBlock(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareReduceScatterBlock(send, recv, op));
  }

  private Prepared prepareReduceScatterBlock(byte[] send, byte[] recv, ReduceOp rop) {
    String op = "reduceScatterBlock";
    refuseOnGraph(op);
    checkOp(op, rop);
    checkOperand(op, "recv", recv, rop);
    notNull(op, "send", send);
    int peers = sendBlockCount();
    int bs = recv.length;
    if ((long) peers * bs != send.length) {
      throw new IllegalArgumentException(
          op + ": send length " + send.length + " (expected: " + peers + " blocks of recv length " + bs + ")");
    }
    int me = comm.rank();
    boolean inter = comm.kind() == TopologyKind.INTER;
    return new Prepared(op, seq -> {
      for (int q = 0; q < peers; q++) {
        if (inter || q != me) {
          ch.send(op, seq, q, slice(send, q * bs, bs));
        }
      }
      Fold f = new Fold(op, rop, bs);
      for (int q = 0; q < peers; q++) {
        f.add(!inter && q == me ? slice(send, me * bs, bs) : ch.receive(op, seq, q), q);
      }
      f.writeTo(recv);
    });
  }

  /** Inclusive prefix reduction in rank order (FULL only). */
  public void scan(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareScan("scan", send, recv, op, false));
  }

  public CompletableFuture<Void> iscan(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareScan("scan", send, recv, op, false));
  }

  /** Exclusive prefix reduction in rank order; rank 0's recv is untouched (FULL only). */
  public void exscan(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareScan("exscan", send, recv, op, true));
  }

  public CompletableFuture<Void> iexscan(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareScan("exscan", send, recv, op, true));
  }

  private Prepared prepareScan(String op, byte[] send, byte[] recv, ReduceOp rop, boolean exclusive) {
    refuseOnGraph(op);
    if (comm.kind() == TopologyKind.INTER) {
      throw new UnsupportedOperationException(op + ": undefined on a bipartite (inter) topology");
    }
    checkOp(op, rop);
    checkOperand(op, "send", send, rop);
    checkOperand(op, "recv", recv, rop);
    if (send.length != recv.length) {
      throw new IllegalArgumentException(
          op + ": recv length " + recv.length + " (expected: send length " + send.length + ")");
    }
    int me = comm.rank();
    int p = comm.size();
    return new Prepared(op, seq -> {
      byte[] partial = send.clone();
      if (me > 0) {
        byte[] before = ch.receive(op, seq, me - 1);
        if (before.length != send.length) {
          throw new IllegalArgumentException(
              op + ": partial from rank " + (me - 1) + " has " + before.length + " bytes (expected: " + send.length + ")");
        }
        if (exclusive) {
          System.arraycopy(before, 0, recv, 0, recv.length);
        }
        rop.combine(before, send);
        partial = before;
      }
      if (me + 1 < p) {
        ch.send(op, seq, me + 1, partial);
      }
      if (!exclusive) {
        System.arraycopy(partial, 0, recv, 0, recv.length);
      }
    });
  }

  private void refuseOnGraph(String op) {
    if (comm.kind() == TopologyKind.GRAPH) {
      throw new UnsupportedOperationException(op + ": undefined on a graph topology");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  /** Folds operands in the order they are added; untouched result when nothing was added. */
  private static final class Fold {
    private final String op;
    private final ReduceOp rop;
    private final int length;
    private byte[] acc;

    Fold(String op, ReduceOp rop, int length) {
      this.op = op;
      this.rop = rop;
      this.length = length;
    }

    void add(byte[] operand, int from) {
      if (operand.length != length) {
        throw new IllegalArgumentException(
            op + ": operand from rank " + from + " has " + operand.length + " bytes (expected: " + length + ")");
      }
      if (acc == null) {
        acc = operand.clone();
      } else {
        rop.combine(acc, operand);
      }
    }

    void writeTo(byte[] recv) {
      if (acc != null) {
        System.arraycopy(acc, 0, recv, 0, length);
      }
    }
  }

  private void checkRoot(String op, int root) {
    switch (comm.kind()) {
      case FULL, GRAPH -> {
        if (root < 0 || root >= comm.size()) {
          throw new IllegalArgumentException(
              op + ": root " + root + " (expected: 0.." + (comm.size() - 1) + ")");
        }
      }
      case INTER -> {
        if (root != Communicator.ROOT && root != Communicator.PROC_NULL
            && (root < 0 || root >= comm.remoteSize())) {
          throw new IllegalArgumentException(
              op + ": root " + root + " (expected: ROOT, PROC_NULL or a remote rank 0.."
                  + (comm.remoteSize() - 1) + ")");
        }
      }
    }
  }

  private static void checkOp(String op, ReduceOp rop) {
    if (rop == null) {
      throw new IllegalArgumentException(op + ": op null (expected: a ReduceOp)");
    }
  }

  private static void checkOperand(String op, String arg, byte[] b, ReduceOp rop) {
    notNull(op, arg, b);
    if (b.length % rop.elementByteSize() != 0) {
      throw new IllegalArgumentException(
          op + ": " + arg + " length " + b.length + " (expected: a multiple of " + rop.elementByteSize() + ")");
    }
  }

  private static void notNull(String op, String arg, Object o) {
    if (o == null) {
      throw new IllegalArgumentException(op + ": " + arg + " null (expected: an array)");
    }
  }

  private static void checkBlocks(String op, String arg, Block[] blocks, int n) {
    if (blocks == null || blocks.length != n) {
      throw new IllegalArgumentException(
          op + ": " + arg + " blocks " + (blocks == null ? "null" : blocks.length) + " (expected: " + n + ")");
    }
    for (int i = 0; i < n; i++) {
      if (blocks[i] == null) {
        throw new IllegalArgumentException(op + ": " + arg + "[" + i + "] null (expected: a Block)");
      }
    }
  }

  private static void checkLayout(
      String op, String bufName, byte[] buf, String countsName, int[] counts, int[] displs, int n) {
    notNull(op, bufName, buf);
    if (counts == null || counts.length != n) {
      throw new IllegalArgumentException(
          op + ": " + countsName + " length " + (counts == null ? "null" : counts.length) + " (expected: " + n + ")");
    }
    if (displs == null || displs.length != n) {
      throw new IllegalArgumentException(
          op + ": displs length " + (displs == null ? "null" : displs.length) + " (expected: " + n + ")");
    }
    for (int i = 0; i < n; i++) {
      if (counts[i] < 0) {
        throw new IllegalArgumentException(op + ": " + countsName + "[" + i + "] " + counts[i] + " (expected: >= 0)");
      }
      if (displs[i] < 0) {
        throw new IllegalArgumentException(op + ": displs[" + i + "] " + displs[i] + " (expected: >= 0)");
      }
      long end = (long) displs[i] + counts[i];
      if (end > buf.length) {
        throw new IllegalArgumentException(
            op + ": displs[" + i + "]+" + countsName + "[" + i + "] " + end + " (expected: <= " + bufName
                + " length " + buf.length + ")");
      }
    }
  }

  private static int[] uniform(int n, int value) {
    int[] a = new int[n];
    java.util.Arrays.fill(a, value);
    return a;
  }

  private static int[] displacements(int n, int blockBytes) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = Math.multiplyExact(i, blockBytes);
    }
    return a;
  }

  private static byte[] slice(byte[] b, int off, int len) {
    byte[] out = new byte[len];
    System.arraycopy(b, off, out, 0, len);
    return out;
  }

  private void copyExact(String op, String what, byte[] data, byte[] dst, int off, int len, int from) {
    if (data.length != len) {
      throw new IllegalArgumentException(
          op + ": block from rank " + from + " has " + data.length + " bytes (expected: " + what + " "
              + len + " at rank " + comm.rank() + ")");
    }
    System.arraycopy(data, 0, dst, off, len);
  }
}
