package dev.layout.comm;

import java.util.Arrays;

/**
 * An ordered set of processes (transport process numbers): rank i of the group is {@link
 * #process(int) process(i)}. Immutable.
 *
 * <pre>{@code
 * Group g = comm.group().incl(0, 2, 4);   // ranks 0, 2, 4 of comm, in that order
 * comm.create(g);                          // a communicator over them
 * }</pre>
 */
public final class Group {

    private final int[] processes;

    private Group(int[] processes) {
        this.processes = processes;
    }

    /**
     * The group of the given processes, in this order.
     *
     * @throws IllegalArgumentException if a process is negative or listed twice
     */
    public static Group of(int... processes) {
        if (processes == null) {
            throw new IllegalArgumentException("group: processes null (expected: an array)");
        }
        int[] p = processes.clone();
        int[] sorted = p.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0) {
                throw new IllegalArgumentException("group: process " + sorted[i] + " (expected: >= 0)");
            }
            if (i > 0 && sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException(
                        "group: process " + sorted[i] + " twice (expected: distinct processes)");
            }
        }
        return new Group(p);
    }

    /** Processes 0..size-1 in order. */
    public static Group range(int size) {
        int[] p = new int[size];
        for (int i = 0; i < size; i++) {
            p[i] = i;
        }
        return new Group(p);
    }

    public int size() {
        return processes.length;
    }

    /** The process at {@code rank}. */
    public int process(int rank) {
        if (rank < 0 || rank >= processes.length) {
            throw new IllegalArgumentException(
                    "group: rank " + rank + " (expected: 0.." + (processes.length - 1) + ")");
        }
        return processes[rank];
    }

    /** The rank of {@code process} in this group, or {@link Communicator#UNDEFINED}. */
    public int rankOf(int process) {
        for (int i = 0; i < processes.length; i++) {
            if (processes[i] == process) {
                return i;
            }
        }
        return Communicator.UNDEFINED;
    }

    /** The processes in rank order (a copy). */
    public int[] processes() {
        return processes.clone();
    }

    /** The subgroup of the given ranks of this group, in the given order ({@code MPI_Group_incl}). */
    public Group incl(int... ranks) {
        int[] p = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            p[i] = process(ranks[i]);
        }
        return of(p);
    }

    /** This group without the given ranks, order kept ({@code MPI_Group_excl}). */
    public Group excl(int... ranks) {
        boolean[] drop = new boolean[processes.length];
        for (int r : ranks) {
            process(r);
            drop[r] = true;
        }
        return new Group(java.util.stream.IntStream.range(0, processes.length)
                .filter(i -> !drop[i])
                .map(i -> processes[i])
                .toArray());
    }

    /** The ranks in {@code other} of the given ranks of this group ({@code UNDEFINED} if absent). */
    public int[] translateRanks(int[] ranks, Group other) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = other.rankOf(process(ranks[i]));
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Group g && Arrays.equals(processes, g.processes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(processes);
    }

    /** For example {@code group[0,2,4]}. */
    @Override
    public String toString() {
        return "group" + Arrays.toString(processes).replace(" ", "");
    }
}
