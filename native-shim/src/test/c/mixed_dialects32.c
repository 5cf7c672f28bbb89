/*
 * mixed_dialects32: the part of mixed_dialects compiled as Portals 3.2 (without -DPTL_DIALECT_33): a file
 * of a program whose other files were compiled with it.
 */
#include <stddef.h>

#include <portals3.h>

int init32(void) {
    int max_interfaces;
    return PtlInit(&max_interfaces);
}

int ni_init32(ptl_handle_ni_t *ni) {
    ptl_ni_limits_t actual;
    return PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &actual, ni);
}

void fini32(void) {
    PtlFini();
}
