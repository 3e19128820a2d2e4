/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_pack.c -- the encoding half of the serialization layer; the format is in wu_pack.h. */
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_pack_int.h"
#include "pmix/common/wu_value.h"

#include <endian.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* run one encoding step unless an earlier one failed; rc holds the first error */
#define WU_STEP(expr) (void)(PMIX_SUCCESS == rc ? (rc = (expr)) : rc)

int wu_pack_scalar_width(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_BYTE:
    case PMIX_INT8:
    case PMIX_UINT8:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_COMMAND:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
        return 1;
    case PMIX_INT16:
    case PMIX_UINT16:
    case PMIX_DATA_TYPE:
    case PMIX_IOF_CHANNEL:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
        return 2;
    case PMIX_PID:
    case PMIX_INT:
    case PMIX_INT32:
    case PMIX_UINT:
    case PMIX_UINT32:
    case PMIX_STATUS:
    case PMIX_INFO_DIRECTIVES:
    case PMIX_PROC_RANK:
        return 4;
    case PMIX_SIZE:
    case PMIX_INT64:
    case PMIX_UINT64:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
        return 8;
    default:
        return 0;
    }
}

size_t wu_pack_min_wire(pmix_data_type_t t)
{
    int w = wu_pack_scalar_width(t);

    if (0 != w) {
        return (size_t)w;
    }
    switch (t) {
    case PMIX_BOOL:
        return 1;
    case PMIX_VALUE:
        return 2;
    case PMIX_FLOAT:
    case PMIX_STRING:
    case PMIX_REGEX:
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
    case PMIX_PROC_NSPACE:
    case PMIX_DATA_BUFFER:
        return 4;
    case PMIX_COORD:
        return 5;
    case PMIX_DATA_ARRAY:
        return 6;
    case PMIX_DOUBLE:
    case PMIX_TIME:
    case PMIX_POINTER:
    case PMIX_PROC:
    case PMIX_QUERY:
    case PMIX_PROC_CPUSET:
    case PMIX_TOPO:
        return 8;
    case PMIX_ENVAR:
        return 9;
    case PMIX_INFO:
        return 10;
    case PMIX_ENDPOINT:
    case PMIX_PDATA:
    case PMIX_REGATTR:
        return 12;
    case PMIX_TIMEVAL:
        return 16;
    case PMIX_GEOMETRY:
    case PMIX_DEVICE_DIST:
    case PMIX_APP:
    case PMIX_PROC_INFO:
        return 20;
    case PMIX_NET_STATS:
    case PMIX_NODE_STATS:
    case PMIX_PROC_STATS:
    case PMIX_DISK_STATS:
        return 40;
    default:
        return 0;
    }
}

bool wu_pack_value_is_ptr(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_PROC_NSPACE:
    case PMIX_PROC:
    case PMIX_PROC_INFO:
    case PMIX_DATA_ARRAY:
    case PMIX_COORD:
    case PMIX_TOPO:
    case PMIX_PROC_CPUSET:
    case PMIX_GEOMETRY:
    case PMIX_DEVICE_DIST:
    case PMIX_ENDPOINT:
    case PMIX_DATA_BUFFER:
    case PMIX_PROC_STATS:
    case PMIX_DISK_STATS:
    case PMIX_NET_STATS:
    case PMIX_NODE_STATS:
    case PMIX_REGATTR:
        return true;
    default:
        return false;
    }
}

bool wu_pack_is_hwloc(const char *source)
{
    return NULL != source && 0 == strncasecmp(source, "hwloc", 5);
}

uint32_t wu_pack_hash(const void *p, size_t n)
{
    const unsigned char *c = p;
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < n; i++) {
        h = (h ^ c[i]) * 16777619u;
    }
    return h;
}

/* ---- field encoders ---- */

