/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_opmix_reply.c -- the replies to clients on OpenPMIx's library: each Wireup
 * handler's reply converted to the layout of the OpenPMIx command it answers
 * (docs/openpmix-wire.md, section 4), and the groups such clients constructed, which their
 * later fences and destructs name. */
#include "pmix/server/wu_server_opmix.h"

#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

/* The groups constructed through this server by OpenPMIx clients, with their members: a 4.x
 * client destructs one by its name alone, and every client fences over a group by its name
 * (also a member that joined by invitation and did not construct it itself). */
static wu_srv_ogroup_t *groups = NULL;

wu_srv_ogroup_t *wu_srv_ogroup_find(const char *name)
{
    for (wu_srv_ogroup_t *g = groups; NULL != g; g = g->next) {
        if (0 == strcmp(g->name, name)) {
            return g;
        }
    }
    return NULL;
}

/* One byte object holding PROC proc, then the KVALs of n infos (or of the one key/value). */
static pmix_status_t pack_bo(wu_buffer_t *out, int bt, const pmix_proc_t *proc, const char *key,
                             pmix_value_t *val, const pmix_info_t *info, size_t n)
{
    wu_buffer_t in;
    pmix_byte_object_t bo;
    pmix_status_t rc;
    wu_buffer_construct(&in);
    rc = wu_obfr_pack(&in, bt, proc, 1, PMIX_PROC);
    if (PMIX_SUCCESS == rc && NULL != key) {
        wu_obfr_kval_t kv = {(char *)key, val};
        rc = wu_obfr_pack(&in, bt, &kv, 1, PMIX_KVAL);
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        wu_obfr_kval_t kv = {(char *)info[i].key, (pmix_value_t *)&info[i].value};
        if (NULL == key || !PMIX_CHECK_KEY(&info[i], key)) { /* key's value went first */
            rc = wu_obfr_pack(&in, bt, &kv, 1, PMIX_KVAL);
        }
    }
    if (PMIX_SUCCESS == rc) {
        bo.bytes = in.base;
        bo.size = in.used;
        rc = wu_obfr_pack(out, bt, &bo, 1, PMIX_BYTE_OBJECT);
    }
    wu_buffer_destruct(&in);
    return rc;
}

/* The values of proc, a client of this server, that a client of this server may see (*rest,
 * n of them; NULL if none or proc is not one): they go with the value asked for, as
 * OpenPMIx's own server sends all of a proc's data, so that the client's next Gets of it stay
 * in its own store. */
static void local_rest(const pmix_proc_t *proc, pmix_info_t **rest, size_t *n)
{
    wu_buffer_t blob;
    pmix_proc_t who;
    *rest = NULL;
    *n = 0;
    if (PMIX_RANK_VALID < proc->rank || NULL == wu_srv_client_find(proc)) {
        return;
    }
    wu_buffer_construct(&blob);
    if (PMIX_SUCCESS != wu_srv_blob_of(proc, false, &blob) ||
        PMIX_SUCCESS != wu_proto_blob_next(&blob, &who, rest, n)) {
        *rest = NULL;
        *n = 0;
    }
    wu_buffer_destruct(&blob);
}

/* GET: Wireup's VALUE and list of INFO (the job data of another namespace). */
static pmix_status_t conv_get(const wu_srv_opending_t *p, wu_buffer_t *r, int bt, wu_buffer_t *out)
{
    pmix_value_t val;
    pmix_info_t *job = NULL;
    size_t njob = 0;
    int32_t one = 1;
    pmix_status_t rc;
    memset(&val, 0, sizeof val);
    if (PMIX_SUCCESS != (rc = wu_unpack(r, &val, &one, PMIX_VALUE))) {
        return rc;
    }
    rc = wu_proto_unpack_list(r, (void **)&job, &njob, PMIX_INFO);
    if (PMIX_SUCCESS == rc) {
        pmix_info_t *rest;
        size_t nrest;
        local_rest(&p->proc, &rest, &nrest);
        rc = pack_bo(out, bt, &p->proc, p->key, &val, rest, nrest);
        if (NULL != rest) {
            PMIX_INFO_FREE(rest, nrest);
        }
    }
    if (PMIX_SUCCESS == rc && njob > 0) {
        pmix_proc_t wild;
        PMIX_LOAD_PROCID(&wild, p->proc.nspace, PMIX_RANK_WILDCARD);
        rc = pack_bo(out, bt, &wild, NULL, NULL, job, njob);
    }
    PMIX_VALUE_DESTRUCT(&val);
    if (NULL != job) {
        PMIX_INFO_FREE(job, njob);
    }
    return rc;
}

