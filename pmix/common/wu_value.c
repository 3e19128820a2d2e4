/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_value.c -- PMIx_Value_load/unload/xfer/compare/destruct and PMIx_Data_array_destruct.
 *
 * The model: a pmix_value_t either holds its datum inline (numbers, enums, timeval, byte objects,
 * envars) or owns one heap object through a pointer (strings, procs, arrays, structs). A deep
 * copy of any type is "copy the element", where the element rules live in wu_value_elem.c; a
 * load is a deep copy of a temporary, shallow value ("view") built over the caller's data.
 *
 * Observable behaviour follows OpenPMIx 4.2.2, measured against its libpmix.so.2, including two
 * oddities programs may depend on: PMIx_Value_load always returns success for any type (types it
 * cannot hold are recorded with no payload), and PMIx_Value_compare reports the result of signed
 * and floating point comparisons inverted (-1 vs 2 gives PMIX_VALUE1_GREATER).
 */
#include <stdlib.h>
#include <string.h>

#include "pmix_common.h"

#include "pmix/common/wu_value.h"

/* Types whose value is held inline in the union and copied bitwise. */
static bool inline_scalar(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_BOOL:
    case PMIX_BYTE:
    case PMIX_SIZE:
    case PMIX_PID:
    case PMIX_INT:
    case PMIX_INT8:
    case PMIX_INT16:
    case PMIX_INT32:
    case PMIX_INT64:
    case PMIX_UINT:
    case PMIX_UINT8:
    case PMIX_UINT16:
    case PMIX_UINT32:
    case PMIX_UINT64:
    case PMIX_FLOAT:
    case PMIX_DOUBLE:
    case PMIX_TIMEVAL:
    case PMIX_TIME:
    case PMIX_STATUS:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_PROC_RANK:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
    case PMIX_DEVTYPE:
    case PMIX_LOCTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
    case PMIX_STOR_ACCESS_TYPE:
        return true;
    default:
        return false;
    }
}

static bool byte_object_type(pmix_data_type_t t)
{
    return PMIX_BYTE_OBJECT == t || PMIX_COMPRESSED_STRING == t || PMIX_REGEX == t ||
           PMIX_COMPRESSED_BYTE_OBJECT == t;
}

/* Types a value holds through a pointer to one heap-allocated element. */
static bool boxed_type(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_PROC:
    case PMIX_PROC_INFO:
    case PMIX_COORD:
    case PMIX_REGATTR:
    case PMIX_PROC_CPUSET:
    case PMIX_GEOMETRY:
    case PMIX_DEVICE_DIST:
    case PMIX_ENDPOINT:
    case PMIX_TOPO:
    case PMIX_DATA_BUFFER:
    case PMIX_PROC_STATS:
    case PMIX_DISK_STATS:
    case PMIX_NET_STATS:
    case PMIX_NODE_STATS:
        return true;
    default:
        return false;
    }
}

/* Deep copy of src into dst (dst's old contents are overwritten, not released). Types OpenPMIx
 * 4.2 cannot transfer give PMIX_ERROR with dst->type set and no payload. */
