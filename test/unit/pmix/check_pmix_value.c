/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_value.c -- PMIx_Value_load/unload/xfer/compare/destruct and PMIx_Data_array_destruct.
 *
 * One sample datum per PMIx data type drives table loops: load, copy, compare, unload, and the
 * same through data arrays of each type. Leaks and double frees are the sanitizer build's job
 * (LeakSanitizer fails a test that leaks), so every test releases all it creates. Expected
 * results that look odd (inverted signed comparisons, lent byte objects) are what OpenPMIx 4.2.2
 * returns, observed with a probe against its library.
 */
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include <hwloc.h>
#include "pmix_common.h"

#include "opal/util/wu_macros.h"
#include "pmix/common/wu_value.h"
#include "test/support/wu_test.h"

/* How PMIx_Value_unload hands the datum back. */
enum unload_kind {
    U_COPY,    /* copied into the caller's storage, *sz = size */
    U_STRING,  /* newly allocated string, *sz = strlen */
    U_LENT,    /* byte object: *data points into the value, *sz = bytes */
    U_POINTER, /* the stored address itself */
    U_ALLOC,   /* newly allocated deep copy of the struct, *sz = its size */
};

typedef struct {
    pmix_data_type_t type;
    const void *datum; /* as PMIx_Value_load takes it */
    enum unload_kind unload;
    size_t size;           /* expected *sz for U_COPY / U_ALLOC */
    pmix_value_cmp_t self; /* a value compared with its copy */
} sample_t;

/* ---- sample data ---- */

static bool s_bool = true;
static uint8_t s_u8 = 0x7f;
static size_t s_size = 12345;
static pid_t s_pid = 4242;
static int s_int = -7;
static int8_t s_i8 = -8;
static int16_t s_i16 = -16;
static int32_t s_i32 = -32;
static int64_t s_i64 = -64;
static unsigned int s_uint = 7;
static uint16_t s_u16 = 16;
static uint32_t s_u32 = 32;
static uint64_t s_u64 = 64;
static float s_float = 1.5f;
static double s_double = 2.5;
static struct timeval s_tv = {3, 4};
static time_t s_time = 99;
static pmix_status_t s_status = PMIX_ERR_BAD_PARAM;
static pmix_rank_t s_rank = 9;
static pmix_proc_t s_proc = {"nspace-a", 3};
static pmix_nspace_t s_nspace = "nspace-b";
static char s_bytes[] = {1, 2, 0, 4, 5};
static pmix_byte_object_t s_bo = {s_bytes, sizeof(s_bytes)};
static int s_pointee[4] = {1, 2, 3, 4};
static pmix_proc_info_t s_pinfo = {{"nspace-c", 1}, "host", "a.out", 77, 3, 5};
static int s_ints[3] = {1, -2, 3};
static pmix_data_array_t s_darray = {PMIX_INT, 3, s_ints};
static pmix_envar_t s_envar = {"PATH", "/bin", ':'};
static uint32_t s_coords[3] = {1, 2, 3};
static pmix_coord_t s_coord = {PMIX_COORD_LOGICAL_VIEW, s_coords, 3};
static char *s_desc[] = {"first line", "second", NULL};
static pmix_regattr_t s_regattr = {"PMIX_HOSTNAME", "pmix.hname", PMIX_STRING, s_desc};
static pmix_geometry_t s_geometry = {2, "uuid-g", "eth0", &s_coord, 1};
static pmix_device_distance_t s_devdist = {"uuid-d", "mlx5_0", PMIX_DEVTYPE_GPU, 1, 9};
static pmix_endpoint_t s_endpoint = {"uuid-e", "ib0", {s_bytes, sizeof(s_bytes)}};
static pmix_proc_stats_t s_pstats = {.node = "node1", .proc = {"nspace-s", 2}, .cmd = "cmd"};
static pmix_disk_stats_t s_dkstats = {.disk = "sda", .num_reads_completed = 5};
static pmix_net_stats_t s_netstats = {.net_interface = "eth0", .num_bytes_sent = 6};
static pmix_node_stats_t s_ndstats = {.node = "node2",
                                      .la = 1.0f,
                                      .diskstats = &s_dkstats,
                                      .ndiskstats = 1,
                                      .netstats = &s_netstats,
                                      .nnetstats = 1};
static char s_dbuf_bytes[16] = "0123456789abcde";
static pmix_data_buffer_t s_dbuf = {s_dbuf_bytes, s_dbuf_bytes + 10, s_dbuf_bytes + 2, 16, 10};
static pmix_device_type_t s_devtype = PMIX_DEVTYPE_GPU;
static pmix_locality_t s_loc = PMIX_LOCALITY_SHARE_CORE;
static pmix_cpuset_t s_cpuset;
static pmix_topology_t s_topo;

static sample_t samples[64];
static size_t nsamples;

static void add(pmix_data_type_t t, const void *d, enum unload_kind u, size_t sz,
                pmix_value_cmp_t self)
{
    ck_assert_uint_lt(nsamples, WU_NELEMS(samples));
    samples[nsamples++] = (sample_t){t, d, u, sz, self};
}

