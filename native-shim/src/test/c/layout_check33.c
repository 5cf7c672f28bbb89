/*
 * layout_check33: layout_check for the Portals 3.3 dialect (compiled with -DPTL_DIALECT_33): what the C
 * compiler makes of the 3.3 structs (ptl_ni_limits_t, ptl_md_t, ptl_event_t; ptl_process_id_t is 3.2's)
 * and of every constant the 3.3 header defines, 3.3 names and the 3.2 names it keeps, in layout_check's
 * format, for LayoutTest to compare with CStructs33 and the Java values.
 */
#include <stddef.h>
#include <stdio.h>

#include <portals3.h>

#ifndef PTL_DIALECT_33
#error "layout_check33.c is compiled with -DPTL_DIALECT_33"
#endif

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
    FIELD(ptl_ni_limits_t, max_mes);
    FIELD(ptl_ni_limits_t, max_mds);
    FIELD(ptl_ni_limits_t, max_eqs);
    FIELD(ptl_ni_limits_t, max_ac_index);
    FIELD(ptl_ni_limits_t, max_pt_index);
    FIELD(ptl_ni_limits_t, max_md_iovecs);
    FIELD(ptl_ni_limits_t, max_me_list);
    FIELD(ptl_ni_limits_t, max_getput_md);

    STRUCT(ptl_md_t);
    FIELD(ptl_md_t, start);
    FIELD(ptl_md_t, length);
    FIELD(ptl_md_t, threshold);
    FIELD(ptl_md_t, max_size);
    FIELD(ptl_md_t, options);
    FIELD(ptl_md_t, user_ptr);
    FIELD(ptl_md_t, eq_handle);

    STRUCT(ptl_event_t);
    FIELD(ptl_event_t, type);
    FIELD(ptl_event_t, initiator);
    FIELD(ptl_event_t, uid);
    FIELD(ptl_event_t, jid);
    FIELD(ptl_event_t, pt_index);
    FIELD(ptl_event_t, match_bits);
    FIELD(ptl_event_t, rlength);
    FIELD(ptl_event_t, mlength);
    FIELD(ptl_event_t, offset);
    FIELD(ptl_event_t, md_handle);
    FIELD(ptl_event_t, md);
    FIELD(ptl_event_t, hdr_data);
    FIELD(ptl_event_t, link);
    FIELD(ptl_event_t, ni_fail_type);
    FIELD(ptl_event_t, sequence);

    /* return codes: the 3.3 names */
    CONST(PTL_OK); CONST(PTL_AC_INDEX_INVALID); CONST(PTL_EQ_DROPPED); CONST(PTL_EQ_EMPTY); CONST(PTL_EQ_INVALID);
    CONST(PTL_FAIL); CONST(PTL_HANDLE_INVALID); CONST(PTL_IFACE_INVALID); CONST(PTL_MD_ILLEGAL);
    CONST(PTL_MD_INVALID); CONST(PTL_MD_IN_USE); CONST(PTL_MD_NO_UPDATE); CONST(PTL_ME_INVALID);
    CONST(PTL_ME_IN_USE); CONST(PTL_ME_LIST_TOO_LONG); CONST(PTL_NI_INVALID); CONST(PTL_NO_INIT);
    CONST(PTL_NO_SPACE); CONST(PTL_PID_INVALID); CONST(PTL_PROCESS_INVALID); CONST(PTL_PT_FULL);
    CONST(PTL_PT_INDEX_INVALID); CONST(PTL_SEGV); CONST(PTL_SR_INDEX_INVALID);
    /* ... and the 3.2 names the 3.3 header keeps */
    CONST(PTL_AC_INV_INDEX); CONST(PTL_ILL_MD); CONST(PTL_INIT_DUP); CONST(PTL_INIT_INV); CONST(PTL_INUSE);
    CONST(PTL_INV_ASIZE); CONST(PTL_INV_EQ); CONST(PTL_INV_HANDLE); CONST(PTL_INV_MD); CONST(PTL_INV_ME);
    CONST(PTL_INV_NI); CONST(PTL_INV_PROC); CONST(PTL_INV_PTINDEX); CONST(PTL_INV_REG); CONST(PTL_INV_SR_INDX);
    CONST(PTL_ML_TOOLONG); CONST(PTL_MD_INUSE); CONST(PTL_NOINIT); CONST(PTL_NOSPACE); CONST(PTL_NOUPDATE);
    CONST(PTL_PT_INV_INDEX);
    /* enums */
    CONST(PTL_RETAIN); CONST(PTL_UNLINK); CONST(PTL_INS_BEFORE); CONST(PTL_INS_AFTER);
    CONST(PTL_ACK_REQ); CONST(PTL_NO_ACK_REQ); CONST(PTL_NOACK_REQ);
    CONST(PTL_EVENT_GET_START); CONST(PTL_EVENT_GET_END); CONST(PTL_EVENT_PUT_START); CONST(PTL_EVENT_PUT_END);
    CONST(PTL_EVENT_GETPUT_START); CONST(PTL_EVENT_GETPUT_END); CONST(PTL_EVENT_REPLY_START);
    CONST(PTL_EVENT_REPLY_END); CONST(PTL_EVENT_SEND_START); CONST(PTL_EVENT_SEND_END); CONST(PTL_EVENT_ACK);
    CONST(PTL_EVENT_UNLINK);
    /* other constants */
    CONST(PTL_EQ_NONE); CONST(PTL_MD_NONE); CONST(PTL_HANDLE_NONE); CONST(PTL_INVALID_HANDLE);
    CONST(PTL_IFACE_DEFAULT);
    printf("const PTL_EQ_HANDLER_NONE %lld\n", (long long) (intptr_t) PTL_EQ_HANDLER_NONE);
    CONST_I32(PTL_NID_ANY); CONST_I32(PTL_PID_ANY); CONST_I32(PTL_UID_ANY); CONST_I32(PTL_JID_ANY);
    CONST_I32(PTL_PT_INDEX_ANY); CONST_I32(PTL_TIME_FOREVER);
    CONST(PTL_MD_OP_PUT); CONST(PTL_MD_OP_GET); CONST(PTL_MD_MANAGE_REMOTE); CONST(PTL_MD_TRUNCATE);
    CONST(PTL_MD_ACK_DISABLE); CONST(PTL_MD_MAX_SIZE); CONST(PTL_MD_EVENT_START_DISABLE);
    CONST(PTL_MD_EVENT_END_DISABLE); CONST(PTL_MD_THRESH_INF);
    CONST(PTL_NI_OK); CONST(PTL_NI_FAIL); CONST(PTL_NI_PEER_DEAD); CONST(PTL_NI_MEMORY_FAULT);
    /* names (no PtlInit needed), for every value that names something and a few that do not */
    for (unsigned int v = 0; v < 32; v++) {
        printf("string PtlErrorStr %u %s\n", v, PtlErrorStr(v));
        printf("string PtlNIFailStr %u %s\n", v, PtlNIFailStr(PTL_INVALID_NI_FOR_NAMES, (ptl_ni_fail_t) v));
        printf("string PtlEventKindStr %u %s\n", v, PtlEventKindStr((ptl_event_kind_t) v));
    }
    return 0;
}
