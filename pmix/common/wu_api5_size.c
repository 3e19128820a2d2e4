/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_api5_size.c -- PMIx_Value_get_size and PMIx_Info_get_size (PMIx 5): how many bytes a value
 * or an info takes, for callers that budget memory or size a message.
 *
 * A value's size is its payload: the bytes of the union member its type uses, plus what that
 * member points to and owns (the characters of strings with their NULs, the bytes of byte
 * objects, the elements of arrays and everything they own in turn). An info's size adds the
 * pmix_info_t itself and its key. Opaque objects (topologies, cpusets, pointers) count as the
 * struct that names them: their contents are not the library's to measure. */
#include <string.h>

#include "pmix.h"

#include "pmix/common/wu_pack_int.h" /* wu_pack_value_is_ptr */
#include "pmix/common/wu_value.h"

static size_t str_size(const char *s)
{
    return NULL == s ? 0 : strlen(s) + 1;
}

static size_t argv_size(char **a)
{
    size_t sz = 0;

    for (size_t i = 0; NULL != a && NULL != a[i]; i++) {
        sz += sizeof(char *) + str_size(a[i]);
    }
    return NULL == a ? 0 : sz + sizeof(char *);
}

static size_t elems_owned(const void *array, size_t n, pmix_data_type_t t);

static size_t infos_size(const pmix_info_t *info, size_t n)
{
    return NULL == info ? 0 : n * sizeof(pmix_info_t) + elems_owned(info, n, PMIX_INFO);
}

static size_t value_owned(const pmix_value_t *v);

/* The heap bytes one element of type t owns (not counting the element itself). */
static size_t elem_owned(const void *e, pmix_data_type_t t)
{
    switch (t) {
    case PMIX_STRING:
        return str_size(*(char *const *)e);
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
    case PMIX_REGEX:
        return ((const pmix_byte_object_t *)e)->size;
    case PMIX_ENVAR:
        return str_size(((const pmix_envar_t *)e)->envar) +
               str_size(((const pmix_envar_t *)e)->value);
    case PMIX_PROC_INFO:
        return str_size(((const pmix_proc_info_t *)e)->hostname) +
               str_size(((const pmix_proc_info_t *)e)->executable_name);
    case PMIX_VALUE:
        return value_owned(e);
    case PMIX_INFO:
        return value_owned(&((const pmix_info_t *)e)->value);
    case PMIX_PDATA:
        return value_owned(&((const pmix_pdata_t *)e)->value);
    case PMIX_DATA_ARRAY: {
        const pmix_data_array_t *d = e;
        return NULL == d->array
                   ? 0
                   : d->size * wu_data_elem_size(d->type) + elems_owned(d->array, d->size, d->type);
    }
    case PMIX_APP: {
        const pmix_app_t *a = e;
        return str_size(a->cmd) + argv_size(a->argv) + argv_size(a->env) + str_size(a->cwd) +
               infos_size(a->info, a->ninfo);
    }
    case PMIX_QUERY: {
        const pmix_query_t *q = e;
        return argv_size(q->keys) + infos_size(q->qualifiers, q->nqual);
    }
    case PMIX_REGATTR: {
        const pmix_regattr_t *r = e;
        return str_size(r->name) + argv_size(r->description);
    }
    case PMIX_COORD:
        return ((const pmix_coord_t *)e)->dims * sizeof(uint32_t);
    case PMIX_GEOMETRY: {
        const pmix_geometry_t *g = e;
        return str_size(g->uuid) + str_size(g->osname) + g->ncoords * sizeof(pmix_coord_t) +
               elems_owned(g->coordinates, g->ncoords, PMIX_COORD);
    }
    case PMIX_DEVICE_DIST:
        return str_size(((const pmix_device_distance_t *)e)->uuid) +
               str_size(((const pmix_device_distance_t *)e)->osname);
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t *p = e;
        return str_size(p->uuid) + str_size(p->osname) + p->endpt.size;
    }
    case PMIX_DATA_BUFFER:
        return ((const pmix_data_buffer_t *)e)->bytes_allocated;
    case PMIX_PROC_STATS:
        return str_size(((const pmix_proc_stats_t *)e)->node) +
               str_size(((const pmix_proc_stats_t *)e)->cmd);
    case PMIX_DISK_STATS:
        return str_size(((const pmix_disk_stats_t *)e)->disk);
    case PMIX_NET_STATS:
        return str_size(((const pmix_net_stats_t *)e)->net_interface);
    case PMIX_NODE_STATS: {
        const pmix_node_stats_t *s = e;
        return str_size(s->node) + s->ndiskstats * sizeof(pmix_disk_stats_t) +
               elems_owned(s->diskstats, s->ndiskstats, PMIX_DISK_STATS) +
               s->nnetstats * sizeof(pmix_net_stats_t) +
               elems_owned(s->netstats, s->nnetstats, PMIX_NET_STATS);
    }
    default:
        return 0; /* scalars and opaque objects own nothing we can measure */
    }
}

static size_t elems_owned(const void *array, size_t n, pmix_data_type_t t)
{
    size_t each = wu_data_elem_size(t), sz = 0;

    for (size_t i = 0; NULL != array && 0 != each && i < n; i++) {
        sz += elem_owned((const char *)array + i * each, t);
    }
    return sz;
}

/* The heap bytes a value owns: the element it points to and what that owns, or what the element
 * it holds in place owns (a string's characters and NUL). */
static size_t value_owned(const pmix_value_t *v)
{
    if (wu_pack_value_is_ptr(v->type)) {
        return NULL == v->data.ptr ? 0
                                   : wu_data_elem_size(v->type) + elem_owned(v->data.ptr, v->type);
    }
    return PMIX_UNDEF == v->type ? 0 : elem_owned(&v->data, v->type);
}

/* A value's payload: what it owns, plus the element held in place (a string counts as its
 * characters alone, as in OpenPMIx). */
static size_t value_size(const pmix_value_t *v)
{
    if (wu_pack_value_is_ptr(v->type) || PMIX_STRING == v->type) {
        return value_owned(v);
    }
    return wu_data_elem_size(v->type) + value_owned(v);
}

PMIX_EXPORT pmix_status_t PMIx_Value_get_size(const pmix_value_t *val, size_t *size)
{
    if (NULL == val || NULL == size) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_UNDEF == val->type || 0 == wu_data_elem_size(val->type)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    *size = value_size(val);
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Info_get_size(const pmix_info_t *val, size_t *size)
{
    if (NULL == val || NULL == size) {
        return PMIX_ERR_BAD_PARAM;
    }
    size_t vsize = 0;
    pmix_status_t rc =
        PMIX_UNDEF == val->value.type ? PMIX_SUCCESS : PMIx_Value_get_size(&val->value, &vsize);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    *size = sizeof(pmix_info_t) + pmix_keylen(val->key) + 1 + vsize;
    return PMIX_SUCCESS;
}
