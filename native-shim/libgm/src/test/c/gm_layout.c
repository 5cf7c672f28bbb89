/*
 * gm_layout.c: the byte layouts the header comments promise (the Java transport's struct layouts rely on
 * gmx_event's; gm_recv_event_t is GM's 64-byte record with the type in its last byte).
 */
#include "gmtest.h"

#define AT(type, field, offset) CHECK(offsetof(type, field) == (offset), #type "." #field " at %zu", offsetof(type, field))

int main(void) {
    test_start(NULL);
    CHECK(sizeof(struct gmx_event) == 48, "gmx_event is %zu bytes", sizeof(struct gmx_event));
    AT(struct gmx_event, context, 0);
    AT(struct gmx_event, buffer, 8);
    AT(struct gmx_event, length, 16);
    AT(struct gmx_event, type, 24);
    AT(struct gmx_event, status, 28);
    AT(struct gmx_event, sender_node, 32);
    AT(struct gmx_event, sender_port, 34);
    AT(struct gmx_event, size, 35);
    AT(struct gmx_event, priority, 36);
    AT(struct gmx_event, reserved, 37);
    OK("gmx_event");
    CHECK(sizeof(gm_recv_event_t) == GM_RDMA_GRANULARITY, "gm_recv_event_t is %zu bytes", sizeof(gm_recv_event_t));
    AT(gm_recv_event_t, recv.message, 32);
    AT(gm_recv_event_t, recv.buffer, 40);
    AT(gm_recv_event_t, recv.length, 52);
    AT(gm_recv_event_t, recv.sender_node_id, 56);
    AT(gm_recv_event_t, recv.tag, 60);
    AT(gm_recv_event_t, recv.size, 61);
    AT(gm_recv_event_t, recv.sender_port_id, 62);
    AT(gm_recv_event_t, recv.type, 63);
    AT(gm_recv_event_t, any.type, 63);
    /* network byte order */
    gm_recv_event_t e = {0};
    e.recv.length = gm_htonl(0x01020304u);
    e.recv.sender_node_id = gm_htons(0x0506u);
    CHECK(e.bytes[52] == 1 && e.bytes[55] == 4 && e.bytes[56] == 5 && e.bytes[57] == 6, "big-endian fields");
    CHECK(gm_ntohl(e.recv.length) == 0x01020304u && gm_ntohs(e.recv.sender_node_id) == 0x0506u, "ntoh");
    int x;
    e.recv.buffer = gm_htonp(&x);
    CHECK(gm_ntohp(e.recv.buffer) == &x, "pointers");
    e.recv.type = GM_HIGH_RECV_EVENT;
    CHECK(GM_RECV_EVENT_TYPE(&e) == GM_HIGH_RECV_EVENT && e.bytes[63] == GM_HIGH_RECV_EVENT, "type byte");
    OK("gm_recv_event_t");
    CHECK(GM_SUCCESS == 0 && GM_SEND_TIMED_OUT == 15 && GM_SEND_DROPPED == 19 && GM_FIRMWARE_ABORT == 47, "codes");
    CHECK(GM_RECV_EVENT == 11 && GM_SENT_TOKENS_EVENT == 29 && GM_ALARM_EVENT == 2, "event types");
    CHECK(GMX_RECV == 1 && GMX_SENT == 2 && GMX_PEER_FAILED == 3, "gmx event types");
    OK("constants");
    return 0;
}
