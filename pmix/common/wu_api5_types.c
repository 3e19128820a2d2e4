/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_api5_types.c -- the PMIx 5 construct, destruct, create, free, load and transfer functions of
 * the public structs. Each does what the pmix_common.h macro of the same name does, so a program
 * built against OpenPMIx 5's headers (whose macros call these functions) and one built against
 * 4.2's (whose macros are compiled in) get the same results.
 *
 * Most types follow one pattern, written once by WU_API5_LIFECYCLE: construct and destruct one
 * element (NULL is ignored), create n constructed elements (NULL for 0), free destructs n elements
 * and frees the array. contrib/api-status.sh reads the WU_API5_LIFECYCLE lines as the definitions
 * of the four functions (three with WU_API5_LIFECYCLE3, whose type's destruct is defined
 * elsewhere). The irregular ones are written out below. */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

#include "pmix/common/wu_value.h"

/* Create and free, shared by both generators. */
#define WU_API5_CREATE_FREE(Name, T, CONSTRUCT, DESTRUCT) \
    T *PMIx_##Name##_create(size_t n)                     \
    {                                                     \
        T *a = 0 == n ? NULL : (T *)calloc(n, sizeof(T)); \
        for (size_t k = 0; NULL != a && k < n; k++) {     \
            CONSTRUCT(&a[k]);                             \
        }                                                 \
        return a;                                         \
    }                                                     \
    void PMIx_##Name##_free(T *p, size_t n)               \
    {                                                     \
        for (size_t k = 0; NULL != p && k < n; k++) {     \
            DESTRUCT(&p[k]);                              \
        }                                                 \
        free(p);                                          \
    }                                                     \
    void PMIx_##Name##_construct(T *p)                    \
    {                                                     \
        if (NULL != p) {                                  \
            CONSTRUCT(p);                                 \
        }                                                 \
    }

#define WU_API5_LIFECYCLE3(Name, T, CONSTRUCT, DESTRUCT) \
    WU_API5_CREATE_FREE(Name, T, CONSTRUCT, DESTRUCT)
#define WU_API5_LIFECYCLE(Name, T, CONSTRUCT, DESTRUCT) \
    WU_API5_CREATE_FREE(Name, T, CONSTRUCT, DESTRUCT)   \
    void PMIx_##Name##_destruct(T *p)                   \
    {                                                   \
        if (NULL != p) {                                \
            DESTRUCT(p);                                \
        }                                               \
    }

/* Destructors the macros lack or spell as several statements. */
#define WU_PROC_DESTRUCT(p)     ((void)(p))
#define WU_CPUSET_DESTRUCT(p)   PMIx_Cpuset_destruct(p)
#define WU_TOPOLOGY_DESTRUCT(p) PMIx_Topology_destruct(p)

WU_API5_LIFECYCLE3(Value, pmix_value_t, PMIX_VALUE_CONSTRUCT, PMIX_VALUE_DESTRUCT)
WU_API5_LIFECYCLE3(Cpuset, pmix_cpuset_t, PMIX_CPUSET_CONSTRUCT, WU_CPUSET_DESTRUCT)
WU_API5_LIFECYCLE3(Topology, pmix_topology_t, PMIX_TOPOLOGY_CONSTRUCT, WU_TOPOLOGY_DESTRUCT)
WU_API5_LIFECYCLE(Info, pmix_info_t, PMIX_INFO_CONSTRUCT, PMIX_INFO_DESTRUCT)
WU_API5_LIFECYCLE(Proc, pmix_proc_t, PMIX_PROC_CONSTRUCT, WU_PROC_DESTRUCT)
WU_API5_LIFECYCLE(Proc_info, pmix_proc_info_t, PMIX_PROC_INFO_CONSTRUCT, PMIX_PROC_INFO_DESTRUCT)
WU_API5_LIFECYCLE(Proc_stats, pmix_proc_stats_t, PMIX_PROC_STATS_CONSTRUCT,
                  PMIX_PROC_STATS_DESTRUCT)
WU_API5_LIFECYCLE(Disk_stats, pmix_disk_stats_t, PMIX_DISK_STATS_CONSTRUCT,
                  PMIX_DISK_STATS_DESTRUCT)
WU_API5_LIFECYCLE(Net_stats, pmix_net_stats_t, PMIX_NET_STATS_CONSTRUCT, PMIX_NET_STATS_DESTRUCT)
WU_API5_LIFECYCLE(Node_stats, pmix_node_stats_t, PMIX_NODE_STATS_CONSTRUCT,
                  PMIX_NODE_STATS_DESTRUCT)
WU_API5_LIFECYCLE(Pdata, pmix_pdata_t, PMIX_PDATA_CONSTRUCT, PMIX_PDATA_DESTRUCT)
WU_API5_LIFECYCLE(App, pmix_app_t, PMIX_APP_CONSTRUCT, PMIX_APP_DESTRUCT)
WU_API5_LIFECYCLE(Query, pmix_query_t, PMIX_QUERY_CONSTRUCT, PMIX_QUERY_DESTRUCT)
WU_API5_LIFECYCLE(Regattr, pmix_regattr_t, PMIX_REGATTR_CONSTRUCT, PMIX_REGATTR_DESTRUCT)
WU_API5_LIFECYCLE(Geometry, pmix_geometry_t, PMIX_GEOMETRY_CONSTRUCT, PMIX_GEOMETRY_DESTRUCT)
WU_API5_LIFECYCLE(Device_distance, pmix_device_distance_t, PMIX_DEVICE_DIST_CONSTRUCT,
                  PMIX_DEVICE_DIST_DESTRUCT)
