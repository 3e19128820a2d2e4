/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_unpack.c -- the decoding half of the serialization layer (format and rules: wu_pack.h).
 *
 * Every decoder writes into a zeroed element and keeps it destructible at each step (a pointer
 * is stored together with its count), so on error wu_unpack_one just destructs the element,
 * zeroes it and rewinds the cursor. */
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_pack_int.h"
#include "pmix/common/wu_value.h"

#include <endian.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#define WU_STEP(expr) (void)(PMIX_SUCCESS == rc ? (rc = (expr)) : rc)

/* largest cpu index accepted in a cpuset string: corrupt input cannot make hwloc allocate GBs */
#define WU_MAX_CPU_INDEX (1u << 20)

/* ---- field decoders ---- */

/* a string of at most maxlen characters; *out is NULL for a packed NULL */
static int get_str_max(wu_buffer_t *b, char **out, size_t maxlen)
{
    uint32_t len;
    char *s;
    int rc;

    if (PMIX_SUCCESS != (rc = wu_buffer_get_u32(b, &len))) {
        return rc;
    }
    if (0 == len) {
        *out = NULL;
        return PMIX_SUCCESS;
    }
    len--; /* the wire counts the terminator it does not carry */
    if (len > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (len > maxlen || NULL != memchr(b->base + b->rpos, '\0', len)) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (NULL == (s = malloc((size_t)len + 1))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(s, b->base + b->rpos, len);
    s[len] = '\0';
    b->rpos += len;
    *out = s;
    return PMIX_SUCCESS;
}

static int get_str(wu_buffer_t *b, char **out)
{
    return get_str_max(b, out, SIZE_MAX);
}

/* a string into a fixed array of cap bytes (nspace, key) */
static int get_fixed(wu_buffer_t *b, char *dst, size_t cap)
{
    char *s = NULL;
    int rc = get_str_max(b, &s, cap - 1);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    memset(dst, 0, cap);
    if (NULL != s) {
        memcpy(dst, s, strlen(s));
        free(s);
    }
    return PMIX_SUCCESS;
}

static int get_bo(wu_buffer_t *b, pmix_byte_object_t *bo)
{
    uint32_t size;
    int rc;

    if (PMIX_SUCCESS != (rc = wu_buffer_get_u32(b, &size))) {
        return rc;
    }
    if (size > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (0 == size) {
        bo->bytes = NULL;
        bo->size = 0;
        return PMIX_SUCCESS;
    }
    if (NULL == (bo->bytes = malloc(size))) {
        return PMIX_ERR_NOMEM;
    }
    bo->size = size;
    return wu_buffer_get(b, bo->bytes, size);
}

/* a count of elements of type t, refused if that many could not fit in what is left */
static int get_count(wu_buffer_t *b, size_t *n, pmix_data_type_t t)
{
    size_t minw = wu_pack_min_wire(t);
    uint32_t c;
    int rc;

    if (PMIX_SUCCESS != (rc = wu_buffer_get_u32(b, &c))) {
        return rc;
    }
    if (0 != c && 0 == minw) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (0 != c && c > wu_buffer_remaining(b) / minw) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    *n = c;
    return PMIX_SUCCESS;
}

static int get_argv(wu_buffer_t *b, char ***out)
{
    size_t n;
    char **v;
    int rc;

    if (PMIX_SUCCESS != (rc = get_count(b, &n, PMIX_STRING))) {
        return rc;
    }
    if (0 == n) {
        *out = NULL;
        return PMIX_SUCCESS;
    }
    if (NULL == (v = calloc(n + 1, sizeof(*v)))) {
        return PMIX_ERR_NOMEM;
    }
    *out = v; /* NULL-terminated at every step, so the owner can always free it */
    for (size_t i = 0; i < n; i++) {
        if (PMIX_SUCCESS != (rc = get_str(b, &v[i]))) {
            return rc;
        }
        if (NULL == v[i]) {
            return PMIX_ERR_UNPACK_FAILURE; /* an argv has no NULL inside */
        }
    }
    return PMIX_SUCCESS;
}

/* u32 count then elements; *arr and *n are set together so the owner can destruct */
static int get_array(wu_buffer_t *b, void **arr, size_t *n, pmix_data_type_t t)
{
    size_t cnt, sz = wu_data_elem_size(t);
    char *a;
    int rc;

    if (PMIX_SUCCESS != (rc = get_count(b, &cnt, t))) {
        return rc;
    }
    if (0 == cnt) {
        *arr = NULL;
        *n = 0;
        return PMIX_SUCCESS;
    }
    if (NULL == (a = calloc(cnt, sz))) {
        return PMIX_ERR_NOMEM;
    }
    *arr = a;
    *n = cnt;
    for (size_t i = 0; i < cnt && PMIX_SUCCESS == rc; i++) {
        rc = wu_unpack_one(b, a + i * sz, t);
    }
    return rc;
}

static int get_tv(wu_buffer_t *b, struct timeval *tv)
{
    uint64_t s = 0, us = 0;
    int rc = wu_buffer_get_u64(b, &s);

    WU_STEP(wu_buffer_get_u64(b, &us));
    tv->tv_sec = (time_t)(int64_t)s;
    tv->tv_usec = (suseconds_t)(int64_t)us;
    return rc;
}

static int get_float(wu_buffer_t *b, float *f)
{
    uint32_t u = 0;
    int rc = wu_buffer_get_u32(b, &u);

    memcpy(f, &u, sizeof(*f));
    return rc;
}

static int get_i32(wu_buffer_t *b, int32_t *v)
{
    uint32_t u = 0;
    int rc = wu_buffer_get_u32(b, &u);

    *v = (int32_t)u;
    return rc;
}

static int get_scalar(wu_buffer_t *b, void *dst, int width)
{
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    int rc;

    switch (width) {
    case 1:
        return wu_buffer_get(b, dst, 1);
    case 2:
        if (PMIX_SUCCESS == (rc = wu_buffer_get_u16(b, &u16))) {
            memcpy(dst, &u16, 2);
        }
        return rc;
    case 4:
        if (PMIX_SUCCESS == (rc = wu_buffer_get_u32(b, &u32))) {
            memcpy(dst, &u32, 4);
        }
        return rc;
    default:
        if (PMIX_SUCCESS == (rc = wu_buffer_get_u64(b, &u64))) {
            memcpy(dst, &u64, 8);
        }
        return rc;
    }
}

/* ---- composite decoders ---- */

static int unpack_value(wu_buffer_t *b, pmix_value_t *v)
{
    uint16_t t;
    uint8_t present;
    size_t sz;
    void *p;
    int rc;

    if (PMIX_SUCCESS != (rc = wu_buffer_get_u16(b, &t))) {
        return rc;
    }
    v->type = t;
    if (wu_pack_value_is_ptr(t)) {
        if (PMIX_SUCCESS != (rc = wu_buffer_get_u8(b, &present))) {
            return rc;
        }
        if (present > 1) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        if (0 == present) {
            return PMIX_SUCCESS;
        }
        if (NULL == (p = calloc(1, wu_data_elem_size(t)))) {
            return PMIX_ERR_NOMEM;
        }
        if (PMIX_SUCCESS != (rc = wu_unpack_one(b, p, t))) {
            free(p); /* already emptied by wu_unpack_one */
            return rc;
        }
        v->data.ptr = p;
        return PMIX_SUCCESS;
    }
    switch (t) {
    case PMIX_UNDEF:
        return PMIX_SUCCESS;
    case PMIX_VALUE:
    case PMIX_INFO:
    case PMIX_PDATA:
    case PMIX_APP:
    case PMIX_QUERY:
        v->type = PMIX_UNDEF; /* no such member in pmix_value_t */
        return PMIX_ERR_UNPACK_FAILURE;
    default:
        sz = wu_data_elem_size(t);
        if (0 == sz) {
            v->type = PMIX_UNDEF;
            return PMIX_ERR_UNPACK_FAILURE;
        }
        return wu_unpack_one(b, &v->data, t);
    }
}

static int unpack_proc(wu_buffer_t *b, pmix_proc_t *p)
{
    int rc = get_fixed(b, p->nspace, sizeof(p->nspace));

    WU_STEP(wu_buffer_get_u32(b, &p->rank));
    return rc;
}

static int unpack_coord(wu_buffer_t *b, pmix_coord_t *c)
{
    size_t n;
    int rc = wu_buffer_get_u8(b, &c->view);

    WU_STEP(get_count(b, &n, PMIX_UINT32));
    if (PMIX_SUCCESS != rc || 0 == n) {
        return rc;
    }
    if (NULL == (c->coord = calloc(n, sizeof(uint32_t)))) {
        return PMIX_ERR_NOMEM;
    }
    c->dims = n;
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = wu_buffer_get_u32(b, &c->coord[i]);
    }
    return rc;
}

/* a list such as "0-3,8,10-": items N, N-M (M >= N) or N- (open, last) separated by ',', no
 * number above WU_MAX_CPU_INDEX and none with a leading zero. hwloc reads "-30" as a range of
 * billions of cpus, "8-3," as a cpu near 2^32, and numbers as C literals ("010" is 8, and "09-81"
 * stops at the 9 and goes on with "-81", a cpu near 2^32): bitmaps that then take hours to print
 * or encode again, refused here. */
static bool cpulist_ok(const char *s)
{
    unsigned long v = 0, start = 0;
    bool digit = false, range = false;

    for (;; s++) {
        if (*s >= '0' && *s <= '9') {
            if (digit && 0 == v) {
                return false; /* a leading zero: hwloc would read octal */
            }
            v = v * 10 + (unsigned long)(*s - '0');
            if (v > WU_MAX_CPU_INDEX) {
                return false;
            }
            digit = true;
            continue;
        }
        if (digit && range && v < start) {
            return false; /* a range that ends before it starts */
        }
        if ('\0' == *s) {
            return true;
        }
        if ('-' == *s && digit && !range) {
            range = true;
            start = v;
        } else if (',' == *s && digit) {
            range = false;
        } else {
            return false;
        }
        v = 0;
        digit = false;
    }
}

static int unpack_cpuset(wu_buffer_t *b, pmix_cpuset_t *c)
{
    char *s = NULL;
    hwloc_bitmap_t bm;
    int rc = get_str(b, &c->source);

    WU_STEP(get_str(b, &s));
    if (PMIX_SUCCESS != rc || NULL == s) {
        return rc;
    }
    if (!wu_pack_is_hwloc(c->source) || !cpulist_ok(s)) {
        free(s);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (NULL == (bm = hwloc_bitmap_alloc())) {
        free(s);
        return PMIX_ERR_NOMEM;
    }
    if (0 != hwloc_bitmap_list_sscanf(bm, s)) {
        hwloc_bitmap_free(bm);
        rc = PMIX_ERR_UNPACK_FAILURE;
    } else {
        c->bitmap = bm;
    }
    free(s);
    return rc;
}

static int unpack_topo(wu_buffer_t *b, pmix_topology_t *t)
{
    char *xml = NULL;
    hwloc_topology_t topo;
    uint32_t hash = 0;
    int rc = get_str(b, &t->source);

    WU_STEP(get_str(b, &xml));
    if (PMIX_SUCCESS != rc || NULL == xml) {
        return rc;
    }
    /* hwloc must only ever see the XML that was sent (see wu_pack_hash) */
    rc = wu_buffer_get_u32(b, &hash);
    if (PMIX_SUCCESS == rc &&
        (hash != wu_pack_hash(xml, strlen(xml)) || !wu_pack_is_hwloc(t->source))) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIX_ERR_UNPACK_FAILURE;
        if (0 == hwloc_topology_init(&topo)) {
            if (0 == hwloc_topology_set_xmlbuffer(topo, xml, (int)strlen(xml) + 1) &&
                0 == hwloc_topology_load(topo)) {
                t->topology = topo;
                rc = PMIX_SUCCESS;
            } else {
                hwloc_topology_destroy(topo);
            }
        }
    }
    free(xml);
    return rc;
}

static int unpack_dbuf(wu_buffer_t *b, pmix_data_buffer_t *d)
{
    pmix_byte_object_t bo = {NULL, 0};
    int rc = get_bo(b, &bo);

    if (PMIX_SUCCESS != rc) {
        free(bo.bytes);
        return rc;
    }
    d->base_ptr = bo.bytes;
    d->pack_ptr = NULL == bo.bytes ? NULL : bo.bytes + bo.size;
    d->unpack_ptr = bo.bytes;
    d->bytes_allocated = bo.size;
    d->bytes_used = bo.size;
    return PMIX_SUCCESS;
}

static int unpack_proc_stats(wu_buffer_t *b, pmix_proc_stats_t *s)
{
    uint8_t state = 0;
    int rc = get_str(b, &s->node);

    WU_STEP(unpack_proc(b, &s->proc));
    WU_STEP(get_i32(b, &s->pid));
    WU_STEP(get_str(b, &s->cmd));
    WU_STEP(wu_buffer_get_u8(b, &state));
    s->state = (char)state;
    WU_STEP(get_tv(b, &s->time));
    WU_STEP(get_float(b, &s->percent_cpu));
    WU_STEP(get_i32(b, &s->priority));
    WU_STEP(wu_buffer_get_u16(b, &s->num_threads));
    WU_STEP(get_float(b, &s->pss));
    WU_STEP(get_float(b, &s->vsize));
    WU_STEP(get_float(b, &s->rss));
    WU_STEP(get_float(b, &s->peak_vsize));
    WU_STEP(wu_buffer_get_u16(b, &s->processor));
    WU_STEP(get_tv(b, &s->sample_time));
    return rc;
}

static int unpack_disk_stats(wu_buffer_t *b, pmix_disk_stats_t *s)
{
    uint64_t *f[] = {&s->num_reads_completed,  &s->num_reads_merged,        &s->num_sectors_read,
                     &s->milliseconds_reading, &s->num_writes_completed,    &s->num_writes_merged,
                     &s->num_sectors_written,  &s->milliseconds_writing,    &s->num_ios_in_progress,
                     &s->milliseconds_io,      &s->weighted_milliseconds_io};
    int rc = get_str(b, &s->disk);

    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        WU_STEP(wu_buffer_get_u64(b, f[i]));
    }
    return rc;
}

static int unpack_net_stats(wu_buffer_t *b, pmix_net_stats_t *s)
{
    uint64_t *f[] = {&s->num_bytes_recvd, &s->num_packets_recvd, &s->num_recv_errs,
                     &s->num_bytes_sent,  &s->num_packets_sent,  &s->num_send_errs};
    int rc = get_str(b, &s->net_interface);

    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        WU_STEP(wu_buffer_get_u64(b, f[i]));
    }
    return rc;
}

