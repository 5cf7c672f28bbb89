package org.portals3j.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.portals3j.runtime.RendezvousPeerCheck;

/**
 * {@code portals run}'s pid check: rank {@code r}'s rendezvous connection must be held by the process the launcher
 * started for rank {@code r} or by one of that process's descendants ({@link LinuxSockets}). A process that obtained
 * the job key some other way (another job given the same {@code PORTALS_JOB_KEY}, a leftover rank) is refused.
 */
final class RankProcessCheck implements RendezvousPeerCheck {
    private final LinuxSockets sockets;
    private final List<CompletableFuture<ProcessHandle>> ranks = new ArrayList<>();
    private final Duration startWait;

    /**
     * @param startWait how long a check waits for the launcher to have started the rank it is about (a rank may
     *        connect before {@code ProcessBuilder.start} has returned to the launcher)
     */
    RankProcessCheck(LinuxSockets sockets, int size, Duration startWait) {
        this.sockets = sockets;
        this.startWait = startWait;
        for (int r = 0; r < size; r++) {
            ranks.add(new CompletableFuture<>());
        }
    }

    /** The launcher started {@code process} as rank {@code rank}. */
    void started(int rank, ProcessHandle process) {
        ranks.get(rank).complete(process);
    }

    @Override
    public Optional<Refusal> check(int rank, InetSocketAddress peer, InetSocketAddress local) {
        String notOurs = "rank " + rank + "'s connection does not come from the process portals run started as rank "
                + rank + " (nor from one of its child processes): only the ranks portals run starts may join its"
                + " job (to let others in, run portals run with --pid-check off)";
        ProcessHandle process;
        try {
            process = ranks.get(rank).get(startWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return Optional.of(new Refusal(notOurs, "portals run has not started rank " + rank));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(new Refusal(notOurs, "interrupted"));
        }
        OptionalLong inode;
        try {
            inode = sockets.inode(peer, local);
        } catch (IOException | RuntimeException e) {
            return Optional.of(new Refusal(notOurs, "cannot read /proc/net/tcp: " + e.getMessage()));
        }
        if (inode.isEmpty()) {
            return Optional.of(new Refusal(notOurs, "no TCP socket of this network namespace has the ends " + peer
                    + " and " + local));
        }
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process);
        process.descendants().forEach(tree::add);
        for (ProcessHandle p : tree) {
            if (sockets.holds(p.pid(), inode.getAsLong())) {
                return Optional.empty();
            }
        }
        return Optional.of(new Refusal(notOurs, "socket " + inode.getAsLong() + " (" + peer + ") is held by none of"
                + " pid " + process.pid() + " and its " + (tree.size() - 1) + " descendants"));
    }
}
