/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pmi_cmds.c -- the answers of a node's PMI server (wu_rte_pmi.c has the connections):
 * init and the job's facts, the key-value space, barriers across the job's nodes, node
 * attributes, finalize and abort. Rte progress thread only.
 *
 * Answers carry what MPICH's two client generations read: PMI-1 "rc" (0 or -1, with "msg") on
 * the answers that can fail, PMI-2 "rc" always and, when the request had one, its "thrid". A
 * get of a missing key fails in PMI-1 (rc=-1, as Hydra answers) and says found=FALSE in PMI-2.
 * Name publishing and spawn are wu_rte_pmi_dpm.c's; anything else is refused with a message. */
#include "pmix/rte/svc/wu_rte_pmi.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "pmix/common/wu_regex.h"
#include "pmix_common.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What get_maxes says (Hydra's values; MPICH 4.0 shortens the value length to fit its line). */
#define KVSNAME_MAX 256
#define KEYLEN_MAX  64
#define VALLEN_MAX  1024
/* The longest key or value a put may store (more than the maxima say: MPICH 4.2 sends
 * longer values through PMI-2). */
#define PUT_KEY_MAX 256
/* The longest PMI_process_mapping given; a longer map is left out and MPICH builds its node map
 * from the processes' host names instead (MPICH 4.0 reads at most about 670 bytes). */
#define MAPPING_MAX 600

static rte_proc_t *proc_of(const pmi_conn_t *c)
{
    return &c->pmi->job->procs[c->rank];
}

static bool multi_node(const rte_pmi_t *p)
{
    return NULL != p->job->daemon || NULL != p->job->dvm;
}

/* Begin the answer cmd to m, echoing a PMI-2 thrid. */
static void answer(const wu_pmi_msg_t *m, wu_pmi_out_t *o, const char *cmd)
{
    wu_rte_pmi_answer_begin(o, m->wire, wu_pmi_find(m, 0, "thrid"), cmd);
}

void wu_rte_pmi_answer_begin(wu_pmi_out_t *o, wu_pmi_wire_t wire, const char *thrid,
                             const char *cmd)
{
    wu_pmi_out_begin(o, wire, cmd);
    if (WU_PMI_V2 == wire && NULL != thrid) {
        wu_pmi_out_add(o, "thrid", thrid);
    }
}

/* Answer cmd with rc=0 (PMI-2) or nothing more (PMI-1: rc only where ok says so). */
static void answer_ok(pmi_conn_t *c, const wu_pmi_msg_t *m, const char *cmd, bool v1_rc)
{
    wu_pmi_out_t o;
    answer(m, &o, cmd);
    if (WU_PMI_V2 == m->wire || v1_rc) {
        wu_pmi_out_add(&o, "rc", "0");
    }
    wu_rte_pmi_send(c, &o);
}

void wu_rte_pmi_fail(pmi_conn_t *c, wu_pmi_wire_t wire, const char *thrid, const char *cmd,
                     const char *why)
{
    wu_pmi_out_t o;
    char buf[256];
    size_t i;
    for (i = 0; '\0' != why[i] && i + 1 < sizeof buf; i++) {
        buf[i] = (' ' == why[i] || ';' == why[i]) ? '_' : why[i];
    }
    buf[i] = '\0';
    wu_rte_pmi_answer_begin(&o, wire, thrid, cmd);
    wu_pmi_out_add(&o, "rc", "-1");
    wu_pmi_out_add(&o, WU_PMI_V2 == wire ? "errmsg" : "msg", buf);
    wu_rte_pmi_send(c, &o);
}

/* Answer cmd with a failure; why is one word-free phrase (spaces become '_'). */
static void answer_fail(pmi_conn_t *c, const wu_pmi_msg_t *m, const char *cmd, const char *why)
{
    wu_rte_pmi_fail(c, m->wire, wu_pmi_find(m, 0, "thrid"), cmd, why);
}

void wu_rte_pmi_bad(pmi_conn_t *c, const char *what)
{
    wu_rte_say("pmi-bad-message", wu_rte_tool, c->rank, wu_rte_hostname, what);
    wu_rte_pmi_close(c);
}