static void setup(void)
{
    hwloc_topology_t topo;

    s_cpuset.source = "hwloc";
    s_cpuset.bitmap = hwloc_bitmap_alloc();
    ck_assert_ptr_nonnull(s_cpuset.bitmap);
    hwloc_bitmap_set_range(s_cpuset.bitmap, 0, 3);
    ck_assert_int_eq(0, hwloc_topology_init(&topo));
    ck_assert_int_eq(0, hwloc_topology_set_synthetic(topo, "pack:1 core:2 pu:1"));
    ck_assert_int_eq(0, hwloc_topology_load(topo));
    s_topo.source = "hwloc";
    s_topo.topology = topo;

    nsamples = 0;
    add(PMIX_BOOL, &s_bool, U_COPY, sizeof(bool), PMIX_EQUAL);
    add(PMIX_BYTE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_STRING, "hello", U_STRING, 0, PMIX_EQUAL);
    add(PMIX_SIZE, &s_size, U_COPY, sizeof(size_t), PMIX_EQUAL);
    add(PMIX_PID, &s_pid, U_COPY, sizeof(pid_t), PMIX_EQUAL);
    add(PMIX_INT, &s_int, U_COPY, sizeof(int), PMIX_EQUAL);
    add(PMIX_INT8, &s_i8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_INT16, &s_i16, U_COPY, 2, PMIX_EQUAL);
    add(PMIX_INT32, &s_i32, U_COPY, 4, PMIX_EQUAL);
    add(PMIX_INT64, &s_i64, U_COPY, 8, PMIX_EQUAL);
    add(PMIX_UINT, &s_uint, U_COPY, sizeof(unsigned), PMIX_EQUAL);
    add(PMIX_UINT8, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_UINT16, &s_u16, U_COPY, 2, PMIX_EQUAL);
    add(PMIX_UINT32, &s_u32, U_COPY, 4, PMIX_EQUAL);
    add(PMIX_UINT64, &s_u64, U_COPY, 8, PMIX_EQUAL);
    add(PMIX_FLOAT, &s_float, U_COPY, sizeof(float), PMIX_EQUAL);
    add(PMIX_DOUBLE, &s_double, U_COPY, sizeof(double), PMIX_EQUAL);
    add(PMIX_TIMEVAL, &s_tv, U_COPY, sizeof(struct timeval), PMIX_EQUAL);
    add(PMIX_TIME, &s_time, U_COPY, sizeof(time_t), PMIX_EQUAL);
    add(PMIX_STATUS, &s_status, U_COPY, sizeof(pmix_status_t), PMIX_EQUAL);
    add(PMIX_PROC, &s_proc, U_COPY, sizeof(pmix_proc_t), PMIX_EQUAL);
    add(PMIX_BYTE_OBJECT, &s_bo, U_LENT, 0, PMIX_EQUAL);
    add(PMIX_PERSIST, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_POINTER, s_pointee, U_POINTER, sizeof(void *), PMIX_EQUAL);
    add(PMIX_SCOPE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_DATA_RANGE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_PROC_STATE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_PROC_INFO, &s_pinfo, U_ALLOC, sizeof(pmix_proc_info_t), PMIX_EQUAL);
    add(PMIX_DATA_ARRAY, &s_darray, U_ALLOC, sizeof(pmix_data_array_t), PMIX_EQUAL);
    add(PMIX_PROC_RANK, &s_rank, U_COPY, sizeof(pmix_rank_t), PMIX_EQUAL);
    add(PMIX_COMPRESSED_STRING, &s_bo, U_LENT, 0, PMIX_EQUAL);
    add(PMIX_ALLOC_DIRECTIVE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_ENVAR, &s_envar, U_ALLOC, sizeof(pmix_envar_t), PMIX_EQUAL);
    add(PMIX_COORD, &s_coord, U_ALLOC, sizeof(pmix_coord_t), PMIX_EQUAL);
    add(PMIX_REGATTR, &s_regattr, U_ALLOC, sizeof(pmix_regattr_t), PMIX_EQUAL);
    add(PMIX_REGEX, &s_bo, U_LENT, 0, PMIX_EQUAL);
    add(PMIX_JOB_STATE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_LINK_STATE, &s_u8, U_COPY, 1, PMIX_EQUAL);
    add(PMIX_PROC_CPUSET, &s_cpuset, U_ALLOC, sizeof(pmix_cpuset_t),
        PMIX_VALUE_COMPARISON_NOT_AVAIL);
    add(PMIX_GEOMETRY, &s_geometry, U_ALLOC, sizeof(pmix_geometry_t), PMIX_EQUAL);
    add(PMIX_DEVICE_DIST, &s_devdist, U_ALLOC, sizeof(pmix_device_distance_t), PMIX_EQUAL);
    add(PMIX_ENDPOINT, &s_endpoint, U_ALLOC, sizeof(pmix_endpoint_t), PMIX_EQUAL);
    add(PMIX_TOPO, &s_topo, U_ALLOC, sizeof(pmix_topology_t), PMIX_VALUE_COMPARISON_NOT_AVAIL);
    add(PMIX_DEVTYPE, &s_devtype, U_COPY, 8, PMIX_EQUAL);
    add(PMIX_LOCTYPE, &s_loc, U_COPY, 2, PMIX_EQUAL);
    add(PMIX_COMPRESSED_BYTE_OBJECT, &s_bo, U_LENT, 0, PMIX_EQUAL);
    add(PMIX_PROC_NSPACE, s_nspace, U_COPY, 0, PMIX_EQUAL);
    add(PMIX_PROC_STATS, &s_pstats, U_ALLOC, sizeof(pmix_proc_stats_t), PMIX_EQUAL);
    add(PMIX_DISK_STATS, &s_dkstats, U_ALLOC, sizeof(pmix_disk_stats_t), PMIX_EQUAL);
    add(PMIX_NET_STATS, &s_netstats, U_ALLOC, sizeof(pmix_net_stats_t), PMIX_EQUAL);
    add(PMIX_NODE_STATS, &s_ndstats, U_ALLOC, sizeof(pmix_node_stats_t), PMIX_EQUAL);
    add(PMIX_DATA_BUFFER, &s_dbuf, U_ALLOC, sizeof(pmix_data_buffer_t),
        PMIX_VALUE_COMPARISON_NOT_AVAIL);
    add(PMIX_STOR_MEDIUM, &s_u64, U_COPY, 8, PMIX_EQUAL);
    add(PMIX_STOR_ACCESS, &s_u64, U_COPY, 8, PMIX_EQUAL);
    add(PMIX_STOR_PERSIST, &s_u64, U_COPY, 8, PMIX_EQUAL);
    add(PMIX_STOR_ACCESS_TYPE, &s_u16, U_COPY, 2, PMIX_EQUAL);
}

