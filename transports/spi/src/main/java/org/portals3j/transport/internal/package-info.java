/**
 * Internal: helpers the Portals3J runtime modules (the transports, the Portals engine, the Isotach engine, the job
 * runtime) share, kept in one place. Not part of the transport SPI and not for applications or third-party
 * transports: anything here may change without notice. On the module path only the Portals3J modules that use
 * this package can read it (a qualified export in {@code module-info.java}).
 *
 * <ul>
 *   <li>False-sharing padding: {@link org.portals3j.transport.internal.CacheLinePadding}, a superclass that puts
 *       64 bytes before a class's own fields, and {@link org.portals3j.transport.internal.PaddedInt}, an
 *       {@code int} flag or counter alone on its cache line.</li>
 *   <li>{@link org.portals3j.transport.internal.SpinLock}: the non-reentrant lock of the Portals engine's short
 *       critical sections.</li>
 *   <li>{@link org.portals3j.transport.internal.CounterRegistry}: the named counters of udp, noniso, the Isotach
 *       host and frame intake and the shared memory module, each a padded {@link
 *       org.portals3j.transport.internal.Counter} whose memory ordering its writer names.</li>
 *   <li>{@link org.portals3j.transport.internal.OsUser}: the operating-system user id of this process.</li>
 *   <li>Waiting: {@link org.portals3j.transport.internal.AwaitLoop}, the one loop every blocking call
 *       (PtlEQWait, PtlEQPoll, the Isotach waits, the token manager) waits in, and the implementations of
 *       {@link org.portals3j.transport.IdleStrategy} ({@link org.portals3j.transport.internal.IdleStrategies} maps
 *       each {@link org.portals3j.transport.IdleMode} to one), parking through an injectable
 *       {@link org.portals3j.transport.internal.Parker}.</li>
 * </ul>
 *
 * <p>{@link org.portals3j.transport.IdleMode} and {@link org.portals3j.transport.IdleStrategy} stay in the SPI: the
 * mode is what a user chooses for an endpoint ({@link org.portals3j.transport.EndpointConfig#idle()}), and a
 * transport honours it through the strategy.
 */
package org.portals3j.transport.internal;