static int put_str(wu_buffer_t *b, const char *s)
{
    size_t len;
    int rc;

    if (NULL == s) {
        return wu_buffer_put_u32(b, 0);
    }
    len = strlen(s);
    if (len >= UINT32_MAX) {
        return PMIX_ERR_PACK_FAILURE;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_put_u32(b, (uint32_t)len + 1))) {
        return rc;
    }
    return wu_buffer_put(b, s, len);
}

/* a string stored in a fixed array (nspace, key): it must be terminated inside the array */
static int put_fixed(wu_buffer_t *b, const char *s, size_t cap)
{
    if (strnlen(s, cap) == cap) {
        return PMIX_ERR_PACK_FAILURE;
    }
    return put_str(b, s);
}

static int put_bo(wu_buffer_t *b, const char *bytes, size_t size)
{
    int rc;

    if (size > UINT32_MAX || (0 != size && NULL == bytes)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_put_u32(b, (uint32_t)size))) {
        return rc;
    }
    return wu_buffer_put(b, bytes, size);
}

static int put_argv(wu_buffer_t *b, char *const *argv)
{
    size_t n = 0;
    int rc;

    while (NULL != argv && NULL != argv[n]) {
        n++;
    }
    if (n > UINT32_MAX) {
        return PMIX_ERR_PACK_FAILURE;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_put_u32(b, (uint32_t)n))) {
        return rc;
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = put_str(b, argv[i]);
    }
    return rc;
}

static int put_tv(wu_buffer_t *b, const struct timeval *tv)
{
    int rc = wu_buffer_put_u64(b, (uint64_t)(int64_t)tv->tv_sec);
    return PMIX_SUCCESS == rc ? wu_buffer_put_u64(b, (uint64_t)(int64_t)tv->tv_usec) : rc;
}

static int put_float(wu_buffer_t *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return wu_buffer_put_u32(b, u);
}

/* u32 count, then count elements of type t laid out at arr */
static int put_array(wu_buffer_t *b, const void *arr, size_t n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);
    int rc;

    if (n > UINT32_MAX || (0 != n && NULL == arr)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_put_u32(b, (uint32_t)n))) {
        return rc;
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = wu_pack_one(b, (const char *)arr + i * sz, t);
    }
    return rc;
}

static int put_scalar(wu_buffer_t *b, const void *src, int width)
{
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;

    switch (width) {
    case 1:
        return wu_buffer_put(b, src, 1);
    case 2:
        memcpy(&u16, src, 2);
        return wu_buffer_put_u16(b, u16);
    case 4:
        memcpy(&u32, src, 4);
        return wu_buffer_put_u32(b, u32);
    default:
        memcpy(&u64, src, 8);
        return wu_buffer_put_u64(b, u64);
    }
}

/* ---- composite encoders ---- */

static int pack_value(wu_buffer_t *b, const pmix_value_t *v)
{
    const void *p;
    int rc;

    if (PMIX_SUCCESS != (rc = wu_buffer_put_u16(b, v->type))) {
        return rc;
    }
    if (wu_pack_value_is_ptr(v->type)) {
        p = v->data.ptr;
        if (PMIX_SUCCESS != (rc = wu_buffer_put_u8(b, NULL != p))) {
            return rc;
        }
        return NULL == p ? PMIX_SUCCESS : wu_pack_one(b, p, v->type);
    }
    switch (v->type) {
    case PMIX_UNDEF:
        return PMIX_SUCCESS;
    case PMIX_VALUE:
    case PMIX_INFO:
    case PMIX_PDATA:
    case PMIX_APP:
    case PMIX_QUERY:
        return PMIX_ERR_PACK_FAILURE; /* no such member in pmix_value_t */
    default:
        /* every other member sits at the start of the union in its element layout */
        if (0 == wu_data_elem_size(v->type)) {
            return PMIX_ERR_UNKNOWN_DATA_TYPE;
        }
        return wu_pack_one(b, &v->data, v->type);
    }
}