static void teardown(void)
{
    hwloc_bitmap_free(s_cpuset.bitmap);
    hwloc_topology_destroy(s_topo.topology);
}

#define NSAMPLES 56 /* entries setup() adds; loop bounds must be known before setup runs */

/* Field-level checks that a structured copy holds the sample's data in its own memory. */
static void check_struct_copy(pmix_data_type_t t, const void *copy, const void *orig)
{
    switch (t) {
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t *c = copy, *o = orig;
        ck_assert_str_eq(o->hostname, c->hostname);
        ck_assert_ptr_ne(o->hostname, c->hostname);
        ck_assert_str_eq(o->executable_name, c->executable_name);
        ck_assert_int_eq(o->pid, c->pid);
        ck_assert_int_eq(o->exit_code, c->exit_code);
        ck_assert_uint_eq(o->state, c->state);
        ck_assert_str_eq(o->proc.nspace, c->proc.nspace);
        break;
    }
    case PMIX_DATA_ARRAY: {
        const pmix_data_array_t *c = copy, *o = orig;
        ck_assert_uint_eq(o->type, c->type);
        ck_assert_uint_eq(o->size, c->size);
        ck_assert_ptr_ne(o->array, c->array);
        ck_assert_mem_eq(o->array, c->array, o->size * sizeof(int));
        break;
    }
    case PMIX_ENVAR: {
        const pmix_envar_t *c = copy, *o = orig;
        ck_assert_str_eq(o->envar, c->envar);
        ck_assert_ptr_ne(o->envar, c->envar);
        ck_assert_str_eq(o->value, c->value);
        ck_assert_int_eq(o->separator, c->separator);
        break;
    }
    case PMIX_COORD: {
        const pmix_coord_t *c = copy, *o = orig;
        ck_assert_uint_eq(o->dims, c->dims);
        ck_assert_ptr_ne(o->coord, c->coord);
        ck_assert_mem_eq(o->coord, c->coord, o->dims * sizeof(uint32_t));
        break;
    }
    case PMIX_REGATTR: {
        const pmix_regattr_t *c = copy, *o = orig;
        ck_assert_str_eq(o->name, c->name);
        ck_assert_str_eq(o->string, c->string);
        ck_assert_uint_eq(o->type, c->type);
        ck_assert_ptr_ne(o->description, c->description);
        ck_assert_str_eq(o->description[1], c->description[1]);
        ck_assert_ptr_null(c->description[2]);
        break;
    }
    case PMIX_PROC_CPUSET: {
        const pmix_cpuset_t *c = copy, *o = orig;
        ck_assert_str_eq(o->source, c->source);
        ck_assert_ptr_ne(o->bitmap, c->bitmap);
        ck_assert(hwloc_bitmap_isequal(o->bitmap, c->bitmap));
        break;
    }
    case PMIX_TOPO: {
        const pmix_topology_t *c = copy, *o = orig;
        ck_assert_str_eq(o->source, c->source);
        ck_assert_ptr_ne(o->topology, c->topology);
        ck_assert_int_eq(hwloc_get_nbobjs_by_type(o->topology, HWLOC_OBJ_CORE),
                         hwloc_get_nbobjs_by_type(c->topology, HWLOC_OBJ_CORE));
        break;
    }
    case PMIX_GEOMETRY: {
        const pmix_geometry_t *c = copy, *o = orig;
        ck_assert_str_eq(o->uuid, c->uuid);
        ck_assert_str_eq(o->osname, c->osname);
        ck_assert_uint_eq(o->ncoords, c->ncoords);
        ck_assert_ptr_ne(o->coordinates, c->coordinates);
        ck_assert_ptr_ne(o->coordinates[0].coord, c->coordinates[0].coord);
        ck_assert_uint_eq(3, c->coordinates[0].coord[2]);
        break;
    }
    case PMIX_DEVICE_DIST: {
        const pmix_device_distance_t *c = copy, *o = orig;
        ck_assert_str_eq(o->uuid, c->uuid);
        ck_assert_str_eq(o->osname, c->osname);
        ck_assert_uint_eq(o->maxdist, c->maxdist);
        break;
    }
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t *c = copy, *o = orig;
        ck_assert_str_eq(o->uuid, c->uuid);
        ck_assert_uint_eq(o->endpt.size, c->endpt.size);
        ck_assert_ptr_ne(o->endpt.bytes, c->endpt.bytes);
        ck_assert_mem_eq(o->endpt.bytes, c->endpt.bytes, o->endpt.size);
        break;
    }
    case PMIX_PROC_STATS: {
        const pmix_proc_stats_t *c = copy, *o = orig;
        ck_assert_str_eq(o->node, c->node);
        ck_assert_str_eq(o->cmd, c->cmd);
        ck_assert_uint_eq(o->proc.rank, c->proc.rank);
        break;
    }
    case PMIX_DISK_STATS:
        ck_assert_str_eq("sda", ((const pmix_disk_stats_t *)copy)->disk);
        ck_assert_uint_eq(5, ((const pmix_disk_stats_t *)copy)->num_reads_completed);
        break;
    case PMIX_NET_STATS:
        ck_assert_str_eq("eth0", ((const pmix_net_stats_t *)copy)->net_interface);
        break;
    case PMIX_NODE_STATS: {
        const pmix_node_stats_t *c = copy;
        ck_assert_str_eq("node2", c->node);
        ck_assert_uint_eq(1, c->ndiskstats);
        ck_assert_ptr_ne(&s_dkstats, c->diskstats);
        ck_assert_str_eq("sda", c->diskstats[0].disk);
        ck_assert_str_eq("eth0", c->netstats[0].net_interface);
        break;
    }
    case PMIX_DATA_BUFFER: {
        const pmix_data_buffer_t *c = copy, *o = orig;
        ck_assert_ptr_ne(o->base_ptr, c->base_ptr);
        ck_assert_mem_eq(o->base_ptr, c->base_ptr, o->bytes_used);
        ck_assert_uint_eq(10, c->pack_ptr - c->base_ptr);
        ck_assert_uint_eq(2, c->unpack_ptr - c->base_ptr);
        break;
    }
    default:
        ck_abort_msg("no struct check for type %u", t);
    }
}