/* A Wireup list of type t written as OpenPMIx's "SIZE n, n elements". */
/* CONNECT: per other namespace taking part a BYTE_OBJECT of STRING the namespace and its job
 * data, which the client stores (OpenPMIx 5's Open MPI reads the locality of the other job's
 * processes from it); a namespace this server does not know is left out. */
static pmix_status_t conv_connect(const wu_srv_opending_t *p, const char *own, int bt,
                                  wu_buffer_t *out)
{
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; NULL != p->nspaces && NULL != p->nspaces[i] && PMIX_SUCCESS == rc; i++) {
        wu_buffer_t one;
        const char *ns = p->nspaces[i];
        if (PMIX_CHECK_NSPACE(ns, own)) {
            continue;
        }
        wu_buffer_construct(&one);
        rc = wu_obfr_pack(&one, bt, &ns, 1, PMIX_STRING);
        if (PMIX_SUCCESS == rc) {
            rc = wu_srv_opmix_pack_job(ns, bt, &one);
            if (PMIX_SUCCESS == rc) {
                pmix_byte_object_t bo = {one.base, one.used};
                rc = wu_obfr_pack(out, bt, &bo, 1, PMIX_BYTE_OBJECT);
            } else if (PMIX_ERR_NOT_FOUND == rc) {
                rc = PMIX_SUCCESS;
            }
        }
        wu_buffer_destruct(&one);
    }
    return rc;
}

static pmix_status_t conv_list(wu_buffer_t *r, int bt, wu_buffer_t *out, pmix_data_type_t t)
{
    void *arr = NULL;
    size_t n = 0;
    pmix_status_t rc = wu_proto_unpack_list(r, &arr, &n, t);
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_pack_list(out, bt, arr, n, t);
        wu_obfr_free(arr, n, t);
        free(arr);
    }
    return rc;
}

/* GROUP_CONSTRUCT: Wireup's list of INFO results (PMIX_GROUP_CONTEXT_ID, PMIX_GROUP_MEMBERSHIP)
 * as OpenPMIx's: 5.x the members (SIZE n, PROC call), both then the context id if there is
 * one. The members are recorded for a 4.x destruct. */
static pmix_status_t conv_group(wu_srv_peer_t *peer, const wu_srv_opending_t *p, wu_buffer_t *r,
                                wu_buffer_t *out)
{
    pmix_info_t *res = NULL;
    size_t nres = 0, ctx = 0, n = 0;
    const pmix_proc_t *members = NULL;
    bool has_ctx = false;
    int bt = peer->ox->btype;
    pmix_status_t rc = wu_proto_unpack_list(r, (void **)&res, &nres, PMIX_INFO);
    for (size_t i = 0; PMIX_SUCCESS == rc && i < nres; i++) {
        if (PMIX_CHECK_KEY(&res[i], PMIX_GROUP_CONTEXT_ID) && PMIX_SIZE == res[i].value.type) {
            ctx = res[i].value.data.size;
            has_ctx = true;
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_GROUP_MEMBERSHIP) &&
                   PMIX_DATA_ARRAY == res[i].value.type && NULL != res[i].value.data.darray &&
                   PMIX_PROC == res[i].value.data.darray->type) {
            members = res[i].value.data.darray->array;
            n = res[i].value.data.darray->size;
        }
    }
    if (PMIX_SUCCESS == rc && peer->ox->major >= 5) {
        rc = wu_obfr_pack(out, bt, &n, 1, PMIX_SIZE);
        if (PMIX_SUCCESS == rc) {
            rc = wu_obfr_pack(out, bt, members, (int32_t)n, PMIX_PROC);
        }
    }
    if (PMIX_SUCCESS == rc && has_ctx) {
        rc = wu_obfr_pack(out, bt, &ctx, 1, PMIX_SIZE);
    }
    if (PMIX_SUCCESS == rc) {
        wu_srv_ogroup_record(p->key, members, n);
    }
    if (NULL != res) {
        PMIX_INFO_FREE(res, nres);
    }
    return rc;
}

