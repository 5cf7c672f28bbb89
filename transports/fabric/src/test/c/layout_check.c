/* Prints sizeof and offsetof of every struct the Java binding reads, as "struct size N" and "struct.field N". */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>

#define S(s) printf(#s " size %zu\n", sizeof(struct s))
#define F(s, f) printf(#s "." #f " %zu\n", offsetof(struct s, f))

int main(void)
{
    S(fi_info); F(fi_info, next); F(fi_info, caps); F(fi_info, mode); F(fi_info, addr_format);
    F(fi_info, src_addrlen); F(fi_info, dest_addrlen); F(fi_info, src_addr); F(fi_info, dest_addr);
    F(fi_info, handle); F(fi_info, tx_attr); F(fi_info, rx_attr); F(fi_info, ep_attr); F(fi_info, domain_attr);
    F(fi_info, fabric_attr); F(fi_info, nic);
    S(fi_tx_attr); F(fi_tx_attr, caps); F(fi_tx_attr, mode); F(fi_tx_attr, op_flags); F(fi_tx_attr, msg_order);
    F(fi_tx_attr, comp_order); F(fi_tx_attr, inject_size); F(fi_tx_attr, size); F(fi_tx_attr, iov_limit);
    F(fi_tx_attr, rma_iov_limit); F(fi_tx_attr, tclass);
    S(fi_rx_attr); F(fi_rx_attr, caps); F(fi_rx_attr, mode); F(fi_rx_attr, op_flags); F(fi_rx_attr, msg_order);
    F(fi_rx_attr, comp_order); F(fi_rx_attr, total_buffered_recv); F(fi_rx_attr, size); F(fi_rx_attr, iov_limit);
    S(fi_ep_attr); F(fi_ep_attr, type); F(fi_ep_attr, protocol); F(fi_ep_attr, protocol_version);
    F(fi_ep_attr, max_msg_size); F(fi_ep_attr, msg_prefix_size); F(fi_ep_attr, max_order_raw_size);
    F(fi_ep_attr, max_order_war_size); F(fi_ep_attr, max_order_waw_size); F(fi_ep_attr, mem_tag_format);
    F(fi_ep_attr, tx_ctx_cnt); F(fi_ep_attr, rx_ctx_cnt); F(fi_ep_attr, auth_key_size); F(fi_ep_attr, auth_key);
    S(fi_domain_attr); F(fi_domain_attr, domain); F(fi_domain_attr, name); F(fi_domain_attr, threading);
    F(fi_domain_attr, control_progress); F(fi_domain_attr, data_progress); F(fi_domain_attr, resource_mgmt);
    F(fi_domain_attr, av_type); F(fi_domain_attr, mr_mode); F(fi_domain_attr, mr_key_size);
    F(fi_domain_attr, cq_data_size); F(fi_domain_attr, cq_cnt); F(fi_domain_attr, ep_cnt);
    F(fi_domain_attr, tx_ctx_cnt); F(fi_domain_attr, rx_ctx_cnt); F(fi_domain_attr, max_ep_tx_ctx);
    F(fi_domain_attr, max_ep_rx_ctx); F(fi_domain_attr, max_ep_stx_ctx); F(fi_domain_attr, max_ep_srx_ctx);
    F(fi_domain_attr, cntr_cnt); F(fi_domain_attr, mr_iov_limit); F(fi_domain_attr, caps); F(fi_domain_attr, mode);
    F(fi_domain_attr, auth_key); F(fi_domain_attr, auth_key_size); F(fi_domain_attr, max_err_data);
    F(fi_domain_attr, mr_cnt); F(fi_domain_attr, tclass);
    S(fi_fabric_attr); F(fi_fabric_attr, fabric); F(fi_fabric_attr, name); F(fi_fabric_attr, prov_name);
    F(fi_fabric_attr, prov_version); F(fi_fabric_attr, api_version);
    S(fi_cq_attr); F(fi_cq_attr, size); F(fi_cq_attr, flags); F(fi_cq_attr, format); F(fi_cq_attr, wait_obj);
    F(fi_cq_attr, signaling_vector); F(fi_cq_attr, wait_cond); F(fi_cq_attr, wait_set);
    S(fi_cq_tagged_entry); F(fi_cq_tagged_entry, op_context); F(fi_cq_tagged_entry, flags);
    F(fi_cq_tagged_entry, len); F(fi_cq_tagged_entry, buf); F(fi_cq_tagged_entry, data); F(fi_cq_tagged_entry, tag);
    S(fi_cq_err_entry); F(fi_cq_err_entry, op_context); F(fi_cq_err_entry, flags); F(fi_cq_err_entry, len);
    F(fi_cq_err_entry, buf); F(fi_cq_err_entry, data); F(fi_cq_err_entry, tag); F(fi_cq_err_entry, olen);
    F(fi_cq_err_entry, err); F(fi_cq_err_entry, prov_errno); F(fi_cq_err_entry, err_data);
    F(fi_cq_err_entry, err_data_size);
    S(fi_av_attr); F(fi_av_attr, type); F(fi_av_attr, rx_ctx_bits); F(fi_av_attr, count); F(fi_av_attr, ep_per_node);
    F(fi_av_attr, name); F(fi_av_attr, map_addr); F(fi_av_attr, flags);
    printf("sigaction size %zu\n", sizeof(struct sigaction));
    return 0;
}
