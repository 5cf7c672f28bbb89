package org.portals3j.fabric.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.fabric.AddressVector;
import org.portals3j.fabric.CompletionQueue;
import org.portals3j.fabric.Domain;
import org.portals3j.fabric.Endpoint;
import org.portals3j.fabric.Fabric;
import org.portals3j.fabric.FabricInfo;
import org.portals3j.fabric.WaitObject;

/**
 * Loading libfabric.so.1 runs libinfinipath's constructor, which takes over SIGSEGV and five other signals, and
 * shm's {@code fi_endpoint} takes four; the binding must give them back to the JVM, or the JVM dies at its next
 * implicit null check.
 */
class SignalHandlersTest {
    @Test
    void theJvmKeepsItsSignalHandlers() throws Throwable {
        assumeTrue(NativeFabric.unavailableReason() == null, () -> "binding unavailable: "
                + NativeFabric.unavailableReason());
        NativeFabric.get();
        List<FabricInfo> shm = FabricInfo.query(FabricInfo.Hints.rdm("shm"));
        if (!shm.isEmpty()) {
            try (Fabric f = Fabric.open(shm.get(0)); Domain d = f.openDomain();
                    CompletionQueue cq = d.openCompletionQueue(16, WaitObject.NONE);
                    AddressVector av = d.openAddressVector(2); Endpoint ep = d.openEndpoint(cq, av)) {
                av.insert(ep.name());
                checkHandlers();
            }
        }
        checkHandlers();
    }

    private static void checkHandlers() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle sigaction = linker.downcallHandle(linker.defaultLookup().find("sigaction").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        MethodHandle dladdr = linker.downcallHandle(linker.defaultLookup().find("dladdr").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        try (Arena a = Arena.ofConfined()) {
            for (int sig : NativeFabric.JVM_SIGNALS) {
                MemorySegment act = a.allocate(Structs.SIGACTION);
                assertThat((int) sigaction.invokeExact(sig, MemorySegment.NULL, act)).isZero();
                MemorySegment handler = act.get(ADDRESS, 0);
                if (handler.address() <= 1) {
                    continue; // SIG_DFL or SIG_IGN: not libinfinipath's
                }
                MemorySegment info = a.allocate(4 * ADDRESS.byteSize());
                assertThat((int) dladdr.invokeExact(handler, info)).as("dladdr of signal " + sig).isNotZero();
                String lib = info.get(ADDRESS, 0).reinterpret(Long.MAX_VALUE).getString(0);
                assertThat(lib).as("library of signal " + sig + "'s handler").doesNotContain("infinipath")
                        .doesNotContain("psm");
                if (sig == 11 || sig == 7) {
                    assertThat(lib).as("signal " + sig + " handler").contains("libjvm");
                }
            }
        }
    }
}
