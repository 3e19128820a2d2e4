/* SPDX-License-Identifier: BSD-3-Clause */
/* obfr_samples.h -- the values obfr_ref.c (built on OpenPMIx's headers and library) and
 * obfr_ours.c (built on Wireup's codec, pmix/common/wu_obfr.h) both pack, so that the bytes of
 * the two can be compared line by line (test/compat/obfr_openpmix.sh). Only the standard PMIx
 * structures are used, which both sets of headers lay out alike.
 *
 * Line format of both programs: "<name> <hex bytes>" for each sample, in the order below. */
#ifndef OBFR_SAMPLES_H
#define OBFR_SAMPLES_H

#include <pmix_common.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the sample is not unpacked by OpenPMIx 4.2.2 the way it packs it (see obfr_openpmix.sh) */
#define OBFR_S_REF_ASYM 1

typedef struct obfr_sample {
    const char *name;
    pmix_data_type_t type;
    int32_t n;
    const void *data;
    int flags;
} obfr_sample_t;

static char *obfr_s_argv2[] = {"-x", "y z", NULL};
static char *obfr_s_env[] = {"A=1", NULL};
static char *obfr_s_keys[] = {"pmix.qry.ns", "pmix.qry.nprocs", NULL};
static char obfr_s_bo_bytes[] = {0, 1, 2, (char)0xff, 'a'};
static uint32_t obfr_s_coords[] = {1, 300, 0xffffffffu};
static uint32_t obfr_s_u32arr[] = {7, 0xfffffffeu, 128};
static char *obfr_s_strarr[] = {"one", "", "three"};
static pid_t obfr_s_pidarr[] = {1, 65536, 77};
static pmix_proc_t obfr_s_procs[] = {
    {"ns-a", 0}, {"ns-a", PMIX_RANK_WILDCARD}, {"", 7}, {"ns-b", PMIX_RANK_UNDEF}};
static pmix_coord_t obfr_s_coord[] = {{PMIX_COORD_LOGICAL_VIEW, obfr_s_coords, 3},
                                      {PMIX_COORD_PHYSICAL_VIEW, NULL, 0}};

static void obfr_s_info(pmix_info_t *i, const char *key, pmix_info_directives_t flags,
                        pmix_data_type_t t, const void *val)
{
    memset(i, 0, sizeof(*i));
    snprintf(i->key, sizeof(i->key), "%s", key);
    i->flags = flags;
    i->value.type = t;
    if (NULL != val) {
        switch (t) {
        case PMIX_BOOL:
            i->value.data.flag = *(const bool *)val;
            break;
        case PMIX_STRING:
            i->value.data.string = (char *)val;
            break;
        case PMIX_UINT32:
            i->value.data.uint32 = *(const uint32_t *)val;
            break;
        case PMIX_INT:
            i->value.data.integer = *(const int *)val;
            break;
        case PMIX_SIZE:
            i->value.data.size = *(const size_t *)val;
            break;
        case PMIX_PID:
            i->value.data.pid = *(const pid_t *)val;
            break;
        case PMIX_DOUBLE:
            i->value.data.dval = *(const double *)val;
            break;
        default: /* the pointer members */
            i->value.data.ptr = (void *)val;
            break;
        }
    }
}

