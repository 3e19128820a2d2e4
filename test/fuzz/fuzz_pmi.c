/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_pmi.c -- fuzz target for the PMI-1/PMI-2 wire code (pmix/rte/svc/wu_rte_pmi_wire.c), what a
 * launcher's PMI server reads from its processes. libFuzzer calls LLVMFuzzerTestOneInput;
 * replay.c calls the same entry point for the seeds in test/fuzz/corpus/pmi/ under make check.
 *
 * Input: byte 0's low bit says whether the connection speaks PMI-2 already; the rest is the
 * byte stream a process sent. Every message framed in it is parsed (each in a block of exactly
 * its size, so ASan sees reads past its end); every attribute of what parses must lie inside
 * the message; and an answer written from its command and attributes must frame again to
 * exactly its own length. A broken promise aborts, so libFuzzer reports the input. */
#include "opal/util/wu_error.h"
#include "pmix/rte/svc/wu_rte_pmi_wire.h"
#include "test/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_pmi: %s\n", what);
    abort();
}

static bool inside(const char *p, const char *msg, size_t n)
{
    return NULL == p || (p >= msg && p + strlen(p) < msg + n);
}

static void check(char *msg, size_t n, wu_pmi_wire_t wire)
{
    wu_pmi_msg_t m;
    wu_pmi_out_t o;
    wu_pmi_wire_t w2;
    if (WU_SUCCESS != wu_pmi_parse(msg, n, wire, &m)) {
        return;
    }
    if (!inside(m.cmd, msg, n) && 0 != strcmp(m.cmd, "spawn")) {
        fail("the command lies outside the message");
    }
    wu_pmi_out_begin(&o, wire, m.cmd);
    for (size_t i = 0; i < m.nkv; i++) {
        if (!inside(m.kv[i].key, msg, n) || !inside(m.kv[i].val, msg, n)) {
            fail("an attribute lies outside the message");
        }
        if (NULL != m.kv[i].key && NULL != m.kv[i].val && NULL == strchr(m.kv[i].val, '\n')) {
            wu_pmi_out_add(&o, m.kv[i].key, m.kv[i].val);
        }
    }
    (void)wu_pmi_find(&m, 0, "key");
    if (WU_SUCCESS == wu_pmi_out_end(&o) && WU_PMI_V2 == wire &&
        wu_pmi_frame(o.buf, o.len, true, &w2) != (ssize_t)o.len) {
        fail("a PMI-2 answer does not frame to its own length");
    }
    wu_pmi_out_free(&o);
    wu_pmi_msg_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data + 1;
    size_t n, off = 0;
    bool v2;
    if (size < 1) {
        return 0;
    }
    v2 = 0 != (data[0] & 1);
    n = size - 1;
    while (off < n) {
        wu_pmi_wire_t wire;
        ssize_t f = wu_pmi_frame(in + off, n - off, v2, &wire);
        char *msg;
        if (f <= 0) {
            break;
        }
        if ((size_t)f > n - off) {
            fail("a frame longer than the input");
        }
        if (NULL == (msg = malloc((size_t)f))) {
            return 0;
        }
        memcpy(msg, in + off, (size_t)f);
        check(msg, (size_t)f, wire);
        free(msg);
        /* a PMI-2 client's first message is PMI-1's init */
        v2 = v2 || (WU_PMI_V1 == wire && 0 == strncmp(in + off, "cmd=init pmi_version=2", 22));
        off += (size_t)f;
    }
    return 0;
}
