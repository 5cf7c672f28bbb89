package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals33;
import org.portals3j.shim.internal.CDialect;

/** Each dialect's binding reads and writes its own structs and gives its own answers where the dialects differ. */
class DialectBindingTest {

    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(groupElement(field));
    }

    @Test
    void eachBindingIsItsDialect() {
        assertThat(DialectBinding.PORTALS_3_2.dialect()).isEqualTo(CDialect.PORTALS_3_2);
        assertThat(DialectBinding.PORTALS_3_3.dialect()).isEqualTo(CDialect.PORTALS_3_3);
    }

    @Test
    void onlyPortals33AcceptsANullActualAndHasEventHandlers() {
        assertThat(DialectBinding.PORTALS_3_2.acceptsNullActual()).isFalse();
        assertThat(DialectBinding.PORTALS_3_3.acceptsNullActual()).isTrue();
        assertThat(DialectBinding.PORTALS_3_2.hasEventHandlers()).isFalse();
        assertThat(DialectBinding.PORTALS_3_3.hasEventHandlers()).isTrue();
    }

    @Test
    void eachBindingWritesTheLimitsStructOfItsDialect() {
        try (Arena arena = Arena.ofConfined()) {
            NiLimits limits = new NiLimits(10, 20, 30, 40, 50);
            MemorySegment c32 = arena.allocate(CStructs33.NI_LIMITS); // the larger struct: 3.2's leaves the rest
            DialectBinding.PORTALS_3_2.writeLimits(c32.address(), limits);
            assertThat(c32.get(JAVA_INT, offset(CStructs.NI_LIMITS, "max_ptable_index"))).isEqualTo(50);
            assertThat(c32.get(JAVA_INT, offset(CStructs33.NI_LIMITS, "max_getput_md"))).isZero();
            assertThat(DialectBinding.PORTALS_3_2.readLimits(c32.address())).isEqualTo(limits);

            MemorySegment c33 = arena.allocate(CStructs33.NI_LIMITS);
            DialectBinding.PORTALS_3_3.writeLimits(c33.address(), limits);
            assertThat(c33.get(JAVA_INT, offset(CStructs33.NI_LIMITS, "max_pt_index"))).isEqualTo(50);
            assertThat(c33.get(JAVA_INT, offset(CStructs33.NI_LIMITS, "max_getput_md")))
                    .isEqualTo(Portals33.MAX_GETPUT_MD);
            assertThat(DialectBinding.PORTALS_3_3.readLimits(c33.address())).isEqualTo(limits);
        }
    }

    @Test
    void eachBindingReadsAndWritesTheMdStructOfItsDialect() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment md32 = arena.allocate(CStructs.MD);
            md32.set(JAVA_LONG, offset(CStructs.MD, "length"), 64L);
            md32.set(JAVA_INT, offset(CStructs.MD, "max_offset"), 48);
            md32.set(JAVA_LONG, offset(CStructs.MD, "eventq"), 7L);
            MemoryDescriptor read32 = DialectBinding.PORTALS_3_2.readMd(md32.address());
            assertThat(read32.maxOffset()).isEqualTo(48L);
            assertThat(read32.eventq().value()).isEqualTo(7L);

            MemorySegment md33 = arena.allocate(CStructs33.MD);
            md33.set(JAVA_LONG, offset(CStructs33.MD, "length"), 64L);
            md33.set(JAVA_LONG, offset(CStructs33.MD, "max_size"), 16L);
            md33.set(JAVA_LONG, offset(CStructs33.MD, "eq_handle"), 9L);
            MemoryDescriptor read33 = DialectBinding.PORTALS_3_3.readMd(md33.address());
            assertThat(read33.maxSize()).isEqualTo(16L);
            assertThat(read33.eventq().value()).isEqualTo(9L);

            MemorySegment out33 = arena.allocate(CStructs33.MD);
            DialectBinding.PORTALS_3_3.writeMd(out33.address(), read33);
            assertThat(out33.get(JAVA_LONG, offset(CStructs33.MD, "max_size"))).isEqualTo(16L);
            MemorySegment out32 = arena.allocate(CStructs.MD);
            DialectBinding.PORTALS_3_2.writeMd(out32.address(), read32);
            assertThat(out32.get(JAVA_INT, offset(CStructs.MD, "max_offset"))).isEqualTo(48);
        }
    }
}
