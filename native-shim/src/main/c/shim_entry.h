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

/* The started table, or return `code` (the engine was never started, so PtlInit was never called). */
#define STARTED_OR_RETURN(code)                                         \
    const ptl_shim_table_t *t = ptl_shim_table_if_started();            \
    if (__builtin_expect(t == NULL, 0)) {                               \
        return (code);                                                  \
    }

#endif /* PORTALS3_SHIM_ENTRY_H */
