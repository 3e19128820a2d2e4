/* SPDX-License-Identifier: BSD-3-Clause */
/* check_abi_layout.c -- the PMIx 4.2 ABI of pmix_common.h's types: size and alignment of every
 * public type and the offset and size of every struct member (each pmix_value_t union member
 * too) must equal OpenPMIx 4.2.2's on x86_64. The numbers are literals measured once from the
 * installed OpenPMIx headers (/usr/lib/x86_64-linux-gnu/pmix2/include) with a probe program; a
 * layout change in our header fails here. */
#include "pmix_common.h"
#include "opal/util/wu_macros.h"
#include "test/support/wu_test.h"

#include <stddef.h>

typedef struct {
    const char *what;
    size_t got, want;
} abi_fact_t;

/* clang-format off */
/* Type t: its size and alignment. */
#define WU_SIZE(t, size, align) \
    {#t " size", sizeof(t), (size)}, {#t " align", _Alignof(t), (align)}
/* Member f of struct t: its offset and size. */
#define WU_FIELD(t, f, off, size) \
    {#t "." #f " offset", offsetof(t, f), (off)}, {#t "." #f " size", sizeof(((t *)0)->f), (size)}
/* clang-format on */

static const abi_fact_t facts[] = {
    WU_SIZE(pmix_status_t, 4, 4),
    WU_SIZE(pmix_rank_t, 4, 4),
    WU_SIZE(pmix_data_type_t, 2, 2),
    WU_SIZE(pmix_nspace_t, 256, 1),
    WU_SIZE(pmix_key_t, 512, 1),
    WU_SIZE(pmix_proc_state_t, 1, 1),
    WU_SIZE(pmix_job_state_t, 1, 1),
    WU_SIZE(pmix_scope_t, 1, 1),
    WU_SIZE(pmix_data_range_t, 1, 1),
    WU_SIZE(pmix_persistence_t, 1, 1),
    WU_SIZE(pmix_info_directives_t, 4, 4),
    WU_SIZE(pmix_alloc_directive_t, 1, 1),
    WU_SIZE(pmix_iof_channel_t, 2, 2),
    WU_SIZE(pmix_storage_medium_t, 8, 8),
    WU_SIZE(pmix_storage_accessibility_t, 8, 8),
    WU_SIZE(pmix_storage_persistence_t, 8, 8),
    WU_SIZE(pmix_storage_access_type_t, 2, 2),
    WU_SIZE(pmix_coord_view_t, 1, 1),
    WU_SIZE(pmix_link_state_t, 1, 1),
    WU_SIZE(pmix_bind_envelope_t, 1, 1),
    WU_SIZE(pmix_locality_t, 2, 2),
    WU_SIZE(pmix_device_type_t, 8, 8),
    WU_SIZE(pmix_value_cmp_t, 4, 4),
    WU_SIZE(pmix_group_opt_t, 4, 4),
    WU_SIZE(pmix_group_operation_t, 4, 4),
    WU_SIZE(pmix_boolean_t, 4, 4),
    WU_SIZE(pmix_fabric_operation_t, 4, 4),
    /* structs, each followed by its members */
    WU_SIZE(pmix_coord_t, 24, 8),
    WU_FIELD(pmix_coord_t, view, 0, 1),
    WU_FIELD(pmix_coord_t, coord, 8, 8),
    WU_FIELD(pmix_coord_t, dims, 16, 8),
    WU_SIZE(pmix_cpuset_t, 16, 8),
    WU_FIELD(pmix_cpuset_t, source, 0, 8),
    WU_FIELD(pmix_cpuset_t, bitmap, 8, 8),
    WU_SIZE(pmix_topology_t, 16, 8),
    WU_FIELD(pmix_topology_t, source, 0, 8),
    WU_FIELD(pmix_topology_t, topology, 8, 8),
    WU_SIZE(pmix_geometry_t, 40, 8),
    WU_FIELD(pmix_geometry_t, fabric, 0, 8),
    WU_FIELD(pmix_geometry_t, uuid, 8, 8),
    WU_FIELD(pmix_geometry_t, osname, 16, 8),
    WU_FIELD(pmix_geometry_t, coordinates, 24, 8),
    WU_FIELD(pmix_geometry_t, ncoords, 32, 8),
    WU_SIZE(pmix_device_distance_t, 32, 8),
    WU_FIELD(pmix_device_distance_t, uuid, 0, 8),
    WU_FIELD(pmix_device_distance_t, osname, 8, 8),
    WU_FIELD(pmix_device_distance_t, type, 16, 8),
    WU_FIELD(pmix_device_distance_t, mindist, 24, 2),
    WU_FIELD(pmix_device_distance_t, maxdist, 26, 2),
    WU_SIZE(pmix_byte_object_t, 16, 8),
    WU_FIELD(pmix_byte_object_t, bytes, 0, 8),
    WU_FIELD(pmix_byte_object_t, size, 8, 8),
    WU_SIZE(pmix_endpoint_t, 32, 8),
    WU_FIELD(pmix_endpoint_t, uuid, 0, 8),
    WU_FIELD(pmix_endpoint_t, osname, 8, 8),
    WU_FIELD(pmix_endpoint_t, endpt, 16, 16),
    WU_SIZE(pmix_envar_t, 24, 8),
    WU_FIELD(pmix_envar_t, envar, 0, 8),
    WU_FIELD(pmix_envar_t, value, 8, 8),
    WU_FIELD(pmix_envar_t, separator, 16, 1),
    WU_SIZE(pmix_proc_t, 260, 4),
    WU_FIELD(pmix_proc_t, nspace, 0, 256),
    WU_FIELD(pmix_proc_t, rank, 256, 4),
    WU_SIZE(pmix_proc_info_t, 296, 8),
    WU_FIELD(pmix_proc_info_t, proc, 0, 260),
    WU_FIELD(pmix_proc_info_t, hostname, 264, 8),
    WU_FIELD(pmix_proc_info_t, executable_name, 272, 8),
    WU_FIELD(pmix_proc_info_t, pid, 280, 4),
    WU_FIELD(pmix_proc_info_t, exit_code, 284, 4),
    WU_FIELD(pmix_proc_info_t, state, 288, 1),
    WU_SIZE(pmix_data_array_t, 24, 8),
    WU_FIELD(pmix_data_array_t, type, 0, 2),
    WU_FIELD(pmix_data_array_t, size, 8, 8),
    WU_FIELD(pmix_data_array_t, array, 16, 8),
    WU_SIZE(pmix_data_buffer_t, 40, 8),
    WU_FIELD(pmix_data_buffer_t, base_ptr, 0, 8),
    WU_FIELD(pmix_data_buffer_t, pack_ptr, 8, 8),
    WU_FIELD(pmix_data_buffer_t, unpack_ptr, 16, 8),
    WU_FIELD(pmix_data_buffer_t, bytes_allocated, 24, 8),
    WU_FIELD(pmix_data_buffer_t, bytes_used, 32, 8),
    WU_SIZE(pmix_proc_stats_t, 352, 8),
    WU_FIELD(pmix_proc_stats_t, node, 0, 8),
    WU_FIELD(pmix_proc_stats_t, proc, 8, 260),
    WU_FIELD(pmix_proc_stats_t, pid, 268, 4),
    WU_FIELD(pmix_proc_stats_t, cmd, 272, 8),
    WU_FIELD(pmix_proc_stats_t, state, 280, 1),
    WU_FIELD(pmix_proc_stats_t, time, 288, 16),
    WU_FIELD(pmix_proc_stats_t, percent_cpu, 304, 4),
    WU_FIELD(pmix_proc_stats_t, priority, 308, 4),
    WU_FIELD(pmix_proc_stats_t, num_threads, 312, 2),
    WU_FIELD(pmix_proc_stats_t, pss, 316, 4),
    WU_FIELD(pmix_proc_stats_t, vsize, 320, 4),
    WU_FIELD(pmix_proc_stats_t, rss, 324, 4),
    WU_FIELD(pmix_proc_stats_t, peak_vsize, 328, 4),
    WU_FIELD(pmix_proc_stats_t, processor, 332, 2),
    WU_FIELD(pmix_proc_stats_t, sample_time, 336, 16),
    WU_SIZE(pmix_disk_stats_t, 96, 8),
    WU_FIELD(pmix_disk_stats_t, disk, 0, 8),
    WU_FIELD(pmix_disk_stats_t, num_reads_completed, 8, 8),
    WU_FIELD(pmix_disk_stats_t, num_reads_merged, 16, 8),
    WU_FIELD(pmix_disk_stats_t, num_sectors_read, 24, 8),
    WU_FIELD(pmix_disk_stats_t, milliseconds_reading, 32, 8),
    WU_FIELD(pmix_disk_stats_t, num_writes_completed, 40, 8),
    WU_FIELD(pmix_disk_stats_t, num_writes_merged, 48, 8),
    WU_FIELD(pmix_disk_stats_t, num_sectors_written, 56, 8),
    WU_FIELD(pmix_disk_stats_t, milliseconds_writing, 64, 8),
    WU_FIELD(pmix_disk_stats_t, num_ios_in_progress, 72, 8),
    WU_FIELD(pmix_disk_stats_t, milliseconds_io, 80, 8),
    WU_FIELD(pmix_disk_stats_t, weighted_milliseconds_io, 88, 8),
    WU_SIZE(pmix_net_stats_t, 56, 8),
    WU_FIELD(pmix_net_stats_t, net_interface, 0, 8),
    WU_FIELD(pmix_net_stats_t, num_bytes_recvd, 8, 8),
    WU_FIELD(pmix_net_stats_t, num_packets_recvd, 16, 8),
    WU_FIELD(pmix_net_stats_t, num_recv_errs, 24, 8),
    WU_FIELD(pmix_net_stats_t, num_bytes_sent, 32, 8),
    WU_FIELD(pmix_net_stats_t, num_packets_sent, 40, 8),
    WU_FIELD(pmix_net_stats_t, num_send_errs, 48, 8),
    WU_SIZE(pmix_node_stats_t, 104, 8),
    WU_FIELD(pmix_node_stats_t, node, 0, 8),
    WU_FIELD(pmix_node_stats_t, la, 8, 4),
    WU_FIELD(pmix_node_stats_t, la5, 12, 4),
    WU_FIELD(pmix_node_stats_t, la15, 16, 4),
    WU_FIELD(pmix_node_stats_t, total_mem, 20, 4),
    WU_FIELD(pmix_node_stats_t, free_mem, 24, 4),
    WU_FIELD(pmix_node_stats_t, buffers, 28, 4),
    WU_FIELD(pmix_node_stats_t, cached, 32, 4),
    WU_FIELD(pmix_node_stats_t, swap_cached, 36, 4),
    WU_FIELD(pmix_node_stats_t, swap_total, 40, 4),
    WU_FIELD(pmix_node_stats_t, swap_free, 44, 4),
    WU_FIELD(pmix_node_stats_t, mapped, 48, 4),
    WU_FIELD(pmix_node_stats_t, sample_time, 56, 16),
    WU_FIELD(pmix_node_stats_t, diskstats, 72, 8),
    WU_FIELD(pmix_node_stats_t, ndiskstats, 80, 8),
    WU_FIELD(pmix_node_stats_t, netstats, 88, 8),
    WU_FIELD(pmix_node_stats_t, nnetstats, 96, 8),
    WU_SIZE(pmix_value_t, 32, 8),
    WU_FIELD(pmix_value_t, type, 0, 2),
    WU_FIELD(pmix_value_t, data, 8, 24),
    WU_FIELD(pmix_value_t, data.flag, 8, 1),
    WU_FIELD(pmix_value_t, data.byte, 8, 1),
    WU_FIELD(pmix_value_t, data.string, 8, 8),
    WU_FIELD(pmix_value_t, data.size, 8, 8),
    WU_FIELD(pmix_value_t, data.pid, 8, 4),
    WU_FIELD(pmix_value_t, data.integer, 8, 4),
    WU_FIELD(pmix_value_t, data.int8, 8, 1),
    WU_FIELD(pmix_value_t, data.int16, 8, 2),
    WU_FIELD(pmix_value_t, data.int32, 8, 4),
    WU_FIELD(pmix_value_t, data.int64, 8, 8),
    WU_FIELD(pmix_value_t, data.uint, 8, 4),
    WU_FIELD(pmix_value_t, data.uint8, 8, 1),
    WU_FIELD(pmix_value_t, data.uint16, 8, 2),
    WU_FIELD(pmix_value_t, data.uint32, 8, 4),
    WU_FIELD(pmix_value_t, data.uint64, 8, 8),
    WU_FIELD(pmix_value_t, data.fval, 8, 4),
    WU_FIELD(pmix_value_t, data.dval, 8, 8),
    WU_FIELD(pmix_value_t, data.tv, 8, 16),
    WU_FIELD(pmix_value_t, data.time, 8, 8),
    WU_FIELD(pmix_value_t, data.status, 8, 4),
    WU_FIELD(pmix_value_t, data.rank, 8, 4),
    WU_FIELD(pmix_value_t, data.nspace, 8, 8),
    WU_FIELD(pmix_value_t, data.proc, 8, 8),
    WU_FIELD(pmix_value_t, data.bo, 8, 16),
    WU_FIELD(pmix_value_t, data.persist, 8, 1),
    WU_FIELD(pmix_value_t, data.scope, 8, 1),
    WU_FIELD(pmix_value_t, data.range, 8, 1),
    WU_FIELD(pmix_value_t, data.state, 8, 1),
    WU_FIELD(pmix_value_t, data.pinfo, 8, 8),
    WU_FIELD(pmix_value_t, data.darray, 8, 8),
    WU_FIELD(pmix_value_t, data.ptr, 8, 8),
    WU_FIELD(pmix_value_t, data.adir, 8, 1),
    WU_FIELD(pmix_value_t, data.envar, 8, 24),
    WU_FIELD(pmix_value_t, data.coord, 8, 8),
    WU_FIELD(pmix_value_t, data.linkstate, 8, 1),
    WU_FIELD(pmix_value_t, data.jstate, 8, 1),
    WU_FIELD(pmix_value_t, data.topo, 8, 8),
    WU_FIELD(pmix_value_t, data.cpuset, 8, 8),
    WU_FIELD(pmix_value_t, data.locality, 8, 2),
    WU_FIELD(pmix_value_t, data.geometry, 8, 8),
    WU_FIELD(pmix_value_t, data.devtype, 8, 8),
    WU_FIELD(pmix_value_t, data.devdist, 8, 8),
    WU_FIELD(pmix_value_t, data.endpoint, 8, 8),
    WU_FIELD(pmix_value_t, data.dbuf, 8, 8),
    WU_FIELD(pmix_value_t, data.pstats, 8, 8),
    WU_FIELD(pmix_value_t, data.dkstats, 8, 8),
    WU_FIELD(pmix_value_t, data.netstats, 8, 8),
    WU_FIELD(pmix_value_t, data.ndstats, 8, 8),
    WU_SIZE(pmix_info_t, 552, 8),
    WU_FIELD(pmix_info_t, key, 0, 512),
    WU_FIELD(pmix_info_t, flags, 512, 4),
    WU_FIELD(pmix_info_t, value, 520, 32),
    WU_SIZE(pmix_pdata_t, 808, 8),
    WU_FIELD(pmix_pdata_t, proc, 0, 260),
    WU_FIELD(pmix_pdata_t, key, 260, 512),
    WU_FIELD(pmix_pdata_t, value, 776, 32),
    WU_SIZE(pmix_app_t, 56, 8),
    WU_FIELD(pmix_app_t, cmd, 0, 8),
    WU_FIELD(pmix_app_t, argv, 8, 8),
    WU_FIELD(pmix_app_t, env, 16, 8),
    WU_FIELD(pmix_app_t, cwd, 24, 8),
    WU_FIELD(pmix_app_t, maxprocs, 32, 4),
    WU_FIELD(pmix_app_t, info, 40, 8),
    WU_FIELD(pmix_app_t, ninfo, 48, 8),
    WU_SIZE(pmix_query_t, 24, 8),
    WU_FIELD(pmix_query_t, keys, 0, 8),
    WU_FIELD(pmix_query_t, qualifiers, 8, 8),
    WU_FIELD(pmix_query_t, nqual, 16, 8),
    WU_SIZE(pmix_regattr_t, 536, 8),
    WU_FIELD(pmix_regattr_t, name, 0, 8),
    WU_FIELD(pmix_regattr_t, string, 8, 512),
    WU_FIELD(pmix_regattr_t, type, 520, 2),
    WU_FIELD(pmix_regattr_t, description, 528, 8),
    WU_SIZE(pmix_fabric_t, 40, 8),
    WU_FIELD(pmix_fabric_t, name, 0, 8),
    WU_FIELD(pmix_fabric_t, index, 8, 8),
    WU_FIELD(pmix_fabric_t, info, 16, 8),
    WU_FIELD(pmix_fabric_t, ninfo, 24, 8),
    WU_FIELD(pmix_fabric_t, module, 32, 8),
};

START_TEST(layout_matches_pmix_4_2)
{
    ck_assert_msg(facts[_i].got == facts[_i].want, "%s: %zu, OpenPMIx 4.2 has %zu", facts[_i].what,
                  facts[_i].got, facts[_i].want);
}
END_TEST

/* The table really covers the types the brief names (a guard against an accidentally cut table). */
START_TEST(table_is_complete)
{
    static const char *const required[] = {
        "pmix_proc_t size",     "pmix_value_t.data size",      "pmix_info_t.value offset",
        "pmix_pdata_t size",    "pmix_app_t.ninfo offset",     "pmix_query_t size",
        "pmix_envar_t size",    "pmix_regattr_t size",         "pmix_node_stats_t size",
        "pmix_fabric_t size",   "pmix_data_buffer_t size",     "pmix_proc_info_t.state offset",
        "pmix_endpoint_t size", "pmix_device_distance_t size", "pmix_geometry_t size",
    };
    for (size_t r = 0; r < WU_NELEMS(required); r++) {
        bool found = false;
        for (size_t i = 0; i < WU_NELEMS(facts) && !found; i++) {
            found = 0 == strcmp(facts[i].what, required[r]);
        }
        ck_assert_msg(found, "no layout fact for %s", required[r]);
    }
    ck_assert_uint_ge(WU_NELEMS(facts), 400);
}
END_TEST

static Suite *abi_layout_suite(void)
{
    Suite *s = suite_create("abi_layout");
    TCase *tc = tcase_create("layout");

    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, layout_matches_pmix_4_2, 0, (int)WU_NELEMS(facts));
    tcase_add_test(tc, table_is_complete);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(abi_layout_suite)
