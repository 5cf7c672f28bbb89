package org.portals3j.shim.internal.ffm;

import org.portals3j.shim.internal.ShimProcess;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;

/**
 * The targets of the upcall stubs for {@code portals3_rt.h}, and for the C process's exit. Each returns
 * 0 or the value asked for, or -1 after one line on stderr saying why; none throws ({@link Failures}).
 */
final class RuntimeUpcalls {
    private static final int ERROR = -1;

    private RuntimeUpcalls() {
    }

    static int rank() {
        try {
            return ShimProcess.bootstrap().rank();
        } catch (Throwable t) {
            return error("ptl_rt_rank", t);
        }
    }

    static int size() {
        try {
            return ShimProcess.bootstrap().size();
        } catch (Throwable t) {
            return error("ptl_rt_size", t);
        }
    }

    /** Rank {@code r} is {@code {nid, pid}} of the job's peer table (rank r: nid r, pid 0 by default). */
    static int processId(int rank, long id) {
        try {
            Job job = ShimProcess.bootstrap().job();
            if (rank < 0 || rank >= job.size()) {
                Failures.say("ptl_rt_process_id: rank " + rank + " is not a rank of this job (0.." + (job.size() - 1)
                        + ")");
                return ERROR;
            }
            if (id == 0L) {
                Failures.say("ptl_rt_process_id: id is NULL");
                return ERROR;
            }
            JobMember member = job.peers().member(rank);
            CStructs.writeProcessId(id, member.nid(), member.pid());
            return 0;
        } catch (Throwable t) {
            return error("ptl_rt_process_id", t);
        }
    }

    /** Not from an event handler: it would hold the engine's lock while it waits for the other ranks. */
    static int barrier() {
        try {
            if (NativeEventHandler.isRunningOn(Thread.currentThread())) {
                Failures.say("ptl_rt_barrier was called from an event handler, which must not block: it returns -1"
                        + " there");
                return ERROR;
            }
            ShimProcess.job().barrier();
            return 0;
        } catch (Throwable t) {
            return error("ptl_rt_barrier", t);
        }
    }

    /** {@code atexit}: leaves the job cleanly (see {@link ShimProcess#exit()}). */
    static int atExit() {
        try {
            ShimProcess.exit();
            return 0;
        } catch (Throwable t) {
            return error("exit", t);
        }
    }

    private static int error(String function, Throwable t) {
        Failures.code(function, t);
        return ERROR;
    }
}
