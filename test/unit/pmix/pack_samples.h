/* SPDX-License-Identifier: BSD-3-Clause */
/* pack_samples.h -- test data shared by check_pmix_pack.c and check_pmix_fuzz.c: one sample
 * element of every packable PMIx data type, and a canonical-encoding comparison. */
#ifndef WU_TEST_PACK_SAMPLES_H
#define WU_TEST_PACK_SAMPLES_H

#include "pmix.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_value.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

/* every type that has an element form (PMIX_POINTER only packs in a local buffer) */
static const pmix_data_type_t sample_types[] = {
    PMIX_BOOL,
    PMIX_BYTE,
    PMIX_STRING,
    PMIX_SIZE,
    PMIX_PID,
    PMIX_INT,
    PMIX_INT8,
    PMIX_INT16,
    PMIX_INT32,
    PMIX_INT64,
    PMIX_UINT,
    PMIX_UINT8,
    PMIX_UINT16,
    PMIX_UINT32,
    PMIX_UINT64,
    PMIX_FLOAT,
    PMIX_DOUBLE,
    PMIX_TIMEVAL,
    PMIX_TIME,
    PMIX_STATUS,
    PMIX_VALUE,
    PMIX_PROC,
    PMIX_APP,
    PMIX_INFO,
    PMIX_PDATA,
    PMIX_BYTE_OBJECT,
    PMIX_PERSIST,
    PMIX_SCOPE,
    PMIX_DATA_RANGE,
    PMIX_COMMAND,
    PMIX_INFO_DIRECTIVES,
    PMIX_DATA_TYPE,
    PMIX_PROC_STATE,
    PMIX_PROC_INFO,
    PMIX_DATA_ARRAY,
    PMIX_PROC_RANK,
    PMIX_QUERY,
    PMIX_COMPRESSED_STRING,
    PMIX_ALLOC_DIRECTIVE,
    PMIX_IOF_CHANNEL,
    PMIX_ENVAR,
    PMIX_COORD,
    PMIX_REGATTR,
    PMIX_REGEX,
    PMIX_JOB_STATE,
    PMIX_LINK_STATE,
    PMIX_PROC_CPUSET,
    PMIX_GEOMETRY,
    PMIX_DEVICE_DIST,
    PMIX_ENDPOINT,
    PMIX_TOPO,
    PMIX_DEVTYPE,
    PMIX_LOCTYPE,
    PMIX_COMPRESSED_BYTE_OBJECT,
    PMIX_PROC_NSPACE,
    PMIX_PROC_STATS,
    PMIX_DISK_STATS,
    PMIX_NET_STATS,
    PMIX_NODE_STATS,
    PMIX_DATA_BUFFER,
    PMIX_STOR_MEDIUM,
    PMIX_STOR_ACCESS,
    PMIX_STOR_PERSIST,
    PMIX_STOR_ACCESS_TYPE,
};
#define N_SAMPLE_TYPES (sizeof(sample_types) / sizeof(sample_types[0]))

/* types a pmix_value_t can carry */
static inline bool sample_value_type_ok(pmix_data_type_t t)
{
    return PMIX_VALUE != t && PMIX_INFO != t && PMIX_PDATA != t && PMIX_APP != t && PMIX_QUERY != t;
}

static void sample_fill(pmix_data_type_t t, void *elem, unsigned seed);

static inline char *sample_str(const char *base, unsigned seed)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%s-%u", base, seed);
    return strdup(buf);
}

static inline void sample_bo(pmix_byte_object_t *bo, unsigned seed)
{
    bo->size = 5 + seed % 7;
    bo->bytes = malloc(bo->size);
    for (size_t i = 0; i < bo->size; i++) {
        bo->bytes[i] = (char)(i * 31 + seed); /* binary, includes NULs */
    }
}

static inline char **sample_argv(unsigned seed)
{
    char **v = calloc(3, sizeof(*v));
    v[0] = sample_str("arg", seed);
    v[1] = sample_str("arg", seed + 1);
    return v;
}

