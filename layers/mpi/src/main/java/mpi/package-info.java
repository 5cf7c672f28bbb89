/**
 * Open MPI's Java bindings ({@code package mpi}, v5.0.x; see the project's {@code mpi-java-api.md}) on Portals3J: a
 * program written for them compiles against this module's jar unchanged and runs with
 * {@code portals run -n N -cp app.jar:mpi.jar -- Main} on any transport, or under Slurm or Open MPI's {@code mpirun}
 * like any rank ({@code MPI.Init} joins the job, {@code MPI.Finalize} leaves it).
 *
 * <h2>API area &rarr; Java classes</h2>
 * The classes, methods and signatures are Open MPI's; each area of mpi-java-api.md is where the table says.
 * <table class="striped">
 * <caption>Every area of mpi-java-api.md sections 1 and 2</caption>
 * <tr><th>mpi-java-api.md</th><th>Java</th><th>In this version</th></tr>
 * <tr><td>1.2 start-up, shutdown, environment</td><td>{@link mpi.MPI} ({@code Init}, {@code InitThread},
 *     {@code Finalize}, {@code wtime}, ...)</td><td>all</td></tr>
 * <tr><td>1.3 how buffers are passed</td><td>{@code MPI.newIntBuffer} ... and every call taking {@code Object}
 *     or a {@code java.nio} buffer</td><td>all (see "Behaviour a program may notice")</td></tr>
 * <tr><td>1.4 datatypes</td><td>{@link mpi.Datatype}, {@link mpi.Struct}, the pair types ({@link mpi.Int2} ...)
 *     and {@link mpi.FloatComplex}, {@link mpi.DoubleComplex}</td><td>all</td></tr>
 * <tr><td>1.5 reduction operations</td><td>{@link mpi.Op}, {@link mpi.UserFunction}</td><td>all</td></tr>
 * <tr><td>1.6, 1.7 status and requests</td><td>{@link mpi.Status}, {@link mpi.Request}, {@link mpi.Prequest}
 *     </td><td>all</td></tr>
 * <tr><td>1.8 constants</td><td>{@link mpi.MPI}</td><td>all</td></tr>
 * <tr><td>1.9 errors and error handlers</td><td>{@link mpi.MPIException}, {@link mpi.Errhandler}</td>
 *     <td>all</td></tr>
 * <tr><td>2.1 identity and inspection</td><td>{@link mpi.Comm} ({@code getRank}, {@code getSize},
 *     {@code getGroup}, {@code compare}, ...)</td><td>all</td></tr>
 * <tr><td>2.2 - 2.4 point-to-point: blocking, nonblocking, persistent</td><td>{@link mpi.Comm} ({@code send}
 *     ... {@code recv}, {@code iSend} ... {@code iRecv}, {@code sendInit} ... {@code recvInit}, {@code probe},
 *     {@code iProbe})</td><td>all</td></tr>
 * <tr><td>2.5 packing</td><td>{@link mpi.Comm} ({@code pack}, {@code unpack}, {@code packSize})</td>
 *     <td>all</td></tr>
 * <tr><td>2.6 communicator management</td><td>{@link mpi.Comm}, {@link mpi.Intracomm} ({@code dup},
 *     {@code split}, {@code create}, {@code free}, ...)</td><td>all</td></tr>
 * <tr><td>2.7 attributes and error handlers</td><td>{@link mpi.Comm} ({@code createKeyval}, {@code setAttr},
 *     {@code setErrhandler}, ...)</td><td>all</td></tr>
 * <tr><td>2.8 collectives, blocking</td><td>{@link mpi.Comm}, {@link mpi.Intracomm} ({@code barrier},
 *     {@code bcast}, {@code allReduce}, ...)</td><td>all</td></tr>
 * <tr><td>2.9 collectives, nonblocking</td><td>{@link mpi.Comm}, {@link mpi.Intracomm} ({@code iBarrier},
 *     {@code iBcast}, ...)</td><td>all, on intracommunicators</td></tr>
 * <tr><td>2.10 neighbourhood collectives</td><td>{@link mpi.Comm} ({@code neighborAllGather} ...), on a
 *     {@link mpi.CartComm} or {@link mpi.GraphComm}</td><td>all (see "Graphs and neighbourhood
 *     collectives")</td></tr>
 * <tr><td>2.11 topology constructors</td><td>{@link mpi.Intracomm} ({@code createCart}, {@code createGraph},
 *     {@code createDistGraph}, {@code createDistGraphAdjacent})</td><td>all</td></tr>
 * <tr><td>2.12 dynamic processes and name service</td><td>{@link mpi.Intracomm} ({@code spawn}, {@code accept},
 *     {@code connect}, ...)</td><td>out of scope: {@code MPI.ERR_UNSUPPORTED_OPERATION}</td></tr>
 * <tr><td>2.13 the other communicator classes</td><td>{@link mpi.Intercomm}, {@link mpi.CartComm},
 *     {@link mpi.GraphComm}</td><td>all but {@code Intercomm.iDup} (see "Intercommunicators")</td></tr>
 * <tr><td>2.14 one-sided and MPI-IO</td><td>{@link mpi.Win}, {@link mpi.File}, {@link mpi.FileView}</td>
 *     <td>out of scope: {@code MPI.ERR_UNSUPPORTED_OPERATION}</td></tr>
 * <tr><td>2.15 other classes</td><td>{@link mpi.Group}, {@link mpi.Info}, {@link mpi.Message}</td><td>all</td></tr>
 * </table>
 *
 * <h2>What this version has</h2>
 * The environment ({@code MPI}: init, finalize, thread levels, timers, names, versions, the buffer helpers, every
 * constant); datatypes: the predefined basic types ({@code BYTE} to {@code DOUBLE}, {@code PACKED},
 * {@code DATATYPE_NULL}) and their queries, the complex types {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX} (two
 * floats or doubles per item; {@code FloatComplex}, {@code DoubleComplex}; SUM and PROD), the pair types of
 * {@code MINLOC} and {@code MAXLOC} ({@code INT2} ... {@code DOUBLE_INT}, read and written through {@code MPI.int2}
 * ... {@code MPI.doubleInt}), {@code Struct} for user-defined struct layouts (moved as whole items of bytes), and the
 * derived types (every {@code Datatype.create*}, {@code commit}, {@code free}, {@code dup}, {@code clone}, usable in
 * point-to-point calls, probe counts, packing, every blocking and nonblocking collective, the neighbourhood ones
 * included; how they travel and the choices made are in
 * {@code org.portals3j.mpi.internal}); {@code Comm.pack}, {@code unpack} and
 * {@code packSize} with {@code PACKED} (the items' bytes in native order); {@code Status}; {@code Request} with all
 * its completion forms; {@code Group}; {@code Info}; the three error handlers; every point-to-point call of
 * {@code Comm}, with the persistent requests ({@code sendInit} ... {@code recvInit}, {@code Prequest}), the buffered
 * mode ({@code MPI.attachBuffer}, {@code detachBuffer}, {@code bSend}, {@code ibSend}, {@code bSendInit}) and
 * matched probe ({@code Message}: {@code mProbe}, {@code imProbe}, {@code mRecv}, {@code imRecv}; the message is
 * tied to the handle, so no other receive or probe, of any thread, can take it); the predefined reduction
 * operations and user-defined ones ({@code Op}, {@code UserFunction}, {@code Comm.reduceLocal}); new communicators
 * ({@code dup}, {@code clone}, {@code split}, {@code create}, {@code free}, {@code compare}) and the extras
 * ({@code iDup} with {@code getRequest}, {@code dupWithInfo}, {@code splitType} with {@code Comm.TYPE_SHARED},
 * {@code createGroup}, {@code setInfo}, {@code getInfo}); attribute caching on communicators and datatypes
 * ({@code createKeyval}, {@code freeKeyval}, {@code setAttr}, {@code getAttr}, {@code deleteAttr}, the predefined
 * keys on {@code COMM_WORLD}); every blocking collective with its in-place overloads; every nonblocking collective
 * of section 2.9 with its in-place overloads, each returning a {@code Request} that works with every completion
 * call (on intra- and intercommunicators; {@code iAllToAllw} packs its send blocks when called and unpacks the
 * received ones as the last step of its schedule).
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
 * <h2>Topologies (mpi-java-api.md section 3, tier 2 item 7)</h2>
 * {@code Intracomm.createCart}, {@code CartComm} ({@code getTopo}, {@code getRank}, {@code getCoords},
 * {@code shift}, {@code sub}, {@code map}, {@code createDims}, {@code dup}, {@code clone}, and the covariant
 * {@code iDup} and {@code dupWithInfo} of mpi-java-api.md section 2.13, which keep the grid), {@code CartParms} and
 * {@code ShiftParms}. {@code reorder} is ignored (MPI 4.1 section 8.5.1 allows it): rank r of the grid is rank r of
 * the parent, and the parent's ranks from the grid's size on get a null communicator. {@code createDims} picks,
 * among the factorisations MPI 4.1 section 8.5.2 allows, the non-increasing one whose largest entry is smallest,
 * then its next one, and so on (24 in three: 4, 3, 2). Error classes: ERR_DIMS for an extent below 1, a grid larger
 * than the communicator, a shift direction that is not a dimension, and a {@code createDims} whose set entries do
 * not divide {@code nnodes} (or {@code nnodes} below 1); ERR_ARG for arrays of the wrong length and, in
 * {@code getRank}, a coordinate outside a non-periodic dimension; ERR_RANK for {@code getCoords} of a rank outside
 * the grid.
 *
 * <h2>Graphs and neighbourhood collectives (mpi-java-api.md section 3, tier 2 item 9)</h2>
 * {@code Intracomm.createGraph}, {@code createDistGraph} and {@code createDistGraphAdjacent} (both overloads each),
 * {@code GraphComm} ({@code getDims}, {@code getNeighbors}, {@code getDistGraphNeighbors}, {@code map}, {@code dup},
 * {@code clone}, the covariant {@code iDup} and {@code dupWithInfo}, which keep the graph), {@code GraphParms},
 * {@code DistGraphNeighbors}, and the blocking {@code neighborAllGather(v)} and {@code neighborAllToAll(v)} on
 * Cartesian and graph communicators (MPI 4.1 section 8.6). Choices: {@code reorder} is ignored;
 * {@code createGraph}'s ranks from the graph's size on get a null communicator; {@code createDistGraph} gathers
 * every edge at every member (an allGatherv), so an edge naming a rank outside the communicator is ERR_RANK
 * everywhere; {@code getDistGraphNeighbors} also answers on a {@code createGraph} graph (its neighbours both ways,
 * unweighted), while {@code getDims} and {@code getNeighbors} on a distributed graph are ERR_TOPOLOGY, as is a
 * neighbourhood collective on a communicator without a topology; a malformed index is ERR_ARG, an edge to a node
 * outside the graph ERR_TOPOLOGY. The messages of a Cartesian neighbourhood carry their direction, so a periodic
 * dimension of extent 1 or 2 (both neighbours the same process) still delivers block {@code 2d} of a process to
 * its {@code -1} neighbour's block {@code 2d + 1}; several edges between two processes of a graph match in the
 * order of the edges. The nonblocking {@code iNeighborAllGather(v)} and {@code iNeighborAllToAll(v)} run the same
 * algorithm as a nonblocking-collective schedule; a schedule has 16 message kinds, so on a Cartesian grid of more
 * than 8 dimensions (18 or more directions) they are ERR_UNSUPPORTED_OPERATION (use the blocking forms). Not here:
 * {@code neighborAllToAllw} (Open MPI's bindings have none).
 *
 * <h2>Intercommunicators (mpi-java-api.md section 3, tier 2 item 8)</h2>
 * {@code Comm.createIntercomm} (called on the peer communicator, as Open MPI declares it), {@code Intercomm} ({@code
 * getRemoteSize}, {@code getRemoteGroup}, {@code merge}, {@code dup}, {@code clone}, {@code dupWithInfo}, and
 * {@code iDup}, whose context agreement across both groups is keyed like an intracommunicator's, so it runs in the
 * background beside the program's collectives; {@code dup}, {@code merge} and {@code createIntercomm} run the same
 * keyed agreement, so none can take the id of an {@code iDup}, or of another thread's new communicator, agreeing
 * beside it), point-to-point naming the remote group, and the
 * blocking collectives between the groups as MPI 4.1 section 6.2.2 defines them: {@code barrier}, {@code bcast},
 * {@code reduce}, {@code allReduce}, {@code gather(v)}, {@code scatter(v)}, {@code allGather(v)}, {@code
 * allToAll(v)} (the root passes {@code MPI.ROOT}, the rest of its group {@code MPI.PROC_NULL}), {@code
 * reduceScatter} and {@code reduceScatterBlock} (MPI 3.1 section 5.10.1: the counts, one per rank of the local group,
 * sum to the same total in both groups, and each group gets the other's reduction scattered by its counts), and the
 * nonblocking form of each of them ({@code iBarrier} ... {@code iReduceScatterBlock}, the same algorithms as a
 * schedule). Choices: the in-place forms on an intercommunicator are ERR_COMM (MPI has no in-place option there);
 * the buffers MPI 4.1 section 6.2.2 makes insignificant in the root's group (the send buffer of a gather or reduce
 * at {@code MPI.ROOT}, the receive buffer of a bcast or scatter there, every buffer at {@code MPI.PROC_NULL}) are
 * neither read, checked nor written, so they may be null or shorter than the counts; a
 * {@code localComm} that is an
 * intercommunicator is ERR_COMM, a {@code localLeader} outside it ERR_RANK, groups that share a process ERR_COMM
 * (errors through {@code localComm}'s handler, which the new intercommunicator inherits); a {@code merge} in which both
 * groups pass the same {@code high} puts first the group whose first process has the lower job rank (MPI 4.1 section
 * 7.6.2 leaves it open). A wrong {@code remoteLeader} or {@code tag} is seen by the leader alone: the rest of its group
 * then waits for ever (MPI makes it erroneous, and nothing tells them).
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