void wu_rte_pmi_lost(pmi_conn_t *c)
{
    if (c->inited && !c->finalized) {
        wu_rte_proc_lost(proc_of(c));
    }
}

/* --- the key-value space --------------------------------------------------------------------- */

/* Append one record (u32 key length, key, u32 value length, value; big-endian) to the puts for
 * the other nodes. */
static int fresh_add(rte_pmi_t *p, const char *key, size_t kl, const char *val, size_t vl)
{
    size_t need = p->nfresh + 8 + kl + vl;
    unsigned char hdr[4];
    if (need > p->capfresh) {
        size_t ncap = p->capfresh < 4096 ? 4096 : p->capfresh;
        char *nb;
        while (ncap < need) {
            ncap *= 2;
        }
        if (NULL == (nb = realloc(p->fresh, ncap))) {
            return WU_ERR_NOMEM;
        }
        p->fresh = nb;
        p->capfresh = ncap;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t n = 0 == pass ? kl : vl;
        hdr[0] = (unsigned char)(n >> 24);
        hdr[1] = (unsigned char)(n >> 16);
        hdr[2] = (unsigned char)(n >> 8);
        hdr[3] = (unsigned char)n;
        memcpy(p->fresh + p->nfresh, hdr, 4);
        memcpy(p->fresh + p->nfresh + 4, 0 == pass ? key : val, n);
        p->nfresh += 4 + n;
    }
    return WU_SUCCESS;
}

/* Store key = the first vl bytes of val. share: the other nodes get it at the next barrier. */
static int kvs_store(rte_pmi_t *p, const char *key, const char *val, size_t vl, bool share)
{
    size_t kl = strlen(key);
    void *old = NULL;
    char *v;
    if (0 == kl || kl > PUT_KEY_MAX) {
        return WU_ERR_BAD_PARAM;
    }
    (void)wu_hash_table_get_str(p->kvs, key, &old);
    if (NULL != old) {
        p->kvs_bytes -= kl + strlen(old);
    }
    if (p->kvs_bytes + kl + vl > WU_PMI_KVS_MAX) {
        if (NULL != old) {
            p->kvs_bytes += kl + strlen(old);
        }
        return WU_ERR_OUT_OF_RESOURCE;
    }
    if (NULL == (v = strndup(val, vl)) || WU_SUCCESS != wu_hash_table_set_str(p->kvs, key, v)) {
        free(v);
        if (NULL != old) {
            p->kvs_bytes += kl + strlen(old);
        }
        return WU_ERR_NOMEM;
    }
    free(old);
    p->kvs_bytes += kl + vl;
    return share ? fresh_add(p, key, kl, val, vl) : WU_SUCCESS;
}

static uint32_t get_u32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* Store every record of the nodes' contributions (a malformed rest is ignored). */
static void kvs_merge(rte_pmi_t *p, const char *data, size_t n)
{
    const unsigned char *b = (const unsigned char *)data;
    size_t off = 0;
    while (n - off >= 8) {
        uint32_t kl = get_u32(b + off), vl;
        char key[PUT_KEY_MAX + 1];
        if (0 == kl || kl > PUT_KEY_MAX || n - off - 4 < (size_t)kl + 4) {
            return;
        }
        memcpy(key, b + off + 4, kl);
        key[kl] = '\0';
        vl = get_u32(b + off + 4 + kl);
        if (n - off - 8 - kl < vl || NULL != memchr(key, '\0', kl)) {
            return;
        }
        (void)kvs_store(p, key, (const char *)b + off + 8 + kl, vl, false);
        off += 8 + (size_t)kl + vl;
    }
}

void wu_rte_pmi_preputs(rte_pmi_t *p)
{
    const wu_rte_spec_t *app = p->job->app;
    for (uint32_t k = 0; NULL != app && k < app->nctx; k++) {
        for (char **e = app->ctx[k].env_set; NULL != e && NULL != *e; e++) {
            const char *eq1, *eq2;
            char key[PUT_KEY_MAX + 1];
            if (0 != strncmp(*e, "WU_PMI_PREPUT_", 14) || NULL == (eq1 = strchr(*e, '=')) ||
                NULL == (eq2 = strchr(eq1 + 1, '=')) || (size_t)(eq2 - eq1 - 1) > PUT_KEY_MAX) {
                continue;
            }
            memcpy(key, eq1 + 1, (size_t)(eq2 - eq1 - 1));
            key[eq2 - eq1 - 1] = '\0';
            if ('\0' != key[0]) {
                (void)kvs_store(p, key, eq2 + 1, strlen(eq2 + 1), false);
            }
        }
    }
}

