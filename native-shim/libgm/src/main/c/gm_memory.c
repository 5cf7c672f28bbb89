/*
 * gm_memory.c: DMA-able memory. Each port has one arena (an anonymous mapping registered once for local and
 * remote access, carved by a buddy allocator in 64-byte units: gm_dma_malloc costs no fi_mr_reg) and a bounded
 * table of explicit registrations (gm_register_memory, gmx_register).
 *
 * Keys (gm-libfabric.md sections 2.4 and 2.6: no provider here returns FI_MR_PROV_KEY, so the application picks
 * them, unique per domain): key = (16-bit counter << 48) | the region's start address. A peer holding (address,
 * key) can so compute the offset libfabric wants when the provider lacks FI_MR_VIRT_ADDR (address - low 48 bits
 * of the key), without any table of the target's regions.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include "gm_internal.h"

#define UNIT 64u
#define FREE_BIT 0x80u
#define ADDRESS_MASK 0x0000ffffffffffffull

struct free_block {
    struct free_block *next, *prev;
};

static bool key_in_use(struct gm_port *p, uint64_t key) {
    if (p->arena.reg.mr != NULL && p->arena.reg.key == key) {
        return true;
    }
    if (p->ctl_reg.mr != NULL && p->ctl_reg.key == key) {
        return true;
    }
    for (unsigned i = 0; i < p->reg_count; i++) {
        if (p->regs[i].key == key) {
            return true;
        }
    }
    return false;
}

gm_status_t gmi_mr_register(struct gm_port *p, void *address, gm_size_t length, struct gmi_reg *reg) {
    uint64_t key;
    do {
        p->key_counter = (uint16_t) (p->key_counter + 1 == 0 ? 1 : p->key_counter + 1);
        key = (uint64_t) p->key_counter << 48 | ((uint64_t) (uintptr_t) address & ADDRESS_MASK);
    } while (key_in_use(p, key));
    uint64_t access = FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    int rc = fi_mr_reg(p->domain, address, length, access, 0, key, 0, &reg->mr, NULL);
    if (rc != 0) {
        gmi_set_error("fi_mr_reg", rc);
        reg->mr = NULL;
        return rc == -FI_ENOMEM ? GM_OUT_OF_MEMORY : GM_FAILURE;
    }
    reg->address = address;
    reg->length = length;
    reg->key = fi_mr_key(reg->mr);
    reg->desc = fi_mr_desc(reg->mr);
    return GM_SUCCESS;
}

void gmi_mr_close(struct gmi_reg *reg) {
    if (reg->mr != NULL) {
        int rc = fi_close(&reg->mr->fid);
        if (rc != 0) {
            gmi_set_error("fi_close(memory region)", rc);
        }
        reg->mr = NULL;
    }
}

static bool covers(const struct gmi_reg *reg, const void *address, gm_size_t length) {
    uintptr_t a = (uintptr_t) address, base = (uintptr_t) reg->address;
    return reg->mr != NULL && a >= base && a - base <= reg->length && length <= reg->length - (a - base);
}

bool gmi_desc(struct gm_port *p, const void *address, gm_size_t length, void **desc) {
    if (covers(&p->arena.reg, address, length)) {
        *desc = p->arena.reg.desc;
        return true;
    }
    for (unsigned i = 0; i < p->reg_count; i++) {
        if (covers(&p->regs[i], address, length)) {
            *desc = p->regs[i].desc;
            return true;
        }
    }
    *desc = NULL;
    return false;
}

/* ---- the arena: a buddy allocator over 64-byte units --------------------------------------------------- */

static void free_push(struct gmi_arena *a, unsigned order, size_t unit) {
    struct free_block *b = (struct free_block *) (a->base + unit * UNIT);
    b->prev = NULL;
    b->next = a->free_lists[order];
    if (b->next != NULL) {
        b->next->prev = b;
    }
    a->free_lists[order] = b;
    a->orders[unit] = (uint8_t) (order | FREE_BIT);
}

static void free_remove(struct gmi_arena *a, unsigned order, size_t unit) {
    struct free_block *b = (struct free_block *) (a->base + unit * UNIT);
    if (b->prev != NULL) {
        b->prev->next = b->next;
    } else {
        a->free_lists[order] = b->next;
    }
    if (b->next != NULL) {
        b->next->prev = b->prev;
    }
    a->orders[unit] = 0;
}

