/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_base_foreign.c -- OpenPMIx's framing beside Wireup's (see ptl.h, "OpenPMIx peers"):
 * telling the two apart by a connection's first byte, reading OpenPMIx's headers and writing
 * them. The receiving and writing machinery itself is ptl_base_frame.c's. */
#include "mca/ptl/base/ptl_base_int.h"
#include "opal/util/wu_output.h"

#include <arpa/inet.h>
#include <string.h>

/* An OpenPMIx handshake header starts with 8 bytes 0xff (index -1, tag UINT32_MAX). */
#define FOREIGN_MARK 0xffu

size_t wu_ptl_base_hdr_want(const wu_ptl_conn_t *c)
{
    if (WU_PTL_WIRE_FOREIGN == c->wire ||
        (WU_PTL_WIRE_ANY == c->wire && c->hdr_got > 0 && FOREIGN_MARK == c->hdr[0])) {
        return WU_PTL_FOREIGN_HDR_SIZE;
    }
    return WU_PTL_HDR_SIZE;
}

int wu_ptl_base_foreign_parse(wu_ptl_conn_t *c, size_t hello_max)
{
    uint32_t tag, len;
    memcpy(&tag, c->hdr + 4, 4);
    memcpy(&len, c->hdr + 8, 4);
    if (WU_PTL_WIRE_ANY == c->wire) {
        /* the handshake: index and tag all ones, the length in the sender's byte order (this
         * host's: OpenPMIx clients connect over loopback or the cluster's own machines) */
        for (int i = 0; i < 8; i++) {
            if (FOREIGN_MARK != c->hdr[i]) {
                WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                               "ptl:base: dropping peer: its first bytes are neither a Wireup "
                               "frame nor an OpenPMIx handshake");
                return WU_ERR_BAD_FORMAT;
            }
        }
        if (len > WU_PTL_FOREIGN_HELLO_MAX || len > hello_max || 0 == len) {
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                           "ptl:base: dropping an OpenPMIx peer: its handshake of %u bytes is "
                           "empty or exceeds ptl_base_handshake_max (%zu)",
                           len, hello_max);
            return WU_ERR_VALUE_OUT_OF_BOUNDS;
        }
        c->wire = WU_PTL_WIRE_FOREIGN;
        c->tag = UINT32_MAX;
        c->flags = WU_PTL_FLAG_FOREIGN | WU_PTL_FLAG_HELLO;
        c->plen = len;
        return WU_SUCCESS;
    }
    c->tag = ntohl(tag);
    c->flags = WU_PTL_FLAG_FOREIGN;
    c->plen = ntohl(len);
    if (c->plen > wu_ptl_base_max_msg_size) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping an OpenPMIx peer: message of %zu bytes exceeds "
                       "ptl_base_max_msg_size (%zu)",
                       c->plen, wu_ptl_base_max_msg_size);
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    return WU_SUCCESS;
}

size_t wu_ptl_base_foreign_hdr(const wu_ptl_conn_t *c, unsigned char *h, uint32_t tag,
                               uint16_t flags, size_t len)
{
    uint32_t v;
    if (0 != (flags & WU_PTL_FLAG_RAW)) {
        return 0;
    }
    memset(h, 0, WU_PTL_FOREIGN_HDR_SIZE);
    if (0 != (flags & WU_PTL_FLAG_HELLO)) {
        memset(h, FOREIGN_MARK, 8);
        v = (uint32_t)len; /* the handshake's length goes in this host's order */
    } else {
        uint32_t idx = htonl((uint32_t)c->peer_index);
        memcpy(h, &idx, 4);
        v = htonl(tag);
        memcpy(h + 4, &v, 4);
        v = htonl((uint32_t)len);
    }
    memcpy(h + 8, &v, 4);
    return WU_PTL_FOREIGN_HDR_SIZE;
}

bool wu_ptl_conn_foreign(const wu_ptl_conn_t *c)
{
    return NULL != c && WU_PTL_WIRE_FOREIGN == c->wire;
}