static int pack_proc(wu_buffer_t *b, const pmix_proc_t *p)
{
    int rc = put_fixed(b, p->nspace, sizeof(p->nspace));
    return PMIX_SUCCESS == rc ? wu_buffer_put_u32(b, p->rank) : rc;
}

static int pack_coord(wu_buffer_t *b, const pmix_coord_t *c)
{
    int rc;

    if (c->dims > UINT32_MAX || (0 != c->dims && NULL == c->coord)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_put_u8(b, c->view)) ||
        PMIX_SUCCESS != (rc = wu_buffer_put_u32(b, (uint32_t)c->dims))) {
        return rc;
    }
    for (size_t i = 0; i < c->dims && PMIX_SUCCESS == rc; i++) {
        rc = wu_buffer_put_u32(b, c->coord[i]);
    }
    return rc;
}

static int pack_cpuset(wu_buffer_t *b, const pmix_cpuset_t *c)
{
    char *s = NULL;
    int rc;

    if (NULL != c->bitmap && !wu_pack_is_hwloc(c->source)) {
        return PMIX_ERR_NOT_SUPPORTED; /* only hwloc bitmaps have a known form */
    }
    if (PMIX_SUCCESS != (rc = put_str(b, c->source))) {
        return rc;
    }
    if (NULL != c->bitmap && hwloc_bitmap_list_asprintf(&s, (hwloc_const_bitmap_t)c->bitmap) < 0) {
        return PMIX_ERR_NOMEM;
    }
    rc = put_str(b, s);
    free(s);
    return rc;
}

static int pack_topo(wu_buffer_t *b, const pmix_topology_t *t)
{
    char *xml = NULL;
    int len = 0, rc;

    if (NULL != t->topology && !wu_pack_is_hwloc(t->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != (rc = put_str(b, t->source))) {
        return rc;
    }
    if (NULL == t->topology) {
        return put_str(b, NULL);
    }
    if (0 != hwloc_topology_export_xmlbuffer((hwloc_topology_t)t->topology, &xml, &len, 0)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    rc = put_str(b, xml);
    if (PMIX_SUCCESS == rc) {
        rc = wu_buffer_put_u32(b, wu_pack_hash(xml, strlen(xml)));
    }
    hwloc_free_xmlbuffer((hwloc_topology_t)t->topology, xml);
    return rc;
}

static int pack_dbuf(wu_buffer_t *b, const pmix_data_buffer_t *d)
{
    wu_buffer_t view;

    /* only the unread part of the payload travels, like PMIx_Data_copy_payload */
    if (PMIX_SUCCESS != wu_buffer_from_pmix(&view, d)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    return put_bo(b, NULL == view.base ? NULL : view.base + view.rpos, wu_buffer_remaining(&view));
}

static int pack_proc_stats(wu_buffer_t *b, const pmix_proc_stats_t *s)
{
    int rc = PMIX_SUCCESS;

    WU_STEP(put_str(b, s->node));
    WU_STEP(pack_proc(b, &s->proc));
    WU_STEP(wu_buffer_put_u32(b, (uint32_t)s->pid));
    WU_STEP(put_str(b, s->cmd));
    WU_STEP(wu_buffer_put_u8(b, (uint8_t)s->state));
    WU_STEP(put_tv(b, &s->time));
    WU_STEP(put_float(b, s->percent_cpu));
    WU_STEP(wu_buffer_put_u32(b, (uint32_t)s->priority));
    WU_STEP(wu_buffer_put_u16(b, s->num_threads));
    WU_STEP(put_float(b, s->pss));
    WU_STEP(put_float(b, s->vsize));
    WU_STEP(put_float(b, s->rss));
    WU_STEP(put_float(b, s->peak_vsize));
    WU_STEP(wu_buffer_put_u16(b, s->processor));
    WU_STEP(put_tv(b, &s->sample_time));
    return rc;
}

static int pack_disk_stats(wu_buffer_t *b, const pmix_disk_stats_t *s)
{
    const uint64_t f[] = {
        s->num_reads_completed,  s->num_reads_merged,        s->num_sectors_read,
        s->milliseconds_reading, s->num_writes_completed,    s->num_writes_merged,
        s->num_sectors_written,  s->milliseconds_writing,    s->num_ios_in_progress,
        s->milliseconds_io,      s->weighted_milliseconds_io};
    int rc = put_str(b, s->disk);

    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        WU_STEP(wu_buffer_put_u64(b, f[i]));
    }
    return rc;
}

static int pack_net_stats(wu_buffer_t *b, const pmix_net_stats_t *s)
{
    const uint64_t f[] = {s->num_bytes_recvd, s->num_packets_recvd, s->num_recv_errs,
                          s->num_bytes_sent,  s->num_packets_sent,  s->num_send_errs};
    int rc = put_str(b, s->net_interface);

    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        WU_STEP(wu_buffer_put_u64(b, f[i]));
    }
    return rc;
}

static int pack_node_stats(wu_buffer_t *b, const pmix_node_stats_t *s)
{
    const float f[] = {s->la,         s->la5,       s->la15,   s->total_mem,
                       s->free_mem,   s->buffers,   s->cached, s->swap_cached,
                       s->swap_total, s->swap_free, s->mapped};
    int rc = put_str(b, s->node);

    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        WU_STEP(put_float(b, f[i]));
    }
    WU_STEP(put_tv(b, &s->sample_time));
    WU_STEP(put_array(b, s->diskstats, s->ndiskstats, PMIX_DISK_STATS));
    WU_STEP(put_array(b, s->netstats, s->nnetstats, PMIX_NET_STATS));
    return rc;
}

