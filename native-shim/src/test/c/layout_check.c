/*
 * layout_check: prints what the C compiler makes of every struct and constant the shim shares with the
 * Java side, one per line, for LayoutTest to compare with the FFM layouts (CStructs, ShimTable) and the
 * Java constants:
 *   struct NAME SIZE
 *   field NAME MEMBER OFFSET SIZE
 *   const NAME VALUE
 *   string FUNCTION VALUE TEXT       (PtlErrorStr, PtlNIFailStr, PtlEventKindStr of VALUE, 0..31)
 *   entry MEMBER (PARAMETERS)        (every member of the table, with its C parameters)
 * The table's members are printed from the list they are made from (shim_functions.h), so every one is
 * checked: its offset and size, and each of its parameters against the Java side's FunctionDescriptor.
 */
#include <stddef.h>
#include <stdio.h>

#include <portals3.h>
#include "shim_table.h"

#define STRUCT(type) printf("struct %s %zu\n", #type, sizeof(type))
#define FIELD(type, member) \
    printf("field %s %s %zu %zu\n", #type, #member, offsetof(type, member), sizeof(((type *) 0)->member))
#define CONST(name) printf("const %s %lld\n", #name, (long long) (name))
/* an all-ones 32-bit unsigned wildcard, as the signed int the Java side holds */
#define CONST_I32(name) printf("const %s %d\n", #name, (int) (int32_t) (name))
/* PtlNIFailStr's interface: any handle, it is not looked at */
#define PTL_INVALID_NI_FOR_NAMES ((ptl_handle_ni_t) 0x1234)

int main(void) {
    STRUCT(ptl_process_id_t);
    FIELD(ptl_process_id_t, nid);
    FIELD(ptl_process_id_t, pid);

    STRUCT(ptl_ni_limits_t);
    FIELD(ptl_ni_limits_t, max_match_entries);
    FIELD(ptl_ni_limits_t, max_mem_descriptors);
    FIELD(ptl_ni_limits_t, max_event_queues);
    FIELD(ptl_ni_limits_t, max_atable_index);
    FIELD(ptl_ni_limits_t, max_ptable_index);

    STRUCT(ptl_md_t);
    FIELD(ptl_md_t, start);
    FIELD(ptl_md_t, length);
    FIELD(ptl_md_t, threshold);
    FIELD(ptl_md_t, max_offset);
    FIELD(ptl_md_t, options);
    FIELD(ptl_md_t, user_ptr);
    FIELD(ptl_md_t, eventq);

    STRUCT(ptl_event_t);
    FIELD(ptl_event_t, type);
    FIELD(ptl_event_t, initiator);
    FIELD(ptl_event_t, uid);
    FIELD(ptl_event_t, portal);
    FIELD(ptl_event_t, match_bits);
    FIELD(ptl_event_t, rlength);
    FIELD(ptl_event_t, mlength);
    FIELD(ptl_event_t, offset);
    FIELD(ptl_event_t, md_handle);
    FIELD(ptl_event_t, mem_desc);
    FIELD(ptl_event_t, hdr_data);
    FIELD(ptl_event_t, link);
    FIELD(ptl_event_t, ni_fail_type);
    FIELD(ptl_event_t, sequence);

    STRUCT(ptl_shim_table_t);
    FIELD(ptl_shim_table_t, abi_version);
    FIELD(ptl_shim_table_t, table_size);
#define ENTRY(member, table_params)                                     \
    FIELD(ptl_shim_table_t, member);                                    \
    printf("entry %s %s\n", #member, #table_params);
#define ENTRY_32(form, member, Function, c_params, table_params, forwarded) ENTRY(member, table_params)
#define ENTRY_33(form, member, Function, c_params, table_params, forwarded) ENTRY(member##_33, table_params)
#define NO_ENTRY(form, member, Function, c_params, table_params, forwarded)
#define PTL_SHIM_BOTH ENTRY_32
#define PTL_SHIM_ONLY_32 ENTRY_32
#define PTL_SHIM_ONLY_33 NO_ENTRY
#define PTL_SHIM_RUNTIME(member, table_params)
#include "shim_functions.h"
#undef PTL_SHIM_BOTH
#undef PTL_SHIM_ONLY_32
#undef PTL_SHIM_ONLY_33
#define PTL_SHIM_BOTH ENTRY_33
#define PTL_SHIM_ONLY_32 NO_ENTRY
#define PTL_SHIM_ONLY_33 ENTRY_33
#include "shim_functions.h"
#undef PTL_SHIM_BOTH
#undef PTL_SHIM_ONLY_32
#undef PTL_SHIM_ONLY_33
#undef PTL_SHIM_RUNTIME
#define PTL_SHIM_BOTH NO_ENTRY
#define PTL_SHIM_ONLY_32 NO_ENTRY
#define PTL_SHIM_ONLY_33 NO_ENTRY
#define PTL_SHIM_RUNTIME ENTRY
#include "shim_functions.h"
    CONST(PTL_SHIM_ABI_VERSION);

    /* return codes */
    CONST(PTL_OK); CONST(PTL_AC_INV_INDEX); CONST(PTL_EQ_DROPPED); CONST(PTL_EQ_EMPTY); CONST(PTL_FAIL);
    CONST(PTL_ILL_MD); CONST(PTL_INIT_DUP); CONST(PTL_INIT_INV); CONST(PTL_INUSE); CONST(PTL_INV_ASIZE);
    CONST(PTL_INV_EQ); CONST(PTL_INV_HANDLE); CONST(PTL_INV_MD); CONST(PTL_INV_ME); CONST(PTL_INV_NI);
    CONST(PTL_INV_PROC); CONST(PTL_INV_PTINDEX); CONST(PTL_INV_REG); CONST(PTL_INV_SR_INDX);
    CONST(PTL_ML_TOOLONG); CONST(PTL_MD_INUSE); CONST(PTL_NOINIT); CONST(PTL_NOSPACE); CONST(PTL_NOUPDATE);
    CONST(PTL_PT_FULL); CONST(PTL_SEGV); CONST(PTL_PT_INV_INDEX);
    /* enums */
    CONST(PTL_RETAIN); CONST(PTL_UNLINK); CONST(PTL_INS_BEFORE); CONST(PTL_INS_AFTER);
    CONST(PTL_ACK_REQ); CONST(PTL_NOACK_REQ);
    CONST(PTL_EVENT_GET_START); CONST(PTL_EVENT_GET_END); CONST(PTL_EVENT_GET_FAIL);
    CONST(PTL_EVENT_PUT_START); CONST(PTL_EVENT_PUT_END); CONST(PTL_EVENT_PUT_FAIL);
    CONST(PTL_EVENT_REPLY_START); CONST(PTL_EVENT_REPLY_END); CONST(PTL_EVENT_REPLY_FAIL);
    CONST(PTL_EVENT_SEND_START); CONST(PTL_EVENT_SEND_END); CONST(PTL_EVENT_SEND_FAIL);
    CONST(PTL_EVENT_ACK); CONST(PTL_EVENT_UNLINK);
    /* other constants */
    CONST(PTL_EQ_NONE); CONST(PTL_MD_NONE); CONST(PTL_IFACE_DEFAULT);
    CONST_I32(PTL_NID_ANY); CONST_I32(PTL_PID_ANY); CONST_I32(PTL_UID_ANY); CONST_I32(PTL_PT_INDEX_ANY);
    CONST(PTL_MD_OP_PUT); CONST(PTL_MD_OP_GET); CONST(PTL_MD_MANAGE_REMOTE); CONST(PTL_MD_TRUNCATE);
    CONST(PTL_MD_ACK_DISABLE); CONST(PTL_MD_THRESH_INF);
    CONST(PTL_SR_DROP_COUNT); CONST(PTL_SR_DROP_INV_PORTAL); CONST(PTL_SR_DROP_ACL); CONST(PTL_SR_DROP_NO_MATCH);
    CONST(PTL_SR_DROP_STALE_MD); CONST(PTL_SR_DROP_ACK_NO_EQ); CONST(PTL_SR_DROP_WRONG_PID);
    CONST(PTL_SR_DROP_MALFORMED); CONST(PTL_SR_EVENTS_DROPPED); CONST(PTL_SR_PUTS_RECEIVED);
    CONST(PTL_SR_GETS_RECEIVED); CONST(PTL_SR_BYTES_RECEIVED); CONST(PTL_SR_BYTES_SENT); CONST(PTL_SR_SENDS_LOST);
    CONST(PTL_NI_OK); CONST(PTL_NI_FAIL); CONST(PTL_NI_PEER_DEAD); CONST(PTL_NI_MEMORY_FAULT);
    /* names (no PtlInit needed), for every value that names something and a few that do not */
    for (unsigned int v = 0; v < 32; v++) {
        printf("string PtlErrorStr %u %s\n", v, PtlErrorStr(v));
        printf("string PtlNIFailStr %u %s\n", v, PtlNIFailStr(PTL_INVALID_NI_FOR_NAMES, (ptl_ni_fail_t) v));
        printf("string PtlEventKindStr %u %s\n", v, PtlEventKindStr((ptl_event_kind_t) v));
    }
    return 0;
}