/* PMI_process_mapping: "(vector,(first node,nodes,ranks per node),...)" over the ranks in
 * order; "" when it would be longer than MAPPING_MAX. */
static const char *mapping(rte_pmi_t *p)
{
    const rte_job_t *job = p->job;
    char buf[MAPPING_MAX + 64];
    size_t len;
    uint32_t bnode = 0, bn = 0, bppn = 0;
    if (NULL != p->mapping) {
        return p->mapping;
    }
    len = (size_t)snprintf(buf, sizeof buf, "(vector");
    for (uint32_t r = 0; r <= job->np && len <= MAPPING_MAX;) {
        uint32_t node = r < job->np ? job->map->procs[r].node : UINT32_MAX, run = 0;
        while (r + run < job->np && job->map->procs[r + run].node == node) {
            run++;
        }
        if (r < job->np && bn > 0 && run == bppn && node == bnode + bn) {
            bn++; /* the next node of the block, as many ranks */
        } else {
            if (bn > 0) {
                len +=
                    (size_t)snprintf(buf + len, sizeof buf - len, ",(%u,%u,%u)", bnode, bn, bppn);
            }
            bnode = node;
            bn = 1;
            bppn = run;
        }
        if (r == job->np) {
            break;
        }
        r += run;
    }
    if (len + 1 > MAPPING_MAX) {
        p->mapping = strdup("");
    } else {
        snprintf(buf + len, sizeof buf - len, ")");
        p->mapping = strdup(buf);
    }
    return NULL != p->mapping ? p->mapping : "";
}

/* A job attribute (PMI-2 info-getjobattr, and PMI-1 gets of PMI_ keys), or NULL. */
static const char *jobattr(rte_pmi_t *p, const char *key, char *num, size_t nnum)
{
    if (0 == strcmp(key, "PMI_process_mapping")) {
        const char *m = mapping(p);
        return '\0' != m[0] ? m : NULL;
    }
    if (0 == strcmp(key, "universeSize")) {
        snprintf(num, nnum, "%u", p->job->np);
        return num;
    }
    return NULL;
}

static const char *kvs_get(rte_pmi_t *p, const char *key)
{
    void *v = NULL;
    char num[16];
    if (0 == strcmp(key, "PMI_process_mapping")) {
        return jobattr(p, key, num, sizeof num);
    }
    return WU_SUCCESS == wu_hash_table_get_str(p->kvs, key, &v) ? v : NULL;
}

static void do_put(pmi_conn_t *c, const wu_pmi_msg_t *m, const char *cmd)
{
    const char *key = wu_pmi_find(m, 0, "key"), *val = wu_pmi_find(m, 0, "value");
    int rc;
    if (NULL == key || NULL == val) {
        answer_fail(c, m, cmd, "key and value are required");
        return;
    }
    rc = kvs_store(c->pmi, key, val, strlen(val), multi_node(c->pmi));
    if (WU_SUCCESS != rc) {
        answer_fail(c, m, cmd,
                    WU_ERR_OUT_OF_RESOURCE == rc ? "the job's key-value space is full"
                    : WU_ERR_BAD_PARAM == rc     ? "key too long or empty"
                                                 : "out of memory");
        return;
    }
    if (WU_PMI_V1 == m->wire) {
        wu_pmi_out_t o;
        answer(m, &o, cmd);
        wu_pmi_out_add(&o, "rc", "0");
        wu_pmi_out_add(&o, "msg", "success");
        wu_rte_pmi_send(c, &o);
    } else {
        answer_ok(c, m, cmd, true);
    }
}

