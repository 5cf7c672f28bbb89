package org.portals3j.isotach;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.internal.IsotachEngine;
import org.portals3j.runtime.JobContext;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;

/**
 * One host's Isotach messaging layer: the report's Appendix A, one Java method per C function.
 *
 * <table>
 * <caption>Appendix A function to Java method</caption>
 * <tr><th>Appendix A</th><th>Java</th></tr>
 * <tr><td>open_net (A.1)</td><td>{@link #openNet(Set, Duration)}</td></tr>
 * <tr><td>try_close_net</td><td>{@link #tryCloseNet()}</td></tr>
 * <tr><td>poll (A.2)</td><td>{@link #poll()}</td></tr>
 * <tr><td>get_node_number</td><td>{@link #getNodeNumber(String)}</td></tr>
 * <tr><td>get_my_node_number</td><td>{@link #getMyNodeNumber()}</td></tr>
 * <tr><td>get_max_payload</td><td>{@link #getMaxPayload()}</td></tr>
 * <tr><td>get_number_of_hosts</td><td>{@link #getNumberOfHosts()}</td></tr>
 * <tr><td>get_MBM_ver</td><td>{@link #getMbmVer()}</td></tr>
 * <tr><td>get_SIU_state</td><td>{@link #getSiuState()}</td></tr>
 * <tr><td>send (A.3)</td><td>{@link #send(int, MemorySegment, int)}</td></tr>
 * <tr><td>receive</td><td>{@link #receive(NonisoMessage)}</td></tr>
 * <tr><td>initiate_barrier (A.4)</td><td>{@link #initiateBarrier()}</td></tr>
 * <tr><td>barrier_completed</td><td>{@link #barrierCompleted()}</td></tr>
 * <tr><td>iso_send (A.5)</td><td>{@link #isoSend(int, MemorySegment, int, boolean)}</td></tr>
 * <tr><td>iso_receive</td><td>{@link #isoReceive(IsoMessage)}</td></tr>
 * <tr><td>iso_read (A.6)</td><td>{@link #isoRead(long, IsoVar, boolean)}</td></tr>
 * <tr><td>iso_retrieve</td><td>{@link #isoRetrieve(IsoVar)}</td></tr>
 * <tr><td>iso_write</td><td>{@link #isoWrite(long, long, boolean)}</td></tr>
 * <tr><td>iso_sched</td><td>{@link #isoSched(long, boolean)}</td></tr>
 * <tr><td>iso_assign</td><td>{@link #isoAssign(long, long, boolean)}</td></tr>
 * <tr><td>iso_end (A.7)</td><td>{@link #isoEnd()}</td></tr>
 * <tr><td>iso_register_signal (A.8)</td><td>{@link #isoRegisterSignal(int)}</td></tr>
 * <tr><td>iso_clear_signal</td><td>{@link #isoClearSignal(int)}</td></tr>
 * <tr><td>iso_send_signal</td><td>{@link #isoSendSignal(int)}</td></tr>
 * <tr><td>iso_register_barrier</td><td>{@link #isoRegisterBarrier(int, BarrierMode)}</td></tr>
 * <tr><td>iso_clear_barrier</td><td>{@link #isoClearBarrier(int)}</td></tr>
 * <tr><td>iso_barrier</td><td>{@link #isoBarrier(int, BarrierMode)}</td></tr>
 * </table>
 *
 * <h2>Return codes</h2>
 * As in Appendix A: {@link #SUCCESS} (0), {@link #FAILURE} (1, any failure), and for the receive calls and
 * {@link #poll()} {@link #NO_MESSAGE} (-1) when nothing is available (Isotach report App. A.2, pp. 95-96; App. A.3,
 * pp. 96-97; App. A.5, pp. 98-99; our choice: the listing's 1 for "nothing", App. J, is not followed). Misuse that C
 * could not detect (a null holder) throws {@link NullPointerException}; an internal inconsistency the report treats as
 * fatal (a wrong EOP count, a bucket overflow, a mismatched isochron marker) throws {@link IsotachFatalError} and
 * closes the layer.
 *
 * <h2>Threading</h2>
 * One application per host (Isotach report App. A, p. 94): the methods of one {@code IsotachNet} are called by one
 * thread at a time (confine it to a thread or synchronise outside). The emulated switch interface unit and token
 * manager run inside the transport's message handler, so logical time advances while the application computes;
 * deliveries reach the application only through its own calls, as in the report (Isotach report §2, pp. 4-8).
 */
