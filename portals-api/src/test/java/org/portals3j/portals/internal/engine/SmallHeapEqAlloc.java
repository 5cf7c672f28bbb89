package org.portals3j.portals.internal.engine;

import java.util.List;
import java.util.Map;
import org.portals3j.portals.Event;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Run by {@link EqAllocTest} in a JVM with a small heap: allocates the largest event queues an
 * interface may have, frees them, and allocates them again; prints {@link #DONE} if all of it worked.
 */
public final class SmallHeapEqAlloc {
    static final String DONE = "all queues allocated";

    private SmallHeapEqAlloc() {
    }

    public static void main(String[] args) throws Exception {
        Job job = Job.local(1);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        PortalsEngine engine = PortalsEngine.create(job, endpoints.get(0), PortalsConfig.DEFAULT);
        engine.init();
        long ni = engine.niInit(0, ProcessId.PID_ANY, new NiLimits(64, 64, 4, 63, 63)).handle().value();
        for (int round = 0; round < 2; round++) {
            long[] queues = new long[4];
            for (int i = 0; i < queues.length; i++) {
                queues[i] = engine.eqAlloc(ni, EventQueues.MAX_EQ_COUNT);
                if (engine.eqGet(queues[i], new Event()) != ReturnCode.EQ_EMPTY) {
                    throw new AssertionError("a new queue is not empty");
                }
            }
            for (long q : queues) {
                engine.eqFree(q);
            }
        }
        engine.fini();
        endpoints.forEach(Transport::close);
        System.out.println(DONE);
    }
}
