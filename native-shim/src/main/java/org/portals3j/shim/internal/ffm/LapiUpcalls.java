package org.portals3j.shim.internal.ffm;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiConfig;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.portals.Portals;
import org.portals3j.shim.internal.DialectMismatch;
import org.portals3j.shim.internal.ShimProcess;

/**
 * The targets of the upcall stubs for {@code lapi.h} (the {@code lapi_*} members of the table): one static method
 * per LAPI function, taking the C arguments as scalars (pointers as addresses) and returning {@code LAPI_SUCCESS}
 * or a {@code LAPI_ERR_*} code; none throws ({@link LapiFailures}). C memory is reached as the program passed it:
 * its own buffers are made segments of the length it gave, its counters {@link LapiContext#counterAt} cells.
 */
final class LapiUpcalls {
    private static final int SUCCESS = LapiError.SUCCESS;
    private static final LapiQuery[] QUERIES = LapiQuery.values();

    private LapiUpcalls() {
    }

    static int init(long hndl, long info) {
        try {
            if (hndl == 0L) {
                throw new LapiException(LapiError.RET_PTR_NULL, "LAPI_Init: hndl is NULL");
            }
            if (info == 0L) {
                throw new LapiException(LapiError.INFO_NULL, "LAPI_Init: lapi_info is NULL; pass a zeroed lapi_info_t");
            }
            Portals portals;
            try {
                portals = ShimProcess.lapiLibrary();
            } catch (DialectMismatch e) {
                Failures.say("LAPI_Init: this process chose Portals 3.3 at its first PtlInit, and the LAPI layer"
                        + " runs on Portals 3.2: use LAPI in programs compiled without -DPTL_DIALECT_33");
                return LapiError.UNKNOWN.code();
            }
            Map<Long, LapiCounter> counters = new ConcurrentHashMap<>();
            LapiConfig config;
            try {
                config = LapiConfigs.forC(LapiStructs.completionThreads(info),
                        new NativeErrorHandler(LapiStructs.errorHandler(info)), new CAddressResolver(counters));
            } catch (IllegalArgumentException e) {
                Failures.say("LAPI_Init: " + e.getMessage());
                return LapiError.UNKNOWN.code();
            }
            LapiContext context = LapiContext.init(portals, config);
            CLapiContext.register(context, counters);
            // Collective, as a LAPI job's start is: no task sends (an Address_init value, a Gfence token) to one
            // that has not made its context yet, whose packets would find no receive buffer there.
            ShimProcess.job().barrier();
            LapiStructs.writeInt(hndl, context.handle());
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Init", t);
        }
    }

    static int term(int hndl) {
        try {
            CLapiContext.of(hndl).term();
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Term", t);
        }
    }

    static int qenv(int hndl, int query, long retVal) {
        try {
            LapiContext c = CLapiContext.of(hndl).context();
            LapiQuery q = query(query);
            if (retVal == 0L) {
                throw new LapiException(LapiError.RET_PTR_NULL, "LAPI_Qenv: ret_val is NULL");
            }
            long v = c.qenv(q);
            LapiStructs.writeInt(retVal, (int) Math.min(v, Integer.MAX_VALUE));
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Qenv", t);
        }
    }

    static int senv(int hndl, int query, int setVal) {
        try {
            LapiContext c = CLapiContext.of(hndl).context();
            c.senv(query(query), setVal);
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Senv", t);
        }
    }

    private static LapiQuery query(int query) {
        if (query < 0 || query >= QUERIES.length) {
            throw new LapiException(LapiError.QUERY_TYPE, query + " is not a lapi_query_t of lapi.h");
        }
        return QUERIES[query];
    }

    static int amsend(int hndl, int tgt, long hdrHdl, long uhdr, int uhdrLen, long udata, long udataLen,
                      long tgtCntr, long orgCntr, long cmplCntr) {
        try {
            CLapiContext c = CLapiContext.of(hndl);
            c.context().amsend(tgt, hdrHdl, buffer(c, uhdr, Integer.toUnsignedLong(uhdrLen)), uhdrLen,
                    buffer(c, udata, udataLen), udataLen, tgtCntr, c.counter(orgCntr), c.counter(cmplCntr));
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Amsend", t);
        }
    }

