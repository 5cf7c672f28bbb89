/*
 * shim_entry.h (internal, not installed): what the entry points of shim.c (Portals 3.2) and shim33.c
 * (Portals 3.3) share: exporting them, passing pointers as addresses, and answering before the engine is
 * started.
 */
#ifndef PORTALS3_SHIM_ENTRY_H
#define PORTALS3_SHIM_ENTRY_H

#include <stdint.h>

#include "shim_table.h"

#define PTL_EXPORT __attribute__((visibility("default")))
#define ADDR(p) ((uint64_t) (uintptr_t) (p))

/* The started table, or return `code` (the engine was never started, so PtlInit was never called), or
 * PTL_FAIL in a process forked after it was (ptl_shim_not_started). */
#define STARTED_OR_RETURN(code)                                         \
    const ptl_shim_table_t *t = ptl_shim_table_if_started();            \
    if (__builtin_expect(t == NULL, 0)) {                               \
        return ptl_shim_not_started((code), __func__);                  \
    }                                                                   \
    PTL_SHIM_ATTACHED();

/* The name of a ptl_ni_fail_t value (the same in both dialects): PtlNIFailStr of either. */
static inline const char *ptl_shim_ni_fail_name(uint32_t ni_fail) {
    switch (ni_fail) {
        case 0: return "PTL_NI_OK";
        case 1: return "PTL_NI_FAIL";
        case 2: return "PTL_NI_PEER_DEAD";
        case 3: return "PTL_NI_MEMORY_FAULT";
        default: return "PTL_NI_UNKNOWN_ERROR";
    }
}

#endif /* PORTALS3_SHIM_ENTRY_H */
