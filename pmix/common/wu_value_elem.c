/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_value_elem.c -- per-type element rules: size, deep copy and release of every PMIx data type
 * that can be an element of a pmix_data_array_t (and so, boxed, the payload of a pmix_value_t).
 *
 * Copy and release recurse through the types that contain others (values, infos, pdata, apps,
 * queries, nested arrays, geometries, node stats). Cpusets and topologies carry an opaque object
 * named by its `source`; only "hwloc" objects can be duplicated, any source's name is released.
 * A topology the library lent out (PMIx_Load_topology) is the library's: releasing a
 * pmix_topology_t that points at it releases only its source string.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hwloc.h>

#include "pmix_common.h"

#include "pmix/common/wu_value.h"

size_t wu_data_elem_size(pmix_data_type_t t)
{
    /* the public header knows the types its PMIX_DATA_ARRAY_* macros accept; the rest are types
     * only the library puts into arrays */
    size_t size = wu_pmix_data_array_elsize(t);
    if (0 != size) {
        return size;
    }
    switch (t) {
    case PMIX_COMMAND:
    case PMIX_JOB_STATE:
        return 1;
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
        return 2;
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
        return 8;
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        return sizeof(pmix_byte_object_t);
    case PMIX_DATA_ARRAY:
        return sizeof(pmix_data_array_t);
    case PMIX_TOPO:
        return sizeof(pmix_topology_t);
    case PMIX_DATA_BUFFER:
        return sizeof(pmix_data_buffer_t);
    default:
        return 0;
    }
}

/* ---- small copy helpers; each returns PMIX_SUCCESS or PMIX_ERR_NOMEM ---- */