START_TEST(setup_covers_table)
{
    ck_assert_uint_eq(NSAMPLES, nsamples);
}
END_TEST

/* load, xfer, compare, unload, destruct for one type */
START_TEST(round_trip)
{
    const sample_t *s = &samples[_i];
    pmix_value_t v, w;
    char buf[512];
    void *out = buf;
    size_t sz = 0;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, s->datum, s->type));
    ck_assert_uint_eq(s->type, v.type);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_xfer(&w, &v));
    ck_assert_uint_eq(s->type, w.type);
    ck_assert_int_eq(s->self, PMIx_Value_compare(&v, &w));

    memset(buf, 0x5a, sizeof(buf));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_unload(&w, &out, &sz));
    switch (s->unload) {
    case U_COPY:
        ck_assert_ptr_eq(buf, out);
        if (PMIX_PROC_NSPACE == s->type) {
            ck_assert_str_eq(s_nspace, buf);
            ck_assert_uint_eq(strlen(s_nspace), sz);
        } else {
            ck_assert_uint_eq(s->size, sz);
            ck_assert_mem_eq(s->datum, buf, sz);
        }
        break;
    case U_STRING:
        ck_assert_ptr_ne(buf, out);
        ck_assert_ptr_ne(w.data.string, out);
        ck_assert_str_eq(s->datum, out);
        ck_assert_uint_eq(strlen(s->datum), sz);
        free(out);
        break;
    case U_LENT:
        ck_assert_ptr_eq(w.data.bo.bytes, out);
        ck_assert_ptr_ne(s_bo.bytes, w.data.bo.bytes); /* load copied the bytes */
        ck_assert_uint_eq(s_bo.size, sz);
        ck_assert_mem_eq(s_bo.bytes, out, sz);
        break;
    case U_POINTER:
        ck_assert_ptr_eq(s->datum, out);
        ck_assert_uint_eq(sizeof(void *), sz);
        break;
    case U_ALLOC:
        ck_assert_ptr_ne(buf, out);
        ck_assert_uint_eq(s->size, sz);
        check_struct_copy(s->type, out, s->datum);
        wu_data_elems_destruct(out, 1, s->type);
        free(out);
        break;
    }
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
    ck_assert_uint_eq(PMIX_UNDEF, v.type);
    ck_assert_ptr_null(v.data.ptr);
}
END_TEST

/* the same datum as a 2-element data array: deep copy, compare, release */
START_TEST(array_round_trip)
{
    const sample_t *s = &samples[_i];
    size_t esz = wu_data_elem_size(s->type);
    pmix_data_array_t da = {s->type, 2, NULL};
    pmix_value_t v, w;

    ck_assert_uint_gt(esz, 0);
    char *packed = malloc(2 * esz);
    ck_assert_ptr_nonnull(packed);
    for (int k = 0; k < 2; k++) {
        if (PMIX_STRING == s->type || PMIX_POINTER == s->type) {
            memcpy(packed + k * esz, &s->datum, sizeof(void *)); /* elements are the pointers */
        } else {
            memcpy(packed + k * esz, s->datum, esz);
        }
    }
    da.array = packed;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, &da, PMIX_DATA_ARRAY));
    ck_assert_ptr_ne(&da, v.data.darray);
    ck_assert_ptr_ne(packed, v.data.darray->array);
    ck_assert_uint_eq(2, v.data.darray->size);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_xfer(&w, &v));
    ck_assert_int_eq(s->self, PMIx_Value_compare(&v, &w));
    if (PMIX_STRING == s->type) {
        char **a = w.data.darray->array;
        ck_assert_str_eq("hello", a[1]);
        ck_assert_ptr_ne(s->datum, a[1]);
    } else if (U_ALLOC == s->unload && PMIX_DATA_ARRAY != s->type && PMIX_ENVAR != s->type &&
               PMIX_COORD != s->type) {
        check_struct_copy(s->type, (char *)w.data.darray->array + esz, s->datum);
    }
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
    free(packed);
}
END_TEST

