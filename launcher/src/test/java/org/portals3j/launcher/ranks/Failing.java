package org.portals3j.launcher.ranks;

import org.portals3j.runtime.JobRuntime;

/**
 * Args {@code FAILRANK MODE}: rank FAILRANK fails ({@code throw}: throws; {@code exit:N}: System.exit(N)) once
 * every rank has bootstrapped; the other ranks print their pid and wait until they are stopped.
 */
public final class Failing {
    private Failing() {
    }

    public static void main(String[] args) throws Exception {
        int rank = JobRuntime.bootstrap().rank();
        int failing = Integer.parseInt(args[0]);
        if (rank == failing) {
            if (args[1].equals("throw")) {
                throw new IllegalStateException("boom at rank " + rank);
            }
            System.exit(Integer.parseInt(args[1].substring("exit:".length())));
        }
        System.out.println("waiting pid=" + ProcessHandle.current().pid());
        Thread.sleep(600_000);
    }
}