/* every sample, built once; *count is set to their number */
static const obfr_sample_t *obfr_samples(size_t *count)
{
    static bool b[] = {true, false};
    static uint8_t byte[] = {0, 0xff, 0x7f};
    static int8_t i8[] = {-1, 127, -128};
    static int16_t i16[] = {-1, 0, 32767, -32768, 300};
    static uint16_t u16[] = {3, 65535, 128};
    static int32_t i32[] = {-1, 1, INT32_MAX, INT32_MIN, 0, -46};
    static uint32_t u32[] = {0, 0xfffffffeu, 0xffffffffu, 127, 128};
    static int64_t i64[] = {INT64_MIN, INT64_MAX, -1, 300};
    static uint64_t u64[] = {0, UINT64_MAX, 1ull << 56, 1ull << 63, (1ull << 56) - 1};
    static int ints[] = {-5, 100000, INT32_MIN};
    static unsigned uints[] = {5, 0xffffffffu, 0x80000000u};
    static size_t sizes[] = {0, 300, SIZE_MAX};
    static pid_t pids[] = {1, 4242, -1};
    static float floats[] = {1.5f, -0.25f, 0.0f, 3.14159f, 1e20f};
    static double doubles[] = {1.5, -2.25e10, 1e-7, 123456.789, -0.0};
    static struct timeval tvs[] = {{1700000000, 999999}, {-1, 0}};
    static time_t times[] = {0, 1700000000};
    static pmix_status_t sts[] = {0, -46, -1, PMIX_ERR_UNPACK_FAILURE};
    static pmix_rank_t ranks[] = {0, PMIX_RANK_WILDCARD, PMIX_RANK_UNDEF, PMIX_RANK_LOCAL_NODE};
    static pmix_data_range_t ranges[] = {PMIX_RANGE_NAMESPACE, PMIX_RANGE_GLOBAL};
    static pmix_scope_t scopes[] = {PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL};
    static pmix_persistence_t pers[] = {PMIX_PERSIST_SESSION};
    static pmix_proc_state_t pstates[] = {PMIX_PROC_STATE_RUNNING, PMIX_PROC_STATE_ERROR};
    static pmix_info_directives_t dirs[] = {0, PMIX_INFO_REQD, PMIX_INFO_REQD_PROCESSED};
    static pmix_data_type_t dtypes[] = {PMIX_STRING, PMIX_DATA_ARRAY, 500};
    static pmix_alloc_directive_t allocs[] = {PMIX_ALLOC_NEW};
    static pmix_iof_channel_t iofs[] = {PMIX_FWD_STDOUT_CHANNEL, PMIX_FWD_ALL_CHANNELS};
    static pmix_job_state_t jstates[] = {PMIX_JOB_STATE_RUNNING};
    static pmix_link_state_t lstates[] = {PMIX_LINK_UP};
    static pmix_locality_t locs[] = {PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_CORE};
    static pmix_device_type_t devtypes[] = {PMIX_DEVTYPE_GPU, 0x8000000000000000ull};
    static char *strs[] = {"ab", "", NULL, "hello world"};
    static char *strnull[] = {NULL};
    static pmix_nspace_t nspaces[] = {"nspace-1", ""};
    static pmix_byte_object_t bos[] = {{NULL, 0}, {obfr_s_bo_bytes, 5}};
    static pmix_data_array_t da_u32 = {PMIX_UINT32, 3, obfr_s_u32arr};
    static pmix_data_array_t da_str = {PMIX_STRING, 3, obfr_s_strarr};
    static pmix_data_array_t da_pid = {PMIX_PID, 3, obfr_s_pidarr};
    static pmix_data_array_t da_proc = {PMIX_PROC, 4, obfr_s_procs};
    static pmix_data_array_t da_empty = {PMIX_INFO, 0, NULL};
    static pmix_data_array_t da_info, da_nested, das[5];
    static pmix_info_t infos[10], da_infos[2], app_infos[1], q_infos[1];
    static pmix_value_t vals[14];
    static pmix_pdata_t pdatas[2];
    static pmix_app_t apps[2];
    static pmix_query_t queries[2];
    static pmix_proc_info_t pinfos[1];
    static pmix_envar_t envars[2];
    static pmix_device_distance_t dists[1];
    static pmix_endpoint_t endpts[1];
    static pmix_geometry_t geos[1];
    static bool yes = true;
    static uint32_t u32v = 0xfffffffe;
    static int intv = -7;
    static size_t sizev = 300;
    static pid_t pidv = 99;
    static double dv = 2.5;
    static obfr_sample_t s[64];
    static size_t built;
    size_t k = 0;

#define OBFR_S(nm, t, arr, fl)                       \
    s[k++] = (obfr_sample_t)                         \
    {                                                \
        nm, t, sizeof(arr) / sizeof(arr[0]), arr, fl \
    }
    if (0 != built) {
        *count = built;
        return s;
    }
    /* infos: the example of docs/openpmix-wire.md 5.5 first */
    obfr_s_info(&infos[0], "k", 0, PMIX_BOOL, &yes);
    obfr_s_info(&infos[1], "pmix.collect", PMIX_INFO_REQD, PMIX_STRING, "value");
    obfr_s_info(&infos[2], "u32", 0, PMIX_UINT32, &u32v);
    obfr_s_info(&infos[3], "int", 0, PMIX_INT, &intv);
    obfr_s_info(&infos[4], "size", 0, PMIX_SIZE, &sizev);
    obfr_s_info(&infos[5], "pid", 0, PMIX_PID, &pidv);
    obfr_s_info(&infos[6], "undef", 0, PMIX_UNDEF, NULL);
    obfr_s_info(&infos[7], "proc", 0, PMIX_PROC, &obfr_s_procs[1]);
    obfr_s_info(&infos[8], "darray", 0, PMIX_DATA_ARRAY, &da_u32);
    obfr_s_info(&infos[9], "nullstr", 0, PMIX_STRING, NULL);
    /* a data array of infos, one nesting another array */
    obfr_s_info(&da_infos[0], "inner", 0, PMIX_DOUBLE, &dv);
    obfr_s_info(&da_infos[1], "nested", 0, PMIX_DATA_ARRAY, &da_str);
    da_info = (pmix_data_array_t){PMIX_INFO, 2, da_infos};
    da_nested = (pmix_data_array_t){PMIX_DATA_ARRAY, 1, &da_info};
    das[0] = da_u32;
    das[1] = da_str;
    das[2] = da_pid;
    das[3] = da_proc;
    das[4] = da_empty;
    /* values */
    vals[0].type = PMIX_UNDEF;
    vals[1].type = PMIX_BOOL;
    vals[1].data.flag = true;
    vals[2].type = PMIX_STRING;
    vals[2].data.string = "v";
    vals[3].type = PMIX_STRING;
    vals[4].type = PMIX_INT;
    vals[4].data.integer = -7;
    vals[5].type = PMIX_SIZE;
    vals[5].data.size = 300;
    vals[6].type = PMIX_PID;
    vals[6].data.pid = 99;
    vals[7].type = PMIX_PROC;
    vals[7].data.proc = &obfr_s_procs[0];
    vals[8].type = PMIX_DATA_ARRAY;
    vals[8].data.darray = &da_info;
    vals[9].type = PMIX_BYTE_OBJECT;
    vals[9].data.bo = bos[1];
    vals[10].type = PMIX_DOUBLE;
    vals[10].data.dval = -0.5;
    vals[11].type = PMIX_COORD;
    vals[11].data.coord = &obfr_s_coord[0];
    vals[12].type = PMIX_TIMEVAL;
    vals[12].data.tv = tvs[0];
    vals[13].type = PMIX_STATUS;
    vals[13].data.status = -46;
    /* pdata, apps, queries, the rest */
    pdatas[0].proc = obfr_s_procs[0];
    snprintf(pdatas[0].key, sizeof(pdatas[0].key), "pkey");
    pdatas[0].value = vals[2];
    pdatas[1].proc = obfr_s_procs[1];
    snprintf(pdatas[1].key, sizeof(pdatas[1].key), "pkey2");
    pdatas[1].value = vals[8];
    obfr_s_info(&app_infos[0], "pmix.wdir", 0, PMIX_STRING, "/tmp");
    apps[0] = (pmix_app_t){"/bin/true", obfr_s_argv2, obfr_s_env, "/tmp", 4, app_infos, 1};
    apps[1] = (pmix_app_t){NULL, NULL, NULL, NULL, -1, NULL, 0};
    obfr_s_info(&q_infos[0], "pmix.nspace", 0, PMIX_STRING, "ns-a");
    queries[0] = (pmix_query_t){obfr_s_keys, q_infos, 1};
    queries[1] = (pmix_query_t){NULL, NULL, 0};
    pinfos[0].proc = obfr_s_procs[0];
    pinfos[0].hostname = "node1";
    pinfos[0].executable_name = NULL;
    pinfos[0].pid = 1234;
    pinfos[0].state = PMIX_PROC_STATE_RUNNING;
    envars[0] = (pmix_envar_t){"PATH", "/usr/bin", ':'};
    envars[1] = (pmix_envar_t){"EMPTY", NULL, 0};
    dists[0] = (pmix_device_distance_t){"uuid-1", "mlx5_0", PMIX_DEVTYPE_NETWORK, 1, 65535};
    endpts[0] = (pmix_endpoint_t){"uuid-2", NULL, {obfr_s_bo_bytes, 5}};
    geos[0] = (pmix_geometry_t){3, "uuid-3", "ib0", obfr_s_coord, 2};

    OBFR_S("string", PMIX_STRING, strs, 0);
    OBFR_S("string_null", PMIX_STRING, strnull, 0);
    OBFR_S("bool", PMIX_BOOL, b, 0);
    OBFR_S("byte", PMIX_BYTE, byte, 0);
    OBFR_S("int8", PMIX_INT8, i8, 0);
    OBFR_S("uint8", PMIX_UINT8, byte, 0);
    OBFR_S("int16", PMIX_INT16, i16, 0);
    OBFR_S("uint16", PMIX_UINT16, u16, 0);
    OBFR_S("int32", PMIX_INT32, i32, 0);
    OBFR_S("uint32", PMIX_UINT32, u32, 0);
    OBFR_S("int64", PMIX_INT64, i64, 0);
    OBFR_S("uint64", PMIX_UINT64, u64, 0);
    OBFR_S("int", PMIX_INT, ints, 0);
    OBFR_S("uint", PMIX_UINT, uints, 0);
    OBFR_S("size", PMIX_SIZE, sizes, 0);
    OBFR_S("pid", PMIX_PID, pids, 0);
    /* OpenPMIx cannot unpack an empty call of integers at the end of a buffer */
    s[k++] = (obfr_sample_t){"pid_none", PMIX_PID, 0, pids, OBFR_S_REF_ASYM};
    s[k++] = (obfr_sample_t){"int32_none", PMIX_INT32, 0, i32, OBFR_S_REF_ASYM};
    OBFR_S("float", PMIX_FLOAT, floats, 0);
    OBFR_S("double", PMIX_DOUBLE, doubles, 0);
    OBFR_S("timeval", PMIX_TIMEVAL, tvs, 0);
    OBFR_S("time", PMIX_TIME, times, 0);
    OBFR_S("status", PMIX_STATUS, sts, 0);
    OBFR_S("rank", PMIX_PROC_RANK, ranks, 0);
    OBFR_S("range", PMIX_DATA_RANGE, ranges, 0);
    OBFR_S("scope", PMIX_SCOPE, scopes, 0);
    OBFR_S("persist", PMIX_PERSIST, pers, 0);
    OBFR_S("proc_state", PMIX_PROC_STATE, pstates, 0);
    OBFR_S("info_directives", PMIX_INFO_DIRECTIVES, dirs, 0);
    /* OpenPMIx unpacks a DATA_TYPE as the INT16 it is not packed as */
    OBFR_S("data_type", PMIX_DATA_TYPE, dtypes, OBFR_S_REF_ASYM);
    OBFR_S("alloc_directive", PMIX_ALLOC_DIRECTIVE, allocs, 0);
    OBFR_S("iof_channel", PMIX_IOF_CHANNEL, iofs, 0);
    OBFR_S("job_state", PMIX_JOB_STATE, jstates, 0);
    OBFR_S("link_state", PMIX_LINK_STATE, lstates, 0);
    OBFR_S("loctype", PMIX_LOCTYPE, locs, 0);
    OBFR_S("devtype", PMIX_DEVTYPE, devtypes, 0);
    OBFR_S("proc", PMIX_PROC, obfr_s_procs, 0);
    OBFR_S("proc_nspace", PMIX_PROC_NSPACE, nspaces, 0);
    OBFR_S("byte_object", PMIX_BYTE_OBJECT, bos, 0);
    OBFR_S("compressed_string", PMIX_COMPRESSED_STRING, bos, 0);
    OBFR_S("compressed_bo", PMIX_COMPRESSED_BYTE_OBJECT, bos, 0);
    OBFR_S("value", PMIX_VALUE, vals, 0);
    s[k++] = (obfr_sample_t){"info_example", PMIX_INFO, 1, infos, 0};
    OBFR_S("info", PMIX_INFO, infos, 0);
    OBFR_S("pdata", PMIX_PDATA, pdatas, 0);
    OBFR_S("data_array", PMIX_DATA_ARRAY, das, 0);
    s[k++] = (obfr_sample_t){"data_array_nested", PMIX_DATA_ARRAY, 1, &da_nested, OBFR_S_REF_ASYM};
    OBFR_S("app", PMIX_APP, apps, 0);
    OBFR_S("query", PMIX_QUERY, queries, 0);
    OBFR_S("proc_info", PMIX_PROC_INFO, pinfos, 0);
    OBFR_S("envar", PMIX_ENVAR, envars, 0);
    OBFR_S("coord", PMIX_COORD, obfr_s_coord, 0);
    OBFR_S("device_dist", PMIX_DEVICE_DIST, dists, 0);
    OBFR_S("endpoint", PMIX_ENDPOINT, endpts, 0);
    OBFR_S("geometry", PMIX_GEOMETRY, geos, 0);
#undef OBFR_S
    *count = built = k;
    return s;
}