static int pack_composite(wu_buffer_t *b, const void *src, pmix_data_type_t t)
{
    int rc = PMIX_SUCCESS;

    switch (t) {
    case PMIX_PROC:
        return pack_proc(b, src);
    case PMIX_PROC_NSPACE:
        return put_fixed(b, src, sizeof(pmix_nspace_t));
    case PMIX_APP: {
        const pmix_app_t *a = src;
        WU_STEP(put_str(b, a->cmd));
        WU_STEP(put_argv(b, a->argv));
        WU_STEP(put_argv(b, a->env));
        WU_STEP(put_str(b, a->cwd));
        WU_STEP(wu_buffer_put_u32(b, (uint32_t)a->maxprocs));
        WU_STEP(put_array(b, a->info, a->ninfo, PMIX_INFO));
        return rc;
    }
    case PMIX_INFO: {
        const pmix_info_t *i = src;
        WU_STEP(put_fixed(b, i->key, sizeof(i->key)));
        WU_STEP(wu_buffer_put_u32(b, i->flags));
        WU_STEP(pack_value(b, &i->value));
        return rc;
    }
    case PMIX_PDATA: {
        const pmix_pdata_t *p = src;
        WU_STEP(pack_proc(b, &p->proc));
        WU_STEP(put_fixed(b, p->key, sizeof(p->key)));
        WU_STEP(pack_value(b, &p->value));
        return rc;
    }
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX: /* a regex is a byte object in the C API (it may hold binary data) */
    case PMIX_COMPRESSED_BYTE_OBJECT: {
        const pmix_byte_object_t *bo = src;
        return put_bo(b, bo->bytes, bo->size);
    }
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t *p = src;
        WU_STEP(pack_proc(b, &p->proc));
        WU_STEP(put_str(b, p->hostname));
        WU_STEP(put_str(b, p->executable_name));
        WU_STEP(wu_buffer_put_u32(b, (uint32_t)p->pid));
        WU_STEP(wu_buffer_put_u32(b, (uint32_t)p->exit_code));
        WU_STEP(wu_buffer_put_u8(b, p->state));
        return rc;
    }
    case PMIX_DATA_ARRAY: {
        const pmix_data_array_t *d = src;
        if (0 == wu_data_elem_size(d->type) && 0 != d->size) {
            return PMIX_ERR_UNKNOWN_DATA_TYPE;
        }
        WU_STEP(wu_buffer_put_u16(b, d->type));
        WU_STEP(put_array(b, d->array, d->size, d->type));
        return rc;
    }
    case PMIX_QUERY: {
        const pmix_query_t *q = src;
        WU_STEP(put_argv(b, q->keys));
        WU_STEP(put_array(b, q->qualifiers, q->nqual, PMIX_INFO));
        return rc;
    }
    case PMIX_ENVAR: {
        const pmix_envar_t *e = src;
        WU_STEP(put_str(b, e->envar));
        WU_STEP(put_str(b, e->value));
        WU_STEP(wu_buffer_put_u8(b, (uint8_t)e->separator));
        return rc;
    }
    case PMIX_COORD:
        return pack_coord(b, src);
    case PMIX_REGATTR: {
        const pmix_regattr_t *r = src;
        WU_STEP(put_str(b, r->name));
        WU_STEP(put_fixed(b, r->string, sizeof(r->string)));
        WU_STEP(wu_buffer_put_u16(b, r->type));
        WU_STEP(put_argv(b, r->description));
        return rc;
    }
    case PMIX_PROC_CPUSET:
        return pack_cpuset(b, src);
    case PMIX_TOPO:
        return pack_topo(b, src);
    case PMIX_GEOMETRY: {
        const pmix_geometry_t *g = src;
        WU_STEP(wu_buffer_put_u64(b, g->fabric));
        WU_STEP(put_str(b, g->uuid));
        WU_STEP(put_str(b, g->osname));
        WU_STEP(put_array(b, g->coordinates, g->ncoords, PMIX_COORD));
        return rc;
    }
    case PMIX_DEVICE_DIST: {
        const pmix_device_distance_t *d = src;
        WU_STEP(put_str(b, d->uuid));
        WU_STEP(put_str(b, d->osname));
        WU_STEP(wu_buffer_put_u64(b, d->type));
        WU_STEP(wu_buffer_put_u16(b, d->mindist));
        WU_STEP(wu_buffer_put_u16(b, d->maxdist));
        return rc;
    }
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t *e = src;
        WU_STEP(put_str(b, e->uuid));
        WU_STEP(put_str(b, e->osname));
        WU_STEP(put_bo(b, e->endpt.bytes, e->endpt.size));
        return rc;
    }
    case PMIX_PROC_STATS:
        return pack_proc_stats(b, src);
    case PMIX_DISK_STATS:
        return pack_disk_stats(b, src);
    case PMIX_NET_STATS:
        return pack_net_stats(b, src);
    case PMIX_NODE_STATS:
        return pack_node_stats(b, src);
    case PMIX_DATA_BUFFER:
        return pack_dbuf(b, src);
    default:
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
}