/* PMI-1 get, PMI-2 kvs-get and info-getjobattr. */
static void do_get(pmi_conn_t *c, const wu_pmi_msg_t *m, const char *cmd, bool jobattr_only)
{
    const char *key = wu_pmi_find(m, 0, "key"), *val;
    char num[16];
    wu_pmi_out_t o;
    if (NULL == key) {
        answer_fail(c, m, cmd, "a key is required");
        return;
    }
    val = jobattr_only ? jobattr(c->pmi, key, num, sizeof num) : kvs_get(c->pmi, key);
    if (WU_PMI_V1 == m->wire) {
        if (NULL == val) {
            char why[PUT_KEY_MAX + 32];
            snprintf(why, sizeof why, "key_%s_not_found", key);
            answer_fail(c, m, cmd, why);
            return;
        }
        answer(m, &o, cmd);
        wu_pmi_out_add(&o, "rc", "0");
        wu_pmi_out_add(&o, "msg", "success");
        wu_pmi_out_add(&o, "value", val);
    } else {
        answer(m, &o, cmd);
        wu_pmi_out_add(&o, "found", NULL != val ? "TRUE" : "FALSE");
        if (NULL != val) {
            wu_pmi_out_add(&o, "value", val);
        }
        wu_pmi_out_add(&o, "rc", "0");
    }
    wu_rte_pmi_send(c, &o);
}

/* --- barriers -------------------------------------------------------------------------------- */

static void barrier_done(rte_pmi_t *p, pmix_status_t st)
{
    p->coll = false;
    for (uint32_t i = 0; i < p->n; i++) {
        pmi_conn_t *c = &p->conns[i];
        wu_pmi_out_t o;
        if (!c->in_barrier) {
            continue;
        }
        const char *cmd = WU_PMI_V1 == c->bwire ? "barrier_out" : "kvs-fence-response";
        c->in_barrier = false;
        if (PMIX_SUCCESS != st) {
            wu_rte_pmi_fail(c, c->bwire, c->thrid, cmd, "the barrier across nodes failed");
        } else {
            wu_rte_pmi_answer_begin(&o, c->bwire, c->thrid, cmd);
            if (WU_PMI_V2 == c->bwire) {
                wu_pmi_out_add(&o, "rc", "0");
            }
            wu_rte_pmi_send(c, &o);
        }
        free(c->thrid);
        c->thrid = NULL;
    }
}

/* The job's fence across nodes ended (rte thread); cbdata is the job's namespace. */
static void coll_done(pmix_status_t st, const char *data, size_t ndata, void *cbdata,
                      pmix_release_cbfunc_t rel, void *relcbdata)
{
    rte_job_t *job = wu_rte_job_find(cbdata);
    free(cbdata);
    if (NULL != job && NULL != job->pmi && job->pmi->coll) {
        if (PMIX_SUCCESS == st) {
            kvs_merge(job->pmi, data, ndata);
        }
        barrier_done(job->pmi, st);
    }
    if (NULL != rel) {
        rel(relcbdata);
    }
}

void wu_rte_pmi_check_barrier(rte_pmi_t *p)
{
    uint32_t in = 0;
    pmix_proc_t all;
    pmix_status_t rc;
    char *ns;
    if (p->coll) {
        return;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        if (!p->conns[i].ended && !p->conns[i].in_barrier) {
            return; /* someone still computes */
        }
        in += p->conns[i].in_barrier ? 1 : 0;
    }
    if (0 == in) {
        return;
    }
    if (!multi_node(p)) {
        barrier_done(p, PMIX_SUCCESS);
        return;
    }
    PMIX_LOAD_PROCID(&all, p->job->nspace, PMIX_RANK_WILDCARD);
    if (NULL == (ns = strdup(p->job->nspace))) {
        barrier_done(p, PMIX_ERR_NOMEM);
        return;
    }
    p->coll = true;
    rc = NULL != p->job->daemon
             ? wu_rte_daemon_fence(&all, 1, p->fresh, p->nfresh, 0, coll_done, ns)
             : wu_rte_dvm_fence(&all, 1, p->fresh, p->nfresh, 0, coll_done, ns);
    p->nfresh = 0;
    if (PMIX_SUCCESS != rc) {
        free(ns);
        barrier_done(p, rc);
    }
}

