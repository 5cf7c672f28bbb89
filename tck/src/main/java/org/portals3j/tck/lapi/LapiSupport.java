package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;

/** Calls the kit's LAPI tests share. */
final class LapiSupport {
    private LapiSupport() {
    }

    /** {@code call} fails with {@code error}: a {@link LapiException} carrying that code (catalogue L-101). */
    static void expectError(LapiError error, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LapiException.class,
                e -> assertThat(e.error()).as("the code of %s", String.valueOf(e.getMessage())).isEqualTo(error));
    }

    /** Amsend with the lengths of the segments given (0 for null). */
    static void send(LapiContext origin, int tgt, long hdrHdl, @Nullable MemorySegment uhdr,
                     @Nullable MemorySegment udata, long tgtCntr, @Nullable LapiCounter orgCntr,
                     @Nullable LapiCounter cmplCntr) {
        origin.amsend(tgt, hdrHdl, uhdr, uhdr == null ? 0 : (int) uhdr.byteSize(), udata,
                udata == null ? 0 : udata.byteSize(), tgtCntr, orgCntr, cmplCntr);
    }

    /** Whether the two segments hold the same bytes. */
    static boolean sameBytes(MemorySegment a, MemorySegment b) {
        return a.byteSize() == b.byteSize() && a.mismatch(b) == -1;
    }
}
