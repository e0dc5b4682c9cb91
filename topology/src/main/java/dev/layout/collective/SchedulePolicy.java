package dev.layout.collective;

/** How the neighbourhood alltoall family picks its schedule on a graph communicator. */
public enum SchedulePolicy {
    /** The {@link ScheduleSelector}'s cost model decides (combining only on Cartesian graphs). */
    AUTO,
    /** One message per neighbour. */
    DIRECT,
    /** The d-phase message-combining schedule; requires a Cartesian neighbourhood. */
    COMBINING
}