static void do_barrier(pmi_conn_t *c, const wu_pmi_msg_t *m, const char *cmd)
{
    const char *thrid = wu_pmi_find(m, 0, "thrid");
    if (c->in_barrier) {
        answer_fail(c, m, cmd, "already in the barrier");
        return;
    }
    c->in_barrier = true;
    c->bwire = m->wire;
    c->thrid = NULL != thrid ? strdup(thrid) : NULL;
    wu_rte_pmi_check_barrier(c->pmi);
}

/* The ranks of conns for which pick is true, compressed ("0-3,7"), or NULL. */
static char *ranks_where(const rte_pmi_t *p, bool (*pick)(const pmi_conn_t *c), size_t *n)
{
    pmix_rank_t *r = malloc((p->n > 0 ? p->n : 1) * sizeof *r);
    char *out = NULL;
    *n = 0;
    for (uint32_t i = 0; NULL != r && i < p->n; i++) {
        if (pick(&p->conns[i])) {
            r[(*n)++] = p->conns[i].rank;
        }
    }
    if (NULL != r && *n > 0 && PMIX_SUCCESS != wu_regex_ranks_compress(r, *n, &out)) {
        out = NULL;
    }
    free(r);
    return out;
}

static bool in_barrier(const pmi_conn_t *c)
{
    return c->in_barrier;
}

static bool not_in_barrier(const pmi_conn_t *c)
{
    return !c->in_barrier && !c->ended;
}

void wu_rte_pmi_blocked(rte_job_t *job, char ***lines)
{
    rte_pmi_t *p = job->pmi;
    size_t nin = 0, nout = 0;
    char *in, *out = NULL, *line = NULL;
    if (NULL == p) {
        return;
    }
    if (NULL != (in = ranks_where(p, in_barrier, &nin))) {
        if (p->coll) {
            (void)wu_asprintf(&line, "%s %s in PMI's barrier, waiting for other nodes",
                              nin > 1 ? "ranks" : "rank", in);
        } else if (NULL != (out = ranks_where(p, not_in_barrier, &nout))) {
            (void)wu_asprintf(&line, "%s %s in PMI's barrier that %s %s %s not reached",
                              nin > 1 ? "ranks" : "rank", in, nout > 1 ? "ranks" : "rank", out,
                              nout > 1 ? "have" : "has");
        }
        if (NULL != line) {
            (void)wu_argv_append(lines, line);
        }
    }
    free(in);
    free(out);
    free(line);
    for (uint32_t i = 0; i < p->n; i++) {
        line = NULL;
        if (NULL != p->conns[i].wait_key &&
            WU_SUCCESS == wu_asprintf(&line, "rank %u waits for node attribute %.64s (PMI-2)",
                                      p->conns[i].rank, p->conns[i].wait_key)) {
            (void)wu_argv_append(lines, line);
        }
        free(line);
    }
}

/* --- node attributes (PMI-2) ----------------------------------------------------------------- */

static void nattr_answer(pmi_conn_t *c, const char *thrid, const char *val)
{
    wu_pmi_out_t o;
    wu_rte_pmi_answer_begin(&o, WU_PMI_V2, thrid, "info-getnodeattr-response");
    wu_pmi_out_add(&o, "found", NULL != val ? "TRUE" : "FALSE");
    if (NULL != val) {
        wu_pmi_out_add(&o, "value", val);
    }
    wu_pmi_out_add(&o, "rc", "0");
    wu_rte_pmi_send(c, &o);
}

static void do_putnodeattr(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    rte_pmi_t *p = c->pmi;
    const char *key = wu_pmi_find(m, 0, "key"), *val = wu_pmi_find(m, 0, "value");
    void *old = NULL;
    char *v;
    if (NULL == key || NULL == val || strlen(key) > PUT_KEY_MAX) {
        answer_fail(c, m, "info-putnodeattr-response", "a key and a value are required");
        return;
    }
    if (wu_hash_table_count(p->nattr) >= 65536 || NULL == (v = strdup(val))) {
        answer_fail(c, m, "info-putnodeattr-response", "node attributes full");
        return;
    }
    (void)wu_hash_table_get_str(p->nattr, key, &old);
    if (WU_SUCCESS != wu_hash_table_set_str(p->nattr, key, v)) {
        free(v);
        answer_fail(c, m, "info-putnodeattr-response", "node attributes full");
        return;
    }
    free(old);
    answer_ok(c, m, "info-putnodeattr-response", true);
    for (uint32_t i = 0; i < p->n; i++) {
        pmi_conn_t *w = &p->conns[i];
        if (NULL != w->wait_key && 0 == strcmp(w->wait_key, key)) {
            nattr_answer(w, w->wait_thrid, v);
            free(w->wait_key);
            free(w->wait_thrid);
            w->wait_key = w->wait_thrid = NULL;
        }
    }
}

