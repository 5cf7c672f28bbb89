/**
 * The native shim: unmodified Portals 3.2 C programs on the Java engine.
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
 * <h2>Costs</h2>
 * <ul>
 * <li>Start: about 0.3 s for the first {@code PtlInit} (JVM start and class loading), once per process,
 *     and the JVM's memory.</li>
 * <li>Per call: a few nanoseconds over the same call made in Java (an upcall's thread-state transition);
 *     measured with {@code ./portals shimbench}: {@code PtlGetUid} 76 ns from C, 71 ns from Java. A C Put
 *     ping-pong on udp runs at the Java one's speed (ratio 0.97-0.99), see {@code bench/README.md}.</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * One Portals library per process, as in C. A process that forks after {@code PtlInit} cannot use Portals
 * in the child (the JVM's threads are not copied). {@code PtlFini} then {@code PtlInit} again reuses the
 * same library and endpoint. The Portals 3.3 dialect ({@code -DPTL_DIALECT_33}) is not in this build; a
 * 3.3-only name used without it stops the compiler with a message.
 */
package org.portals3j.shim;