/* size of one element of the sample types */
static inline size_t obfr_sample_elem_size(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_BOOL:
        return sizeof(bool);
    case PMIX_BYTE:
    case PMIX_INT8:
    case PMIX_UINT8:
    case PMIX_DATA_RANGE:
    case PMIX_SCOPE:
    case PMIX_PERSIST:
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
        return 2;
    case PMIX_INT32:
    case PMIX_UINT32:
    case PMIX_INT:
    case PMIX_UINT:
    case PMIX_PID:
    case PMIX_STATUS:
    case PMIX_PROC_RANK:
    case PMIX_INFO_DIRECTIVES:
    case PMIX_FLOAT:
        return 4;
    case PMIX_INT64:
    case PMIX_UINT64:
    case PMIX_SIZE:
    case PMIX_DOUBLE:
    case PMIX_TIME:
    case PMIX_DEVTYPE:
    case PMIX_STRING:
        return 8;
    case PMIX_TIMEVAL:
        return sizeof(struct timeval);
    case PMIX_PROC:
        return sizeof(pmix_proc_t);
    case PMIX_PROC_NSPACE:
        return sizeof(pmix_nspace_t);
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        return sizeof(pmix_byte_object_t);
    case PMIX_VALUE:
        return sizeof(pmix_value_t);
    case PMIX_INFO:
        return sizeof(pmix_info_t);
    case PMIX_PDATA:
        return sizeof(pmix_pdata_t);
    case PMIX_DATA_ARRAY:
        return sizeof(pmix_data_array_t);
    case PMIX_APP:
        return sizeof(pmix_app_t);
    case PMIX_QUERY:
        return sizeof(pmix_query_t);
    case PMIX_PROC_INFO:
        return sizeof(pmix_proc_info_t);
    case PMIX_ENVAR:
        return sizeof(pmix_envar_t);
    case PMIX_COORD:
        return sizeof(pmix_coord_t);
    case PMIX_DEVICE_DIST:
        return sizeof(pmix_device_distance_t);
    case PMIX_ENDPOINT:
        return sizeof(pmix_endpoint_t);
    case PMIX_GEOMETRY:
        return sizeof(pmix_geometry_t);
    default:
        return 0;
    }
}