int wu_pack_one(wu_buffer_t *b, const void *src, pmix_data_type_t t)
{
    int w = wu_pack_scalar_width(t), rc;
    uint64_t u64;

    if (0 != w) {
        return put_scalar(b, src, w);
    }
    switch (t) {
    case PMIX_BOOL:
        return wu_buffer_put_u8(b, *(const bool *)src ? 1 : 0);
    case PMIX_FLOAT:
        return put_float(b, *(const float *)src);
    case PMIX_DOUBLE:
        memcpy(&u64, src, sizeof(u64));
        return wu_buffer_put_u64(b, u64);
    case PMIX_TIMEVAL:
        return put_tv(b, src);
    case PMIX_TIME:
        return wu_buffer_put_u64(b, (uint64_t)(int64_t) * (const time_t *)src);
    case PMIX_STRING:
        return put_str(b, *(char *const *)src);
    case PMIX_POINTER:
        if (!b->local) {
            return PMIX_ERR_PACK_FAILURE; /* an address means nothing in another process */
        }
        return wu_buffer_put_u64(b, (uint64_t)(uintptr_t) * (void *const *)src);
    case PMIX_VALUE:
    case PMIX_DATA_ARRAY:
        /* the recursive types: bound the nesting so that decoding stays bounded too */
        if (b->depth >= WU_BUFFER_MAX_DEPTH) {
            return PMIX_ERR_PACK_FAILURE;
        }
        b->depth++;
        rc = PMIX_VALUE == t ? pack_value(b, src) : pack_composite(b, src, t);
        b->depth--;
        return rc;
    default:
        return pack_composite(b, src, t);
    }
}

