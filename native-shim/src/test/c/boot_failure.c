/*
 * boot_failure: when the Java engine cannot be started (no JDK, no classes), PtlInit prints what to do
 * on stderr and returns PTL_FAIL, ptl_rt_* return a negative value, and the other functions
 * PTL_NOINIT; the program goes on and decides for itself (here: it reports and exits 0).
 */
#include "ptltest.h"

int main(void) {
    int max_interfaces = -7;
    ptl_ni_limits_t limits;
    ptl_handle_ni_t ni;
    CHECK_RC(PTL_FAIL, PtlInit(&max_interfaces));
    CHECK(max_interfaces == -7);
    CHECK_RC(PTL_FAIL, PtlInit(&max_interfaces)); /* not retried: the same answer */
    CHECK_RC(PTL_NOINIT, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &ni));
    CHECK(ptl_rt_rank() < 0);
    CHECK(ptl_rt_size() < 0);
    CHECK(ptl_rt_barrier() < 0);
    PtlFini();
    printf("boot_failure: reported\n");
    return 0;
}