static pmix_status_t value_copy(pmix_value_t *dst, const pmix_value_t *src)
{
    pmix_data_type_t t = src->type;

    memset(&dst->data, 0, sizeof(dst->data));
    dst->type = t;
    if (PMIX_UNDEF == t) {
        return PMIX_SUCCESS;
    }
    if (inline_scalar(t)) {
        dst->data = src->data;
        return PMIX_SUCCESS;
    }
    if (byte_object_type(t) || PMIX_ENVAR == t) {
        /* inline structs that own heap memory: the element copy duplicates it */
        return wu_data_elems_copy(&dst->data, &src->data, 1, t);
    }
    if (boxed_type(t)) {
        if (NULL == src->data.ptr) {
            return PMIX_SUCCESS;
        }
        void *box = calloc(1, wu_data_elem_size(t));
        if (NULL == box) {
            return PMIX_ERR_NOMEM;
        }
        pmix_status_t rc = wu_data_elems_copy(box, src->data.ptr, 1, t);
        if (PMIX_SUCCESS != rc) {
            free(box);
            return rc;
        }
        dst->data.ptr = box;
        return PMIX_SUCCESS;
    }
    switch (t) {
    case PMIX_STRING:
        if (NULL != src->data.string && NULL == (dst->data.string = strdup(src->data.string))) {
            return PMIX_ERR_NOMEM;
        }
        return PMIX_SUCCESS;
    case PMIX_PROC_NSPACE:
        if (NULL != src->data.nspace) {
            /* the caller's nspace may be a shorter plain string: copy up to the terminator */
            dst->data.nspace = calloc(1, sizeof(pmix_nspace_t));
            if (NULL == dst->data.nspace) {
                return PMIX_ERR_NOMEM;
            }
            const char *s = (const char *)src->data.nspace;
            memcpy(*dst->data.nspace, s, strnlen(s, PMIX_MAX_NSLEN));
        }
        return PMIX_SUCCESS;
    case PMIX_POINTER:
        dst->data.ptr = src->data.ptr; /* the caller owns what it points to */
        return PMIX_SUCCESS;
    case PMIX_DATA_ARRAY:
        return wu_darray_dup(&dst->data.darray, src->data.darray);
    default:
        return PMIX_ERROR;
    }
}

/* Build a shallow value over the caller's data as PMIx_Value_load receives it. Returns false for
 * types a value cannot hold (the caller then records the type alone). */
static bool make_view(pmix_value_t *view, const void *data, pmix_data_type_t t)
{
    memset(view, 0, sizeof(*view));
    view->type = t;
    if (inline_scalar(t)) {
        memcpy(&view->data, data, wu_data_elem_size(t));
        return true;
    }
    if (byte_object_type(t)) {
        view->data.bo = *(const pmix_byte_object_t *)data;
        return true;
    }
    if (PMIX_ENVAR == t) {
        view->data.envar = *(const pmix_envar_t *)data;
        return true;
    }
    if (boxed_type(t) || PMIX_STRING == t || PMIX_PROC_NSPACE == t || PMIX_POINTER == t ||
        PMIX_DATA_ARRAY == t) {
        /* string, nspace and pointer are passed as the datum itself, the others by address */
        view->data.ptr = (void *)data;
        return true;
    }
    return false;
}

PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data,
                                          pmix_data_type_t type)
{
    pmix_value_t view;

    if (NULL == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    memset(&val->data, 0, sizeof(val->data));
    val->type = type;
    if (NULL == data) {
        if (PMIX_BOOL == type) {
            val->data.flag = true; /* a bare boolean attribute means "true" */
        }
        return PMIX_SUCCESS;
    }
    if (!make_view(&view, data, type)) {
        return PMIX_SUCCESS; /* OpenPMIx records the type and reports success */
    }
    pmix_status_t rc = value_copy(val, &view);
    if (PMIX_SUCCESS != rc) {
        memset(&val->data, 0, sizeof(val->data));
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz)
{
    if (NULL == val || NULL == data || NULL == sz ||
        (NULL == *data && PMIX_STRING != val->type && PMIX_BYTE_OBJECT != val->type)) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_data_type_t t = val->type;
    if (PMIX_UNDEF == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (inline_scalar(t)) {
        /* fixed-size data goes into the caller's storage */
        *sz = wu_data_elem_size(t);
        memcpy(*data, &val->data, *sz);
        return PMIX_SUCCESS;
    }
    if (byte_object_type(t)) {
        /* as in OpenPMIx: the bytes are lent, not copied */
        if (NULL != val->data.bo.bytes && 0 < val->data.bo.size) {
            *data = val->data.bo.bytes;
            *sz = val->data.bo.size;
        } else {
            *data = NULL;
            *sz = 0;
        }
        return PMIX_SUCCESS;
    }
    switch (t) {
    case PMIX_STRING:
        if (NULL == val->data.string) {
            *data = NULL;
            *sz = 0;
            return PMIX_SUCCESS;
        }
        if (NULL == (*data = strdup(val->data.string))) {
            return PMIX_ERR_NOMEM;
        }
        *sz = strlen(val->data.string);
        return PMIX_SUCCESS;
    case PMIX_POINTER:
        *data = val->data.ptr;
        *sz = sizeof(void *);
        return PMIX_SUCCESS;
    case PMIX_PROC:
        if (NULL == val->data.proc) {
            return PMIX_ERR_BAD_PARAM;
        }
        memcpy(*data, val->data.proc, sizeof(pmix_proc_t));
        *sz = sizeof(pmix_proc_t);
        return PMIX_SUCCESS;
    case PMIX_PROC_NSPACE: {
        size_t n = NULL == val->data.nspace ? 0 : strnlen(*val->data.nspace, PMIX_MAX_NSLEN);
        if (0 < n) {
            memcpy(*data, *val->data.nspace, n);
        }
        ((char *)*data)[n] = '\0';
        *sz = n;
        return PMIX_SUCCESS;
    }
    case PMIX_ENVAR:
    case PMIX_DATA_ARRAY:
        break;
    default:
        if (!boxed_type(t)) {
            return PMIX_ERROR; /* OpenPMIx cannot unload the remaining types either */
        }
    }
    /* structured types: the caller receives a newly allocated deep copy it must release */
    size_t esz = wu_data_elem_size(t);
    const void *src = PMIX_ENVAR == t ? (const void *)&val->data.envar : val->data.ptr;
    void *copy = calloc(1, esz);
    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL != src) {
        pmix_status_t rc = wu_data_elems_copy(copy, src, 1, t);
        if (PMIX_SUCCESS != rc) {
            free(copy);
            return rc;
        }
    }
    *data = copy;
    *sz = esz;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src)
{
    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    return value_copy(dest, src);
}

PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val)
{
    if (NULL == val) {
        return;
    }
    pmix_data_type_t t = val->type;
    if (PMIX_STRING == t) {
        free(val->data.string);
    } else if (PMIX_PROC_NSPACE == t) {
        free(val->data.nspace);
    } else if (PMIX_DATA_ARRAY == t) {
        if (NULL != val->data.darray) {
            wu_darray_destruct(val->data.darray);
            free(val->data.darray);
        }
    } else if (byte_object_type(t) || PMIX_ENVAR == t) {
        wu_data_elems_destruct(&val->data, 1, t);
    } else if (boxed_type(t) && NULL != val->data.ptr) {
        wu_data_elems_destruct(val->data.ptr, 1, t);
        free(val->data.ptr);
    }
    memset(&val->data, 0, sizeof(val->data));
    val->type = PMIX_UNDEF;
}

PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d)
{
    if (NULL != d) {
        wu_darray_destruct(d);
    }
}

/* ---- comparison ---- */

#define CMP_ASC(a, b) \
    ((a) == (b) ? PMIX_EQUAL : (a) > (b) ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER)
/* OpenPMIx 4.2 reports signed and floating point orderings inverted; we keep its answers. */
#define CMP_INV(a, b) \
    ((a) == (b) ? PMIX_EQUAL : (a) < (b) ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER)

static pmix_value_cmp_t sign_cmp(int c)
{
    return 0 == c ? PMIX_EQUAL : 0 < c ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER;
}

static pmix_value_cmp_t str_cmp(const char *a, const char *b)
{
    if (NULL == a || NULL == b) {
        return a == b ? PMIX_EQUAL : NULL == a ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
    }
    return sign_cmp(strcmp(a, b));
}

static pmix_value_cmp_t bo_cmp(const pmix_byte_object_t *a, const pmix_byte_object_t *b)
{
    if (a->size != b->size) {
        return CMP_ASC(a->size, b->size);
    }
    if (0 == a->size || a->bytes == b->bytes) {
        return PMIX_EQUAL;
    }
    if (NULL == a->bytes || NULL == b->bytes) {
        return NULL == a->bytes ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
    }
    return sign_cmp(memcmp(a->bytes, b->bytes, a->size));
}

/* OpenPMIx 4.2 orders two pointers by the first sizeof(void *) bytes they point to (so the
 * pointees must be at least that large); we add only the NULL cases it would crash on. */
static pmix_value_cmp_t ptr_cmp(const void *a, const void *b)
{
    if (a == b) {
        return PMIX_EQUAL;
    }
    if (NULL == a || NULL == b) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    return sign_cmp(memcmp(a, b, sizeof(void *)));
}

