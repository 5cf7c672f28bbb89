/*
 * lapi_layout: prints what the C compiler makes of lapi.h's shared structs and numbers, one per line, for
 * LapiLayoutTest to compare with the FFM layouts (LapiStructs) and the Java layer's constants (LapiError,
 * LapiQuery, RetFlag), in the format of layout_check.c:
 *   struct NAME SIZE / field NAME MEMBER OFFSET SIZE / const NAME VALUE
 * It needs no LAPI_Init (it starts no engine).
 */
#include <stddef.h>
#include <stdio.h>

#include <lapi.h>

#define STRUCT(type) printf("struct %s %zu\n", #type, sizeof(type))
#define FIELD(type, member) \
    printf("field %s %s %zu %zu\n", #type, #member, offsetof(type, member), sizeof(((type *) 0)->member))
#define CONST(name) printf("const %s %lld\n", #name, (long long) (name))

int main(void) {
    STRUCT(lapi_cntr_t);
    FIELD(lapi_cntr_t, cntr);
    FIELD(lapi_cntr_t, lapi_reserved);

    STRUCT(lapi_return_info_t);
    FIELD(lapi_return_info_t, msg_len);
    FIELD(lapi_return_info_t, ret_flags);
    FIELD(lapi_return_info_t, ctl_flags);
    FIELD(lapi_return_info_t, udata_one_pkt_ptr);
    FIELD(lapi_return_info_t, src);
    FIELD(lapi_return_info_t, reason);
    FIELD(lapi_return_info_t, bytes);
    FIELD(lapi_return_info_t, dgsp_handle);

    STRUCT(lapi_info_t);
    FIELD(lapi_info_t, protocol);
    FIELD(lapi_info_t, lib_vers);
    FIELD(lapi_info_t, epoch_num);
    FIELD(lapi_info_t, num_compl_hndlr_thr);
    FIELD(lapi_info_t, instance_no);
    FIELD(lapi_info_t, info6);
    FIELD(lapi_info_t, err_hndlr);
    FIELD(lapi_info_t, lapi_thread_attr);
    FIELD(lapi_info_t, adapter_name);
    FIELD(lapi_info_t, add_info);

    CONST(LAPI_SUCCESS);
    CONST(LAPI_ERR_HNDL_INVALID);
    CONST(LAPI_ERR_TGT);
    CONST(LAPI_ERR_HDR_HNDLR_NULL);
    CONST(LAPI_ERR_UHDR_NULL);
    CONST(LAPI_ERR_UHDR_LEN);
    CONST(LAPI_ERR_ORG_ADDR_NULL);
    CONST(LAPI_ERR_DATA_LEN);
    CONST(LAPI_ERR_TGT_PURGED);
    CONST(LAPI_ERR_CNTR_NULL);
    CONST(LAPI_ERR_RET_PTR_NULL);
    CONST(LAPI_ERR_ADDR_HNDL_RANGE);
    CONST(LAPI_ERR_TGT_ADDR_NULL);
    CONST(LAPI_ERR_QUERY_TYPE);
    CONST(LAPI_ERR_SET_VAL);
    CONST(LAPI_ERR_INFO_NULL);
    CONST(LAPI_ERR_ALL_HNDL_IN_USE);
    CONST(LAPI_ERR_MEMORY_EXHAUSTED);
    CONST(LAPI_ERR_BLOCKING_IN_HANDLER);
    CONST(LAPI_ERR_UNKNOWN);

    CONST(TASK_ID);
    CONST(NUM_TASKS);
    CONST(MAX_UHDR_SZ);
    CONST(MAX_DATA_SZ);
    CONST(LOC_ADDRTBL_SZ);
    CONST(ERROR_CHK);
    CONST(INTERRUPT_SET);
    CONST(PKT_PAYLOAD_SZ);

    CONST(LAPI_NORMAL);
    CONST(LAPI_SEND_REPLY);
    CONST(LAPI_LOCAL_STATE);
    CONST(LAPI_BURY_MSG);
    CONST(GET_ERR);
    CONST(PUT_ERR);
    CONST(RMW_ERR);
    CONST(AM_ERR);
    CONST(INT_ERR);
    return 0;
}