static pmix_status_t str_dup(char **dst, const char *src)
{
    *dst = NULL;
    if (NULL != src && NULL == (*dst = strdup(src))) {
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

static pmix_status_t argv_dup(char ***dst, char *const *src)
{
    size_t n = 0;

    *dst = NULL;
    if (NULL == src) {
        return PMIX_SUCCESS;
    }
    while (NULL != src[n]) {
        n++;
    }
    char **a = calloc(n + 1, sizeof(char *));
    if (NULL == a) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (NULL == (a[i] = strdup(src[i]))) {
            for (size_t j = 0; j < i; j++) {
                free(a[j]);
            }
            free(a);
            return PMIX_ERR_NOMEM;
        }
    }
    *dst = a;
    return PMIX_SUCCESS;
}

static void argv_free(char **a)
{
    if (NULL != a) {
        for (size_t i = 0; NULL != a[i]; i++) {
            free(a[i]);
        }
        free(a);
    }
}

static pmix_status_t bo_dup(pmix_byte_object_t *dst, const pmix_byte_object_t *src)
{
    dst->bytes = NULL;
    dst->size = 0;
    if (NULL == src->bytes || 0 == src->size) {
        return PMIX_SUCCESS;
    }
    if (NULL == (dst->bytes = malloc(src->size))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(dst->bytes, src->bytes, src->size);
    dst->size = src->size;
    return PMIX_SUCCESS;
}

/* A counted array of n elements of type t (infos, coords, stats...). */
static pmix_status_t array_dup(void **dst, const void *src, size_t n, pmix_data_type_t t)
{
    *dst = NULL;
    if (NULL == src || 0 == n) {
        return PMIX_SUCCESS;
    }
    void *a = calloc(n, wu_data_elem_size(t));
    if (NULL == a) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = wu_data_elems_copy(a, src, n, t);
    if (PMIX_SUCCESS != rc) {
        free(a);
        return rc;
    }
    *dst = a;
    return PMIX_SUCCESS;
}

static void array_free(void *a, size_t n, pmix_data_type_t t)
{
    if (NULL != a) {
        wu_data_elems_destruct(a, n, t);
        free(a);
    }
}

static bool is_hwloc(const char *source)
{
    return NULL != source && 0 == strncasecmp(source, "hwloc", 5);
}

/* The topologies PMIx_Load_topology lent out, newest last: a ring of addresses, compared and
 * never dereferenced, so one freed at a PMIx_Finalize is still recognized afterwards. */
#define LENT_MAX 8
static pthread_mutex_t lent_lock = PTHREAD_MUTEX_INITIALIZER;
static const void *lent[LENT_MAX];
static unsigned nlent;

void wu_topo_lend(const void *topology)
{
    if (NULL == topology || wu_topo_lent(topology)) {
        return;
    }
    pthread_mutex_lock(&lent_lock);
    lent[nlent++ % LENT_MAX] = topology;
    pthread_mutex_unlock(&lent_lock);
}

bool wu_topo_lent(const void *topology)
{
    bool found = false;
    pthread_mutex_lock(&lent_lock);
    for (unsigned i = 0; i < LENT_MAX && !found; i++) {
        found = NULL != topology && lent[i] == topology;
    }
    pthread_mutex_unlock(&lent_lock);
    return found;
}

/* Deep copy of one element; on failure whatever was copied into dst is released by the caller
 * through elem_destruct (so every field is set before the first failure can happen). */
static pmix_status_t elem_copy(void *dst, const void *src, pmix_data_type_t t)
{
    pmix_status_t rc = PMIX_SUCCESS;

    switch (t) {
    case PMIX_STRING:
        return str_dup((char **)dst, *(char *const *)src);
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        return bo_dup(dst, src);
    case PMIX_VALUE:
        return PMIx_Value_xfer(dst, src);
    case PMIX_INFO: {
        pmix_info_t *d = dst;
        const pmix_info_t *s = src;
        return PMIx_Info_xfer(d, s);
    }
    case PMIX_PDATA: {
        pmix_pdata_t *d = dst;
        const pmix_pdata_t *s = src;
        d->proc = s->proc;
        memcpy(d->key, s->key, sizeof(d->key));
        return PMIx_Value_xfer(&d->value, &s->value);
    }
    case PMIX_APP: {
        pmix_app_t *d = dst;
        const pmix_app_t *s = src;
        d->maxprocs = s->maxprocs;
        if (PMIX_SUCCESS != (rc = str_dup(&d->cmd, s->cmd)) ||
            PMIX_SUCCESS != (rc = argv_dup(&d->argv, s->argv)) ||
            PMIX_SUCCESS != (rc = argv_dup(&d->env, s->env)) ||
            PMIX_SUCCESS != (rc = str_dup(&d->cwd, s->cwd)) ||
            PMIX_SUCCESS != (rc = array_dup((void **)&d->info, s->info, s->ninfo, PMIX_INFO))) {
            return rc;
        }
        d->ninfo = NULL == d->info ? 0 : s->ninfo;
        return PMIX_SUCCESS;
    }
    case PMIX_QUERY: {
        pmix_query_t *d = dst;
        const pmix_query_t *s = src;
        if (PMIX_SUCCESS != (rc = argv_dup(&d->keys, s->keys)) ||
            PMIX_SUCCESS !=
                (rc = array_dup((void **)&d->qualifiers, s->qualifiers, s->nqual, PMIX_INFO))) {
            return rc;
        }
        d->nqual = NULL == d->qualifiers ? 0 : s->nqual;
        return PMIX_SUCCESS;
    }
    case PMIX_PROC_INFO: {
        pmix_proc_info_t *d = dst;
        const pmix_proc_info_t *s = src;
        *d = *s;
        d->hostname = d->executable_name = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->hostname, s->hostname))) {
            return rc;
        }
        return str_dup(&d->executable_name, s->executable_name);
    }
    case PMIX_DATA_ARRAY: {
        pmix_data_array_t *d = dst;
        const pmix_data_array_t *s = src;
        d->type = s->type;
        d->size = 0;
        d->array = NULL;
        if (NULL != s->array && 0 < s->size && 0 == wu_data_elem_size(s->type)) {
            return PMIX_ERR_UNKNOWN_DATA_TYPE;
        }
        if (PMIX_SUCCESS != (rc = array_dup(&d->array, s->array, s->size, s->type))) {
            return rc;
        }
        d->size = NULL == d->array ? 0 : s->size;
        return PMIX_SUCCESS;
    }
    case PMIX_ENVAR: {
        pmix_envar_t *d = dst;
        const pmix_envar_t *s = src;
        d->separator = s->separator;
        d->value = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->envar, s->envar))) {
            return rc;
        }
        return str_dup(&d->value, s->value);
    }
    case PMIX_COORD: {
        pmix_coord_t *d = dst;
        const pmix_coord_t *s = src;
        d->view = s->view;
        d->coord = NULL;
        d->dims = 0;
        if (NULL != s->coord && 0 < s->dims) {
            if (NULL == (d->coord = malloc(s->dims * sizeof(uint32_t)))) {
                return PMIX_ERR_NOMEM;
            }
            memcpy(d->coord, s->coord, s->dims * sizeof(uint32_t));
            d->dims = s->dims;
        }
        return PMIX_SUCCESS;
    }
    case PMIX_REGATTR: {
        pmix_regattr_t *d = dst;
        const pmix_regattr_t *s = src;
        memcpy(d->string, s->string, sizeof(d->string));
        d->type = s->type;
        d->description = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->name, s->name))) {
            return rc;
        }
        return argv_dup(&d->description, s->description);
    }
    case PMIX_PROC_CPUSET: {
        pmix_cpuset_t *d = dst;
        const pmix_cpuset_t *s = src;
        d->bitmap = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->source, s->source))) {
            return rc;
        }
        if (NULL == s->bitmap) {
            return PMIX_SUCCESS;
        }
        if (!is_hwloc(s->source)) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        d->bitmap = hwloc_bitmap_dup(s->bitmap);
        return NULL == d->bitmap ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    case PMIX_TOPO: {
        pmix_topology_t *d = dst;
        const pmix_topology_t *s = src;
        d->topology = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->source, s->source))) {
            return rc;
        }
        if (NULL == s->topology) {
            return PMIX_SUCCESS;
        }
        if (!is_hwloc(s->source)) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        hwloc_topology_t topo = NULL;
        if (0 != hwloc_topology_dup(&topo, s->topology)) {
            return PMIX_ERR_NOMEM;
        }
        d->topology = topo;
        return PMIX_SUCCESS;
    }
    case PMIX_GEOMETRY: {
        pmix_geometry_t *d = dst;
        const pmix_geometry_t *s = src;
        d->fabric = s->fabric;
        d->uuid = d->osname = NULL;
        d->coordinates = NULL;
        d->ncoords = 0;
        if (PMIX_SUCCESS != (rc = str_dup(&d->uuid, s->uuid)) ||
            PMIX_SUCCESS != (rc = str_dup(&d->osname, s->osname)) ||
            PMIX_SUCCESS != (rc = array_dup((void **)&d->coordinates, s->coordinates, s->ncoords,
                                            PMIX_COORD))) {
            return rc;
        }
        d->ncoords = NULL == d->coordinates ? 0 : s->ncoords;
        return PMIX_SUCCESS;
    }
    case PMIX_DEVICE_DIST: {
        pmix_device_distance_t *d = dst;
        const pmix_device_distance_t *s = src;
        *d = *s;
        d->uuid = d->osname = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->uuid, s->uuid))) {
            return rc;
        }
        return str_dup(&d->osname, s->osname);
    }
    case PMIX_ENDPOINT: {
        pmix_endpoint_t *d = dst;
        const pmix_endpoint_t *s = src;
        memset(d, 0, sizeof(*d));
        if (PMIX_SUCCESS != (rc = str_dup(&d->uuid, s->uuid)) ||
            PMIX_SUCCESS != (rc = str_dup(&d->osname, s->osname))) {
            return rc;
        }
        return bo_dup(&d->endpt, &s->endpt);
    }
    case PMIX_PROC_STATS: {
        pmix_proc_stats_t *d = dst;
        const pmix_proc_stats_t *s = src;
        *d = *s;
        d->node = d->cmd = NULL;
        if (PMIX_SUCCESS != (rc = str_dup(&d->node, s->node))) {
            return rc;
        }
        return str_dup(&d->cmd, s->cmd);
    }
    case PMIX_DISK_STATS: {
        pmix_disk_stats_t *d = dst;
        *d = *(const pmix_disk_stats_t *)src;
        return str_dup(&d->disk, ((const pmix_disk_stats_t *)src)->disk);
    }
    case PMIX_NET_STATS: {
        pmix_net_stats_t *d = dst;
        *d = *(const pmix_net_stats_t *)src;
        return str_dup(&d->net_interface, ((const pmix_net_stats_t *)src)->net_interface);
    }
    case PMIX_NODE_STATS: {
        pmix_node_stats_t *d = dst;
        const pmix_node_stats_t *s = src;
        *d = *s;
        d->node = NULL;
        d->diskstats = NULL;
        d->netstats = NULL;
        d->ndiskstats = d->nnetstats = 0;
        if (PMIX_SUCCESS != (rc = str_dup(&d->node, s->node)) ||
            PMIX_SUCCESS != (rc = array_dup((void **)&d->diskstats, s->diskstats, s->ndiskstats,
                                            PMIX_DISK_STATS))) {
            return rc;
        }
        d->ndiskstats = NULL == d->diskstats ? 0 : s->ndiskstats;
        if (PMIX_SUCCESS !=
            (rc = array_dup((void **)&d->netstats, s->netstats, s->nnetstats, PMIX_NET_STATS))) {
            return rc;
        }
        d->nnetstats = NULL == d->netstats ? 0 : s->nnetstats;
        return PMIX_SUCCESS;
    }
    case PMIX_DATA_BUFFER: {
        pmix_data_buffer_t *d = dst;
        const pmix_data_buffer_t *s = src;
        memset(d, 0, sizeof(*d));
        if (NULL == s->base_ptr || 0 == s->bytes_allocated) {
            return PMIX_SUCCESS;
        }
        if (NULL == (d->base_ptr = malloc(s->bytes_allocated))) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(d->base_ptr, s->base_ptr, s->bytes_used);
        d->bytes_allocated = s->bytes_allocated;
        d->bytes_used = s->bytes_used;
        d->pack_ptr = NULL == s->pack_ptr ? NULL : d->base_ptr + (s->pack_ptr - s->base_ptr);
        d->unpack_ptr = NULL == s->unpack_ptr ? NULL : d->base_ptr + (s->unpack_ptr - s->base_ptr);
        return PMIX_SUCCESS;
    }
    default: {
        size_t sz = wu_data_elem_size(t);
        if (0 == sz) {
            return PMIX_ERR_UNKNOWN_DATA_TYPE;
        }
        memcpy(dst, src, sz); /* plain data, procs, nspaces, pointers */
        return PMIX_SUCCESS;
    }
    }
}