static pmix_value_cmp_t value_cmp(const pmix_value_t *v1, const pmix_value_t *v2);

static pmix_value_cmp_t darray_cmp(const pmix_data_array_t *a, const pmix_data_array_t *b)
{
    if (NULL == a || NULL == b) {
        return a == b ? PMIX_EQUAL : NULL == a ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
    }
    if (a->type != b->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    if (a->size != b->size) {
        return CMP_ASC(a->size, b->size);
    }
    size_t esz = wu_data_elem_size(a->type);
    if (0 == a->size || a->array == b->array) {
        return PMIX_EQUAL;
    }
    if (0 == esz || NULL == a->array || NULL == b->array) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    if (inline_scalar(a->type) || PMIX_PROC == a->type || PMIX_PROC_NSPACE == a->type) {
        return sign_cmp(memcmp(a->array, b->array, a->size * esz)); /* raw bytes, as OpenPMIx */
    }
    for (size_t i = 0; i < a->size; i++) {
        const char *ea = (const char *)a->array + i * esz, *eb = (const char *)b->array + i * esz;
        pmix_value_t va, vb;
        pmix_value_cmp_t r;
        if (PMIX_VALUE == a->type) {
            r = value_cmp((const pmix_value_t *)ea, (const pmix_value_t *)eb);
        } else if (PMIX_STRING == a->type) {
            r = str_cmp(*(char *const *)ea, *(char *const *)eb);
        } else if (PMIX_POINTER == a->type) {
            r = ptr_cmp(*(void *const *)ea, *(void *const *)eb);
        } else if (PMIX_INFO == a->type) {
            /* infos: the key first, then the value */
            const pmix_info_t *ia = (const pmix_info_t *)ea, *ib = (const pmix_info_t *)eb;
            int k = strncmp(ia->key, ib->key, PMIX_MAX_KEYLEN);
            r = 0 != k ? sign_cmp(k) : value_cmp(&ia->value, &ib->value);
        } else if (make_view(&va, ea, a->type) && make_view(&vb, eb, a->type)) {
            r = value_cmp(&va, &vb);
        } else {
            r = PMIX_VALUE_COMPARISON_NOT_AVAIL;
        }
        if (PMIX_EQUAL != r) {
            return r;
        }
    }
    return PMIX_EQUAL;
}

/* Structured types compare field by field in declaration order, each field ascending, the
 * first difference deciding (as OpenPMIx 4.2 answers single-field differences); geometries of
 * different fabrics are incompatible objects. */
#define STEP(expr)                    \
    do {                              \
        pmix_value_cmp_t r_ = (expr); \
        if (PMIX_EQUAL != r_) {       \
            return r_;                \
        }                             \
    } while (0)

static pmix_value_cmp_t proc_cmp(const pmix_proc_t *a, const pmix_proc_t *b)
{
    STEP(sign_cmp(strncmp(a->nspace, b->nspace, PMIX_MAX_NSLEN)));
    return CMP_ASC(a->rank, b->rank);
}

static pmix_value_cmp_t tv_cmp(const struct timeval *a, const struct timeval *b)
{
    STEP(CMP_ASC(a->tv_sec, b->tv_sec));
    return CMP_ASC(a->tv_usec, b->tv_usec);
}

static pmix_value_cmp_t argv_cmp(char *const *a, char *const *b)
{
    if (NULL == a || NULL == b) {
        return a == b ? PMIX_EQUAL : NULL == a ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
    }
    for (size_t i = 0;; i++) {
        if (NULL == a[i] || NULL == b[i]) {
            return a[i] == b[i]   ? PMIX_EQUAL
                   : NULL == a[i] ? PMIX_VALUE2_GREATER
                                  : PMIX_VALUE1_GREATER;
        }
        STEP(str_cmp(a[i], b[i]));
    }
}

static pmix_value_cmp_t coord_cmp(const pmix_coord_t *ca, const pmix_coord_t *cb)
{
    STEP(CMP_ASC(ca->view, cb->view));
    STEP(CMP_ASC(ca->dims, cb->dims));
    if (0 == ca->dims || ca->coord == cb->coord) {
        return PMIX_EQUAL;
    }
    if (NULL == ca->coord || NULL == cb->coord) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    return sign_cmp(memcmp(ca->coord, cb->coord, ca->dims * sizeof(uint32_t)));
}

static pmix_value_cmp_t disk_cmp(const pmix_disk_stats_t *a, const pmix_disk_stats_t *b)
{
    STEP(str_cmp(a->disk, b->disk));
    STEP(CMP_ASC(a->num_reads_completed, b->num_reads_completed));
    STEP(CMP_ASC(a->num_reads_merged, b->num_reads_merged));
    STEP(CMP_ASC(a->num_sectors_read, b->num_sectors_read));
    STEP(CMP_ASC(a->milliseconds_reading, b->milliseconds_reading));
    STEP(CMP_ASC(a->num_writes_completed, b->num_writes_completed));
    STEP(CMP_ASC(a->num_writes_merged, b->num_writes_merged));
    STEP(CMP_ASC(a->num_sectors_written, b->num_sectors_written));
    STEP(CMP_ASC(a->milliseconds_writing, b->milliseconds_writing));
    STEP(CMP_ASC(a->num_ios_in_progress, b->num_ios_in_progress));
    STEP(CMP_ASC(a->milliseconds_io, b->milliseconds_io));
    return CMP_ASC(a->weighted_milliseconds_io, b->weighted_milliseconds_io);
}

static pmix_value_cmp_t net_cmp(const pmix_net_stats_t *a, const pmix_net_stats_t *b)
{
    STEP(str_cmp(a->net_interface, b->net_interface));
    STEP(CMP_ASC(a->num_bytes_recvd, b->num_bytes_recvd));
    STEP(CMP_ASC(a->num_packets_recvd, b->num_packets_recvd));
    STEP(CMP_ASC(a->num_recv_errs, b->num_recv_errs));
    STEP(CMP_ASC(a->num_bytes_sent, b->num_bytes_sent));
    STEP(CMP_ASC(a->num_packets_sent, b->num_packets_sent));
    return CMP_ASC(a->num_send_errs, b->num_send_errs);
}

static pmix_value_cmp_t struct_cmp(pmix_data_type_t t, const void *pa, const void *pb)
{
    if (NULL == pa || NULL == pb) {
        return pa == pb ? PMIX_EQUAL : PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    switch (t) {
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t *a = pa, *b = pb;
        STEP(proc_cmp(&a->proc, &b->proc));
        STEP(str_cmp(a->hostname, b->hostname));
        STEP(str_cmp(a->executable_name, b->executable_name));
        STEP(CMP_ASC(a->pid, b->pid));
        STEP(CMP_ASC(a->exit_code, b->exit_code));
        return CMP_ASC(a->state, b->state);
    }
    case PMIX_REGATTR: {
        const pmix_regattr_t *a = pa, *b = pb;
        if (NULL == a->name || NULL == b->name) {
            return PMIX_VALUE_COMPARISON_NOT_AVAIL;
        }
        STEP(str_cmp(a->name, b->name));
        STEP(sign_cmp(strncmp(a->string, b->string, PMIX_MAX_KEYLEN)));
        STEP(CMP_ASC(a->type, b->type));
        return argv_cmp(a->description, b->description);
    }
    case PMIX_GEOMETRY: {
        const pmix_geometry_t *a = pa, *b = pb;
        if (a->fabric != b->fabric) {
            return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
        }
        STEP(str_cmp(a->uuid, b->uuid));
        STEP(str_cmp(a->osname, b->osname));
        STEP(CMP_ASC(a->ncoords, b->ncoords));
        for (size_t i = 0; i < a->ncoords && NULL != a->coordinates && NULL != b->coordinates;
             i++) {
            STEP(coord_cmp(&a->coordinates[i], &b->coordinates[i]));
        }
        return PMIX_EQUAL;
    }
    case PMIX_DEVICE_DIST: {
        const pmix_device_distance_t *a = pa, *b = pb;
        STEP(str_cmp(a->uuid, b->uuid));
        STEP(str_cmp(a->osname, b->osname));
        STEP(CMP_ASC(a->type, b->type));
        STEP(CMP_ASC(a->mindist, b->mindist));
        return CMP_ASC(a->maxdist, b->maxdist);
    }
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t *a = pa, *b = pb;
        STEP(str_cmp(a->uuid, b->uuid));
        STEP(str_cmp(a->osname, b->osname));
        return bo_cmp(&a->endpt, &b->endpt);
    }
    case PMIX_PROC_STATS: {
        const pmix_proc_stats_t *a = pa, *b = pb;
        STEP(str_cmp(a->node, b->node));
        STEP(proc_cmp(&a->proc, &b->proc));
        STEP(CMP_ASC(a->pid, b->pid));
        STEP(str_cmp(a->cmd, b->cmd));
        STEP(CMP_ASC(a->state, b->state));
        STEP(tv_cmp(&a->time, &b->time));
        STEP(CMP_ASC(a->percent_cpu, b->percent_cpu));
        STEP(CMP_ASC(a->priority, b->priority));
        STEP(CMP_ASC(a->num_threads, b->num_threads));
        STEP(CMP_ASC(a->pss, b->pss));
        STEP(CMP_ASC(a->vsize, b->vsize));
        STEP(CMP_ASC(a->rss, b->rss));
        STEP(CMP_ASC(a->peak_vsize, b->peak_vsize));
        STEP(CMP_ASC(a->processor, b->processor));
        return tv_cmp(&a->sample_time, &b->sample_time);
    }
    case PMIX_DISK_STATS:
        return disk_cmp(pa, pb);
    case PMIX_NET_STATS:
        return net_cmp(pa, pb);
    case PMIX_NODE_STATS: {
        const pmix_node_stats_t *a = pa, *b = pb;
        STEP(str_cmp(a->node, b->node));
        STEP(CMP_ASC(a->la, b->la));
        STEP(CMP_ASC(a->la5, b->la5));
        STEP(CMP_ASC(a->la15, b->la15));
        STEP(CMP_ASC(a->total_mem, b->total_mem));
        STEP(CMP_ASC(a->free_mem, b->free_mem));
        STEP(CMP_ASC(a->buffers, b->buffers));
        STEP(CMP_ASC(a->cached, b->cached));
        STEP(CMP_ASC(a->swap_cached, b->swap_cached));
        STEP(CMP_ASC(a->swap_total, b->swap_total));
        STEP(CMP_ASC(a->swap_free, b->swap_free));
        STEP(CMP_ASC(a->mapped, b->mapped));
        STEP(tv_cmp(&a->sample_time, &b->sample_time));
        STEP(CMP_ASC(a->ndiskstats, b->ndiskstats));
        for (size_t i = 0; i < a->ndiskstats && NULL != a->diskstats && NULL != b->diskstats; i++) {
            STEP(disk_cmp(&a->diskstats[i], &b->diskstats[i]));
        }
        STEP(CMP_ASC(a->nnetstats, b->nnetstats));
        for (size_t i = 0; i < a->nnetstats && NULL != a->netstats && NULL != b->netstats; i++) {
            STEP(net_cmp(&a->netstats[i], &b->netstats[i]));
        }
        return PMIX_EQUAL;
    }
    default:
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
}

static pmix_value_cmp_t value_cmp(const pmix_value_t *v1, const pmix_value_t *v2)
{
    const pmix_value_t *a = v1, *b = v2;

    if (a->type != b->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    switch (a->type) {
    case PMIX_UNDEF:
        return PMIX_EQUAL;
    case PMIX_BOOL:
        return CMP_ASC(a->data.flag, b->data.flag);
    case PMIX_BYTE:
    case PMIX_UINT8:
        return CMP_ASC(a->data.uint8, b->data.uint8);
    case PMIX_SIZE:
        return CMP_ASC(a->data.size, b->data.size);
    case PMIX_PID:
        return CMP_ASC(a->data.pid, b->data.pid);
    case PMIX_INT:
        return CMP_INV(a->data.integer, b->data.integer);
    case PMIX_INT8:
        return CMP_INV(a->data.int8, b->data.int8);
    case PMIX_INT16:
        return CMP_INV(a->data.int16, b->data.int16);
    case PMIX_INT32:
        return CMP_INV(a->data.int32, b->data.int32);
    case PMIX_INT64:
        return CMP_INV(a->data.int64, b->data.int64);
    case PMIX_STATUS:
        return CMP_INV(a->data.status, b->data.status);
    case PMIX_FLOAT:
        return CMP_INV(a->data.fval, b->data.fval);
    case PMIX_DOUBLE:
        return CMP_INV(a->data.dval, b->data.dval);
    case PMIX_UINT:
        return CMP_ASC(a->data.uint, b->data.uint);
    case PMIX_UINT16:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
        return CMP_ASC(a->data.uint16, b->data.uint16);
    case PMIX_UINT32:
        return CMP_ASC(a->data.uint32, b->data.uint32);
    case PMIX_UINT64:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
        return CMP_ASC(a->data.uint64, b->data.uint64);
    case PMIX_TIME:
        return CMP_ASC(a->data.time, b->data.time);
    case PMIX_PROC_RANK:
        return CMP_ASC(a->data.rank, b->data.rank);
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
        return CMP_ASC(a->data.uint8, b->data.uint8);
    case PMIX_TIMEVAL:
        if (a->data.tv.tv_sec != b->data.tv.tv_sec) {
            return CMP_ASC(a->data.tv.tv_sec, b->data.tv.tv_sec);
        }
        return CMP_ASC(a->data.tv.tv_usec, b->data.tv.tv_usec);
    case PMIX_STRING:
        return str_cmp(a->data.string, b->data.string);
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        return bo_cmp(&a->data.bo, &b->data.bo);
    case PMIX_POINTER:
        return ptr_cmp(a->data.ptr, b->data.ptr);
    case PMIX_PROC:
        if (NULL == a->data.proc || NULL == b->data.proc) {
            return PMIX_VALUE_COMPARISON_NOT_AVAIL;
        } else {
            return proc_cmp(a->data.proc, b->data.proc);
        }
    case PMIX_PROC_NSPACE:
        if (NULL == a->data.nspace || NULL == b->data.nspace) {
            return PMIX_VALUE_COMPARISON_NOT_AVAIL;
        }
        return sign_cmp(strncmp(*a->data.nspace, *b->data.nspace, PMIX_MAX_NSLEN));
    case PMIX_ENVAR: {
        pmix_value_cmp_t r = str_cmp(a->data.envar.envar, b->data.envar.envar);
        if (PMIX_EQUAL == r) {
            r = str_cmp(a->data.envar.value, b->data.envar.value);
        }
        return PMIX_EQUAL != r ? r : CMP_ASC(a->data.envar.separator, b->data.envar.separator);
    }
    case PMIX_COORD:
        if (NULL == a->data.coord || NULL == b->data.coord) {
            return a->data.coord == b->data.coord ? PMIX_EQUAL : PMIX_VALUE_COMPARISON_NOT_AVAIL;
        }
        return coord_cmp(a->data.coord, b->data.coord);
    case PMIX_PROC_INFO:
    case PMIX_REGATTR:
    case PMIX_GEOMETRY:
    case PMIX_DEVICE_DIST:
    case PMIX_ENDPOINT:
    case PMIX_PROC_STATS:
    case PMIX_DISK_STATS:
    case PMIX_NET_STATS:
    case PMIX_NODE_STATS:
        return struct_cmp(a->type, a->data.ptr, b->data.ptr);
    case PMIX_DATA_ARRAY:
        return darray_cmp(a->data.darray, b->data.darray);
    default:
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
}

PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1, pmix_value_t *v2)
{
    if (NULL == v1 || NULL == v2) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    return value_cmp(v1, v2);
}

/* Release what a cpuset or topology owns (hwloc objects when the source is hwloc); the struct
 * itself belongs to the caller. */
PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset)
{
    if (NULL != cpuset) {
        wu_data_elems_destruct(cpuset, 1, PMIX_PROC_CPUSET);
    }
}

PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo)
{
    if (NULL != topo) {
        wu_data_elems_destruct(topo, 1, PMIX_TOPO);
    }
}
