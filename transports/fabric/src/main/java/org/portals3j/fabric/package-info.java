/**
 * libfabric-java: a Java binding of the libfabric 1.x calls a reliable-datagram (RDM) transport needs, over FFM.
 * Each class owns one libfabric object and closes it ({@link java.lang.AutoCloseable}); an object that others were
 * opened on or bound to refuses to close before them ({@link java.lang.IllegalStateException}, not a crash), and a
 * closed object refuses every call. libfabric errors are {@link org.portals3j.fabric.FabricException}s carrying
 * the FI_* name and {@code fi_strerror} text.
 *
 * <h2>libfabric call to Java method</h2>
 * <table class="striped">
 * <caption>What each class maps to</caption>
 * <thead><tr><th>libfabric</th><th>Java</th><th>notes</th></tr></thead>
 * <tbody>
 * <tr><td>{@code fi_getinfo(FI_PROV_ATTR_ONLY)}, {@code fi_getinfo(NULL hints)}</td>
 *     <td>{@link org.portals3j.fabric.Fabric#providers()}</td><td>what {@code fi_info -l} lists, with the
 *     endpoint types of each provider's entries</td></tr>
 * <tr><td>{@code fi_getinfo(hints)}, {@code fi_freeinfo}</td>
 *     <td>{@link org.portals3j.fabric.FabricInfo#query(FabricInfo.Hints)}</td><td>attributes copied into Java;
 *     mode 0 and {@code mr_mode = LOCAL|VIRT_ADDR|ALLOCATED|PROV_KEY} always asked</td></tr>
 * <tr><td>{@code fi_fabric}</td><td>{@link org.portals3j.fabric.Fabric#open(FabricInfo)}</td><td></td></tr>
 * <tr><td>{@code fi_domain}</td><td>{@link org.portals3j.fabric.Fabric#openDomain()}</td><td></td></tr>
 * <tr><td>{@code fi_av_open(FI_AV_TABLE)}</td><td>{@link org.portals3j.fabric.Domain#openAddressVector(int)}</td>
 *     <td></td></tr>
 * <tr><td>{@code fi_av_insert}</td><td>{@link org.portals3j.fabric.AddressVector#insert(byte[])}</td><td></td></tr>
 * <tr><td>{@code fi_cq_open(FI_CQ_FORMAT_TAGGED)}</td>
 *     <td>{@link org.portals3j.fabric.Domain#openCompletionQueue(int, WaitObject)}</td><td></td></tr>
 * <tr><td>{@code fi_endpoint}, {@code fi_ep_bind} (AV; CQ for {@code FI_TRANSMIT|FI_RECV}), {@code fi_enable}</td>
 *     <td>{@link org.portals3j.fabric.Domain#openEndpoint(CompletionQueue, AddressVector)}</td><td></td></tr>
 * <tr><td>{@code fi_getname}</td><td>{@link org.portals3j.fabric.Endpoint#name()}</td><td></td></tr>
 * <tr><td>{@code fi_mr_reg}, {@code fi_mr_key}, {@code fi_mr_desc}</td>
 *     <td>{@link org.portals3j.fabric.Domain#register(java.lang.foreign.MemorySegment, long, long)},
 *     {@link org.portals3j.fabric.MemoryRegion#key()}, {@link org.portals3j.fabric.MemoryRegion#descriptor()}</td>
 *     <td></td></tr>
 * <tr><td>{@code fi_tsend}, {@code fi_tsenddata}</td><td>{@link org.portals3j.fabric.Endpoint#postTaggedSend}
 *     (two overloads)</td><td>{@code false} on {@code FI_EAGAIN}</td></tr>
 * <tr><td>{@code fi_trecv}</td><td>{@link org.portals3j.fabric.Endpoint#postTaggedReceive}</td>
 *     <td>tag and ignore bits</td></tr>
 * <tr><td>{@code fi_writemsg(FI_COMPLETION|FI_DELIVERY_COMPLETE)}</td>
 *     <td>{@link org.portals3j.fabric.Endpoint#postWrite}</td><td>completion = visible at the target</td></tr>
 * <tr><td>{@code fi_read}</td><td>{@link org.portals3j.fabric.Endpoint#postRead}</td><td></td></tr>
 * <tr><td>{@code fi_cq_read}, {@code fi_cq_readerr}</td>
 *     <td>{@link org.portals3j.fabric.CompletionQueue#read(Completions)},
 *     {@link org.portals3j.fabric.CompletionQueue#readError(CompletionError)}</td>
 *     <td>into caller-owned flyweights</td></tr>
 * <tr><td>{@code fi_control(FI_GETWAIT)}</td><td>{@link org.portals3j.fabric.CompletionQueue#waitFd()}</td>
 *     <td></td></tr>
 * <tr><td>{@code fi_close}</td><td>{@code close()} of every class</td><td>order checked</td></tr>
 * </tbody>
 * </table>
 *
 * <h2>Memory, contexts and the hot path</h2>
 * Buffers are {@link java.lang.foreign.MemorySegment}s. Operations are asynchronous, so a buffer must be native
 * (a heap segment is rejected with {@link java.lang.IllegalArgumentException}), lie inside the memory region passed
 * with it, and stay alive and untouched until its completion. An operation's context is a caller-chosen
 * {@code long}, returned in its completion; the binding never dereferences it (it asks providers for mode 0, so
 * none needs {@code FI_CONTEXT} memory). The {@code post*} calls and {@link
 * org.portals3j.fabric.CompletionQueue#read(Completions)} allocate nothing: completions land in a reusable native
 * {@link org.portals3j.fabric.Completions} batch.
 *
 * <h2>Threading and progress</h2>
 * The objects are not thread-safe: use one domain and everything opened on it from one thread at a time (the
 * {@code FI_THREAD_DOMAIN} model that shm, udp;ofi_rxd and net offer), closing included. Progress is manual: on
 * tcp;ofi_rxm, shm and udp;ofi_rxd nothing moves unless the application reads the completion queue, so a thread
 * that waits for anything keeps calling {@link org.portals3j.fabric.CompletionQueue#read(Completions)}.
 *
 * <h2>Provider traps (gm-libfabric.md section 2.4, and found writing this binding)</h2>
 * <ul>
 * <li>tcp;ofi_rxm connects on demand: the first sends to a peer return {@code FI_EAGAIN} (a {@code post*} returns
 *     {@code false}) until the connection is up, and it comes up only while the CQ is read. Retry with reads in
 *     between; never spin on the post alone.</li>
 * <li>shm has no file-descriptor wait object: {@code FI_WAIT_FD} fails with {@code FI_ENOSYS}; poll it.
 *     udp;ofi_rxd opens one but {@code FI_GETWAIT} fails with {@code FI_ENOSYS}.</li>
 * <li>No provider here sets {@code FI_MR_PROV_KEY}: the application chooses memory keys, unique per domain;
 *     reusing one fails with {@code FI_ENOKEY}.</li>
 * <li>RMA addresses are offsets into the target region unless the provider sets {@code FI_MR_VIRT_ADDR} (only
 *     shm does): use {@link org.portals3j.fabric.MemoryRegion#remoteAddress(long)} on the target's side.</li>
 * <li>A plain {@code fi_write} completion does not mean the data is visible at the target on rxm; the binding's
 *     write uses {@code FI_DELIVERY_COMPLETE}.</li>
 * <li>Truncation: tcp;ofi_rxm and shm report {@code FI_ETRUNC} as an error completion (shm stores {@code err}
 *     negated; rxm leaves {@code olen} 0); udp;ofi_rxd 1.17 truncates silently and reports success.</li>
 * <li>Debian's libfabric.so.1 links psm, whose libinfinipath.so.4 installs SIGSEGV, SIGBUS and other handlers when
 *     loaded, and shm's {@code fi_endpoint} installs its own: either kills a JVM at its next implicit null check.
 *     The binding saves the JVM's handlers around loading and around every call that opens an object, and puts
 *     them back.</li>
 * <li>shm names an endpoint's shared-memory region, {@code /dev/shm/NAME}, after the source address unless the
 *     application names it with {@code fi_setname} (fi_shm(7), "Address Format"): "127.0.0.1:UID:N" with
 *     {@code Hints.rdm}'s node, "PID:UID:N" without one, N counting the process's endpoints. {@code fi_enable}
 *     fails with {@code FI_EBUSY} when that file exists and is not a region it can take over: a live region of
 *     another process of the same name, or one that a killed process left for a later process with its pid. The
 *     binding therefore names each shm endpoint "fabric-NS-PID-START-N" (hex: the inode of
 *     {@code /proc/self/ns/pid}, the pid, the start time of field 22 of {@code /proc/self/stat}, a counter of the
 *     process), which no other process of the namespace can hold, and skips a name whose file exists. Before
 *     that it removes the regions of that form of its own namespace and user whose owner is provably gone (no
 *     {@code /proc/PID}, or one of another start time); other files are left alone. An {@code FI_EBUSY} that
 *     remains names the file and says to remove it.</li>
 * </ul>
 *
 * <h2>Example</h2>
 * Open, exchange names, send, receive: two endpoints of one domain, in one process (across processes, the names
 * travel by any out-of-band channel). {@code ExampleTest} compiles and runs this snippet.
 * {@snippet :
 * FabricInfo info = FabricInfo.query(FabricInfo.Hints.rdm(provider)).get(0);
 * try (Arena arena = Arena.ofShared();
 *         Fabric fabric = Fabric.open(info);
 *         Domain domain = fabric.openDomain();
 *         CompletionQueue cq = domain.openCompletionQueue(64, WaitObject.NONE);
 *         AddressVector av = domain.openAddressVector(2);
 *         Endpoint alice = domain.openEndpoint(cq, av);
 *         Endpoint bob = domain.openEndpoint(cq, av);
 *         MemoryRegion mr = domain.register(arena.allocate(4096), Caps.SEND | Caps.RECV, 1);
 *         Completions done = new Completions(8)) {
 *     long bobAddress = av.insert(bob.name()); // the name exchange
 *     MemorySegment in = mr.memory().asSlice(0, 64);
 *     MemorySegment out = mr.memory().asSlice(64, 64);
 *     out.setString(0, "hello");
 *     while (!bob.postTaggedReceive(in, mr, AddressVector.ANY, 42, 0, 1)) {
 *         cq.read(done);
 *     }
 *     while (!alice.postTaggedSend(out, mr, bobAddress, 42, 2)) {
 *         cq.read(done); // FI_EAGAIN until rxm's connection is up: reading the queue brings it up
 *     }
 *     int completed = 0;
 *     while (completed < 2) {
 *         int n = cq.read(done);
 *         if (n == CompletionQueue.ERROR) {
 *             throw new IllegalStateException("a transfer failed");
 *         }
 *         completed += n;
 *     }
 *     return in.getString(0);
 * }
 * }
 */
package org.portals3j.fabric;
