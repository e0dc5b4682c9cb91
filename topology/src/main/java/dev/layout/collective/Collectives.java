package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.comm.Communicator;
import dev.layout.datatype.Primitive;
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
 * <p>Buffers are either byte arrays (counts and displacements in bytes) or {@link Block}s: every
 * send and receive block may be a {@link BlockSpec} (buffer, displacement, count, layout-core
 * datatype) that packs and unpacks through the datatype engine, so no operation needs user-side
 * packing. The byte-array forms are thin wrappers over the block forms. Non-v forms take one
 * {@code BlockSpec} whose block i lies {@code i * count} extents further (MPI's layout); v forms
 * take one block per peer (build MPI's counts/displs layout with {@link BlockSpec#displaced}).
 * Reductions over typed buffers take a {@link Reduction} applied element-wise to the packed
 * stream; the datatypes must have one primitive throughout.
 *
 * <p>Each operation comes in three forms: blocking ({@code allreduce}), non-blocking ({@code
 * iallreduce}, a future that completes when this rank's part is done) and persistent ({@code
 * allreduceInit}, checked and scheduled once, started many times). Every rank calls the collectives of a communicator in the same order. On a
 * graph whose Cartesianity check succeeded, the neighbourhood exchanges (alltoall family,
 * allgather, allreduce) run the direct or the message-combining {@link Schedule} (for allgather
 * and allreduce: along the prefix tree of the offsets), as the {@link SchedulePolicy} and the
 * {@link ScheduleSelector} decide.
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
    return schedule(blockBytes, false);
  }

  /**
   * The schedule that allgather(v) and allreduce with blocks of {@code blockBytes} (0 if unknown)
   * use on this graph communicator under the current policy (AUTO asks {@link
   * ScheduleSelector#chooseAllgather}).
   *
   * @throws IllegalArgumentException as {@link #schedule(long)}
   */
  public Schedule allgatherSchedule(long blockBytes) {
    return schedule(blockBytes, true);
  }

  private Schedule schedule(long blockBytes, boolean sameBlock) {
    if (comm.kind() != TopologyKind.GRAPH) {
      throw new IllegalArgumentException(
          "schedule: topology " + comm.kind() + " (expected: GRAPH)");
    }
    DistGraph g = graph();
    Schedule.Kind kind =
        switch (policy) {
          case DIRECT -> Schedule.Kind.DIRECT;
          case COMBINING -> Schedule.Kind.COMBINING;
          case AUTO -> sameBlock ? selector.chooseAllgather(g, blockBytes) : selector.choose(g, blockBytes);
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
    now(prepareBcast(whole("bcast", "buffer", buffer), root));
  }

  public CompletableFuture<Void> ibcast(byte[] buffer, int root) {
    return later(prepareBcast(whole("bcast", "buffer", buffer), root));
  }

  public PersistentCollective bcastInit(byte[] buffer, int root) {
    return init(prepareBcast(whole("bcast", "buffer", buffer), root));
  }

  /**
   * Broadcasts the root's block: the root packs {@code buffer} (e.g. a {@link BlockSpec} of a
   * subarray type), every receiver unpacks the same number of bytes into its own {@code buffer},
   * whose datatype may differ as long as the packed sizes agree.
   */
  public void bcast(Block buffer, int root) {
    now(prepareBcast(buffer, root));
  }

  public CompletableFuture<Void> ibcast(Block buffer, int root) {
    return later(prepareBcast(buffer, root));
  }

  public PersistentCollective bcastInit(Block buffer, int root) {
    return init(prepareBcast(buffer, root));
  }

  private Prepared prepareBcast(Block buffer, int root) {
    String op = "bcast";
    checkRoot(op, root);
    need(op, "buffer", buffer, "a Block");
    int me = comm.rank();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (me == root) {
          byte[] data = buffer.pack();
          for (int q = 0; q < comm.size(); q++) {
            if (q != me) {
              ch.send(op, seq, q, data);
            }
          }
        } else {
          receiveInto(op, "buffer", buffer, ch.receive(op, seq, root), root);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (root == Communicator.ROOT) {
          byte[] data = buffer.pack();
          for (int q = 0; q < comm.remoteSize(); q++) {
            ch.send(op, seq, q, data);
          }
        } else if (root >= 0) {
          receiveInto(op, "buffer", buffer, ch.receive(op, seq, root), root);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          if (me == root) {
            byte[] data = buffer.pack();
            for (int q : t) {
              if (q != me) {
                ch.send(op, seq, q, data);
              }
            }
          } else {
            for (int q : s) {
              if (q == root) {
                receiveInto(op, "buffer", buffer, ch.receive(op, seq, root), root);
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
      return prepareGathervBytes(op, send, recv, null, null, root);
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
    return prepareGathervBytes(op, send, recv, uniform(n, bs), displacements(n, bs), root);
  }

  /**
   * MPI_Gather with datatypes: {@code recv} describes block 0 at the root (buffer, displacement,
   * count, datatype); block i (from rank i, in-neighbour i or remote rank i) lands {@code i *
   * count} extents further (see {@link BlockSpec#shifted}). {@code recv} matters only at the root
   * (others may pass null); at an INTER root {@code send} may be null.
   */
  public void gather(Block send, BlockSpec recv, int root) {
    now(prepareGatherTyped(send, recv, root));
  }

  public CompletableFuture<Void> igather(Block send, BlockSpec recv, int root) {
    return later(prepareGatherTyped(send, recv, root));
  }

  public PersistentCollective gatherInit(Block send, BlockSpec recv, int root) {
    return init(prepareGatherTyped(send, recv, root));
  }

  private Prepared prepareGatherTyped(Block send, BlockSpec recv, int root) {
    String op = "gather";
    checkRoot(op, root);
    Block[] blocks = null;
    if (isRoot(root)) {
      need(op, "recv", recv, "a BlockSpec");
      blocks = consecutive(recv, rootBlockCount(false));
    }
    return prepareGatherv(op, "recv", send, blocks, root);
  }

  /** Gathers block i with {@code recvCounts[i]} bytes at {@code displs[i]} of root's recv. */
  public void gatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    now(prepareGathervBytes("gatherv", send, recv, recvCounts, displs, root));
  }

  public CompletableFuture<Void> igatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    return later(prepareGathervBytes("gatherv", send, recv, recvCounts, displs, root));
  }

  public PersistentCollective gathervInit(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    return init(prepareGathervBytes("gatherv", send, recv, recvCounts, displs, root));
  }

  /**
   * MPI_Gatherv with datatypes (and per-block types, as a "gatherw"): block i from rank i,
   * in-neighbour i or remote rank i is unpacked into {@code recv[i]}; build MPI's (counts,
   * displs, datatype) layout with {@link BlockSpec#displaced}. {@code recv} matters only at the
   * root; zero-size blocks are allowed.
   */
  public void gatherv(Block send, Block[] recv, int root) {
    now(prepareGatherv("gatherv", "recv", send, recv, root));
  }

  public CompletableFuture<Void> igatherv(Block send, Block[] recv, int root) {
    return later(prepareGatherv("gatherv", "recv", send, recv, root));
  }

  public PersistentCollective gathervInit(Block send, Block[] recv, int root) {
    return init(prepareGatherv("gatherv", "recv", send, recv, root));
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

  private Prepared prepareGathervBytes(
      String op, byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
    checkRoot(op, root);
    Block[] blocks = null;
    if (isRoot(root)) {
      int n = rootBlockCount(false);
      checkLayout(op, "recv", recv, "recvCounts", recvCounts, displs, n);
      blocks = byteBlocks(recv, recvCounts, displs);
    }
    boolean sends = comm.kind() != TopologyKind.INTER || root >= 0;
    if (sends) {
      notNull(op, "send", send);
    }
    return prepareGatherv(op, "recvCounts", send == null ? null : ByteBlock.of(send), blocks, root);
  }

  private Prepared prepareGatherv(String op, String recvName, Block send, Block[] recv, int root) {
    checkRoot(op, root);
    int me = comm.rank();
    boolean atRoot = isRoot(root);
    if (atRoot) {
      checkBlocks(op, recvName, recv, rootBlockCount(false));
    }
    if (comm.kind() != TopologyKind.INTER || root >= 0) {
      need(op, "send", send, "a Block");
    }
    Block[] rb = recv == null ? null : recv.clone();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.size(); q++) {
            byte[] b = q == me ? send.pack() : ch.receive(op, seq, q);
            receiveInto(op, recvName + "[" + q + "]", rb[q], b, q);
          }
        } else {
          ch.send(op, seq, root, send.pack());
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.remoteSize(); q++) {
            receiveInto(op, recvName + "[" + q + "]", rb[q], ch.receive(op, seq, q), q);
          }
        } else if (root >= 0) {
          ch.send(op, seq, root, send.pack());
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          if (atRoot) {
            for (int k = 0; k < s.length; k++) {
              byte[] b = s[k] == me ? send.pack() : ch.receive(op, seq, s[k]);
              receiveInto(op, recvName + "[" + k + "]", rb[k], b, s[k]);
            }
          } else {
            byte[] data = null;
            for (int q : t) {
              if (q == root) {
                if (data == null) {
                  data = send.pack();
                }
                ch.send(op, seq, root, data);
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
      return prepareScattervBytes(op, send, null, null, recv, root);
    }
    notNull(op, "send", send);
    int n = rootBlockCount(true);
    if (n > 0 && send.length % n != 0) {
      throw new IllegalArgumentException(
          op + ": send length " + send.length + " (expected: a multiple of the block count " + n + ")");
    }
    int bs = n == 0 ? 0 : send.length / n;
    return prepareScattervBytes(op, send, uniform(n, bs), displacements(n, bs), recv, root);
  }

  /**
   * MPI_Scatter with datatypes: {@code send} describes block 0 at the root; block i (to rank i,
   * out-neighbour i or remote rank i) starts {@code i * count} extents further. Receivers unpack
   * into {@code recv}; {@code send} matters only at the root.
   */
  public void scatter(BlockSpec send, Block recv, int root) {
    now(prepareScatterTyped(send, recv, root));
  }

  public CompletableFuture<Void> iscatter(BlockSpec send, Block recv, int root) {
    return later(prepareScatterTyped(send, recv, root));
  }

  public PersistentCollective scatterInit(BlockSpec send, Block recv, int root) {
    return init(prepareScatterTyped(send, recv, root));
  }

  private Prepared prepareScatterTyped(BlockSpec send, Block recv, int root) {
    String op = "scatter";
    checkRoot(op, root);
    Block[] blocks = null;
    if (isRoot(root)) {
      need(op, "send", send, "a BlockSpec");
      blocks = consecutive(send, rootBlockCount(true));
    }
    return prepareScatterv(op, blocks, recv, root);
  }

  /** Scatters block i ({@code sendCounts[i]} bytes at {@code displs[i]} of root's send). */
  public void scatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    now(prepareScattervBytes("scatterv", send, sendCounts, displs, recv, root));
  }

  public CompletableFuture<Void> iscatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    return later(prepareScattervBytes("scatterv", send, sendCounts, displs, recv, root));
  }

  public PersistentCollective scattervInit(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    return init(prepareScattervBytes("scatterv", send, sendCounts, displs, recv, root));
  }

  /**
   * MPI_Scatterv with datatypes (per-block types allowed): the root packs {@code send[i]} for
   * rank i, out-neighbour i or remote rank i; receivers unpack into {@code recv}. On a graph a
   * rank listing the root k times receives k blocks, unpacked one after the other into {@code
   * recv}'s packed stream.
   */
  public void scatterv(Block[] send, Block recv, int root) {
    now(prepareScatterv("scatterv", send, recv, root));
  }

  public CompletableFuture<Void> iscatterv(Block[] send, Block recv, int root) {
    return later(prepareScatterv("scatterv", send, recv, root));
  }

  public PersistentCollective scattervInit(Block[] send, Block recv, int root) {
    return init(prepareScatterv("scatterv", send, recv, root));
  }

  private Prepared prepareScattervBytes(
      String op, byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
    checkRoot(op, root);
    Block[] blocks = null;
    if (isRoot(root)) {
      checkLayout(op, "send", send, "sendCounts", sendCounts, displs, rootBlockCount(true));
      blocks = byteBlocks(send, sendCounts, displs);
    }
    boolean receives = comm.kind() != TopologyKind.INTER || root >= 0;
    if (receives) {
      notNull(op, "recv", recv);
    }
    return prepareScatterv(op, blocks, recv == null ? null : ByteBlock.of(recv), root);
  }

  private Prepared prepareScatterv(String op, Block[] send, Block recv, int root) {
    checkRoot(op, root);
    int me = comm.rank();
    boolean atRoot = isRoot(root);
    if (atRoot) {
      checkBlocks(op, "send", send, rootBlockCount(true));
    }
    boolean receives = comm.kind() != TopologyKind.INTER || root >= 0;
    if (receives) {
      need(op, "recv", recv, "a Block");
    }
    Block[] sb = send == null ? null : send.clone();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.size(); q++) {
            byte[] b = sb[q].pack();
            if (q == me) {
              receiveInto(op, "recv", recv, b, q);
            } else {
              ch.send(op, seq, q, b);
            }
          }
        } else {
          receiveInto(op, "recv", recv, ch.receive(op, seq, root), root);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (atRoot) {
          for (int q = 0; q < comm.remoteSize(); q++) {
            ch.send(op, seq, q, sb[q].pack());
          }
        } else if (root >= 0) {
          receiveInto(op, "recv", recv, ch.receive(op, seq, root), root);
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          ArrayDeque<byte[]> self = new ArrayDeque<>();
          if (atRoot) {
            for (int i = 0; i < t.length; i++) {
              byte[] b = sb[i].pack();
              if (t[i] == me) {
                self.addLast(b);
              } else {
                ch.send(op, seq, t[i], b);
              }
            }
          }
          java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
          int blocks = 0;
          for (int q : s) {
            if (q != root) {
              continue;
            }
            byte[] b = q == me ? self.pollFirst() : ch.receive(op, seq, root);
            if (b == null || got.size() + b.length > recv.byteSize()) {
              throw new IllegalArgumentException(
                  op + ": recv length " + recv.byteSize() + " (expected: room for block " + blocks
                      + " from root " + root + ")");
            }
            got.writeBytes(b);
            blocks++;
          }
          if (blocks > 0) {
            unpackPrefix(op, recv, got.toByteArray(), root);
          }
        });
      }
    };
  }

  /** Unpacks the first data.length bytes of recv's packed stream (the consecutive blocks of a graph scatter). */
  private void unpackPrefix(String op, Block recv, byte[] data, int root) {
    if (data.length == recv.byteSize()) {
      recv.unpack(data);
    } else if (recv instanceof ByteBlock b) {
      new ByteBlock(b.buffer(), b.byteOffset(), data.length).unpack(data);
    } else if (recv instanceof BlockSpec b) {
      b.unpackPrefix(data);
    } else {
      throw new IllegalArgumentException(
          op + ": recv size " + recv.byteSize() + " (expected: the " + data.length + " bytes of the blocks from root "
              + root + ")");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // reduce, allreduce

  /** Reduces into root's {@code recv} (see the class comment for the order of operands). */
  public void reduce(byte[] send, byte[] recv, ReduceOp op, int root) {
    now(prepareReduceBytes(send, recv, op, root));
  }

  public CompletableFuture<Void> ireduce(byte[] send, byte[] recv, ReduceOp op, int root) {
    return later(prepareReduceBytes(send, recv, op, root));
  }

  public PersistentCollective reduceInit(byte[] send, byte[] recv, ReduceOp op, int root) {
    return init(prepareReduceBytes(send, recv, op, root));
  }

  /**
   * Reduces the packed streams of the {@code send} blocks into the root's {@code recv} block: the
   * operation applies element-wise to the packed bytes ({@code op.elementByteSize()} per element).
   */
  public void reduce(Block send, Block recv, ReduceOp op, int root) {
    now(prepareReduce(send, recv, op, root));
  }

  public CompletableFuture<Void> ireduce(Block send, Block recv, ReduceOp op, int root) {
    return later(prepareReduce(send, recv, op, root));
  }

  public PersistentCollective reduceInit(Block send, Block recv, ReduceOp op, int root) {
    return init(prepareReduce(send, recv, op, root));
  }

  /**
   * Reduces typed buffers: each block's datatype must have a homogeneous primitive signature, the
   * same primitive on both sides, and {@code op} is applied per element of that primitive (e.g.
   * {@link Reduction#SUM} over a strided float64 vector). {@code recv} matters only at the root.
   */
  public void reduce(BlockSpec send, BlockSpec recv, Reduction op, int root) {
    now(prepareReduce(send, recv, typedOp("reduce", send, recv, op), root));
  }

  public CompletableFuture<Void> ireduce(BlockSpec send, BlockSpec recv, Reduction op, int root) {
    return later(prepareReduce(send, recv, typedOp("reduce", send, recv, op), root));
  }

  public PersistentCollective reduceInit(BlockSpec send, BlockSpec recv, Reduction op, int root) {
    return init(prepareReduce(send, recv, typedOp("reduce", send, recv, op), root));
  }

  private Prepared prepareReduceBytes(byte[] send, byte[] recv, ReduceOp rop, int root) {
    String op = "reduce";
    checkRoot(op, root);
    checkOp(op, rop);
    boolean sends = comm.kind() != TopologyKind.INTER || root >= 0;
    if (sends) {
      checkOperand(op, "send", send, rop);
    }
    if (isRoot(root)) {
      checkOperand(op, "recv", recv, rop);
    }
    return prepareReduce(send == null ? null : ByteBlock.of(send), recv == null ? null : ByteBlock.of(recv), rop, root);
  }

  private Prepared prepareReduce(Block send, Block recv, ReduceOp rop, int root) {
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
      if (send != null && comm.kind() != TopologyKind.INTER && send.byteSize() != recv.byteSize()) {
        throw new IllegalArgumentException(
            op + ": recv length " + recv.byteSize() + " (expected: send length " + send.byteSize() + ")");
      }
    }
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (atRoot) {
          Fold f = new Fold(op, rop, recv.byteSize());
          for (int q = 0; q < comm.size(); q++) {
            f.add(q == me ? send.pack() : ch.receive(op, seq, q), q);
          }
          f.writeTo(recv);
        } else {
          ch.send(op, seq, root, send.pack());
        }
      });
      case INTER -> new Prepared(op, seq -> {
        if (atRoot) {
          Fold f = new Fold(op, rop, recv.byteSize());
          for (int q = 0; q < comm.remoteSize(); q++) {
            f.add(ch.receive(op, seq, q), q);
          }
          f.writeTo(recv);
        } else if (root >= 0) {
          ch.send(op, seq, root, send.pack());
        }
      });
      case GRAPH -> {
        int[] s = graph().sources();
        int[] t = graph().destinations();
        yield new Prepared(op, seq -> {
          if (atRoot) {
            Fold f = new Fold(op, rop, recv.byteSize());
            byte[] own = null;
            for (int q : s) {
              if (q == me && own == null) {
                own = send.pack();
              }
              f.add(q == me ? own : ch.receive(op, seq, q), q);
            }
            f.writeTo(recv);
          } else {
            byte[] data = null;
            for (int q : t) {
              if (q == root) {
                if (data == null) {
                  data = send.pack();
                }
                ch.send(op, seq, root, data);
              }
            }
          }
        });
      }
    };
  }

  /** Every rank gets the reduction (on a graph: of its in-neighbours' blocks, in order). */
  public void allreduce(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareAllreduceBytes(send, recv, op));
  }

  public CompletableFuture<Void> iallreduce(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareAllreduceBytes(send, recv, op));
  }

  public PersistentCollective allreduceInit(byte[] send, byte[] recv, ReduceOp op) {
    return init(prepareAllreduceBytes(send, recv, op));
  }

  /** allreduce over the packed streams of {@code send} and {@code recv} (see {@link #reduce(Block, Block, ReduceOp, int)}). */
  public void allreduce(Block send, Block recv, ReduceOp op) {
    now(prepareAllreduce(send, recv, op));
  }

  public CompletableFuture<Void> iallreduce(Block send, Block recv, ReduceOp op) {
    return later(prepareAllreduce(send, recv, op));
  }

  public PersistentCollective allreduceInit(Block send, Block recv, ReduceOp op) {
    return init(prepareAllreduce(send, recv, op));
  }

  /** allreduce over typed buffers (see {@link #reduce(BlockSpec, BlockSpec, Reduction, int)}). */
  public void allreduce(BlockSpec send, BlockSpec recv, Reduction op) {
    now(prepareAllreduce(send, recv, typedOp("allreduce", send, recv, op)));
  }

  public CompletableFuture<Void> iallreduce(BlockSpec send, BlockSpec recv, Reduction op) {
    return later(prepareAllreduce(send, recv, typedOp("allreduce", send, recv, op)));
  }

  public PersistentCollective allreduceInit(BlockSpec send, BlockSpec recv, Reduction op) {
    return init(prepareAllreduce(send, recv, typedOp("allreduce", send, recv, op)));
  }

  private Prepared prepareAllreduceBytes(byte[] send, byte[] recv, ReduceOp rop) {
    String op = "allreduce";
    checkOp(op, rop);
    checkOperand(op, "send", send, rop);
    checkOperand(op, "recv", recv, rop);
    return prepareAllreduce(ByteBlock.of(send), ByteBlock.of(recv), rop);
  }

  private Prepared prepareAllreduce(Block send, Block recv, ReduceOp rop) {
    String op = "allreduce";
    checkOp(op, rop);
    checkOperand(op, "send", send, rop);
    checkOperand(op, "recv", recv, rop);
    if (send.byteSize() != recv.byteSize()) {
      throw new IllegalArgumentException(
          op + ": recv length " + recv.byteSize() + " (expected: send length " + send.byteSize() + ")");
    }
    int me = comm.rank();
    int len = recv.byteSize();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        if (me == 0) {
          Fold f = new Fold(op, rop, len);
          for (int q = 0; q < comm.size(); q++) {
            f.add(q == 0 ? send.pack() : ch.receive(op, seq, q), q);
          }
          byte[] result = f.result();
          for (int q = 1; q < comm.size(); q++) {
            ch.send(op, seq, q, result);
          }
          recv.unpack(result);
        } else {
          ch.send(op, seq, 0, send.pack());
          receiveInto(op, "recv", recv, ch.receive(op, seq, 0), 0);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        byte[] data = send.pack();
        for (int q = 0; q < comm.remoteSize(); q++) {
          ch.send(op, seq, q, data);
        }
        Fold f = new Fold(op, rop, len);
        for (int q = 0; q < comm.remoteSize(); q++) {
          f.add(ch.receive(op, seq, q), q);
        }
        f.writeTo(recv);
      });
      case GRAPH -> {
        Schedule sched = schedule(len, true);
        int[] s = graph().sources();
        yield new Prepared(op, seq -> {
          byte[][] in = sched.allgather(ch, op, seq, send.pack());
          Fold f = new Fold(op, rop, len);
          for (int k = 0; k < in.length; k++) {
            f.add(in[k], s[k]);
          }
          f.writeTo(recv);
        }, sched);
      }
    };
  }

  /** The per-primitive operation for typed reductions, checking both sides' signatures. */
  private static ReduceOp typedOp(String op, BlockSpec send, BlockSpec recv, Reduction r) {
    if (r == null) {
      throw new IllegalArgumentException(op + ": op null (expected: a Reduction)");
    }
    if (send == null && recv == null) {
      // nothing to reduce at this rank (an INTER rank outside the root's group passing PROC_NULL);
      // any other rank is refused by the operation's own null checks
      return r.on(Primitive.INT64);
    }
    ReduceOp sendOp = send == null ? null : r.forDatatype(op, "send", send.datatype());
    ReduceOp recvOp = recv == null ? null : r.forDatatype(op, "recv", recv.datatype());
    if (sendOp != null && recvOp != null
        && send.datatype().homogeneousPrimitive() != recv.datatype().homogeneousPrimitive()) {
      throw new IllegalArgumentException(
          op + ": recv primitive " + recv.datatype().homogeneousPrimitive().notationName() + " (expected: "
              + send.datatype().homogeneousPrimitive().notationName() + " as send)");
    }
    return sendOp != null ? sendOp : recvOp;
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
    return prepareAllgathervBytes("allgather", send, recv, uniform(n, send.length), displacements(n, send.length), send.length);
  }

  /**
   * MPI_Allgather with datatypes: every rank packs {@code send}; the block from rank i,
   * in-neighbour i or remote rank i is unpacked into {@code recv} shifted by {@code i * count}
   * extents. On a Cartesian neighbourhood the message-combining schedule sends shared prefixes
   * of the offsets once (see {@link Schedule#allgather}).
   */
  public void allgather(Block send, BlockSpec recv) {
    now(prepareAllgatherTyped(send, recv));
  }

  public CompletableFuture<Void> iallgather(Block send, BlockSpec recv) {
    return later(prepareAllgatherTyped(send, recv));
  }

  public PersistentCollective allgatherInit(Block send, BlockSpec recv) {
    return init(prepareAllgatherTyped(send, recv));
  }

  private Prepared prepareAllgatherTyped(Block send, BlockSpec recv) {
    String op = "allgather";
    need(op, "send", send, "a Block");
    need(op, "recv", recv, "a BlockSpec");
    return prepareAllgatherv(op, send, consecutive(recv, recvBlockCount()), send.byteSize());
  }

  public void allgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
    now(prepareAllgathervBytes("allgatherv", send, recv, recvCounts, displs, 0));
  }

  public CompletableFuture<Void> iallgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
    return later(prepareAllgathervBytes("allgatherv", send, recv, recvCounts, displs, 0));
  }

  public PersistentCollective allgathervInit(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
    return init(prepareAllgathervBytes("allgatherv", send, recv, recvCounts, displs, 0));
  }

  /**
   * MPI_Allgatherv with datatypes (per-block types allowed): the block from rank i, in-neighbour i
   * or remote rank i is unpacked into {@code recv[i]}; see {@link BlockSpec#displaced}.
   */
  public void allgatherv(Block send, Block[] recv) {
    now(prepareAllgatherv("allgatherv", send, recv, 0));
  }

  public CompletableFuture<Void> iallgatherv(Block send, Block[] recv) {
    return later(prepareAllgatherv("allgatherv", send, recv, 0));
  }

  public PersistentCollective allgathervInit(Block send, Block[] recv) {
    return init(prepareAllgatherv("allgatherv", send, recv, 0));
  }

  private Prepared prepareAllgathervBytes(
      String op, byte[] send, byte[] recv, int[] recvCounts, int[] displs, long blockHint) {
    notNull(op, "send", send);
    int n = recvBlockCount();
    checkLayout(op, "recv", recv, "recvCounts", recvCounts, displs, n);
    return prepareAllgatherv(op, ByteBlock.of(send), byteBlocks(recv, recvCounts, displs), blockHint);
  }

  private Prepared prepareAllgatherv(String op, Block send, Block[] recv, long blockHint) {
    need(op, "send", send, "a Block");
    int nr = recvBlockCount();
    checkBlocks(op, "recv", recv, nr);
    Block[] rb = recv.clone();
    int me = comm.rank();
    return switch (comm.kind()) {
      case FULL -> new Prepared(op, seq -> {
        byte[] data = send.pack();
        for (int q = 0; q < comm.size(); q++) {
          if (q != me) {
            ch.send(op, seq, q, data);
          }
        }
        for (int q = 0; q < nr; q++) {
          unpackExact(op, rb[q], q == me ? data : ch.receive(op, seq, q), q, q);
        }
      });
      case INTER -> new Prepared(op, seq -> {
        byte[] data = send.pack();
        for (int q = 0; q < comm.remoteSize(); q++) {
          ch.send(op, seq, q, data);
        }
        for (int q = 0; q < nr; q++) {
          unpackExact(op, rb[q], ch.receive(op, seq, q), q, q);
        }
      });
      case GRAPH -> {
        Schedule sched = schedule(blockHint, true);
        int[] s = graph().sources();
        yield new Prepared(op, seq -> {
          byte[][] in = sched.allgather(ch, op, seq, send.pack());
          for (int k = 0; k < nr; k++) {
            unpackExact(op, rb[k], in[k], k, s[k]);
          }
        }, sched);
      }
    };
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

  /**
   * MPI_Alltoall with datatypes: {@code send} and {@code recv} describe block 0; block i (to and
   * from rank i, out-/in-neighbour i or remote rank i) lies {@code i * count} extents further.
   * For MPI_Alltoallv with datatypes use {@link #alltoallw} with {@link BlockSpec#displaced}.
   */
  public void alltoall(BlockSpec send, BlockSpec recv) {
    now(prepareAlltoallTyped(send, recv));
  }

  public CompletableFuture<Void> ialltoall(BlockSpec send, BlockSpec recv) {
    return later(prepareAlltoallTyped(send, recv));
  }

  public PersistentCollective alltoallInit(BlockSpec send, BlockSpec recv) {
    return init(prepareAlltoallTyped(send, recv));
  }

  private Prepared prepareAlltoallTyped(BlockSpec send, BlockSpec recv) {
    String op = "alltoall";
    need(op, "send", send, "a BlockSpec");
    need(op, "recv", recv, "a BlockSpec");
    return prepareAlltoallw(
        op, consecutive(send, sendBlockCount()), consecutive(recv, recvBlockCount()), send.byteSize());
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
    return prepareAlltoallw(op, byteBlocks(send, sendCounts, sdispls), byteBlocks(recv, recvCounts, rdispls), blockHint);
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
        Schedule sched = schedule(blockHint, false);
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
    now(prepareReduceScatterBlockBytes(send, recv, op));
  }

  public CompletableFuture<Void> ireduceScatterBlock(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareReduceScatterBlockBytes(send, recv, op));
  }

  public PersistentCollective reduceScatterBlockInit(byte[] send, byte[] recv, ReduceOp op) {
    return init(prepareReduceScatterBlockBytes(send, recv, op));
  }

  /**
   * reduce_scatter_block over typed buffers: {@code send}'s packed stream holds one block of
   * {@code recv}'s packed size per rank (INTER: per remote rank); block i of the element-wise
   * reduction is unpacked into rank i's {@code recv}.
   */
  public void reduceScatterBlock(BlockSpec send, BlockSpec recv, Reduction op) {
    now(prepareReduceScatterBlock(send, recv, typedOp("reduceScatterBlock", send, recv, op)));
  }

  public CompletableFuture<Void> ireduceScatterBlock(BlockSpec send, BlockSpec recv, Reduction op) {
    return later(prepareReduceScatterBlock(send, recv, typedOp("reduceScatterBlock", send, recv, op)));
  }

  public PersistentCollective reduceScatterBlockInit(BlockSpec send, BlockSpec recv, Reduction op) {
    return init(prepareReduceScatterBlock(send, recv, typedOp("reduceScatterBlock", send, recv, op)));
  }

  private Prepared prepareReduceScatterBlockBytes(byte[] send, byte[] recv, ReduceOp rop) {
    String op = "reduceScatterBlock";
    refuseOnGraph(op);
    checkOp(op, rop);
    checkOperand(op, "recv", recv, rop);
    notNull(op, "send", send);
    return prepareReduceScatterBlock(ByteBlock.of(send), ByteBlock.of(recv), rop);
  }

  private Prepared prepareReduceScatterBlock(Block send, Block recv, ReduceOp rop) {
    String op = "reduceScatterBlock";
    refuseOnGraph(op);
    checkOp(op, rop);
    checkOperand(op, "recv", recv, rop);
    need(op, "send", send, "a Block");
    int peers = sendBlockCount();
    int bs = recv.byteSize();
    if ((long) peers * bs != send.byteSize()) {
      throw new IllegalArgumentException(
          op + ": send length " + send.byteSize() + " (expected: " + peers + " blocks of recv length " + bs + ")");
    }
    int me = comm.rank();
    boolean inter = comm.kind() == TopologyKind.INTER;
    return new Prepared(op, seq -> {
      byte[] packed = send.pack();
      for (int q = 0; q < peers; q++) {
        if (inter || q != me) {
          ch.send(op, seq, q, slice(packed, q * bs, bs));
        }
      }
      Fold f = new Fold(op, rop, bs);
      for (int q = 0; q < peers; q++) {
        f.add(!inter && q == me ? slice(packed, me * bs, bs) : ch.receive(op, seq, q), q);
      }
      f.writeTo(recv);
    });
  }

  /** Inclusive prefix reduction in rank order (FULL only). */
  public void scan(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareScanBytes("scan", send, recv, op, false));
  }

  public CompletableFuture<Void> iscan(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareScanBytes("scan", send, recv, op, false));
  }

  public PersistentCollective scanInit(byte[] send, byte[] recv, ReduceOp op) {
    return init(prepareScanBytes("scan", send, recv, op, false));
  }

  /** Inclusive prefix reduction of typed buffers in rank order (FULL only). */
  public void scan(BlockSpec send, BlockSpec recv, Reduction op) {
    now(prepareScan("scan", send, recv, typedOp("scan", send, recv, op), false));
  }

  public CompletableFuture<Void> iscan(BlockSpec send, BlockSpec recv, Reduction op) {
    return later(prepareScan("scan", send, recv, typedOp("scan", send, recv, op), false));
  }

  public PersistentCollective scanInit(BlockSpec send, BlockSpec recv, Reduction op) {
    return init(prepareScan("scan", send, recv, typedOp("scan", send, recv, op), false));
  }

  /** Exclusive prefix reduction in rank order; rank 0's recv is untouched (FULL only). */
  public void exscan(byte[] send, byte[] recv, ReduceOp op) {
    now(prepareScanBytes("exscan", send, recv, op, true));
  }

  public CompletableFuture<Void> iexscan(byte[] send, byte[] recv, ReduceOp op) {
    return later(prepareScanBytes("exscan", send, recv, op, true));
  }

  public PersistentCollective exscanInit(byte[] send, byte[] recv, ReduceOp op) {
    return init(prepareScanBytes("exscan", send, recv, op, true));
  }

  /** Exclusive prefix reduction of typed buffers; rank 0's recv is untouched (FULL only). */
  public void exscan(BlockSpec send, BlockSpec recv, Reduction op) {
    now(prepareScan("exscan", send, recv, typedOp("exscan", send, recv, op), true));
  }

  public CompletableFuture<Void> iexscan(BlockSpec send, BlockSpec recv, Reduction op) {
    return later(prepareScan("exscan", send, recv, typedOp("exscan", send, recv, op), true));
  }

  public PersistentCollective exscanInit(BlockSpec send, BlockSpec recv, Reduction op) {
    return init(prepareScan("exscan", send, recv, typedOp("exscan", send, recv, op), true));
  }

  private Prepared prepareScanBytes(String op, byte[] send, byte[] recv, ReduceOp rop, boolean exclusive) {
    refuseScan(op);
    checkOp(op, rop);
    checkOperand(op, "send", send, rop);
    checkOperand(op, "recv", recv, rop);
    return prepareScan(op, ByteBlock.of(send), ByteBlock.of(recv), rop, exclusive);
  }

  private void refuseScan(String op) {
    refuseOnGraph(op);
    if (comm.kind() == TopologyKind.INTER) {
      throw new UnsupportedOperationException(op + ": undefined on a bipartite (inter) topology");
    }
  }

  private Prepared prepareScan(String op, Block send, Block recv, ReduceOp rop, boolean exclusive) {
    refuseScan(op);
    checkOp(op, rop);
    checkOperand(op, "send", send, rop);
    checkOperand(op, "recv", recv, rop);
    int len = send.byteSize();
    if (len != recv.byteSize()) {
      throw new IllegalArgumentException(
          op + ": recv length " + recv.byteSize() + " (expected: send length " + len + ")");
    }
    int me = comm.rank();
    int p = comm.size();
    return new Prepared(op, seq -> {
      byte[] partial = send.pack();
      if (me > 0) {
        byte[] before = ch.receive(op, seq, me - 1);
        if (before.length != len) {
          throw new IllegalArgumentException(
              op + ": partial from rank " + (me - 1) + " has " + before.length + " bytes (expected: " + len + ")");
        }
        if (exclusive) {
          recv.unpack(before.clone());
        }
        rop.combine(before, partial);
        partial = before;
      }
      if (me + 1 < p) {
        ch.send(op, seq, me + 1, partial);
      }
      if (!exclusive) {
        recv.unpack(partial);
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

    /** Writes the result into recv; leaves it untouched when nothing was added. */
    void writeTo(Block recv) {
      if (acc != null) {
        recv.unpack(acc);
      }
    }

    /** The result (requires at least one operand). */
    byte[] result() {
      if (acc == null) {
        throw new IllegalStateException(op + ": no operand to reduce");
      }
      return acc;
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

  private static void checkOperand(String op, String arg, Block b, ReduceOp rop) {
    need(op, arg, b, "a Block");
    if (b.byteSize() % rop.elementByteSize() != 0) {
      throw new IllegalArgumentException(
          op + ": " + arg + " length " + b.byteSize() + " (expected: a multiple of " + rop.elementByteSize() + ")");
    }
  }

  private static void need(String op, String arg, Object o, String expected) {
    if (o == null) {
      throw new IllegalArgumentException(op + ": " + arg + " null (expected: " + expected + ")");
    }
  }

  /** The whole array as a block, refusing null. */
  private static Block whole(String op, String arg, byte[] b) {
    notNull(op, arg, b);
    return ByteBlock.of(b);
  }

  /** Contiguous blocks of a checked (counts, displs) layout. */
  private static Block[] byteBlocks(byte[] buf, int[] counts, int[] displs) {
    Block[] out = new Block[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = new ByteBlock(buf, displs[i], counts[i]);
    }
    return out;
  }

  /** MPI's non-v layout: block i is {@code first} shifted by i * count extents. */
  private static Block[] consecutive(BlockSpec first, int n) {
    Block[] out = new Block[n];
    for (int i = 0; i < n; i++) {
      out[i] = first.shifted(i);
    }
    return out;
  }

  /** Unpacks a received block, naming the expectation {@code what} on a size mismatch. */
  private void receiveInto(String op, String what, Block block, byte[] data, int from) {
    if (data.length != block.byteSize()) {
      throw new IllegalArgumentException(
          op + ": block from rank " + from + " has " + data.length + " bytes (expected: " + what + " "
              + block.byteSize() + " at rank " + comm.rank() + ")");
    }
    block.unpack(data);
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

}