WU_API5_LIFECYCLE(Byte_object, pmix_byte_object_t, PMIX_BYTE_OBJECT_CONSTRUCT,
                  PMIX_BYTE_OBJECT_DESTRUCT)
WU_API5_LIFECYCLE(Endpoint, pmix_endpoint_t, PMIX_ENDPOINT_CONSTRUCT, PMIX_ENDPOINT_DESTRUCT)
WU_API5_LIFECYCLE(Envar, pmix_envar_t, PMIX_ENVAR_CONSTRUCT, PMIX_ENVAR_DESTRUCT)

/* ---- the irregular ones ---- */

void PMIx_Coord_construct(pmix_coord_t *m)
{
    if (NULL != m) {
        PMIX_COORD_CONSTRUCT(m);
    }
}

void PMIx_Coord_destruct(pmix_coord_t *m)
{
    if (NULL != m) {
        PMIX_COORD_DESTRUCT(m);
    }
}

pmix_coord_t *PMIx_Coord_create(size_t dims, size_t number)
{
    pmix_coord_t *m;

    PMIX_COORD_CREATE(m, number, dims);
    return m;
}

void PMIx_Coord_free(pmix_coord_t *m, size_t number)
{
    PMIX_COORD_FREE(m, number);
}

void PMIx_App_info_create(pmix_app_t *p, size_t n)
{
    if (NULL != p) {
        PMIX_APP_INFO_CREATE(p, n);
    }
}

void PMIx_App_release(pmix_app_t *p)
{
    PMIx_App_free(p, 1);
}

void PMIx_Query_qualifiers_create(pmix_query_t *p, size_t n)
{
    if (NULL != p) {
        PMIX_QUERY_QUALIFIERS_CREATE(p, n);
    }
}

void PMIx_Query_release(pmix_query_t *p)
{
    PMIx_Query_free(p, 1);
}

void PMIx_Regattr_load(pmix_regattr_t *info, const char *name, const char *key,
                       pmix_data_type_t type, const char *description)
{
    if (NULL != info) {
        PMIX_REGATTR_LOAD(info, name, key, type, description);
    }
}

void PMIx_Regattr_xfer(pmix_regattr_t *dest, const pmix_regattr_t *src)
{
    if (NULL != dest && NULL != src) {
        PMIX_REGATTR_XFER(dest, src);
    }
}

void PMIx_Proc_load(pmix_proc_t *p, const char *nspace, pmix_rank_t rank)
{
    if (NULL != p) {
        PMIX_PROC_CONSTRUCT(p);
        PMIX_LOAD_PROCID(p, nspace, rank);
    }
}

void PMIx_Byte_object_load(pmix_byte_object_t *b, char *d, size_t sz)
{
    if (NULL != b) {
        PMIX_BYTE_OBJECT_LOAD(b, d, sz);
    }
}

void PMIx_Envar_load(pmix_envar_t *e, char *var, char *value, char separator)
{
    if (NULL != e) {
        PMIX_ENVAR_LOAD(e, var, value, separator);
    }
}

void PMIx_Data_buffer_construct(pmix_data_buffer_t *b)
{
    if (NULL != b) {
        PMIX_DATA_BUFFER_CONSTRUCT(b);
    }
}

void PMIx_Data_buffer_destruct(pmix_data_buffer_t *b)
{
    if (NULL != b) {
        PMIX_DATA_BUFFER_DESTRUCT(b);
    }
}

pmix_data_buffer_t *PMIx_Data_buffer_create(void)
{
    pmix_data_buffer_t *b;

    PMIX_DATA_BUFFER_CREATE(b);
    return b;
}

void PMIx_Data_buffer_release(pmix_data_buffer_t *b)
{
    if (NULL != b) {
        PMIX_DATA_BUFFER_RELEASE(b);
    }
}

void PMIx_Data_buffer_load(pmix_data_buffer_t *b, char *bytes, size_t sz)
{
    if (NULL != b) {
        PMIX_DATA_BUFFER_LOAD(b, bytes, sz);
    }
}

void PMIx_Data_buffer_unload(pmix_data_buffer_t *b, char **bytes, size_t *sz)
{
    if (NULL == bytes || NULL == sz) {
        return;
    }
    if (NULL == b) {
        *bytes = NULL;
        *sz = 0;
        return;
    }
    PMIX_DATA_BUFFER_UNLOAD(b, *bytes, *sz);
}

void PMIx_Data_array_init(pmix_data_array_t *p, pmix_data_type_t type)
{
    if (NULL != p) {
        PMIX_DATA_ARRAY_INIT(p, type);
    }
}

void PMIx_Data_array_construct(pmix_data_array_t *p, size_t num, pmix_data_type_t type)
{
    if (NULL != p) {
        PMIX_DATA_ARRAY_CONSTRUCT(p, num, type);
    }
}

pmix_data_array_t *PMIx_Data_array_create(size_t n, pmix_data_type_t type)
{
    pmix_data_array_t *p;

    PMIX_DATA_ARRAY_CREATE(p, n, type);
    return p;
}

void PMIx_Data_array_free(pmix_data_array_t *p)
{
    PMIX_DATA_ARRAY_FREE(p);
}