/* Types OpenPMIx 4.2 cannot hold in a value: load records the type, the rest refuse. */
static const pmix_data_type_t unsupported[] = {
    PMIX_VALUE,
    PMIX_APP,
    PMIX_INFO,
    PMIX_PDATA,
    26,
    PMIX_KVAL,
    29,
    PMIX_COMMAND,
    PMIX_INFO_DIRECTIVES,
    PMIX_DATA_TYPE,
    PMIX_QUERY,
    44,
    PMIX_IOF_CHANNEL,
    999,
};

START_TEST(unsupported_types)
{
    pmix_value_t v, w;
    uint64_t datum = 0x0102030405060708ULL, out_buf = 0;
    void *out = &out_buf;
    size_t sz = 0;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, &datum, unsupported[_i]));
    ck_assert_uint_eq(unsupported[_i], v.type);
    ck_assert_uint_eq(0, v.data.uint64);
    ck_assert_int_eq(PMIX_ERROR, PMIx_Value_xfer(&w, &v));
    ck_assert_uint_eq(unsupported[_i], w.type);
    ck_assert_int_eq(PMIX_ERROR, PMIx_Value_unload(&v, &out, &sz));
    ck_assert_int_eq(PMIX_VALUE_COMPARISON_NOT_AVAIL, PMIx_Value_compare(&v, &v));
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
}
END_TEST

START_TEST(load_null_data)
{
    pmix_value_t v;

    memset(&v, 0xab, sizeof(v));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, NULL, PMIX_BOOL));
    ck_assert(v.data.flag); /* a bare boolean means true */
    memset(&v, 0xab, sizeof(v));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, NULL, PMIX_INT));
    ck_assert_int_eq(0, v.data.integer);
    memset(&v, 0xab, sizeof(v));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, NULL, PMIX_STRING));
    ck_assert_ptr_null(v.data.string);
    PMIx_Value_destruct(&v);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, NULL, PMIX_DATA_ARRAY));
    ck_assert_ptr_null(v.data.darray);
    PMIx_Value_destruct(&v);
}
END_TEST

START_TEST(bad_params)
{
    pmix_value_t v;
    int x = 1;
    void *out = NULL;
    size_t sz = 0;

    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Value_load(NULL, &x, PMIX_INT));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Value_xfer(NULL, &v));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, &x, PMIX_INT));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Value_xfer(&v, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Value_unload(&v, NULL, &sz));
    /* fixed-size data needs caller storage */
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Value_unload(&v, &out, &sz));
    v.type = PMIX_UNDEF;
    out = &x;
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Value_unload(&v, &out, &sz));
    ck_assert_int_eq(PMIX_VALUE_COMPARISON_NOT_AVAIL, PMIx_Value_compare(NULL, &v));
    PMIx_Value_destruct(NULL);
    PMIx_Data_array_destruct(NULL);
    /* a cpuset from an unknown source cannot be duplicated */
    pmix_cpuset_t cs = {"other", &x};
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, PMIx_Value_load(&v, &cs, PMIX_PROC_CPUSET));
    ck_assert_ptr_null(v.data.cpuset);
    /* an array of an unknown element type */
    pmix_data_array_t da = {999, 1, &x};
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Value_load(&v, &da, PMIX_DATA_ARRAY));
    ck_assert_ptr_null(v.data.darray);
}
END_TEST

START_TEST(string_and_bo_unload_with_null_out)
{
    pmix_value_t v;
    void *out = NULL;
    size_t sz = 1;
    pmix_byte_object_t empty = {NULL, 0};

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, "abc", PMIX_STRING));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_unload(&v, &out, &sz));
    ck_assert_str_eq("abc", out);
    ck_assert_uint_eq(3, sz);
    free(out);
    PMIx_Value_destruct(&v);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, &empty, PMIX_BYTE_OBJECT));
    out = &sz;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_unload(&v, &out, &sz));
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(0, sz);
    PMIx_Value_destruct(&v);
}
END_TEST

/* ---- comparisons, as OpenPMIx 4.2.2 answers them ---- */

typedef struct {
    pmix_data_type_t type;
    const void *a, *b;
    pmix_value_cmp_t want;
} cmp_case_t;