/* Record (or replace) the members of the group name. */
void wu_srv_ogroup_record(const char *name, const pmix_proc_t *members, size_t n)
{
    wu_srv_ogroup_t *g;
    if (0 == n || NULL == name) {
        return;
    }
    wu_srv_ogroup_forget(name);
    if (NULL == (g = calloc(1, sizeof *g))) {
        return;
    }
    g->name = strdup(name);
    g->members = malloc(n * sizeof *members);
    if (NULL == g->name || NULL == g->members) {
        free(g->name);
        free(g->members);
        free(g);
        return;
    }
    memcpy(g->members, members, n * sizeof *members);
    g->nmembers = n;
    g->next = groups;
    groups = g;
}

void wu_srv_ogroup_forget(const char *name)
{
    for (wu_srv_ogroup_t **gg = &groups; NULL != *gg; gg = &(*gg)->next) {
        if (0 == strcmp((*gg)->name, name)) {
            wu_srv_ogroup_t *g = *gg;
            *gg = g->next;
            free(g->name);
            free(g->members);
            free(g);
            return;
        }
    }
}

void wu_srv_opmix_groups_free(void)
{
    while (NULL != groups) {
        wu_srv_ogroup_forget(groups->name);
    }
}

pmix_status_t wu_srv_opmix_convert(wu_srv_peer_t *peer, const wu_srv_opending_t *p,
                                   pmix_status_t status, wu_buffer_t *r, wu_buffer_t *out)
{
    int bt = peer->ox->btype;
    pmix_status_t rc;
    bool ok = PMIX_SUCCESS == status;
    if (PMIX_OPERATION_SUCCEEDED == status) {
        status = PMIX_SUCCESS; /* a host's "done at once" is a success to the client */
        ok = true;
    }
    if (WU_OCMD_LOOKUP == p->cmd && PMIX_ERR_PARTIAL_SUCCESS == status) {
        /* OpenPMIx's client reads the data only with a success: it gets what was found so */
        status = PMIX_SUCCESS;
        ok = true;
    }
    rc = wu_obfr_pack(out, bt, &status, 1, PMIX_STATUS);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    switch (p->cmd) {
    case WU_OCMD_GET:
        return ok ? conv_get(p, r, bt, out) : PMIX_SUCCESS;
    case WU_OCMD_LOOKUP:
        return ok || PMIX_ERR_PARTIAL_SUCCESS == status ? conv_list(r, bt, out, PMIX_PDATA)
                                                        : PMIX_SUCCESS;
    case WU_OCMD_QUERY:
        return ok || PMIX_ERR_PARTIAL_SUCCESS == status ? conv_list(r, bt, out, PMIX_INFO)
                                                        : PMIX_SUCCESS;
    case WU_OCMD_VALIDATE_CRED:
        return ok ? conv_list(r, bt, out, PMIX_INFO) : PMIX_SUCCESS;
    case WU_OCMD_GET_CRED: {
        pmix_byte_object_t cred = {NULL, 0};
        int32_t one = 1;
        if (ok && PMIX_SUCCESS == (rc = wu_unpack(r, &cred, &one, PMIX_BYTE_OBJECT)) &&
            PMIX_SUCCESS == (rc = wu_obfr_pack(out, bt, &cred, 1, PMIX_BYTE_OBJECT))) {
            rc = conv_list(r, bt, out, PMIX_INFO);
        }
        free(cred.bytes);
        return ok ? rc : PMIX_SUCCESS;
    }
    case WU_OCMD_GROUP_CONSTRUCT:
        return ok ? conv_group(peer, p, r, out) : PMIX_SUCCESS;
    case WU_OCMD_GROUP_DESTRUCT:
        if (ok) {
            wu_srv_ogroup_forget(p->key);
        }
        return PMIX_SUCCESS;
    case WU_OCMD_CONNECT:
        return ok ? conv_connect(p, peer->proc.nspace, bt, out) : PMIX_SUCCESS;
    case WU_OCMD_JOB_CONTROL:
    case WU_OCMD_MONITOR:
        return wu_obfr_pack_list(out, bt, NULL, 0, PMIX_INFO);
    case WU_OCMD_SPAWN: {
        char *nspace = NULL;
        int32_t one = 1;
        if (ok && PMIX_SUCCESS == (rc = wu_unpack(r, &nspace, &one, PMIX_STRING)) &&
            PMIX_SUCCESS == (rc = wu_obfr_pack(out, bt, &nspace, 1, PMIX_STRING)) &&
            NULL != nspace) {
            /* the new job's data, which the client stores (a Get of a child's data is local) */
            (void)wu_srv_opmix_pack_job(nspace, bt, out);
        }
        free(nspace);
        return rc;
    }
    default:
        return PMIX_SUCCESS; /* the status is the whole reply */
    }
}