static int unpack_node_stats(wu_buffer_t *b, pmix_node_stats_t *s)
{
    float *f[] = {&s->la,         &s->la5,       &s->la15,   &s->total_mem,
                  &s->free_mem,   &s->buffers,   &s->cached, &s->swap_cached,
                  &s->swap_total, &s->swap_free, &s->mapped};
    int rc = get_str(b, &s->node);

    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        WU_STEP(get_float(b, f[i]));
    }
    WU_STEP(get_tv(b, &s->sample_time));
    WU_STEP(get_array(b, (void **)&s->diskstats, &s->ndiskstats, PMIX_DISK_STATS));
    WU_STEP(get_array(b, (void **)&s->netstats, &s->nnetstats, PMIX_NET_STATS));
    return rc;
}

static int unpack_composite(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    int rc = PMIX_SUCCESS;

    switch (t) {
    case PMIX_PROC:
        return unpack_proc(b, dst);
    case PMIX_PROC_NSPACE:
        return get_fixed(b, dst, sizeof(pmix_nspace_t));
    case PMIX_APP: {
        pmix_app_t *a = dst;
        WU_STEP(get_str(b, &a->cmd));
        WU_STEP(get_argv(b, &a->argv));
        WU_STEP(get_argv(b, &a->env));
        WU_STEP(get_str(b, &a->cwd));
        WU_STEP(get_i32(b, &a->maxprocs));
        WU_STEP(get_array(b, (void **)&a->info, &a->ninfo, PMIX_INFO));
        return rc;
    }
    case PMIX_INFO: {
        pmix_info_t *i = dst;
        WU_STEP(get_fixed(b, i->key, sizeof(i->key)));
        WU_STEP(wu_buffer_get_u32(b, &i->flags));
        /* the receiver owns the value it decoded, whatever the sender's flag said */
        i->flags &= ~(pmix_info_directives_t)PMIX_INFO_PERSISTENT;
        WU_STEP(unpack_value(b, &i->value));
        return rc;
    }
    case PMIX_PDATA: {
        pmix_pdata_t *p = dst;
        WU_STEP(unpack_proc(b, &p->proc));
        WU_STEP(get_fixed(b, p->key, sizeof(p->key)));
        WU_STEP(unpack_value(b, &p->value));
        return rc;
    }
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        return get_bo(b, dst);
    case PMIX_PROC_INFO: {
        pmix_proc_info_t *p = dst;
        WU_STEP(unpack_proc(b, &p->proc));
        WU_STEP(get_str(b, &p->hostname));
        WU_STEP(get_str(b, &p->executable_name));
        WU_STEP(get_i32(b, &p->pid));
        WU_STEP(get_i32(b, &p->exit_code));
        WU_STEP(wu_buffer_get_u8(b, &p->state));
        return rc;
    }
    case PMIX_DATA_ARRAY: {
        pmix_data_array_t *d = dst;
        WU_STEP(wu_buffer_get_u16(b, &d->type));
        WU_STEP(get_array(b, &d->array, &d->size, d->type));
        return rc;
    }
    case PMIX_QUERY: {
        pmix_query_t *q = dst;
        WU_STEP(get_argv(b, &q->keys));
        WU_STEP(get_array(b, (void **)&q->qualifiers, &q->nqual, PMIX_INFO));
        return rc;
    }
    case PMIX_ENVAR: {
        pmix_envar_t *e = dst;
        uint8_t sep = 0;
        WU_STEP(get_str(b, &e->envar));
        WU_STEP(get_str(b, &e->value));
        WU_STEP(wu_buffer_get_u8(b, &sep));
        e->separator = (char)sep;
        return rc;
    }
    case PMIX_COORD:
        return unpack_coord(b, dst);
    case PMIX_REGATTR: {
        pmix_regattr_t *r = dst;
        WU_STEP(get_str(b, &r->name));
        WU_STEP(get_fixed(b, r->string, sizeof(r->string)));
        WU_STEP(wu_buffer_get_u16(b, &r->type));
        WU_STEP(get_argv(b, &r->description));
        return rc;
    }
    case PMIX_PROC_CPUSET:
        return unpack_cpuset(b, dst);
    case PMIX_TOPO:
        return unpack_topo(b, dst);
    case PMIX_GEOMETRY: {
        pmix_geometry_t *g = dst;
        uint64_t fabric = 0;
        WU_STEP(wu_buffer_get_u64(b, &fabric));
        g->fabric = (size_t)fabric;
        WU_STEP(get_str(b, &g->uuid));
        WU_STEP(get_str(b, &g->osname));
        WU_STEP(get_array(b, (void **)&g->coordinates, &g->ncoords, PMIX_COORD));
        return rc;
    }
    case PMIX_DEVICE_DIST: {
        pmix_device_distance_t *d = dst;
        WU_STEP(get_str(b, &d->uuid));
        WU_STEP(get_str(b, &d->osname));
        WU_STEP(wu_buffer_get_u64(b, &d->type));
        WU_STEP(wu_buffer_get_u16(b, &d->mindist));
        WU_STEP(wu_buffer_get_u16(b, &d->maxdist));
        return rc;
    }
    case PMIX_ENDPOINT: {
        pmix_endpoint_t *e = dst;
        WU_STEP(get_str(b, &e->uuid));
        WU_STEP(get_str(b, &e->osname));
        WU_STEP(get_bo(b, &e->endpt));
        return rc;
    }
    case PMIX_PROC_STATS:
        return unpack_proc_stats(b, dst);
    case PMIX_DISK_STATS:
        return unpack_disk_stats(b, dst);
    case PMIX_NET_STATS:
        return unpack_net_stats(b, dst);
    case PMIX_NODE_STATS:
        return unpack_node_stats(b, dst);
    case PMIX_DATA_BUFFER:
        return unpack_dbuf(b, dst);
    default:
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
}

static int unpack_elem(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    int w = wu_pack_scalar_width(t), rc;
    uint64_t u64 = 0;
    uint8_t u8 = 0;

    if (0 != w) {
        return get_scalar(b, dst, w);
    }
    switch (t) {
    case PMIX_BOOL:
        if (PMIX_SUCCESS != (rc = wu_buffer_get_u8(b, &u8))) {
            return rc;
        }
        if (u8 > 1) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        *(bool *)dst = 1 == u8;
        return PMIX_SUCCESS;
    case PMIX_FLOAT:
        return get_float(b, dst);
    case PMIX_DOUBLE:
        rc = wu_buffer_get_u64(b, &u64);
        memcpy(dst, &u64, sizeof(u64));
        return rc;
    case PMIX_TIMEVAL:
        return get_tv(b, dst);
    case PMIX_TIME:
        rc = wu_buffer_get_u64(b, &u64);
        *(time_t *)dst = (time_t)(int64_t)u64;
        return rc;
    case PMIX_STRING:
        return get_str(b, dst);
    case PMIX_POINTER:
        if (!b->local) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        rc = wu_buffer_get_u64(b, &u64);
        *(void **)dst = (void *)(uintptr_t)u64;
        return rc;
    case PMIX_VALUE:
    case PMIX_DATA_ARRAY:
        if (b->depth >= WU_BUFFER_MAX_DEPTH) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        b->depth++;
        rc = PMIX_VALUE == t ? unpack_value(b, dst) : unpack_composite(b, dst, t);
        b->depth--;
        return rc;
    default:
        return unpack_composite(b, dst, t);
    }
}

int wu_unpack_one(wu_buffer_t *b, void *elem, pmix_data_type_t t)
{
    size_t mark = b->rpos;
    int rc = unpack_elem(b, elem, t);

    if (PMIX_SUCCESS != rc) {
        wu_data_elems_destruct(elem, 1, t);
        b->rpos = mark;
    }
    return rc;
}

/* A group header of type t with room for at most `room` elements: *cnt its count, checked
 * against the bytes left. On error the cursor is unchanged; PMIX_ERR_UNPACK_INADEQUATE_SPACE
 * (more than room) still sets *cnt. */
static int get_group(wu_buffer_t *b, pmix_data_type_t t, uint32_t room, uint32_t *cnt)
{
    size_t mark = b->rpos, minw = wu_pack_min_wire(t);
    uint16_t tag = 0;
    int rc;

    *cnt = 0;
    rc = wu_buffer_get_u16(b, &tag);
    WU_STEP(wu_buffer_get_u32(b, cnt));
    if (PMIX_SUCCESS == rc && tag != t) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    } else if (PMIX_SUCCESS == rc && *cnt > INT32_MAX) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    } else if (PMIX_SUCCESS == rc && *cnt > room) {
        rc = PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    } else if (PMIX_SUCCESS == rc && 0 != *cnt &&
               (0 == minw || *cnt > wu_buffer_remaining(b) / minw)) {
        rc = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (PMIX_SUCCESS != rc) {
        b->rpos = mark;
    }
    return rc;
}

