package org.portals3j.launcher.ranks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;

/** Each rank sends {@code 1000 + rank} to the next rank over its job's transport and prints what it got. */
public final class RingExchange {
    private RingExchange() {
    }

    public static void main(String[] args) throws Exception {
        JobContext job = JobRuntime.join();
        Transport t = job.transport();
        CompletableFuture<String> received = new CompletableFuture<>();
        t.start(new MessageHandler() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit d) {
                received.complete(header.get(ValueLayout.JAVA_INT_UNALIGNED, 0) + " from rank " + source);
            }

            @Override
            public void onDeposited(int source, Deposit deposit) {
            }

            @Override
            public void onSendComplete(long token, boolean delivered) {
            }

            @Override
            public void onPeerFailure(int peer) {
            }
        });
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment header = arena.allocate(4);
            header.set(ValueLayout.JAVA_INT_UNALIGNED, 0, 1000 + job.rank());
            t.send((job.rank() + 1) % job.size(), header, 4, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
            System.out.println("rank " + job.rank() + " of " + job.size() + " on " + t.provider() + " got "
                    + received.get(30, TimeUnit.SECONDS) + "; same context: " + (JobRuntime.join() == job));
        }
    }
}
