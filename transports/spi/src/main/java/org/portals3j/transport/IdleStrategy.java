package org.portals3j.transport;

/**
 * How a thread idles between rounds of work: {@code idle(0)} backs off one step (spin, yield or park), {@code idle(n)}
 * with work done starts the back-off again. One instance per thread: a strategy keeps how long it has idled.
 */
public interface IdleStrategy {

    /**
     * Called after each round with the work it did: 0 idles one step further into the back-off; more resets it.
     *
     * @param workCount units of work the round did (messages received, timers run, ...), 0 for none
     */
    void idle(int workCount);

    /** Starts a new wait: the next {@code idle(0)} is the first step of the back-off. */
    void reset();

    /**
     * Whether the next {@code idle(0)} parks the thread (rather than spinning or yielding): a thread that other
     * threads must wake announces it before (see {@link Polling#pollingStopped}).
     */
    boolean parksNext();
}