static inline void sample_info(pmix_info_t *i, unsigned seed)
{
    memset(i, 0, sizeof(*i));
    snprintf(i->key, sizeof(i->key), "wu.test.key%u", seed);
    i->flags = seed & 1 ? PMIX_INFO_REQD : 0;
    if (seed % 3 == 0) {
        i->value.type = PMIX_STRING;
        i->value.data.string = sample_str("val", seed);
    } else {
        i->value.type = PMIX_UINT64;
        i->value.data.uint64 = 0x1122334455667788ull + seed;
    }
}

static inline void sample_value(pmix_value_t *v, pmix_data_type_t t, unsigned seed)
{
    memset(v, 0, sizeof(*v));
    v->type = t;
    if (PMIX_POINTER == t) {
        v->data.ptr = v;
    } else if (PMIX_PROC_NSPACE == t || PMIX_PROC == t || PMIX_PROC_INFO == t ||
               PMIX_DATA_ARRAY == t || PMIX_COORD == t || PMIX_TOPO == t || PMIX_PROC_CPUSET == t ||
               PMIX_GEOMETRY == t || PMIX_DEVICE_DIST == t || PMIX_ENDPOINT == t ||
               PMIX_DATA_BUFFER == t || PMIX_PROC_STATS == t || PMIX_DISK_STATS == t ||
               PMIX_NET_STATS == t || PMIX_NODE_STATS == t || PMIX_REGATTR == t) {
        v->data.ptr = calloc(1, wu_data_elem_size(t));
        sample_fill(t, v->data.ptr, seed);
    } else {
        sample_fill(t, &v->data, seed);
    }
}

static inline void sample_coord(pmix_coord_t *c, unsigned seed)
{
    c->view = PMIX_COORD_LOGICAL_VIEW;
    c->dims = 3;
    c->coord = calloc(3, sizeof(uint32_t));
    for (int i = 0; i < 3; i++) {
        c->coord[i] = seed * 10 + (unsigned)i;
    }
}

static inline void sample_disk(pmix_disk_stats_t *d, unsigned seed)
{
    d->disk = sample_str("sda", seed);
    d->num_reads_completed = seed + 1;
    d->weighted_milliseconds_io = UINT64_MAX - seed;
}

static inline void sample_net(pmix_net_stats_t *n, unsigned seed)
{
    n->net_interface = sample_str("eth", seed);
    n->num_bytes_recvd = seed + 7;
    n->num_send_errs = UINT64_MAX - seed;
}