static void elem_destruct(void *e, pmix_data_type_t t)
{
    switch (t) {
    case PMIX_STRING:
        free(*(char **)e);
        break;
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        free(((pmix_byte_object_t *)e)->bytes);
        break;
    case PMIX_VALUE:
        PMIx_Value_destruct(e);
        break;
    case PMIX_INFO: {
        pmix_info_t *i = e;
        if (0 == (i->flags & PMIX_INFO_PERSISTENT)) {
            PMIx_Value_destruct(&i->value);
        }
        break;
    }
    case PMIX_PDATA:
        PMIx_Value_destruct(&((pmix_pdata_t *)e)->value);
        break;
    case PMIX_APP: {
        pmix_app_t *a = e;
        free(a->cmd);
        argv_free(a->argv);
        argv_free(a->env);
        free(a->cwd);
        array_free(a->info, a->ninfo, PMIX_INFO);
        break;
    }
    case PMIX_QUERY: {
        pmix_query_t *q = e;
        argv_free(q->keys);
        array_free(q->qualifiers, q->nqual, PMIX_INFO);
        break;
    }
    case PMIX_PROC_INFO:
        free(((pmix_proc_info_t *)e)->hostname);
        free(((pmix_proc_info_t *)e)->executable_name);
        break;
    case PMIX_DATA_ARRAY:
        wu_darray_destruct(e);
        break;
    case PMIX_ENVAR:
        free(((pmix_envar_t *)e)->envar);
        free(((pmix_envar_t *)e)->value);
        break;
    case PMIX_COORD:
        free(((pmix_coord_t *)e)->coord);
        break;
    case PMIX_REGATTR:
        free(((pmix_regattr_t *)e)->name);
        argv_free(((pmix_regattr_t *)e)->description);
        break;
    case PMIX_PROC_CPUSET: {
        pmix_cpuset_t *c = e;
        if (NULL != c->bitmap && is_hwloc(c->source)) {
            hwloc_bitmap_free(c->bitmap);
        }
        free(c->source);
        break;
    }
    case PMIX_TOPO: {
        pmix_topology_t *tp = e;
        if (NULL != tp->topology && is_hwloc(tp->source) && !wu_topo_lent(tp->topology)) {
            hwloc_topology_destroy(tp->topology);
        }
        free(tp->source);
        break;
    }
    case PMIX_GEOMETRY: {
        pmix_geometry_t *g = e;
        free(g->uuid);
        free(g->osname);
        array_free(g->coordinates, g->ncoords, PMIX_COORD);
        break;
    }
    case PMIX_DEVICE_DIST:
        free(((pmix_device_distance_t *)e)->uuid);
        free(((pmix_device_distance_t *)e)->osname);
        break;
    case PMIX_ENDPOINT:
        free(((pmix_endpoint_t *)e)->uuid);
        free(((pmix_endpoint_t *)e)->osname);
        free(((pmix_endpoint_t *)e)->endpt.bytes);
        break;
    case PMIX_PROC_STATS:
        free(((pmix_proc_stats_t *)e)->node);
        free(((pmix_proc_stats_t *)e)->cmd);
        break;
    case PMIX_DISK_STATS:
        free(((pmix_disk_stats_t *)e)->disk);
        break;
    case PMIX_NET_STATS:
        free(((pmix_net_stats_t *)e)->net_interface);
        break;
    case PMIX_NODE_STATS: {
        pmix_node_stats_t *n = e;
        free(n->node);
        array_free(n->diskstats, n->ndiskstats, PMIX_DISK_STATS);
        array_free(n->netstats, n->nnetstats, PMIX_NET_STATS);
        break;
    }
    case PMIX_DATA_BUFFER:
        free(((pmix_data_buffer_t *)e)->base_ptr);
        break;
    default:
        break; /* plain data and pointers own nothing */
    }
}