static int c_i[] = {-1, 2};
static int8_t c_i8[] = {-1, 2};
static int64_t c_i64[] = {-1, 2};
static double c_d[] = {1.0, 2.0};
static float c_f[] = {1.0f, 2.0f};
static pmix_status_t c_st[] = {-1, 2};
static uint32_t c_u32[] = {1, 2};
static size_t c_sz[] = {1, 2};
static bool c_b[] = {false, true};
static pmix_rank_t c_r[] = {1, 2};
static struct timeval c_tv[] = {{1, 5}, {2, 1}};
static pmix_byte_object_t c_bo[] = {{"ab", 2}, {"abc", 3}, {"abd", 3}};
static pmix_proc_t c_p[] = {{"ns", 1}, {"ns", 2}, {"nt", 0}};
static pmix_envar_t c_env[] = {{"A", "x", ':'}, {"A", "y", ':'}, {"A", "x", ';'}};
static uint64_t c_pointee[] = {5, 3, 0x100, 1};

static pmix_proc_info_t c_pinfo[] = {{{"ns", 1}, "hostA", "exe", 5, 0, 1},
                                     {{"ns", 1}, "hostB", "exe", 5, 0, 1},
                                     {{"ns", 1}, "hostA", "exe", 9, 0, 1}};
static pmix_geometry_t c_geo[] = {
    {1, "u1", "o1", NULL, 0}, {2, "u1", "o1", NULL, 0}, {1, "u2", "o1", NULL, 0}};
static pmix_device_distance_t c_dd[] = {{"u1", "o1", 2, 1, 5}, {"u1", "o1", 2, 3, 5}};
static pmix_disk_stats_t c_disk[] = {{.disk = "sda", .num_reads_completed = 1},
                                     {.disk = "sda", .num_reads_completed = 2}};

static const cmp_case_t cmp_cases[] = {
    {PMIX_INT, &c_i[0], &c_i[1], PMIX_VALUE1_GREATER}, /* sic: OpenPMIx inverts signed */
    {PMIX_INT, &c_i[1], &c_i[0], PMIX_VALUE2_GREATER},
    {PMIX_INT8, &c_i8[0], &c_i8[1], PMIX_VALUE1_GREATER},
    {PMIX_INT64, &c_i64[0], &c_i64[1], PMIX_VALUE1_GREATER},
    {PMIX_DOUBLE, &c_d[0], &c_d[1], PMIX_VALUE1_GREATER},
    {PMIX_FLOAT, &c_f[0], &c_f[1], PMIX_VALUE1_GREATER},
    {PMIX_STATUS, &c_st[0], &c_st[1], PMIX_VALUE1_GREATER},
    {PMIX_UINT32, &c_u32[0], &c_u32[1], PMIX_VALUE2_GREATER},
    {PMIX_UINT32, &c_u32[1], &c_u32[0], PMIX_VALUE1_GREATER},
    {PMIX_SIZE, &c_sz[0], &c_sz[1], PMIX_VALUE2_GREATER},
    {PMIX_BOOL, &c_b[1], &c_b[0], PMIX_VALUE1_GREATER},
    {PMIX_PROC_RANK, &c_r[0], &c_r[1], PMIX_VALUE2_GREATER},
    {PMIX_TIMEVAL, &c_tv[0], &c_tv[1], PMIX_VALUE2_GREATER},
    {PMIX_TIMEVAL, &c_tv[1], &c_tv[0], PMIX_VALUE1_GREATER},
    {PMIX_STRING, "abc", "abd", PMIX_VALUE2_GREATER},
    {PMIX_STRING, "same", "same", PMIX_EQUAL},
    {PMIX_BYTE_OBJECT, &c_bo[0], &c_bo[1], PMIX_VALUE2_GREATER}, /* shorter first */
    {PMIX_BYTE_OBJECT, &c_bo[1], &c_bo[0], PMIX_VALUE1_GREATER},
    {PMIX_BYTE_OBJECT, &c_bo[2], &c_bo[1], PMIX_VALUE1_GREATER},
    {PMIX_PROC, &c_p[0], &c_p[1], PMIX_VALUE2_GREATER},
    {PMIX_PROC, &c_p[1], &c_p[0], PMIX_VALUE1_GREATER},
    {PMIX_PROC, &c_p[0], &c_p[2], PMIX_VALUE2_GREATER},
    {PMIX_ENVAR, &c_env[0], &c_env[1], PMIX_VALUE2_GREATER},
    {PMIX_ENVAR, &c_env[0], &c_env[2], PMIX_VALUE2_GREATER},
    /* pointers: by the bytes they point to */
    {PMIX_POINTER, &c_pointee[0], &c_pointee[1], PMIX_VALUE1_GREATER},
    {PMIX_POINTER, &c_pointee[2], &c_pointee[3], PMIX_VALUE2_GREATER},
    /* structs: field by field, ascending; other fabrics are incompatible */
    {PMIX_PROC_INFO, &c_pinfo[0], &c_pinfo[1], PMIX_VALUE2_GREATER},
    {PMIX_PROC_INFO, &c_pinfo[2], &c_pinfo[0], PMIX_VALUE1_GREATER},
    {PMIX_GEOMETRY, &c_geo[0], &c_geo[1], PMIX_VALUE_INCOMPATIBLE_OBJECTS},
    {PMIX_GEOMETRY, &c_geo[0], &c_geo[2], PMIX_VALUE2_GREATER},
    {PMIX_DEVICE_DIST, &c_dd[0], &c_dd[1], PMIX_VALUE2_GREATER},
    {PMIX_DISK_STATS, &c_disk[1], &c_disk[0], PMIX_VALUE1_GREATER},
};

