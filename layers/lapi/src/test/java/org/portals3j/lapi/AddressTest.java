package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Addr_set/Addr_get, handler addresses and Address_init (LAPI_Addr_set, LAPI_Address_init man pages; the package
 * documentation's addresses).
 */
class AddressTest {

    @Test
    void theIndexRangeIsOneToTableSizeMinusOne() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiContext c = job.task(0);
            int size = (int) c.qenv(LapiQuery.LOC_ADDRTBL_SZ);
            HeaderHandler h = (ctx, uhdr, info) -> null;
            for (int bad : new int[] {0, -1, size}) {
                assertThatThrownBy(() -> c.addrSet(h, bad)).isInstanceOfSatisfying(LapiException.class,
                        e -> assertThat(e.error()).isEqualTo(LapiError.ADDR_HNDL_RANGE));
                assertThatThrownBy(() -> c.addrGet(bad)).isInstanceOfSatisfying(LapiException.class,
                        e -> assertThat(e.error()).isEqualTo(LapiError.ADDR_HNDL_RANGE));
            }
            c.addrSet(h, size - 1);
            assertThat(c.addrGet(size - 1)).isSameAs(h);
            c.addrSet(null, size - 1);
            assertThat(c.addrGet(size - 1)).isNull();
        }
    }

    @Test
    void anIndexRunsTheTargetsHandlerAndReRegisteringReplacesIt() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            List<String> ran = new CopyOnWriteArrayList<>();
            job.task(0).addrSet((ctx, uhdr, info) -> {
                ran.add("origin's");
                return null;
            }, 5);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                ran.add("target's");
                return null;
            }, 5);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 5, null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                ran.add("replaced");
                return null;
            }, 5);
            job.task(0).amsend(1, 5, null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(ran).containsExactly("target's", "replaced");
        }
    }

    @Test
    void addressInitExchangesHandlerAddressesThatAreNeverIndices() throws Exception {
        int n = 3;
        try (LapiJob job = LapiJob.start(n)) {
            List<Integer> ranOn = new CopyOnWriteArrayList<>();
            HeaderHandler[] handlers = new HeaderHandler[n];
            long[][] tables = new long[n][n];
            for (int r = 0; r < n; r++) {
                int me = r;
                handlers[r] = (ctx, uhdr, info) -> {
                    ranOn.add(me);
                    return null;
                };
            }
            job.onAll(r -> job.task(r).addressInit(job.task(r).address(handlers[r]), tables[r]));
            for (int r = 0; r < n; r++) {
                assertThat(tables[r]).isEqualTo(tables[0]);
                assertThat(tables[0][r]).isEqualTo(job.task(r).address(handlers[r]));
                assertThat(tables[0][r]).isGreaterThanOrEqualTo(1L << 32);
            }
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(2, tables[0][2], null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(ranOn).containsExactly(2);
            job.onAll(r -> job.task(r).addressInit(r == 1 ? 77 : 0, tables[r]));
            assertThat(tables[2]).containsExactly(0, 77, 0);
        }
    }

    @Test
    void addressInitRefusesANullOrShortTable() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            assertThatThrownBy(() -> job.task(0).addressInit(1, null)).isInstanceOfSatisfying(LapiException.class,
                    e -> assertThat(e.error()).isEqualTo(LapiError.RET_PTR_NULL));
            assertThatThrownBy(() -> job.task(0).addressInit(1, new long[1]))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
