package org.portals3j.lapi;

import java.util.Arrays;

/**
 * Gfence's barrier and Address_init's all-to-all exchange, over control packets. Barrier: every task sends
 * ENTER(g) to task 0, which sends RELEASE(g) to all once it has N of them. Exchange: every task sends its value
 * to every other. No task can be more than one generation ahead of another (each waits for all), so two slots,
 * by the generation's parity, hold everything that can arrive.
 */
final class Collectives {
    private final Endpoint endpoint;
    private final Progress progress;
    private final int self;
    private final int tasks;
    private int barrierGen;
    private final int[] entered = new int[2];
    private volatile int released;
    private int exchangeGen;
    private final long[][] values;
    private final boolean[][] got;
    private final int[] gotCount = new int[2];

    Collectives(Endpoint endpoint, Progress progress) {
        this.endpoint = endpoint;
        this.progress = progress;
        this.self = endpoint.self;
        this.tasks = endpoint.tasks;
        values = new long[2][tasks];
        got = new boolean[2][tasks];
    }

    /** The barrier: returns when every task has entered it. One caller at a time per context. */
    void barrier(String call) {
        int g;
        synchronized (this) {
            g = ++barrierGen;
        }
        if (self == 0) {
            onEnter(0, g);
        } else {
            endpoint.sendControl(0, Wire.BARRIER_ENTER, 0, g, 0, 0);
        }
        progress.await(() -> released - g >= 0, call);
    }

    /** Task 0: task {@code src} entered barrier {@code g}. */
    void onEnter(int src, int g) {
        boolean all;
        synchronized (this) {
            int slot = g & 1;
            entered[slot]++;
            all = entered[slot] == tasks;
            if (all) {
                entered[slot] = 0;
            }
        }
        if (all) {
            for (int t = 0; t < tasks; t++) {
                if (t == self) {
                    onRelease(g);
                } else {
                    endpoint.sendControl(t, Wire.BARRIER_RELEASE, 0, g, 0, 0);
                }
            }
        }
    }

    void onRelease(int g) {
        synchronized (this) {
            if (g - released > 0) {
                released = g;
            }
        }
        progress.signal();
    }

    /** Address_init: {@code table[i]} = task i's {@code mine}, once every task has called it. */
    void exchange(long mine, long[] table, String call) {
        int g;
        synchronized (this) {
            g = ++exchangeGen;
        }
        for (int t = 0; t < tasks; t++) {
            if (t == self) {
                onValue(self, g, mine);
            } else {
                endpoint.sendControl(t, Wire.ADDRX, 0, g, 0, mine);
            }
        }
        int slot = g & 1;
        progress.await(() -> complete(slot), call);
        synchronized (this) {
            System.arraycopy(values[slot], 0, table, 0, tasks);
            Arrays.fill(got[slot], false);
            gotCount[slot] = 0;
        }
    }

    private synchronized boolean complete(int slot) {
        return gotCount[slot] == tasks;
    }

    /** Task {@code src}'s value for exchange {@code g}; false if it was a duplicate (remote input). */
    boolean onValue(int src, int g, long value) {
        synchronized (this) {
            int slot = g & 1;
            if (got[slot][src]) {
                return false;
            }
            got[slot][src] = true;
            values[slot][src] = value;
            gotCount[slot]++;
        }
        progress.signal();
        return true;
    }
}