int wu_unpack(wu_buffer_t *b, void *dst, int32_t *n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t), mark;
    uint32_t cnt = 0;
    int32_t i;
    int rc;

    if (NULL == b || NULL == n || *n < 0 || (0 < *n && NULL == dst)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == sz) {
        *n = 0;
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    mark = b->rpos;
    rc = get_group(b, t, (uint32_t)*n, &cnt);
    if (PMIX_ERR_UNPACK_INADEQUATE_SPACE == rc) {
        *n = (int32_t)cnt;
        return rc;
    }
    for (i = 0; PMIX_SUCCESS == rc && i < (int32_t)cnt; i++) {
        char *e = (char *)dst + (size_t)i * sz;
        memset(e, 0, sz);
        rc = wu_unpack_one(b, e, t);
    }
    if (PMIX_SUCCESS != rc) {
        /* element i-1 failed and is already empty; release the ones before it */
        for (int32_t j = 0; j + 1 < i; j++) {
            char *e = (char *)dst + (size_t)j * sz;
            wu_data_elems_destruct(e, 1, t);
        }
        b->rpos = mark;
        *n = 0;
        return rc;
    }
    *n = (int32_t)cnt;
    return PMIX_SUCCESS;
}

int wu_unpack_group(wu_buffer_t *b, int32_t *n, pmix_data_type_t t)
{
    uint32_t cnt = 0;
    int rc;

    if (NULL == b || NULL == n) {
        return PMIX_ERR_BAD_PARAM;
    }
    *n = 0;
    if (0 == wu_data_elem_size(t)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (PMIX_SUCCESS == (rc = get_group(b, t, INT32_MAX, &cnt))) {
        *n = (int32_t)cnt;
    }
    return rc;
}

int wu_unpack_bo_view(wu_buffer_t *b, pmix_byte_object_t *bo)
{
    size_t mark;
    uint16_t tag = 0;
    uint32_t cnt = 0, size = 0;
    int rc;

    if (NULL == b || NULL == bo) {
        return PMIX_ERR_BAD_PARAM;
    }
    mark = b->rpos;
    rc = wu_buffer_get_u16(b, &tag);
    WU_STEP(wu_buffer_get_u32(b, &cnt));
    if (PMIX_SUCCESS == rc && (PMIX_BYTE_OBJECT != tag || 1 != cnt)) {
        rc = PMIX_BYTE_OBJECT != tag ? PMIX_ERR_TYPE_MISMATCH : PMIX_ERR_UNPACK_FAILURE;
    }
    WU_STEP(wu_buffer_get_u32(b, &size));
    if (PMIX_SUCCESS == rc && size > wu_buffer_remaining(b)) {
        rc = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (PMIX_SUCCESS != rc) {
        b->rpos = mark;
        return rc;
    }
    bo->bytes = 0 == size ? NULL : b->base + b->rpos;
    bo->size = size;
    b->rpos += size;
    return PMIX_SUCCESS;
}
