package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;
import org.portals3j.transport.udp.internal.io.ChannelIo;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.io.SocketIo;

/** {@code udp.io}: checked, native by default where it can be, the JDK's channel on request or for IPv6. */
class SocketChoiceTest {

    @Test
    void theDefaultIsAutoAndABadValueSaysWhatIsValid() throws TransportException {
        assertThat(UdpOptions.parse(Map.of()).io()).isEqualTo("auto");
        assertThat(UdpOptions.parse(Map.of(UdpOptions.IO, " Native ")).io()).isEqualTo("native");
        assertThatThrownBy(() -> UdpOptions.parse(Map.of(UdpOptions.IO, "epoll")))
                .isInstanceOf(TransportException.class)
                .hasMessageStartingWith("bad value 'epoll' for udp.io: expected auto (native where it can be used),"
                        + " native or channel");
    }

    /** The socket an endpoint opened with {@code options} was given. */
    private static DatagramIo socketOf(Map<String, String> options) throws TransportException {
        AtomicReference<DatagramIo> seen = new AtomicReference<>();
        UdpEndpoint endpoint = UdpEndpoint.open(new EndpointConfig(Job.local(1), 0, IdleMode.BACKOFF, options),
                UdpOptions.parse(options), io -> {
                    seen.set(io);
                    return io;
                });
        endpoint.close();
        return Objects.requireNonNull(seen.get(), "the endpoint opened no socket");
    }

    @Test
    void autoAndNativeOpenTheNativeSocketChannelTheJdks() throws TransportException {
        assertThat(socketOf(Map.of())).isInstanceOf(SocketIo.class);
        assertThat(socketOf(Map.of(UdpOptions.IO, "native"))).isInstanceOf(SocketIo.class);
        assertThat(socketOf(Map.of(UdpOptions.IO, "channel"))).isInstanceOf(ChannelIo.class);
    }

    @Test
    void anIpv6AddressFallsBackToTheChannelUnlessNativeIsDemanded() throws TransportException {
        assertThat(socketOf(Map.of(UdpOptions.HOST, "::1"))).isInstanceOf(ChannelIo.class);
        assertThatThrownBy(() -> socketOf(Map.of(UdpOptions.HOST, "::1", UdpOptions.IO, "native")))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("udp.io=native cannot be used here (not an IPv4 address")
                .hasMessageContaining("udp.io=auto");
    }
}