gm_status_t gmi_arena_open(struct gm_port *p, gm_size_t length) {
    struct gmi_arena *a = &p->arena;
    unsigned order = 0;
    while (((gm_size_t) UNIT << (order + 1)) <= length && order < 30) {
        order++;
    }
    a->max_order = order;
    a->length = (gm_size_t) UNIT << order;
    void *base = mmap(NULL, a->length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    a->orders = calloc((size_t) 1 << order, 1);
    if (base == MAP_FAILED || a->orders == NULL) {
        if (base != MAP_FAILED) {
            munmap(base, a->length);
        }
        gmi_set_message("cannot map the DMA arena: lower GM_SHIM_ARENA_MB");
        return GM_OUT_OF_MEMORY;
    }
    a->base = base;
    free_push(a, order, 0);
    return gmi_mr_register(p, a->base, a->length, &a->reg);
}

void gmi_arena_close(struct gm_port *p) {
    struct gmi_arena *a = &p->arena;
    gmi_mr_close(&a->reg);
    if (a->base != NULL) {
        munmap(a->base, a->length);
        a->base = NULL;
    }
    free(a->orders);
    a->orders = NULL;
}

GMI_API void *gm_dma_malloc(struct gm_port *p, gm_size_t length) {
    if (p == NULL || length == 0) {
        return NULL;
    }
    pthread_mutex_lock(&p->lock);
    struct gmi_arena *a = &p->arena;
    unsigned want = 0;
    while (((gm_size_t) UNIT << want) < length && want <= a->max_order) {
        want++;
    }
    unsigned order = want;
    while (order <= a->max_order && a->free_lists[order] == NULL) {
        order++;
    }
    void *result = NULL;
    if (order <= a->max_order) {
        size_t unit = (size_t) ((uint8_t *) a->free_lists[order] - a->base) / UNIT;
        free_remove(a, order, unit);
        while (order > want) { /* split: keep the low half, free the high half */
            order--;
            free_push(a, order, unit + ((size_t) 1 << order));
        }
        a->orders[unit] = (uint8_t) (order + 1);
        result = a->base + unit * UNIT;
    }
    pthread_mutex_unlock(&p->lock);
    return result;
}

GMI_API void *gm_dma_calloc(struct gm_port *p, gm_size_t count, gm_size_t length) {
    if (count != 0 && length > (gm_size_t) -1 / count) {
        return NULL;
    }
    void *result = gm_dma_malloc(p, count * length);
    if (result != NULL) {
        memset(result, 0, count * length);
    }
    return result;
}

GMI_API void gm_dma_free(struct gm_port *p, void *address) {
    if (p == NULL || address == NULL) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    struct gmi_arena *a = &p->arena;
    uintptr_t offset = (uintptr_t) address - (uintptr_t) a->base;
    size_t unit = offset / UNIT;
    if ((uint8_t *) address >= a->base && offset < a->length && offset % UNIT == 0 && a->orders[unit] != 0
        && (a->orders[unit] & FREE_BIT) == 0) {
        unsigned order = a->orders[unit] - 1u;
        a->orders[unit] = 0;
        while (order < a->max_order) { /* merge with the buddy while it is free and whole */
            size_t buddy = unit ^ ((size_t) 1 << order);
            if (a->orders[buddy] != (uint8_t) (order | FREE_BIT)) {
                break;
            }
            free_remove(a, order, buddy);
            unit = unit < buddy ? unit : buddy;
            order++;
        }
        free_push(a, order, unit);
    }
    pthread_mutex_unlock(&p->lock);
}

/* ---- registrations -------------------------------------------------------------------------------------- */

static gm_status_t register_region(struct gm_port *p, void *address, gm_size_t length, uint64_t *key) {
    if (p == NULL || address == NULL || length == 0) {
        gmi_set_message("register: address must not be NULL and length not 0");
        return GM_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&p->lock);
    gm_status_t status = GM_OUT_OF_MEMORY;
    if (p->reg_count == GMI_MAX_REGS) {
        gmi_set_message("register: 256 registrations on this port already; deregister some first");
    } else {
        struct gmi_reg reg = {0};
        status = gmi_mr_register(p, address, length, &reg);
        if (status == GM_SUCCESS) {
            p->regs[p->reg_count++] = reg;
            if (key != NULL) {
                *key = reg.key;
            }
        }
    }
    pthread_mutex_unlock(&p->lock);
    return status;
}

GMI_API gm_status_t gm_register_memory(struct gm_port *p, void *ptr, gm_size_t length) {
    return register_region(p, ptr, length, NULL);
}

GMI_API gm_status_t gmx_register(struct gm_port *p, void *address, gm_size_t length, uint64_t *key) {
    if (key == NULL) {
        return GM_INVALID_PARAMETER;
    }
    return register_region(p, address, length, key);
}

GMI_API gm_status_t gm_deregister_memory(struct gm_port *p, void *ptr, gm_size_t length) {
    if (p == NULL) {
        return GM_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&p->lock);
    gm_status_t status = GM_INVALID_PARAMETER;
    for (unsigned i = p->reg_count; i-- > 0;) { /* the newest first: overlapping registrations of one range */
        if (p->regs[i].address == ptr && p->regs[i].length == length) {
            gmi_mr_close(&p->regs[i]);
            p->regs[i] = p->regs[--p->reg_count];
            status = GM_SUCCESS;
            break;
        }
    }
    if (status != GM_SUCCESS) {
        gmi_set_message("deregister: no registration with exactly this address and length");
    }
    pthread_mutex_unlock(&p->lock);
    return status;
}

void gmi_regs_close(struct gm_port *p) {
    for (unsigned i = 0; i < p->reg_count; i++) {
        gmi_mr_close(&p->regs[i]);
    }
    p->reg_count = 0;
}

GMI_API gm_status_t gm_allow_remote_memory_access(struct gm_port *p) {
    if (p == NULL) {
        return GM_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&p->lock);
    p->remote_access = true;
    gmi_tell_peers(p);
    pthread_mutex_unlock(&p->lock);
    return GM_SUCCESS;
}
