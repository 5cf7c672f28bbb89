/**
 * The native shim: unmodified Portals 3.2 C programs, and Portals 3.3 ones compiled with
 * {@code -DPTL_DIALECT_33}, on the Java engine.
 *
 * <h2>What a C program gets</h2>
 * {@code portals3.h} (chapter 3's API: every type, constant and function, with this implementation's stable
 * numeric values, the same as the Java API's), {@code portals3_rt.h} (rank, size, process id of a rank,
 * barrier), {@code libportals3.so}, {@code portalscc} (the C compiler with the include path, the library and
 * an rpath to it) and {@code portals3.pc}. All are built by Maven into {@code native-shim/target/native}.
 * <pre>
 * portalscc -O2 prog.c -o prog                 # or: cc prog.c $(pkg-config --cflags --libs portals3)
 * portals run -n 4 -- ./prog args              # 4 processes on udp (not inmem: one process per rank)
 * ./prog                                       # alone: a job of one rank
 * </pre>
 *
 * <h2>How a call reaches the engine</h2>
 * <ol>
 * <li>The first {@code PtlInit} or {@code ptl_rt_*} call starts a JVM inside the process through the JNI
 *     invocation API, on a thread of its own: {@code libjvm.so} from {@code PORTALS3J_JAVA_HOME} (else the JDK
 *     the library was built with), classes from {@code PORTALS3J_CLASSPATH} (else the build's class path),
 *     extra options from {@code PORTALS3J_JVM_OPTIONS}; always {@code --enable-native-access=ALL-UNNAMED} and
 *     {@code -Xrs} (the program keeps its own SIGINT/SIGTERM handling). {@code portals run} sets the first
 *     three from its own JDK, class path and {@code --jvm-option}s.</li>
 * <li>{@link org.portals3j.shim.ShimBootstrap#install(long)} fills the library's table of function pointers
 *     with FFM upcall stubs. From then on a C call is a direct call through the table: no JNI, no lookup.
 *     Arguments travel as scalars (pointers as addresses, {@code ptl_process_id_t} as its two fields,
 *     {@code ptl_md_t} as the address of the call's copy), so no call allocates to receive its
 *     arguments, and events are written into the caller's {@code ptl_event_t} from a per-thread
 *     {@code Event}. Each C thread is attached to the JVM by its first call.</li>
 * <li>{@code PtlInit} joins the job ({@link org.portals3j.runtime.JobRuntime#join()}: {@code portals run}'s
 *     environment, Slurm, Open MPI, or a job of one) and creates the process's one
 *     {@link org.portals3j.portals.Portals} library. Memory named by {@code ptl_md_t.start} is used in place;
 *     events report {@code start} and {@code user_ptr} exactly as given.</li>
 * <li>At exit ({@code atexit}) the library is finalised if the program did not call {@code PtlFini}, and
 *     the process leaves the job, closing its endpoint so that the peers are told.</li>
 * </ol>
 * A program that calls no {@code Ptl*}/{@code ptl_rt_*} function never starts a JVM. Before
 * {@code PtlInit}, every other function answers {@code PTL_NOINIT} without starting one.
 *
 * <h2>Errors</h2>
 * An exception never crosses the C boundary (it would end the JVM and the program): a
 * {@link org.portals3j.portals.PortalsException} becomes its return code, an {@link OutOfMemoryError}
 * {@code PTL_NOSPACE}, anything else (a bug) {@code PTL_FAIL} with its stack trace on stderr. If the engine
 * cannot start (no JDK, a JDK older than 25, classes not found, bad JVM options) one line on stderr says
 * what to set, {@code PtlInit} returns {@code PTL_FAIL}, {@code ptl_rt_*} -1 and the other functions
 * {@code PTL_NOINIT}. Where the C API can express what Java cannot, {@code portals3.h} documents the
 * resolution: {@code NULL} out-pointers are {@code PTL_SEGV} right after the {@code PTL_NOINIT} check; a
 * value outside its C enum is {@code PTL_FAIL}.
 *
 * <p>{@code PtlNIInit}'s {@code actual}: a 3.2 program gets {@code PTL_SEGV} for {@code NULL}, which Portals 3.2
 * lists for it (Portals 3.2 spec §3.4.1.1, catalogue P-016), with one line on stderr saying that a 3.3 program may pass
 * {@code NULL}; a 3.3 program may pass {@code NULL} and gets no limits back. The 3.3 reference implementation
 * copies the limits only if given ({@code p3api/ni.c}), and 3.3 programs rely on it: its own tests, and
 * GASNet's and ARMCI's Portals code call {@code PtlNIInit(iface, pid, NULL, NULL, &h)}. No 3.2 program
 * known passes {@code NULL} (nor may a conforming one), so 3.2 keeps the code its text gives.
 *
 * <p>{@code PtlErrorStr}, {@code PtlNIFailStr} and {@code PtlEventKindStr} (the 3.3 reference
 * implementation's {@code p3api/misc.h}, which nearly every program of it uses for its messages) are in both
 * dialects and need no {@code PtlInit}: each returns the name of its value as the reference does, spelled as
 * the dialect spells it ({@code "PTL_MD_INVALID"} in 3.3, {@code "PTL_INV_MD"} in 3.2, the same code), or
 * {@code "PTL_UNKNOWN_ERROR"}, {@code "PTL_NI_UNKNOWN_ERROR"}, {@code "PTL_UNKNOWN_EVENT_KIND"}.
 * {@code PtlEQWait_timeout} and {@code PtlProgress} are not provided (a use stops the compiler with what to do
 * instead): the reference declares the first and never defined it, and the second forces progress where no
 * thread makes it, which this engine's threads always do.
 *
 * <h2>Fork, and a crash in the program's code</h2>
 * <ul>
 * <li>A child forked after {@code PtlInit} has none of the JVM's threads ({@code fork} copies only the caller):
 *     an upcall there could wait for ever on a lock a thread of the parent held. So the library forgets its
 *     table in the child ({@code pthread_atfork}): every Portals function returns {@code PTL_FAIL} at once
 *     ({@code ptl_rt_*} -1, {@code PtlFini} just returns), one line on stderr says why, its {@code exit} does
 *     not try to leave the parent's job, and the signal handlers the JVM installed are given back to the
 *     program. So that it does not outlive the job, it gets {@code SIGTERM} when the thread that forked it
 *     ends ({@code PR_SET_PDEATHSIG}: for a fork from the main thread, when the parent process ends; the
 *     launcher stops only the ranks' children it can still see). The program's threads are attached to the JVM by the
 *     library (and detached by a thread-specific
 *     key when they end), not by their first upcall, whose C++ {@code thread_local} destructor {@code exit}
 *     would run in the child too (it hung there, one exit in four).</li>
 * <li>A fault in the program's own code (a {@code NULL} dereference) would reach the JVM's signal handler:
 *     its fatal-error banner, an {@code hs_err} file in the working directory, {@code abort} (status 134).
 *     Before it creates the JVM, the library installs its own handler for {@code SIGSEGV}, {@code SIGBUS},
 *     {@code SIGFPE} and {@code SIGILL} where the program has none; the JVM keeps it as the chained handler
 *     (its signal chaining) and calls it for every fault it does not handle itself, and it ends the process by
 *     that signal with the default action. The process dies as a C program does: 139 for {@code SIGSEGV}
 *     under a shell, which prints its one line, and {@code portals run} says "killed by signal 11 (SIGSEGV)";
 *     no banner, no {@code hs_err} file. A handler the program installed before {@code PtlInit} is the one
 *     the JVM chains to, and runs. {@code PORTALS3J_JVM_CRASH_REPORT=1} keeps the JVM's report instead (for a
 *     fault inside the engine, whose report this otherwise suppresses too).</li>
 * </ul>
 *
 * <h2>Costs</h2>
 * <ul>
 * <li>Start: about 0.3 s for the first {@code PtlInit} (JVM start and class loading), once per process,
 *     and the JVM's memory.</li>
 * <li>Per call: a few nanoseconds over the same call made in Java (an upcall's thread-state transition);
 *     {@code ./portals shimbench} measures it, and a C Put ping-pong against the Java one
 *     ({@code bench/README.md} has the figures).</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * One Portals library per process, as in C. A process that forks after {@code PtlInit} cannot use Portals
 * in the child (above). {@code PtlFini} then {@code PtlInit} again reuses the same library and endpoint.
 *
 * <h2>The Portals 3.3 dialect</h2>
 * A program compiled with {@code -DPTL_DIALECT_33} (every file of it that calls Portals) gets the Portals 3.3
 * C API from the same {@code portals3.h} and the same {@code libportals3.so}: 3.3's {@code ptl_md_t}
 * ({@code max_size}, {@code eq_handle}, no {@code max_offset}), {@code ptl_event_t} ({@code jid},
 * {@code pt_index}, {@code md}), {@code ptl_ni_limits_t} and twelve event kinds, 3.3's signatures, its new
 * functions and constants, and 3.3's names of the return codes (the 3.2 names stay, with the same values).
 * Each 3.3 function is an entry point of its own ({@code ptl33_PtlMDBind} beside {@code PtlMDBind}; the
 * header binds the names with GNU C asm labels), served by an upcall that calls the
 * {@link org.portals3j.portals.Portals33} method of the same name, so the 3.3 semantics are the engine's:
 * per-queue sequence numbers, acknowledgements counted against the threshold, failures in END events, job
 * ids, {@code max_size} and the event-disable options.
 * <table>
 * <caption>Portals 3.3 C functions and the Portals33 methods they call</caption>
 * <tr><th>3.3 C function</th><th>{@link org.portals3j.portals.Portals33} method</th><th>What the C binding
 * adds</th></tr>
 * <tr><td>{@code PtlInit}, {@code PtlFini}</td> <td>{@code init}, {@code fini}</td> <td>the first {@code PtlInit}
 * chooses the process's dialect</td></tr>
 * <tr><td>{@code PtlNIInit}</td> <td>{@code niInit}</td> <td>{@code actual} may be {@code NULL}; {@code max_md_iovecs}
 * 0, {@code max_me_list} the match list limit, {@code max_getput_md} 64</td></tr>
 * <tr><td>{@code PtlNIFini}, {@code PtlNIStatus}, {@code PtlNIDist}, {@code PtlNIHandle}</td> <td>{@code niFini},
 * {@code niStatus}, {@code niDist}, {@code niHandle}</td> <td></td></tr>
 * <tr><td>{@code PtlGetUid}, {@code PtlGetId}, {@code PtlGetJid}</td> <td>{@code getUid}, {@code getId},
 * {@code getJid}</td> <td></td></tr>
 * <tr><td>{@code PtlMEAttach}, {@code PtlMEAttachAny}, {@code PtlMEInsert(.., unlink_op, ..)}, {@code PtlMEUnlink}</td>
 * <td>{@code meAttach}, {@code meAttachAny}, {@code meInsert}, {@code meUnlink}</td> <td></td></tr>
 * <tr><td>{@code PtlMDAttach(me, md, unlink_op, &h)}</td><td>{@code mdAttach}</td><td>{@code h} may be NULL</td></tr>
 * <tr><td>{@code PtlMDBind(ni, md, unlink_op, &h)}</td><td>{@code mdBind}</td><td></td></tr>
 * <tr><td>{@code PtlMDUnlink}, {@code PtlMDUpdate}</td><td>{@code mdUnlink}, {@code mdUpdate}</td><td></td></tr>
 * <tr><td>{@code PtlEQAlloc(ni, count, handler, &eq)}</td> <td>{@code eqAlloc}</td> <td>{@code PTL_EQ_HANDLER_NONE}
 * (NULL) is {@link org.portals3j.portals.EventHandler#NONE}; a C handler is called for every event (below)</td></tr>
 * <tr><td>{@code PtlEQFree}, {@code PtlEQGet}, {@code PtlEQWait}</td> <td>{@code eqFree}, {@code eqGet},
 * {@code eqWait}</td> <td></td></tr>
 * <tr><td>{@code PtlEQPoll(eqs, size, timeout, &ev, &which)}</td> <td>{@code eqPoll}</td> <td>{@code PTL_TIME_FOREVER}
 * (all ones) is {@link org.portals3j.portals.Portals33#TIME_FOREVER}; {@code size <= 0} is
 * {@code PTL_EQ_INVALID}</td></tr>
 * <tr><td>{@code PtlACEntry(ni, i, id, uid, jid, pt)}</td> <td>{@code acEntry}</td> <td>a bad portal index is
 * {@code PTL_PT_INDEX_INVALID}, 3.3's one code for it</td></tr>
 * <tr><td>{@code PtlPut}, {@code PtlPutRegion}, {@code PtlGet}, {@code PtlGetRegion}</td> <td>{@code put},
 * {@code putRegion}, {@code get}, {@code getRegion}</td> <td></td></tr>
 * <tr><td>{@code PtlGetPut(get_md, put_md, target, pt, ac, bits, offset, hdr)}</td> <td>{@code getPut}</td>
 * <td>{@code max_getput_md} (64) is in {@code PtlNIInit}'s limits</td></tr>
 * <tr><td>{@code PtlHandleIsEqual(h1, h2)}</td> <td>{@code handleIsEqual}</td> <td>answered in C ({@code h1 == h2}, the
 * same rule): it needs no {@code PtlInit}, so no engine may be running; returns 1 or 0</td></tr>
 * <tr><td>{@code PtlErrorStr}, {@code PtlNIFailStr}, {@code PtlEventKindStr}</td> <td></td> <td>answered in C
 * (above)</td></tr>
 * </table>
 * A C event handler is called, through an FFM downcall (the one call of a program's function pointer), for
 * every event deposited into its queue, before the event can be taken, with a 3.3 {@code ptl_event_t}
 * valid during the call. It runs on whatever thread deposits the event: one of the engine's threads (not a
 * thread of the program) or the program's own thread inside a Portals call, with the library's lock held;
 * it must not block, and Portals functions called from it return {@code PTL_FAIL} and do nothing: those
 * the engine answers refuse themselves, and those the shim answers ({@code PtlInit}, {@code PtlFini}, which
 * returns nothing and says so once on stderr, {@code ptl_rt_barrier}, -1) check the thread first.
 *
 * <p>The entry points of both dialects are made from one list of functions (the internal
 * {@code shim_functions.h}, which {@code ShimTable} mirrors on the Java side): a function both dialects have
 * with one C signature is one line there and one upcall, served by the
 * {@link org.portals3j.portals.PortalsLibrary} method of its name; each line that is one dialect's own
 * form says how the dialects differ. The layout test checks every member of the table, and each of its
 * parameters, against the Java upcall it reaches.
 *
 * <p>A process is one dialect for its whole life, chosen by its first {@code PtlInit}: one library per
 * process, one dialect per library. A call compiled for the other dialect (a program whose files were
 * compiled with and without the define) returns {@code PTL_FAIL}, and {@code libportals3} says on stderr,
 * once per function, that every file must be compiled with the same setting. A 3.3-only name used without
 * the define stops the compiler with a message saying to define it; {@code PTL_MD_IOVEC}, which this
 * implementation does not have, stops it in both dialects.
 *
 * <h2>LAPI for C programs ({@code lapi.h})</h2>
 * {@code lapi.h}, installed beside {@code portals3.h}, declares IBM LAPI's active messages and the calls around
 * them with the man pages' names and C types, so a LAPI C program compiles unchanged with {@code portalscc}
 * and runs with {@code portals run}. {@code libportals3} serves them through the same table of upcall stubs
 * (the {@code lapi_*} members) from the Java layer {@code org.portals3j.lapi}; the numbers are the layer's
 * ({@code LapiError}, {@code LapiQuery}, {@code RetFlag}).
 * <table>
 * <caption>lapi.h function to Java layer method</caption>
 * <tr><th>C</th><th>{@code LapiContext}</th><th>what the binding adds</th></tr>
 * <tr><td>{@code LAPI_Init(&hndl, &info)}</td><td>{@code init}</td><td>starts the engine and joins the job (as
 * {@code PtlInit}); the process's 3.2 library, made here if {@code PtlInit} did not (not made live for the
 * program's own Portals calls); {@code num_compl_hndlr_thr}, {@code err_hndlr}; a 3.3 process is refused;
 * three limits and the progress mode from the environment (lapi.h)</td></tr>
 * <tr><td>{@code LAPI_Term}</td><td>{@code term}</td><td>the handle is forgotten</td></tr>
 * <tr><td>{@code LAPI_Qenv}, {@code LAPI_Senv}</td><td>{@code qenv}, {@code senv}</td><td>values as
 * {@code int}; an unknown {@code lapi_query_t} is {@code LAPI_ERR_QUERY_TYPE}</td></tr>
 * <tr><td>{@code LAPI_Amsend}, {@code LAPI_Put}, {@code LAPI_Get}</td><td>{@code amsend}, {@code put},
 * {@code get}</td><td>the origin's buffers in place; {@code tgt_cntr}, {@code hdr_hdl} and
 * {@code tgt_addr} passed as the raw addresses the program has</td></tr>
 * <tr><td>{@code LAPI_Setcntr}, {@code LAPI_Getcntr}, {@code LAPI_Waitcntr}</td><td>{@code setcntr},
 * {@code getcntr}, {@code waitcntr}</td><td>{@code counterAt} over the program's {@code lapi_cntr_t};
 * the address is remembered as a counter of the context</td></tr>
 * <tr><td>{@code LAPI_Fence}, {@code LAPI_Gfence}, {@code LAPI_Probe}, {@code LAPI_Purge_totask}</td>
 * <td>{@code fence}, {@code gfence}, {@code probe}, {@code purgeToTask}</td><td></td></tr>
 * <tr><td>{@code LAPI_Addr_set}, {@code LAPI_Addr_get}</td><td>{@code addrSet}, {@code addrGet}</td><td>the C
 * function as a handler; {@code Addr_get} gives its address back (NULL for an empty slot)</td></tr>
 * <tr><td>{@code LAPI_Address_init}</td><td>{@code addressInit}</td><td>the table written as
 * {@code void *[NUM_TASKS]}</td></tr>
 * <tr><td>{@code LAPI_Msg_string}, {@code LAPI_Address}</td><td></td><td>answered in C, no engine</td></tr>
 * </table>
 * A header handler is a C function called by downcall on the dispatcher thread with a per-thread frame: the
 * handle, a copy of {@code uhdr} and its length, the {@code lapi_return_info_t} that {@code msg_len} points to
 * ({@code msg_len} first, {@code udata_one_pkt_ptr}, {@code src}; {@code ret_flags} and {@code ctl_flags} read
 * back), and {@code comp_h}/{@code user_info}. Its return value becomes the {@code msg_len} bytes the data is
 * written to; a completion handler it sets is called by downcall on the thread the layer chooses. The
 * {@code err_hndlr} is called by downcall with the report's {@code err_type} (the layer's
 * {@code AsyncErrorType}, whose ordinal is the {@code lapi_err_t} value). A {@code LapiException}
 * becomes its code; nothing else crosses into C (anything else is {@code LAPI_ERR_UNKNOWN} with a stack trace
 * on stderr).
 *
 * <p>Addresses from other tasks are remote input and are checked before use (the C binding's
 * {@code AddressResolver}): a header handler address only in executable memory of a file-backed object that
 * is not the JVM's ({@code /proc/self/maps}); a {@code tgt_cntr} only a {@code lapi_cntr_t} the program has
 * used with LAPI on that context; Put and Get memory only in writable (Get: readable) mappings, the whole
 * length. Anything else goes to the context's error listener ({@code err_hndlr}, and a line on stderr) and is
 * never called, moved or touched. The mappings are a snapshot read again when a lookup fails, so memory the
 * program has unmapped since may still pass: that is the program's own race, as freeing a buffer in use. A
 * writable mapping holds the C heap and the JVM's too: the check stops a crash, not a peer that writes where
 * it was told not to. The program's own arguments are trusted as C trusts them.
 */
package org.portals3j.shim;