/* fill one zeroed element of type t with data depending on seed */
static void sample_fill(pmix_data_type_t t, void *elem, unsigned seed)
{
    size_t sz = wu_data_elem_size(t);

    switch (t) {
    case PMIX_BOOL:
        *(bool *)elem = seed & 1;
        break;
    case PMIX_FLOAT:
        *(float *)elem = 1.5f + (float)seed;
        break;
    case PMIX_DOUBLE:
        *(double *)elem = -2.25e100 * (seed + 1);
        break;
    case PMIX_TIMEVAL:
        ((struct timeval *)elem)->tv_sec = 1700000000 + seed;
        ((struct timeval *)elem)->tv_usec = 999999 - seed;
        break;
    case PMIX_TIME:
        *(time_t *)elem = -(time_t)seed - 5;
        break;
    case PMIX_STRING:
        *(char **)elem = seed % 4 == 3 ? NULL : sample_str("string", seed);
        break;
    case PMIX_VALUE:
        sample_value(elem, seed & 1 ? PMIX_STRING : PMIX_INT32, seed);
        break;
    case PMIX_PROC:
        PMIX_PROC_LOAD((pmix_proc_t *)elem, "wu-nspace", seed % 2 ? PMIX_RANK_WILDCARD : seed);
        break;
    case PMIX_PROC_NSPACE:
        snprintf(elem, sizeof(pmix_nspace_t), "ns.%u", seed);
        break;
    case PMIX_APP: {
        pmix_app_t *a = elem;
        a->cmd = sample_str("/bin/app", seed);
        a->argv = sample_argv(seed);
        a->env = sample_argv(seed + 5);
        a->cwd = seed & 1 ? NULL : strdup("/tmp");
        a->maxprocs = -(int)seed - 1;
        a->ninfo = 2;
        a->info = calloc(2, sizeof(pmix_info_t));
        sample_info(&a->info[0], seed);
        sample_info(&a->info[1], seed + 1);
        break;
    }
    case PMIX_INFO:
        sample_info(elem, seed);
        break;
    case PMIX_PDATA: {
        pmix_pdata_t *p = elem;
        PMIX_PROC_LOAD(&p->proc, "pdata-ns", seed);
        snprintf(p->key, sizeof(p->key), "pkey%u", seed);
        sample_value(&p->value, PMIX_DOUBLE, seed);
        break;
    }
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        sample_bo(elem, seed);
        break;
    case PMIX_PROC_INFO: {
        pmix_proc_info_t *p = elem;
        PMIX_PROC_LOAD(&p->proc, "pinfo", seed);
        p->hostname = sample_str("node", seed);
        p->executable_name = seed & 1 ? NULL : strdup("a.out");
        p->pid = 4242 + (pid_t)seed;
        p->exit_code = -3;
        p->state = PMIX_PROC_STATE_RUNNING;
        break;
    }
    case PMIX_DATA_ARRAY: {
        /* an array of infos, one of which nests another data array */
        pmix_data_array_t *d = elem, *inner = calloc(1, sizeof(*inner));
        pmix_info_t *infos = calloc(3, sizeof(pmix_info_t));
        inner->type = PMIX_UINT16;
        inner->size = 4;
        inner->array = calloc(4, sizeof(uint16_t));
        for (uint16_t i = 0; i < 4; i++) {
            ((uint16_t *)inner->array)[i] = (uint16_t)(0xfff0 + i + seed);
        }
        sample_info(&infos[0], seed);
        sample_info(&infos[1], seed + 1);
        snprintf(infos[2].key, sizeof(infos[2].key), "nested");
        infos[2].value.type = PMIX_DATA_ARRAY;
        infos[2].value.data.darray = inner;
        d->type = PMIX_INFO;
        d->size = 3;
        d->array = infos;
        break;
    }
    case PMIX_QUERY: {
        pmix_query_t *q = elem;
        q->keys = sample_argv(seed);
        q->nqual = 1;
        q->qualifiers = calloc(1, sizeof(pmix_info_t));
        sample_info(q->qualifiers, seed);
        break;
    }
    case PMIX_ENVAR: {
        pmix_envar_t *e = elem;
        e->envar = sample_str("PATH", seed);
        e->value = strdup("/usr/bin");
        e->separator = ':';
        break;
    }
    case PMIX_COORD:
        sample_coord(elem, seed);
        break;
    case PMIX_REGATTR: {
        pmix_regattr_t *r = elem;
        r->name = sample_str("attr", seed);
        snprintf(r->string, sizeof(r->string), "pmix.attr.%u", seed);
        r->type = PMIX_BOOL;
        r->description = sample_argv(seed);
        break;
    }
    case PMIX_PROC_CPUSET: {
        pmix_cpuset_t *c = elem;
        c->source = strdup("hwloc");
        c->bitmap = hwloc_bitmap_alloc();
        hwloc_bitmap_set_range(c->bitmap, 0, 3);
        hwloc_bitmap_set(c->bitmap, 8 + seed);
        break;
    }
    case PMIX_TOPO: {
        pmix_topology_t *tp = elem;
        hwloc_topology_t topo;
        hwloc_topology_init(&topo);
        hwloc_topology_set_synthetic(topo, "pack:1 core:2 pu:1");
        hwloc_topology_load(topo);
        tp->source = strdup("hwloc");
        tp->topology = topo;
        break;
    }
    case PMIX_GEOMETRY: {
        pmix_geometry_t *g = elem;
        g->fabric = 3 + seed;
        g->uuid = sample_str("uuid", seed);
        g->osname = strdup("ib0");
        g->ncoords = 2;
        g->coordinates = calloc(2, sizeof(pmix_coord_t));
        sample_coord(&g->coordinates[0], seed);
        sample_coord(&g->coordinates[1], seed + 1);
        break;
    }
    case PMIX_DEVICE_DIST: {
        pmix_device_distance_t *d = elem;
        d->uuid = sample_str("dev", seed);
        d->osname = NULL;
        d->type = PMIX_DEVTYPE_GPU;
        d->mindist = 1;
        d->maxdist = (uint16_t)(65535 - seed);
        break;
    }
    case PMIX_ENDPOINT: {
        pmix_endpoint_t *e = elem;
        e->uuid = sample_str("ep", seed);
        e->osname = strdup("mlx5_0");
        sample_bo(&e->endpt, seed);
        break;
    }
    case PMIX_PROC_STATS: {
        pmix_proc_stats_t *s = elem;
        s->node = sample_str("node", seed);
        PMIX_PROC_LOAD(&s->proc, "stats", seed);
        s->pid = 77;
        s->cmd = strdup("sleep");
        s->state = 'R';
        s->time.tv_sec = 5;
        s->percent_cpu = 12.5f;
        s->priority = -20;
        s->num_threads = 4;
        s->pss = 1.f;
        s->vsize = 2.f;
        s->rss = 3.f;
        s->peak_vsize = 4.f;
        s->processor = 9;
        s->sample_time.tv_usec = 17;
        break;
    }
    case PMIX_DISK_STATS:
        sample_disk(elem, seed);
        break;
    case PMIX_NET_STATS:
        sample_net(elem, seed);
        break;
    case PMIX_NODE_STATS: {
        pmix_node_stats_t *n = elem;
        n->node = sample_str("node", seed);
        n->la = 0.5f;
        n->mapped = 1024.f;
        n->sample_time.tv_sec = 99;
        n->ndiskstats = 2;
        n->diskstats = calloc(2, sizeof(pmix_disk_stats_t));
        sample_disk(&n->diskstats[0], seed);
        sample_disk(&n->diskstats[1], seed + 1);
        n->nnetstats = 1;
        n->netstats = calloc(1, sizeof(pmix_net_stats_t));
        sample_net(&n->netstats[0], seed);
        break;
    }
    case PMIX_DATA_BUFFER: {
        pmix_data_buffer_t *d = elem;
        int32_t v = (int32_t)seed;
        PMIX_DATA_BUFFER_CONSTRUCT(d);
        PMIx_Data_pack(NULL, d, &v, 1, PMIX_INT32);
        break;
    }
    default:
        /* fixed-width integers and enums: a byte pattern that differs per seed */
        for (size_t i = 0; i < sz; i++) {
            ((unsigned char *)elem)[i] = (unsigned char)(0x81 + i * 13 + seed * 7);
        }
        break;
    }
}