/* the sample called name, or NULL */
static inline const obfr_sample_t *obfr_sample_find(const char *name)
{
    size_t n;
    const obfr_sample_t *s = obfr_samples(&n);

    for (size_t i = 0; i < n; i++) {
        if (0 == strcmp(s[i].name, name)) {
            return &s[i];
        }
    }
    return NULL;
}

static inline void obfr_hex_print(const char *name, const unsigned char *p, size_t n)
{
    printf("%s ", name);
    for (size_t i = 0; i < n; i++) {
        printf("%02x", p[i]);
    }
    printf("\n");
}

/* a line "<name> <hex>" into name (cap bytes) and a new *bytes of *n bytes; false when not */
static inline bool obfr_hex_parse(char *line, char *name, size_t cap, unsigned char **bytes,
                                  size_t *n)
{
    char *sp = strchr(line, ' '), *hex;
    size_t len;

    if (NULL == sp || (size_t)(sp - line) >= cap) {
        return false;
    }
    memcpy(name, line, (size_t)(sp - line));
    name[sp - line] = '\0';
    hex = sp + 1;
    len = strcspn(hex, "\r\n");
    if (len % 2 != 0 || NULL == (*bytes = malloc(len / 2 + 1))) {
        return false;
    }
    for (size_t i = 0; i < len / 2; i++) {
        unsigned v;
        if (1 != sscanf(hex + 2 * i, "%2x", &v)) {
            free(*bytes);
            return false;
        }
        (*bytes)[i] = (unsigned char)v;
    }
    *n = len / 2;
    return true;
}

#endif /* OBFR_SAMPLES_H */
