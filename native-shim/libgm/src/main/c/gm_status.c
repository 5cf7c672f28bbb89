/*
 * gm_status.c: gm_strerror, one line per gm_status_t (the meanings of gm-libfabric.md section 1.4).
 */
#include "gm_internal.h"

static const char *const messages[] = {
    [GM_SUCCESS] = "success",
    [GM_FAILURE] = "failure",
    [GM_INPUT_BUFFER_TOO_SMALL] = "input buffer too small",
    [GM_OUTPUT_BUFFER_TOO_SMALL] = "output buffer too small",
    [GM_TRY_AGAIN] = "try again",
    [GM_BUSY] = "busy",
    [GM_MEMORY_FAULT] = "memory fault (not DMA-able memory of this port)",
    [GM_INTERRUPTED] = "interrupted",
    [GM_INVALID_PARAMETER] = "invalid parameter",
    [GM_OUT_OF_MEMORY] = "out of memory",
    [GM_INVALID_COMMAND] = "invalid command",
    [GM_PERMISSION_DENIED] = "permission denied",
    [GM_INTERNAL_ERROR] = "internal error",
    [GM_UNATTACHED] = "unattached",
    [GM_UNSUPPORTED_DEVICE] = "unsupported device",
    [GM_SEND_TIMED_OUT] = "send timed out (the target had no buffer of that size and priority)",
    [GM_SEND_REJECTED] = "send rejected (size not acceptable at the target)",
    [GM_SEND_TARGET_PORT_CLOSED] = "send failed: target port closed",
    [GM_SEND_TARGET_NODE_UNREACHABLE] = "send failed: target node unreachable",
    [GM_SEND_DROPPED] = "send dropped (gm_drop_sends)",
    [GM_SEND_PORT_CLOSED] = "send failed: port closed",
    [GM_NODE_ID_NOT_YET_SET] = "node id not set (GM_SHIM_NODE_ID)",
    [GM_STILL_SHUTTING_DOWN] = "still shutting down",
    [GM_CLONE_BUSY] = "clone busy",
    [GM_NO_SUCH_DEVICE] = "no such device (unit or libfabric provider)",
    [GM_ABORTED] = "aborted",
    [GM_INCOMPATIBLE_LIB_AND_DRIVER] = "incompatible library and driver",
    [GM_UNTRANSLATED_SYSTEM_ERROR] = "untranslated system error",
    [GM_ACCESS_DENIED] = "access denied",
    [GM_NO_DRIVER_SUPPORT] = "no driver support",
    [GM_PTE_REF_CNT_OVERFLOW] = "page table entry reference count overflow",
    [GM_NOT_SUPPORTED_IN_KERNEL] = "not supported in kernel",
    [GM_NOT_SUPPORTED_ON_ARCH] = "not supported here",
    [GM_NO_MATCH] = "no match",
    [GM_USER_ERROR] = "user error",
    [GM_TIMED_OUT] = "timed out",
    [GM_DATA_CORRUPTED] = "data corrupted",
    [GM_HARDWARE_FAULT] = "hardware fault",
    [GM_SEND_ORPHANED] = "send orphaned",
    [GM_MINOR_OVERFLOW] = "minor overflow",
    [GM_PAGE_TABLE_FULL] = "page table full",
    [GM_UC_ERROR] = "uc error",
    [GM_INVALID_PORT_NUMBER] = "invalid port number (use 0..7)",
    [GM_DEV_NOT_FOUND] = "device not found",
    [GM_FIRMWARE_NOT_RUNNING] = "firmware not running",
    [GM_YP_NO_MATCH] = "yp: no match",
    [GM_SRAM_PARITY_ERROR] = "sram parity error",
    [GM_FIRMWARE_ABORT] = "firmware abort",
};

GMI_API const char *gm_strerror(gm_status_t status) {
    unsigned i = (unsigned) status;
    return i < sizeof messages / sizeof messages[0] && messages[i] != NULL ? messages[i] : "unknown gm status";
}