/* n samples of type t in a new array; release with sample_free */
static inline void *sample_array(pmix_data_type_t t, size_t n)
{
    char *a = calloc(n, wu_data_elem_size(t));
    for (size_t i = 0; i < n; i++) {
        sample_fill(t, a + i * wu_data_elem_size(t), (unsigned)i);
    }
    return a;
}

static inline void sample_free(void *a, pmix_data_type_t t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        wu_data_elems_destruct((char *)a + i * wu_data_elem_size(t), 1, t);
    }
    free(a);
}

/* Equal data encodes equally (packing is deterministic), so b matches a when their encodings
 * agree. a is first passed through one round trip itself: a topology's XML gains attributes the
 * first time hwloc imports it, and b (a decoded copy) has been through that once. */
static inline bool sample_equal(const void *a, const void *b, pmix_data_type_t t, size_t n)
{
    size_t sz = wu_data_elem_size(t);
    void *a2 = calloc(n, sz);
    int32_t m = (int32_t)n;
    wu_buffer_t x, y;
    bool eq;

    wu_buffer_construct(&x);
    wu_buffer_construct(&y);
    x.local = y.local = true;
    eq = PMIX_SUCCESS == wu_pack(&x, a, (int32_t)n, t) && PMIX_SUCCESS == wu_unpack(&x, a2, &m, t);
    wu_buffer_destruct(&x);
    eq = eq && PMIX_SUCCESS == wu_pack(&x, a2, (int32_t)n, t) &&
         PMIX_SUCCESS == wu_pack(&y, b, (int32_t)n, t) && x.used == y.used &&
         0 == memcmp(x.base, y.base, x.used);
    sample_free(a2, t, n);
    wu_buffer_destruct(&x);
    wu_buffer_destruct(&y);
    return eq;
}

#endif /* WU_TEST_PACK_SAMPLES_H */
