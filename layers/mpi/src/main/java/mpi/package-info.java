/**
 * Open MPI's Java bindings ({@code package mpi}, v5.0.x; see the project's {@code mpi-java-api.md}) on Portals3J: a
 * program written for them compiles against this module's jar unchanged and runs with
 * {@code portals run -n N -cp app.jar:mpi.jar -- Main} on any transport, or under Slurm or Open MPI's {@code mpirun}
 * like any rank ({@code MPI.Init} joins the job, {@code MPI.Finalize} leaves it).
 *
 * <h2>What this version has</h2>
 * The environment ({@code MPI}: init, finalize, thread levels, timers, names, versions, the buffer helpers, every
 * constant), the predefined basic datatypes ({@code BYTE} to {@code DOUBLE}, {@code PACKED}, {@code DATATYPE_NULL}) and
 * their queries, the complex types {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX} (two floats or doubles per item;
 * {@code FloatComplex}, {@code DoubleComplex}; SUM and PROD), the pair types of {@code MINLOC} and {@code MAXLOC}
 * ({@code INT2}, {@code SHORT_INT}, {@code LONG_INT}, {@code FLOAT_INT}, {@code DOUBLE_INT}, read and written through
 * {@code MPI.int2} ... {@code MPI.doubleInt}), {@code Struct} for user-defined struct layouts (moved as whole items of
 * bytes), {@code Comm.pack}, {@code unpack} and {@code packSize} with {@code PACKED} (the items' bytes in native
 * order), {@code Status}, {@code Request} with all its completion forms, {@code Group}, {@code Info}, the three error
 * handlers, and every point-to-point call of {@code Comm}, with the persistent requests ({@code sendInit} ... {@code
 * recvInit}, {@code Prequest}) and the buffered mode ({@code MPI.attachBuffer}, {@code detachBuffer}, {@code bSend},
 * {@code ibSend}, {@code bSendInit}); the predefined reduction operations and user-defined ones ({@code Op}, {@code
 * UserFunction}, {@code Comm.reduceLocal}); new communicators ({@code dup}, {@code clone}, {@code split}, {@code
 * create}, {@code free}, {@code compare}); every blocking collective with its in-place overloads; every nonblocking
 * collective of section 2.9 with its in-place overloads but {@code iAllToAllw} (it needs derived datatypes), each
 * returning a {@code Request} that works with every completion call. Classes carry only the methods implemented:
 * derived datatypes come later.
 *
 * <h2>Out of scope, present so that every program compiles</h2>
 * One-sided communication ({@code Win} and its constants), MPI-IO ({@code File}, {@code FileView}) and dynamic
 * processes ({@code Intracomm.spawn}, {@code spawnMultiple}, {@code accept}, {@code connect}, {@code openPort},
 * {@code closePort}, {@code publishName}, {@code unpublishName}, {@code lookupName}) have Open MPI's exact
 * signatures and raise {@code MPI.ERR_UNSUPPORTED_OPERATION} through the error handler of the communicator given
 * (the job ends by default; {@code MPIException} under {@code ERRORS_RETURN}), or of {@code COMM_WORLD} for static
 * members and for the members of a window or file, which can never be made (mpi-java-api.md section 3). Two act as
 * they would in a job nobody spawned: {@code Intercomm.getParent()} returns a null communicator, and
 * {@code Comm.disconnect()} is {@code free()}. {@code FileView} is a plain value class.
 *
 * <h2>Behaviour a program may notice</h2>
 * <ul>
 *   <li>Buffers: a Java primitive array of the datatype's base type, or a heap or direct nio buffer of it, from its
 *       element 0 whatever its position (section 1.3); {@code null} for a count of 0. Nonblocking calls accept heap
 *       buffers too; with {@code -Dportals3j.mpi.strictBuffers=true} (or {@code PORTALS_MPI_STRICT_BUFFERS=true})
 *       they refuse them with {@code IllegalArgumentException("The buffer must be direct.")} as Open MPI does. A
 *       receive writes only the bytes that arrived.</li>
 *   <li>Standard sends of at most 16 KiB ({@code portals3j.mpi.eagerLimit}) are buffered at the receiver while it
 *       has room for the sender ({@code portals3j.mpi.creditBytes}, 256 KiB per sender), so the common "both ranks
 *       send, then receive" exchange of short messages runs; longer ones wait for their receive.</li>
 *   <li>Errors: {@code ERRORS_ARE_FATAL} (the default) and {@code ERRORS_ABORT} end the whole job, as does
 *       {@code Comm.abort}: the rank prints one line and exits with the error code as status, and the launcher
 *       ends the others. Under {@code ERRORS_RETURN} the call throws {@code MPIException} with Open MPI's error
 *       class. Calls before {@code Init} or after {@code Finalize} always throw. A thread interrupted while it
 *       waits in MPI gets {@code ERR_OTHER}.</li>
 *   <li>In a JVM running several ranks as threads ({@code portals run --transport inmem}), each thread acts for its
 *       own rank; the predefined objects are shared, but a communicator's error handler and name are per rank.</li>
 * </ul>
 */
package mpi;