static void do_getnodeattr(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    const char *key = wu_pmi_find(m, 0, "key"), *wait = wu_pmi_find(m, 0, "wait");
    const char *thrid = wu_pmi_find(m, 0, "thrid");
    void *v = NULL;
    if (NULL == key) {
        answer_fail(c, m, "info-getnodeattr-response", "a key is required");
        return;
    }
    if (WU_SUCCESS == wu_hash_table_get_str(c->pmi->nattr, key, &v) || NULL == wait ||
        0 != strcmp(wait, "TRUE") || NULL != c->wait_key) {
        nattr_answer(c, thrid, v);
        return;
    }
    c->wait_key = strdup(key); /* answered by the put of key */
    c->wait_thrid = NULL != thrid ? strdup(thrid) : NULL;
    if (NULL == c->wait_key) {
        nattr_answer(c, thrid, NULL);
    }
}

/* --- the rest -------------------------------------------------------------------------------- */

static void do_init(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    long ver = 0, sub = 0;
    wu_pmi_out_t o;
    bool ok = wu_pmi_find_long(m, 0, "pmi_version", 1, 2, &ver);
    (void)wu_pmi_find_long(m, 0, "pmi_subversion", 0, 9, &sub);
    answer(m, &o, "response_to_init");
    wu_pmi_out_addl(&o, "pmi_version", ok ? ver : 1);
    wu_pmi_out_addl(&o, "pmi_subversion", !ok ? 1 : 1 == ver ? 1 : 0);
    wu_pmi_out_add(&o, "rc", ok ? "0" : "-1");
    wu_rte_pmi_send(c, &o);
    if (ok) {
        c->v2 = 2 == ver; /* PMI-2's further messages carry their length */
        c->inited = true;
        atomic_store(&proc_of(c)->connected, true);
    }
}

static void do_fullinit(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    const rte_job_t *job = c->pmi->job;
    long r = -1;
    wu_pmi_out_t o;
    if (wu_pmi_find_long(m, 0, "pmirank", -1, LONG_MAX, &r) && r >= 0 && (uint32_t)r != c->rank) {
        answer_fail(c, m, "fullinit-response", "pmirank is not the rank of this connection");
        return;
    }
    answer(m, &o, "fullinit-response");
    wu_pmi_out_add(&o, "pmi-version", "2");
    wu_pmi_out_add(&o, "pmi-subversion", "0");
    wu_pmi_out_addl(&o, "rank", c->rank);
    wu_pmi_out_addl(&o, "size", job->np);
    wu_pmi_out_addl(&o, "appnum", job->procs[c->rank].ctx);
    if (job->spawned) {
        wu_pmi_out_add(&o, "spawner-jobid", job->parent.nspace);
    }
    wu_pmi_out_add(&o, "debugged", "FALSE");
    wu_pmi_out_add(&o, "pmiverbose", "0");
    wu_pmi_out_add(&o, "rc", "0");
    wu_rte_pmi_send(c, &o);
    c->inited = true;
    atomic_store(&proc_of(c)->connected, true);
}

static void do_finalize(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    c->finalized = true;
    atomic_store(&proc_of(c)->finalized, true);
    answer_ok(c, m, WU_PMI_V1 == m->wire ? "finalize_ack" : "finalize-response", false);
}