public final class IsotachNet implements AutoCloseable {
    /** Success (C {@code SUCCESS}). */
    public static final int SUCCESS = 0;
    /** Failure (C {@code FAILURE}). */
    public static final int FAILURE = 1;
    /** Nothing to receive (Appendix A's -1, Isotach report App. A.2, pp. 95-96). */
    public static final int NO_MESSAGE = -1;
    /** {@link #getSiuState()} values. */
    public static final int TRUE = 1;
    public static final int FALSE = 0;

    private final IsotachEngine engine;

    private IsotachNet(IsotachEngine engine) {
        this.engine = engine;
    }

    /**
     * The layer of this rank over {@code transport} (not yet opened: call {@link #openNet}). The job's hosts are
     * its ranks (all of them, or all but the last with {@link TmPlacement#OWN_PROCESS}). The layer installs its
     * message handler on the transport, which must not have been started.
     */
    public static IsotachNet create(Transport transport, IsotachConfig config) {
        return new IsotachNet(new IsotachEngine(transport, config));
    }

    /** {@link #create(Transport, IsotachConfig)} on a joined job's endpoint. */
    public static IsotachNet create(JobContext context, IsotachConfig config) {
        return create(context.transport(), config);
    }

    /**
     * The environment variable naming a configuration file ({@link IsotachConfigFile}) for {@link #configuration()}.
     */
    public static final String CONFIG_ENV = "PORTALS_ISOTACH_CONFIG";
    /** The system property naming a configuration file; wins over {@link #CONFIG_ENV}. */
    public static final String CONFIG_PROPERTY = "portals3j.isotach.config";

    /**
     * The configuration of this process: the file named by {@value #CONFIG_PROPERTY} or {@value #CONFIG_ENV} when
     * set (so every rank of a {@code portals run} job reads the same file), else {@link IsotachConfig#defaults()},
     * which needs nothing: hosts come from the job.
     *
     * @throws IllegalArgumentException naming the file, line and problem when the file is not valid
     */
    public static IsotachConfig configuration() {
        String file = System.getProperty(CONFIG_PROPERTY);
        if (file == null || file.isBlank()) {
            file = System.getenv(CONFIG_ENV);
        }
        if (file == null || file.isBlank()) {
            return IsotachConfig.defaults();
        }
        return IsotachConfigFile.parse(Path.of(file.trim()));
    }

    /** Whether this rank of {@code context}'s job runs the token manager rather than a host under {@code config}. */
    public static boolean isTokenManagerRank(JobContext context, IsotachConfig config) {
        return config.tmPlacement() == TmPlacement.OWN_PROCESS && context.rank() == context.size() - 1;
    }

    /**
     * Runs the token manager of a job configured with {@link TmPlacement#OWN_PROCESS} on this rank (the job's
     * last) until every host has closed its layer or {@code timeout} passes. Returns the number of pulses issued.
     */
    public static long runTokenManager(Transport transport, IsotachConfig config, Duration timeout)
            throws TransportException {
        return IsotachEngine.runTokenManager(transport, config, timeout);
    }

    // ---- A.1 initialisation and shutdown ---------------------------------------------------------------

    /**
     * open_net (Isotach report App. A.1, pp. 94-95): initialises the layer for {@code interfaces} and synchronises with
     * every host; in an Isotach mode, host 0 then sends the system reset and every host waits until it comes back in an
     * EOP marker (Isotach report §5.2, pp. 35-36). Blocks until then or until {@code timeout}.
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} when {@code interfaces} is empty, names both {@link Interface#ISO_MBM}
     *         and {@link Interface#ISO_SMM} (Isotach report App. A, p. 94), the layer is already open, or the hosts did
     *         not synchronise in time
     */
    public int openNet(Set<Interface> interfaces, Duration timeout) {
        return engine.openNet(interfaces, timeout);
    }

    /** {@link #openNet(Set, Duration)} with a 30 second timeout. */
    public int openNet(Set<Interface> interfaces) {
        return engine.openNet(interfaces, Duration.ofSeconds(30));
    }

    /**
     * try_close_net (Isotach report App. A.1, pp. 94-95): succeeds only once every host has called it and the closing
     * barrier completed (the noniso barrier for noniso-only use, the Isotach STRONG shutdown barrier otherwise), and
     * not while undelivered noniso messages are queued here (Isotach report App. J, hostman.c, pp. 181-197). Call it
     * repeatedly until it returns {@link #SUCCESS}, receiving what arrives in between. Afterwards the layer is closed.
     */
    public int tryCloseNet() {
        return engine.tryCloseNet();
    }