pmix_status_t wu_data_elems_copy(void *dst, const void *src, size_t n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);

    if (0 == sz) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    for (size_t i = 0; i < n; i++) {
        pmix_status_t rc = elem_copy((char *)dst + i * sz, (const char *)src + i * sz, t);
        if (PMIX_SUCCESS != rc) {
            /* elements 0..i hold partial copies: release them all */
            wu_data_elems_destruct(dst, i + 1, t);
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

void wu_data_elems_destruct(void *array, size_t n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);

    if (NULL == array || 0 == sz) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        elem_destruct((char *)array + i * sz, t);
    }
    memset(array, 0, n * sz);
}

pmix_status_t wu_darray_dup(pmix_data_array_t **dst, const pmix_data_array_t *src)
{
    *dst = NULL;
    if (NULL == src) {
        return PMIX_SUCCESS;
    }
    pmix_data_array_t *d = calloc(1, sizeof(*d));
    if (NULL == d) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = elem_copy(d, src, PMIX_DATA_ARRAY);
    if (PMIX_SUCCESS != rc) {
        wu_darray_destruct(d);
        free(d);
        return rc;
    }
    *dst = d;
    return PMIX_SUCCESS;
}

void wu_darray_destruct(pmix_data_array_t *d)
{
    if (NULL != d->array) {
        wu_data_elems_destruct(d->array, d->size, d->type);
        free(d->array);
    }
    d->array = NULL;
    d->size = 0;
    d->type = PMIX_UNDEF;
}
