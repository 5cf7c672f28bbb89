/*
 * mixed_dialects: a program whose files were compiled for different dialects (this one with
 * -DPTL_DIALECT_33, mixed_dialects32.c without). The first PtlInit chooses the process's dialect; a call
 * compiled for the other one returns PTL_FAIL, and libportals3 says on stderr (once per function) that every
 * file must be compiled with the same setting of PTL_DIALECT_33. Calls of the chosen dialect go on working.
 *   mixed_dialects 33   the 3.3 PtlInit comes first
 *   mixed_dialects 32   the 3.2 PtlInit comes first
 */
#include "ptltest.h"

int init32(void);
int ni_init32(ptl_handle_ni_t *ni);
void fini32(void);

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    CHECK(argc == 2);
    int max_interfaces;
    ptl_handle_ni_t ni;
    ptl_ni_limits_t actual;
    ptl_jid_t jid;
    if (strcmp(argv[1], "33") == 0) {
        OK(PtlInit(&max_interfaces));
        CHECK_RC(PTL_FAIL, ni_init32(&ni));
        CHECK_RC(PTL_FAIL, ni_init32(&ni)); /* said once */
        CHECK_RC(PTL_FAIL, init32());
        OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &actual, &ni));
        OK(PtlGetJid(ni, &jid));
        fini32(); /* the 3.3 library is not finalised by a 3.2 PtlFini */
        OK(PtlGetJid(ni, &jid));
        PtlFini();
        CHECK_RC(PTL_NO_INIT, PtlGetJid(ni, &jid));
        CHECK_RC(PTL_FAIL, ni_init32(&ni)); /* the process stays a 3.3 one */
    } else {
        CHECK(strcmp(argv[1], "32") == 0);
        OK(init32());
        CHECK_RC(PTL_FAIL, PtlInit(&max_interfaces));
        CHECK_RC(PTL_FAIL, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &actual, &ni));
        OK(ni_init32(&ni));
        CHECK_RC(PTL_FAIL, PtlGetJid(ni, &jid));
        CHECK(PtlHandleIsEqual(ni, ni)); /* needs no library of either dialect */
        fini32();
    }
    printf("mixed_dialects: %s first: passed\n", argv[1]);
    return 0;
}