    // ---- A.2 housekeeping ------------------------------------------------------------------------------

    /**
     * poll (Isotach report App. A.2, pp. 95-96): makes progress; {@link #SUCCESS} if a message or notice is waiting,
     * else {@link #NO_MESSAGE}.
     */
    public int poll() {
        return engine.poll();
    }

    /** get_node_number (Isotach report App. A.2, pp. 95-96): the id of the host named {@code hostname}, or -1. */
    public int getNodeNumber(String hostname) {
        return engine.getNodeNumber(hostname);
    }

    /** get_my_node_number (Isotach report App. A.2, pp. 95-96): this host's id, or -1 if this rank is not a host. */
    public int getMyNodeNumber() {
        return engine.getMyNodeNumber();
    }

    /** get_max_payload (Isotach report App. A.2, pp. 95-96): MAX_PAYLOAD_SIZE. */
    public int getMaxPayload() {
        return engine.getMaxPayload();
    }

    /** get_number_of_hosts (Isotach report App. A.2, pp. 95-96): hosts, excluding a token-manager process. */
    public int getNumberOfHosts() {
        return engine.getNumberOfHosts();
    }

    /** get_MBM_ver (Isotach report App. A.2, pp. 95-96): 1 (no ordering) or 2 (ordering and self-messages). */
    public int getMbmVer() {
        return engine.getMbmVer();
    }

    /**
     * get_SIU_state (Isotach report App. A.2, pp. 95-96): {@link #TRUE} when the (emulated) switch interface units
     * order Isotach traffic.
     */
    public int getSiuState() {
        return engine.getSiuState();
    }

    // ---- A.3 / A.4 non-Isotach ---------------------------------------------------------------------------

    /**
     * send (Isotach report App. A.3, pp. 96-97): sends {@code size} bytes of {@code data} to {@code target}; the bytes
     * are copied, the buffer is reusable on return. Fails for an invalid target, this host itself (no noniso
     * self-messages, Isotach report App. A.3, pp. 96-97), {@code size} above the max payload, or a full send buffer.
     */
    public int send(int target, MemorySegment data, int size) {
        return engine.send(target, data, size);
    }

    /** {@link #send(int, MemorySegment, int)} from a byte array. */
    public int send(int target, byte[] data) {
        return engine.send(target, MemorySegment.ofArray(data), data.length);
    }

    /**
     * receive (Isotach report App. A.3, pp. 96-97): fills {@code message} with the next noniso message; {@link
     * #NO_MESSAGE} when none.
     */
    public int receive(NonisoMessage message) {
        return engine.receive(message);
    }

    /**
     * initiate_barrier (Isotach report App. A.4, pp. 97-98): joins a noniso barrier; fails while the previous one is in
     * progress.
     */
    public int initiateBarrier() {
        return engine.initiateBarrier();
    }

    /**
     * barrier_completed (Isotach report App. A.4, pp. 97-98): {@link #SUCCESS} once, when the current barrier has
     * completed.
     */
    public int barrierCompleted() {
        return engine.barrierCompleted();
    }

    // ---- A.5 Isotach MBM and A.7 ---------------------------------------------------------------------------

    /**
     * iso_send (Isotach report App. A.5, pp. 98-99): sends {@code size} bytes isochronously to {@code target}, this
     * host included; {@code lastInIsochron} ends the isochron. Fails for an invalid target or size, or full buffers
     * (retry after receiving/polling).
     */
    public int isoSend(int target, MemorySegment data, int size, boolean lastInIsochron) {
        return engine.isoSend(target, data, size, lastInIsochron);
    }

    /** {@link #isoSend(int, MemorySegment, int, boolean)} from a byte array. */
    public int isoSend(int target, byte[] data, boolean lastInIsochron) {
        return engine.isoSend(target, MemorySegment.ofArray(data), data.length, lastInIsochron);
    }

    /**
     * iso_receive (Isotach report App. A.5, pp. 98-99): the next Isotach message or bs-notice; {@link #NO_MESSAGE} when
     * none.
     */
    public int isoReceive(IsoMessage message) {
        return engine.isoReceive(message);
    }

