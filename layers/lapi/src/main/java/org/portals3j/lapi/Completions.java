package org.portals3j.lapi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Consumer;

/**
 * The completion-handler threads {@code lapi-compl-<task>-<n>} (LAPI_Init man page,
 * num_compl_hndlr_thr; our choice of one FIFO): they take delivered
 * messages from one bounded FIFO queue, in order of data delivery, and run their completion handlers (which may
 * block). The queue never holds more than the requests this task granted credit for, so offering never fails.
 */
final class Completions {
    private final ArrayBlockingQueue<Incoming> queue;
    private final List<Thread> threads = new ArrayList<>();
    private final Incoming poison = new Incoming();

    Completions(int task, int count, int capacity, Consumer<Incoming> runner) {
        queue = new ArrayBlockingQueue<>(capacity + count);
        for (int n = 0; n < count; n++) {
            Thread t = new Thread(() -> serve(runner), "lapi-compl-" + task + "-" + n);
            t.setDaemon(true);
            threads.add(t);
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    private void serve(Consumer<Incoming> runner) {
        while (true) {
            Incoming in;
            try {
                in = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (in == poison) {
                return;
            }
            runner.accept(in);
        }
    }

    /** Queues {@code in}; false only if the queue is full (a peer sent beyond its credits). */
    boolean offer(Incoming in) {
        return queue.offer(in);
    }

    /** Lets the threads finish what is queued, then stops them; waits at most {@code millis} for each. */
    void stop(long millis) {
        for (int i = 0; i < threads.size(); i++) {
            while (!queue.offer(poison)) {
                Thread.onSpinWait();
            }
        }
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    boolean isCompletionThread(Thread t) {
        return threads.contains(t);
    }
}