START_TEST(compare_cases)
{
    const cmp_case_t *c = &cmp_cases[_i];
    pmix_value_t a, b;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&a, c->a, c->type));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&b, c->b, c->type));
    ck_assert_int_eq(c->want, PMIx_Value_compare(&a, &b));
    PMIx_Value_destruct(&a);
    PMIx_Value_destruct(&b);
}
END_TEST

START_TEST(compare_types_and_arrays)
{
    pmix_value_t a, b;
    int x = 3;
    int32_t y = 3;
    int n2[2] = {0, 0}, n3[3] = {0, 0, 0}, m2[2] = {7, 0};
    pmix_data_array_t d2 = {PMIX_INT, 2, n2}, d3 = {PMIX_INT, 3, n3}, e2 = {PMIX_INT, 2, m2};

    PMIx_Value_load(&a, &x, PMIX_INT);
    PMIx_Value_load(&b, &y, PMIX_INT32);
    ck_assert_int_eq(PMIX_VALUE_TYPE_DIFFERENT, PMIx_Value_compare(&a, &b));
    PMIx_Value_load(&a, &d2, PMIX_DATA_ARRAY);
    PMIx_Value_load(&b, &d3, PMIX_DATA_ARRAY);
    ck_assert_int_eq(PMIX_VALUE2_GREATER, PMIx_Value_compare(&a, &b));
    PMIx_Value_destruct(&b);
    PMIx_Value_load(&b, &e2, PMIX_DATA_ARRAY);
    ck_assert_int_eq(PMIX_VALUE2_GREATER, PMIx_Value_compare(&a, &b)); /* raw bytes */
    ck_assert_int_eq(PMIX_EQUAL, PMIx_Value_compare(&a, &a));
    PMIx_Value_destruct(&a);
    PMIx_Value_destruct(&b);
}
END_TEST

/* ---- deep nesting: everything must be released (LeakSanitizer checks) ---- */

/* An info array whose values hold arrays of values, apps with infos, queries, pdata, nested
 * arrays of strings and node stats, three levels down. */
static void build_nested(pmix_value_t *top, int depth)
{
    pmix_info_t *infos = calloc(4, sizeof(pmix_info_t));
    pmix_value_t *vals = calloc(3, sizeof(pmix_value_t));
    pmix_app_t *apps = calloc(1, sizeof(pmix_app_t));
    pmix_query_t *q = calloc(1, sizeof(pmix_query_t));
    pmix_pdata_t *pd = calloc(1, sizeof(pmix_pdata_t));
    pmix_data_array_t *da = calloc(1, sizeof(pmix_data_array_t));
    char *argv[] = {"a.out", "-x", NULL};

    ck_assert(infos && vals && apps && q && pd && da);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&vals[0], "str", PMIX_STRING));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&vals[1], &s_bo, PMIX_BYTE_OBJECT));
    if (depth > 0) {
        build_nested(&vals[2], depth - 1);
    } else {
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&vals[2], &s_ndstats, PMIX_NODE_STATS));
    }
    pmix_data_array_t vda = {PMIX_VALUE, 3, vals};
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&infos[0], "vals", &vda, PMIX_DATA_ARRAY));
    PMIx_Data_array_destruct(&vda); /* load copied it */
    ck_assert_ptr_null(vda.array);

    apps[0].cmd = strdup("a.out");
    apps[0].argv = calloc(3, sizeof(char *));
    apps[0].argv[0] = strdup(argv[0]);
    apps[0].argv[1] = strdup(argv[1]);
    apps[0].cwd = strdup("/tmp");
    apps[0].info = calloc(1, sizeof(pmix_info_t));
    apps[0].ninfo = 1;
    PMIx_Info_load(&apps[0].info[0], "envar", &s_envar, PMIX_ENVAR);
    pmix_data_array_t ada = {PMIX_APP, 1, apps};
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&infos[1], "apps", &ada, PMIX_DATA_ARRAY));
    PMIx_Data_array_destruct(&ada);

    q->keys = calloc(2, sizeof(char *));
    q->keys[0] = strdup("pmix.qry.nspaces");
    q->qualifiers = calloc(1, sizeof(pmix_info_t));
    q->nqual = 1;
    PMIx_Info_load(&q->qualifiers[0], "qual", &s_geometry, PMIX_GEOMETRY);
    pmix_data_array_t qda = {PMIX_QUERY, 1, q};
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&infos[2], "query", &qda, PMIX_DATA_ARRAY));
    PMIx_Data_array_destruct(&qda);

    pd->proc = s_proc;
    strcpy(pd->key, "pkey");
    PMIx_Value_load(&pd->value, &s_regattr, PMIX_REGATTR);
    da->type = PMIX_PDATA;
    da->size = 1;
    da->array = pd;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&infos[3], "pdata", da, PMIX_DATA_ARRAY));
    PMIx_Data_array_destruct(da);
    free(da);

    pmix_data_array_t ida = {PMIX_INFO, 4, infos};
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(top, &ida, PMIX_DATA_ARRAY));
    PMIx_Data_array_destruct(&ida);
}