static void do_abort(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    long code = 1;
    const char *msg = wu_pmi_find(m, 0, "message");
    pmix_proc_t proc;
    if (!wu_pmi_find_long(m, 0, "exitcode", INT_MIN, INT_MAX, &code)) {
        code = 1;
    }
    if (NULL == msg) {
        msg = wu_pmi_find(m, 0, "msg");
    }
    PMIX_LOAD_PROCID(&proc, c->pmi->job->nspace, c->rank);
    if (NULL != c->pmi->job->daemon) {
        (void)wu_rte_daemon_abort(&proc, (int)code, msg);
    } else {
        wu_rte_job_abort(&proc, (int)code, msg);
    }
}

static void answer_simple(pmi_conn_t *c, const wu_pmi_msg_t *m, const char *cmd, const char *key,
                          const char *val)
{
    wu_pmi_out_t o;
    answer(m, &o, cmd);
    wu_pmi_out_add(&o, key, val);
    if (WU_PMI_V2 == m->wire) {
        wu_pmi_out_add(&o, "rc", "0");
    }
    wu_rte_pmi_send(c, &o);
}

bool wu_rte_pmi_command(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    const rte_job_t *job = c->pmi->job;
    const char *cmd = m->cmd;
    char num[16];
    bool v1 = WU_PMI_V1 == m->wire;
    if (0 == strcmp(cmd, "init")) {
        do_init(c, m);
    } else if (v1 && 0 == strcmp(cmd, "get_maxes")) {
        wu_pmi_out_t o;
        answer(m, &o, "maxes");
        wu_pmi_out_addl(&o, "kvsname_max", KVSNAME_MAX);
        wu_pmi_out_addl(&o, "keylen_max", KEYLEN_MAX);
        wu_pmi_out_addl(&o, "vallen_max", VALLEN_MAX);
        wu_rte_pmi_send(c, &o);
    } else if (v1 && 0 == strcmp(cmd, "get_appnum")) {
        snprintf(num, sizeof num, "%u", job->procs[c->rank].ctx);
        answer_simple(c, m, "appnum", "appnum", num);
    } else if (v1 && 0 == strcmp(cmd, "get_universe_size")) {
        snprintf(num, sizeof num, "%u", job->np);
        answer_simple(c, m, "universe_size", "size", num);
    } else if (v1 && 0 == strcmp(cmd, "get_my_kvsname")) {
        answer_simple(c, m, "my_kvsname", "kvsname", job->nspace);
    } else if (!v1 && 0 == strcmp(cmd, "job-getid")) {
        answer_simple(c, m, "job-getid-response", "jobid", job->nspace);
    } else if (!v1 && 0 == strcmp(cmd, "fullinit")) {
        do_fullinit(c, m);
    } else if (0 == strcmp(cmd, v1 ? "put" : "kvs-put")) {
        do_put(c, m, v1 ? "put_result" : "kvs-put-response");
    } else if (0 == strcmp(cmd, v1 ? "get" : "kvs-get")) {
        do_get(c, m, v1 ? "get_result" : "kvs-get-response", false);
    } else if (!v1 && 0 == strcmp(cmd, "info-getjobattr")) {
        do_get(c, m, "info-getjobattr-response", true);
    } else if (!v1 && 0 == strcmp(cmd, "info-putnodeattr")) {
        do_putnodeattr(c, m);
    } else if (!v1 && 0 == strcmp(cmd, "info-getnodeattr")) {
        do_getnodeattr(c, m);
    } else if (0 == strcmp(cmd, v1 ? "barrier_in" : "kvs-fence")) {
        do_barrier(c, m, v1 ? "barrier_out" : "kvs-fence-response");
    } else if (0 == strcmp(cmd, "finalize")) {
        do_finalize(c, m);
    } else if (0 == strcmp(cmd, "abort")) {
        do_abort(c, m);
    } else if ((v1 && (0 == strcmp(cmd, "publish_name") || 0 == strcmp(cmd, "unpublish_name") ||
                       0 == strcmp(cmd, "lookup_name"))) ||
               (!v1 && 0 == strncmp(cmd, "name-", 5))) {
        wu_rte_pmi_names(c, m);
    } else if (0 == strcmp(cmd, "spawn")) {
        wu_rte_pmi_spawn(c, m);
    } else {
        char res[64];
        snprintf(res, sizeof res, "%.40s%s", cmd, v1 ? "_result" : "-response");
        answer_fail(c, m, res, "unknown command");
    }
    return c->fd >= 0;
}