    static int put(int hndl, int tgt, long len, long tgtAddr, long orgAddr, long tgtCntr, long orgCntr,
                   long cmplCntr) {
        try {
            CLapiContext c = CLapiContext.of(hndl);
            c.context().put(tgt, len, tgtAddr, buffer(c, orgAddr, len), tgtCntr, c.counter(orgCntr),
                    c.counter(cmplCntr));
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Put", t);
        }
    }

    static int get(int hndl, int tgt, long len, long tgtAddr, long orgAddr, long tgtCntr, long orgCntr) {
        try {
            CLapiContext c = CLapiContext.of(hndl);
            c.context().get(tgt, len, tgtAddr, buffer(c, orgAddr, len), tgtCntr, c.counter(orgCntr));
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Get", t);
        }
    }

    /**
     * The program's buffer at {@code address} of {@code length} bytes; null for NULL. A length the layer refuses
     * (negative as a Java long, or over the limits it checks first) gets an empty segment: the call fails with
     * the length's code before it reads any byte. The context's segment of the same buffer when it has one
     * ({@link CLapiContext#buffer}): a call allocates none for a buffer the program sends from again.
     */
    private static @Nullable MemorySegment buffer(CLapiContext c, long address, long length) {
        if (address == 0L) {
            return null;
        }
        return c.buffer(address, length >= 0 && length <= Integer.MAX_VALUE ? length : 0);
    }

    static int setcntr(int hndl, long cntr, int val) {
        try {
            CLapiContext c = CLapiContext.of(hndl);
            c.context().setcntr(c.counter(cntr), val);
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Setcntr", t);
        }
    }

    static int getcntr(int hndl, long cntr, long val) {
        try {
            CLapiContext c = CLapiContext.of(hndl);
            LapiCounter counter = c.counter(cntr);
            if (counter != null && val == 0L) {
                throw new LapiException(LapiError.RET_PTR_NULL, "LAPI_Getcntr: val is NULL");
            }
            int v = c.context().getcntr(counter);
            LapiStructs.writeInt(val, v);
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Getcntr", t);
        }
    }

    static int waitcntr(int hndl, long cntr, int val, long cur) {
        try {
            CLapiContext c = CLapiContext.of(hndl);
            int left = c.context().waitcntr(c.counter(cntr), val);
            if (cur != 0L) {
                LapiStructs.writeInt(cur, left);
            }
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Waitcntr", t);
        }
    }

    static int fence(int hndl) {
        try {
            CLapiContext.of(hndl).context().fence();
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Fence", t);
        }
    }

    static int gfence(int hndl) {
        try {
            CLapiContext.of(hndl).context().gfence();
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Gfence", t);
        }
    }

    static int addrSet(int hndl, long addr, int addrHndl) {
        try {
            CLapiContext.of(hndl).context().addrSet(addr == 0L ? null : NativeHeaderHandler.of(addr), addrHndl);
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Addr_set", t);
        }
    }

    static int addrGet(int hndl, long addr, int addrHndl) {
        try {
            LapiContext c = CLapiContext.of(hndl).context();
            if (addr == 0L) {
                throw new LapiException(LapiError.RET_PTR_NULL, "LAPI_Addr_get: addr is NULL");
            }
            HeaderHandler h = c.addrGet(addrHndl);
            LapiStructs.writeLong(addr, h instanceof NativeHeaderHandler n ? n.address() : 0L);
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Addr_get", t);
        }
    }

    static int addressInit(int hndl, long myAddr, long addTab) {
        try {
            LapiContext c = CLapiContext.of(hndl).context();
            long @Nullable [] table = addTab == 0L ? null : new long[c.numTasks()];
            c.addressInit(myAddr, table);
            if (table != null) {
                for (int i = 0; i < table.length; i++) {
                    LapiStructs.writeLong(addTab + 8L * i, table[i]);
                }
            }
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Address_init", t);
        }
    }

    static int probe(int hndl) {
        try {
            CLapiContext.of(hndl).context().probe();
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Probe", t);
        }
    }

    static int purgeToTask(int hndl, int dest) {
        try {
            CLapiContext.of(hndl).context().purgeToTask(dest);
            return SUCCESS;
        } catch (Throwable t) {
            return LapiFailures.code("LAPI_Purge_totask", t);
        }
    }
}