START_TEST(destruct_deeply_nested)
{
    pmix_value_t v, w;

    build_nested(&v, 3);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_xfer(&w, &v));
    /* walk the copy three levels down: it is a distinct deep copy */
    pmix_value_t *cur = &w, *orig = &v;
    for (int level = 3; level >= 0; level--) {
        pmix_info_t *ci = cur->data.darray->array, *oi = orig->data.darray->array;
        ck_assert_uint_eq(4, cur->data.darray->size);
        ck_assert_str_eq("vals", ci[0].key);
        pmix_value_t *cv = ci[0].value.data.darray->array, *ov = oi[0].value.data.darray->array;
        ck_assert_str_eq("str", cv[0].data.string);
        ck_assert_ptr_ne(ov[0].data.string, cv[0].data.string);
        pmix_app_t *app = ci[1].value.data.darray->array;
        ck_assert_str_eq("-x", app->argv[1]);
        ck_assert_str_eq("/bin", app->info[0].value.data.envar.value);
        pmix_query_t *q = ci[2].value.data.darray->array;
        ck_assert_str_eq("eth0", q->qualifiers[0].value.data.geometry->osname);
        pmix_pdata_t *pd = ci[3].value.data.darray->array;
        ck_assert_str_eq("pmix.hname", ((pmix_regattr_t *)pd->value.data.ptr)->string);
        if (level > 0) {
            cur = &cv[2];
            orig = &ov[2];
        } else {
            ck_assert_str_eq("sda", cv[2].data.ndstats->diskstats[0].disk);
        }
    }
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
}
END_TEST

START_TEST(data_array_destruct)
{
    pmix_data_array_t *d = calloc(1, sizeof(*d));
    char **strs = calloc(3, sizeof(char *));

    ck_assert(d && strs);
    strs[0] = strdup("a");
    strs[2] = strdup("c"); /* a NULL element in the middle is fine */
    d->type = PMIX_STRING;
    d->size = 3;
    d->array = strs;
    PMIx_Data_array_destruct(d);
    ck_assert_ptr_null(d->array);
    ck_assert_uint_eq(0, d->size);
    PMIx_Data_array_destruct(d); /* twice is harmless */
    free(d);
}
END_TEST

/* ---- printable forms, cpuset/topology release ---- */

START_TEST(value_and_info_strings)
{
    pmix_value_t v;
    pmix_info_t info;
    int five = 5;
    char *out;

    PMIX_VALUE_CONSTRUCT(&v);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_load(&v, &five, PMIX_INT));
    out = PMIx_Value_string(&v);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(" PMIX_VALUE: PMIX_INT 5", out);
    free(out);
    PMIX_INFO_CONSTRUCT(&info);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&info, "pmix.foo", "bar", PMIX_STRING));
    PMIX_INFO_REQUIRED(&info);
    out = PMIx_Info_string(&info);
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(strstr(out, "KEY: pmix.foo"));
    ck_assert_ptr_nonnull(strstr(out, "REQUIRED"));
    ck_assert_ptr_nonnull(strstr(out, "PMIX_STRING bar"));
    free(out);
    PMIX_INFO_DESTRUCT(&info);
    ck_assert_ptr_null(PMIx_Value_string(NULL));
    ck_assert_ptr_null(PMIx_Info_string(NULL));
}
END_TEST

START_TEST(cpuset_and_topology_destruct)
{
    pmix_cpuset_t cs;
    pmix_topology_t topo;
    hwloc_topology_t t;

    PMIX_CPUSET_CONSTRUCT(&cs);
    cs.source = strdup("hwloc"); /* owned by the struct, as PMIx_Get_cpuset gives it */
    cs.bitmap = hwloc_bitmap_alloc();
    hwloc_bitmap_set(cs.bitmap, 3);
    PMIx_Cpuset_destruct(&cs); /* LeakSanitizer fails the test if the bitmap is not freed */
    ck_assert_ptr_null(cs.bitmap);

    ck_assert_int_eq(0, hwloc_topology_init(&t));
    ck_assert_int_eq(0, hwloc_topology_set_synthetic(t, "pack:1 core:2 pu:1"));
    ck_assert_int_eq(0, hwloc_topology_load(t));
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    topo.source = strdup("hwloc");
    topo.topology = t;
    PMIx_Topology_destruct(&topo);
    ck_assert_ptr_null(topo.topology);
    PMIx_Cpuset_destruct(NULL);
    PMIx_Topology_destruct(NULL);
}
END_TEST

static Suite *pmix_value_suite(void)
{
    Suite *s = suite_create("pmix_value");
    TCase *tc = tcase_create("types");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, setup_covers_table);
    tcase_add_loop_test(tc, round_trip, 0, NSAMPLES);
    tcase_add_loop_test(tc, array_round_trip, 0, NSAMPLES);
    tcase_add_loop_test(tc, unsupported_types, 0, (int)WU_NELEMS(unsupported));
    tcase_add_test(tc, load_null_data);
    tcase_add_test(tc, bad_params);
    tcase_add_test(tc, string_and_bo_unload_with_null_out);
    suite_add_tcase(s, tc);

    tc = tcase_create("compare");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, compare_cases, 0, (int)WU_NELEMS(cmp_cases));
    tcase_add_test(tc, compare_types_and_arrays);
    suite_add_tcase(s, tc);

    tc = tcase_create("print_and_release");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, value_and_info_strings);
    tcase_add_test(tc, cpuset_and_topology_destruct);
    suite_add_tcase(s, tc);

    tc = tcase_create("destruct");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, destruct_deeply_nested);
    tcase_add_test(tc, data_array_destruct);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_value_suite)