    /**
     * iso_end (Isotach report App. A.7, p. 100): ends the current isochron; a no-op success when none is in progress.
     */
    public int isoEnd() {
        return engine.isoEnd();
    }

    // ---- A.6 Isotach shared memory ---------------------------------------------------------------------------

    /**
     * iso_read (Isotach report App. A.6, pp. 99-100): schedules a read of shared word {@code address} into {@code
     * lvar}.
     */
    public int isoRead(long address, IsoVar lvar, boolean lastInIsochron) {
        return engine.isoRead(address, lvar, lastInIsochron);
    }

    /**
     * iso_retrieve (Isotach report App. A.6, pp. 99-100): waits (polling) until {@code lvar}'s read has returned, and
     * returns the value.
     */
    public long isoRetrieve(IsoVar lvar) {
        return engine.isoRetrieve(lvar);
    }

    /** iso_write (Isotach report App. A.6, pp. 99-100): a sched and its assign in one access. */
    public int isoWrite(long address, long value, boolean lastInIsochron) {
        return engine.isoWrite(address, value, lastInIsochron);
    }

    /**
     * iso_sched (Isotach report App. A.6, pp. 99-100): reserves the next post of {@code address}; its value follows
     * with {@link #isoAssign}.
     */
    public int isoSched(long address, boolean lastInIsochron) {
        return engine.isoSched(address, lastInIsochron);
    }

    /**
     * iso_assign (Isotach report App. A.6, pp. 99-100): supplies the value of this host's outstanding sched on {@code
     * address}.
     */
    public int isoAssign(long address, long value, boolean lastInIsochron) {
        return engine.isoAssign(address, value, lastInIsochron);
    }

    // ---- A.8 Isotach signals and barriers ----------------------------------------------------------------------

    /**
     * iso_register_signal (Isotach report App. A.8.1, pp. 100-104): claims application signal channel 1-4 (0 and 5 are
     * the layer's).
     */
    public int isoRegisterSignal(int channel) {
        return engine.isoRegisterSignal(channel);
    }

    /**
     * iso_clear_signal (Isotach report App. A.8.1, pp. 100-104): releases a channel; a no-op success for a channel not
     * held.
     */
    public int isoClearSignal(int channel) {
        return engine.isoClearSignal(channel);
    }

    /** iso_send_signal (Isotach report App. A.8.2, pp. 100-104): signals every host that registered {@code channel}. */
    public int isoSendSignal(int channel) {
        return engine.isoSendSignal(channel);
    }

    /**
     * iso_register_barrier (Isotach report App. A.8.1, pp. 100-104): claims barrier channel 1 (0 is the layer's
     * shutdown barrier). Argument order follows the design and listing, (channel, mode) (Isotach report §6.5.1,
     * pp. 50-54; App. J, isotach.h, pp. 162-165), not Appendix A's (our choice where
     * they disagree).
     */
    public int isoRegisterBarrier(int channel, BarrierMode mode) {
        return engine.isoRegisterBarrier(channel, mode);
    }

    /**
     * iso_clear_barrier (Isotach report App. A.8.1, pp. 100-104): releases a barrier channel; a no-op success for a
     * channel not held (A9).
     */
    public int isoClearBarrier(int channel) {
        return engine.isoClearBarrier(channel);
    }

    /**
     * iso_barrier (Isotach report App. A.8.2, pp. 100-104): participates; completion arrives as a bs-notice through
     * {@link #isoReceive}.
     */
    public int isoBarrier(int channel, BarrierMode mode) {
        return engine.isoBarrier(channel, mode);
    }

    // ---- beyond Appendix A ------------------------------------------------------------------------------------

    /** The pulse this host has completed (the last EOP marker processed), for observation and tests. */
    public long logicalTime() {
        return engine.logicalTime();
    }

    /**
     * Observes every shared-memory reference the copies at this host execute, in execution (isotach) order: what the
     * conformance kit's {@link SmmHistory} checks the whole history with. Call before {@link #openNet}; null removes
     * it.
     */
    public void sharedMemoryObserver(@Nullable SharedMemoryObserver observer) {
        engine.sharedMemoryObserver(observer);
    }

    /** Counters of the layer (pulses, packets, credits, ...), by name. */
    public Map<String, Long> counters() {
        return engine.counters();
    }

    /**
     * Closes the layer without the closing barrier (abnormal termination, Isotach report §5.7, pp. 39-40); idempotent.
     */
    @Override
    public void close() {
        engine.close();
    }
}