int wu_pack_group_header(wu_buffer_t *b, pmix_data_type_t t, int32_t n)
{
    int rc;
    if (NULL == b || n < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    rc = wu_buffer_put_u16(b, t);
    return PMIX_SUCCESS == rc ? wu_buffer_put_u32(b, (uint32_t)n) : rc;
}

int wu_pack_bo_header(wu_buffer_t *b, size_t size)
{
    int rc;
    if (size > UINT32_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    rc = wu_pack_group_header(b, PMIX_BYTE_OBJECT, 1);
    return PMIX_SUCCESS == rc ? wu_buffer_put_u32(b, (uint32_t)size) : rc; /* put_bo's length */
}

int wu_pack_value_bo_head(wu_buffer_t *b, const pmix_value_t *v)
{
    int rc = PMIX_SUCCESS;
    switch (NULL != v ? v->type : PMIX_UNDEF) {
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        break;
    default:
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == b || v->data.bo.size > UINT32_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* as pack_value, up to put_bo's length */
    WU_STEP(wu_buffer_put_u16(b, v->type));
    WU_STEP(wu_buffer_put_u32(b, (uint32_t)v->data.bo.size));
    return rc;
}

int wu_pack_info_bo_head(wu_buffer_t *b, const pmix_info_t *info)
{
    int rc = PMIX_SUCCESS;
    if (NULL == b || NULL == info) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* as wu_pack_one(PMIX_INFO) */
    WU_STEP(put_fixed(b, info->key, sizeof(info->key)));
    WU_STEP(wu_buffer_put_u32(b, info->flags));
    WU_STEP(wu_pack_value_bo_head(b, &info->value));
    return rc;
}

int wu_pack(wu_buffer_t *b, const void *src, int32_t n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t), mark;
    int rc;

    if (NULL == b || n < 0 || (0 < n && NULL == src)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == sz) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    mark = b->used;
    rc = wu_buffer_put_u16(b, t);
    if (PMIX_SUCCESS == rc) {
        rc = wu_buffer_put_u32(b, (uint32_t)n);
    }
    for (int32_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = wu_pack_one(b, (const char *)src + (size_t)i * sz, t);
    }
    if (PMIX_SUCCESS != rc) {
        b->used = mark; /* all or nothing */
    }
    return rc;
}

int wu_pack_group_begin(wu_buffer_t *b, pmix_data_type_t t, size_t *mark)
{
    int rc;
    if (NULL == b || NULL == mark) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == wu_data_elem_size(t)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    *mark = b->used;
    if (PMIX_SUCCESS != (rc = wu_pack_group_header(b, t, 0))) {
        b->used = *mark;
    }
    return rc;
}

int wu_pack_group_end(wu_buffer_t *b, size_t mark, size_t n)
{
    uint32_t be;
    if (NULL == b || n > INT32_MAX || mark > b->used || b->used - mark < 6) {
        return PMIX_ERR_BAD_PARAM;
    }
    be = htobe32((uint32_t)n);
    memcpy(b->base + mark + 2, &be, sizeof be); /* after the u16 type tag */
    return PMIX_SUCCESS;
}
