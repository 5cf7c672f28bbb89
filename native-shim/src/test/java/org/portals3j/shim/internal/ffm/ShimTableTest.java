package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;

/**
 * The table of upcall stubs, called the way libportals3 calls it (a downcall through each function
 * pointer), in a JVM where no C program ever called PtlInit.
 */
class ShimTableTest {

    private static MemorySegment table(Arena arena, int version, long size) {
        MemorySegment t = arena.allocate(ShimTable.LAYOUT);
        t.set(JAVA_INT, ShimTable.LAYOUT.byteOffset(groupElement("abi_version")), version);
        t.set(JAVA_INT, ShimTable.LAYOUT.byteOffset(groupElement("table_size")), (int) size);
        return t;
    }

    private static MethodHandle entry(MemorySegment table, String name, FunctionDescriptor descriptor) {
        MemorySegment fn = table.get(ADDRESS, ShimTable.LAYOUT.byteOffset(groupElement(name)));
        return Linker.nativeLinker().downcallHandle(fn, descriptor);
    }

    /** Calls a C function pointer (the checker cannot type invokeExact's polymorphic signature). */
    private static int call(MethodHandle fn, Object... args) throws Throwable {
        return (Integer) fn.invokeWithArguments(args);
    }

    @Test
    void installRefusesATableOfAnotherVersionOrSizeSayingTheBuildsDiffer() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            assertThat(String.valueOf(ShimTable.install(
                    table(arena, ShimTable.ABI_VERSION + 1, ShimTable.LAYOUT.byteSize()).address())))
                    .contains("come from different builds");
            assertThat(String.valueOf(ShimTable.install(
                    table(arena, ShimTable.ABI_VERSION, ShimTable.LAYOUT.byteSize() - 8).address())))
                    .contains("come from different builds");
        }
    }

    @Test
    void installFillsEveryEntryWithAStubThatAnswersWithPortalsCodes() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment t = table(arena, ShimTable.ABI_VERSION, ShimTable.LAYOUT.byteSize());
            assertThat(ShimTable.install(t.address()) == null).as("install's complaint").isTrue();
            for (MemoryLayout member : ShimTable.LAYOUT.memberLayouts()) {
                if (member.equals(ADDRESS.withName(member.name().orElseThrow()))) {
                    assertThat(t.get(ADDRESS, ShimTable.LAYOUT.byteOffset(groupElement(member.name().orElseThrow()))))
                            .as(member.name().orElseThrow()).isNotEqualTo(MemorySegment.NULL);
                }
            }
            // PtlInit(NULL): PTL_SEGV; PtlNIFini before PtlInit: PTL_NOINIT; a rank that does not exist: -1.
            assertThat(call(entry(t, "init", FunctionDescriptor.of(JAVA_INT, JAVA_LONG)), 0L))
                    .isEqualTo(ReturnCode.SEGV.value());
            assertThat(call(entry(t, "ni_fini", FunctionDescriptor.of(JAVA_INT, JAVA_LONG)), 1L))
                    .isEqualTo(ReturnCode.NOINIT.value());
            assertThat(call(entry(t, "eq_wait", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG)), 1L, 0L))
                    .isEqualTo(ReturnCode.NOINIT.value());
            assertThat(call(entry(t, "rt_process_id", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG)), -1, 0L))
                    .isEqualTo(-1);
        }
    }

    @Test
    void the33EntriesReachTheirOwnUpcallsWhichAnswerWithPortalsCodes() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment t = table(arena, ShimTable.ABI_VERSION, ShimTable.LAYOUT.byteSize());
            assertThat(ShimTable.install(t.address()) == null).as("install's complaint").isTrue();
            assertThat(t.get(ADDRESS, ShimTable.LAYOUT.byteOffset(groupElement("init_33"))))
                    .as("a 3.3 entry of its own")
                    .isNotEqualTo(t.get(ADDRESS, ShimTable.LAYOUT.byteOffset(groupElement("init"))));
            // PtlInit(NULL): PTL_SEGV; before PtlInit: PTL_NO_INIT, also from the new functions
            assertThat(call(entry(t, "init_33", FunctionDescriptor.of(JAVA_INT, JAVA_LONG)), 0L))
                    .isEqualTo(ReturnCode.SEGV.value());
            assertThat(call(entry(t, "get_jid_33", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG)), 1L, 8L))
                    .isEqualTo(ReturnCode.NOINIT.value());
            assertThat(call(entry(t, "eq_poll_33", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT,
                    JAVA_LONG, JAVA_LONG)), 8L, 1, -1, 8L, 8L)).isEqualTo(ReturnCode.NOINIT.value());
            assertThat(call(entry(t, "put_region_33", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                    JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG)),
                    1L, 0L, 8L, 0, 0, 0, 0, 0, 0L, 0L, 0L)).isEqualTo(ReturnCode.NOINIT.value());
        }
    }

    @Test
    void exceptionsBecomeReturnCodesAtTheBoundary() {
        assertThat(Failures.code("PtlPut", new PortalsException(ReturnCode.INV_MD, "stale")))
                .isEqualTo(ReturnCode.INV_MD.value());
        assertThat(Failures.code("PtlMDBind", new OutOfMemoryError("Java heap space")))
                .isEqualTo(ReturnCode.NOSPACE.value());
        assertThat(Failures.code("PtlGet", new IllegalStateException("a bug"))).isEqualTo(ReturnCode.FAIL.value());
    }

    @Test
    void valuesOutsideTheirCEnumAreRecognised() {
        assertThat(CConstants.unlink(2) == null).as("ptl_unlink_t 2").isTrue();
        assertThat(CConstants.position(-1) == null).as("ptl_ins_pos_t -1").isTrue();
        assertThat(CConstants.ackRequest(1) == AckRequest.NOACK_REQ).as("PTL_NOACK_REQ").isTrue();
        assertThat(CConstants.maxOffsetFromC(-1)).isEqualTo(0xFFFF_FFFFL);
        assertThat(CConstants.maxOffsetToC(1L << 40)).isEqualTo(-1);
        assertThat(CConstants.timeoutFromC(-1)).as("PTL_TIME_FOREVER").isEqualTo(Portals33.TIME_FOREVER);
        assertThat(CConstants.timeoutFromC(Integer.MIN_VALUE)).as("2^31 ms, unsigned").isEqualTo(1L << 31);
    }
}
