package org.portals3j.transport;

/**
 * How a thread waits for something another thread will do. One instance per waiting thread: the
 * strategies keep state (how long this wait has lasted).
 *
 * <p>Usage: {@code strategy.reset(); while (!condition()) strategy.idle();}
 */
public interface IdleStrategy {

    /** Called once per unsuccessful check of the awaited condition. */
    void idle();

    /** Called before a new wait begins. */
    void reset();
}
