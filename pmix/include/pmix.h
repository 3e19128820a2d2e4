/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix.h -- the PMIx client API of Wireup, source and binary compatible with OpenPMIx 4.2 and 5.0.
 *
 * Every function here is exported by libpmix.so.2 under the same name and signature as in
 * OpenPMIx 5.0.7 (a superset of 4.2.2's), so a program compiled against any of these header
 * sets runs on either library generation's ABI. pmix_wu_api5.h, included at the end, declares
 * the functions PMIx 5 added.
 * Types, constants and the PMIX_EXPORT marker come from pmix_common.h.
 *
 * Conventions shared by all calls below:
 * - Blocking calls return a pmix_status_t; PMIX_SUCCESS means the operation completed.
 * - A non-blocking call (suffix _nb) returns PMIX_SUCCESS when the request was accepted, and
 *   then reports the result exactly once through its callback. Any other return value means
 *   the request was refused and the callback will NOT be called. PMIX_OPERATION_SUCCEEDED
 *   means it completed at once, also without a callback.
 * - Input arrays (info[], procs[]) stay owned by the caller and are not kept after return (for
 *   _nb calls: after the callback), unless a function says otherwise.
 * - Output the library allocates (pmix_value_t **, pmix_info_t **, char **) belongs to the
 *   caller, who releases it with the matching PMIX_*_FREE/RELEASE macro or free().
 * - A function Wireup does not support yet returns PMIX_ERR_NOT_SUPPORTED (see
 *   docs/api-status.md).
 */
#ifndef PMIx_H
#define PMIx_H

#include "pmix_common.h"

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Life cycle                                                                                 */

/* Connect this process to its local PMIx server (or start as a singleton when there is none)
 * and fill *proc with its namespace and rank. May be called more than once; each successful
 * call must be matched by one PMIx_Finalize. info may hold PMIX_* init directives. */
PMIX_EXPORT pmix_status_t PMIx_Init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);

/* Undo one PMIx_Init; the last one disconnects from the server. info may carry directives such
 * as PMIX_EMBED_BARRIER. */
PMIX_EXPORT pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo);

/* Non-zero while the client library is initialised, 0 otherwise. */
PMIX_EXPORT int PMIx_Initialized(void);

/* Ask the host to terminate procs (all of this job when procs is NULL) with exit status
 * status, logging msg. Returns once the request was delivered. */
PMIX_EXPORT pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[],
                                     size_t nprocs);

/* ------------------------------------------------------------------------------------------ */
/* Key-value exchange                                                                         */

/* Stage key=val for peers within scope; val is copied. Visible to others after PMIx_Commit
 * (and, for remote peers, after a fence or a direct-modex request). */
PMIX_EXPORT pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val);

/* Hand every value staged by PMIx_Put to the local server. */
PMIX_EXPORT pmix_status_t PMIx_Commit(void);

/* Block until every process in procs (NULL: the whole namespace) has called the fence;
 * info may request data collection (PMIX_COLLECT_DATA) or a PMIX_TIMEOUT. */
PMIX_EXPORT pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs,
                                     const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Fence: cbfunc(status, cbdata) runs when the fence completes. */
PMIX_EXPORT pmix_status_t PMIx_Fence_nb(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t info[], size_t ninfo,
                                        pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Retrieve the value of key as posted by proc (or job-level data with rank WILDCARD). On
 * success *val is one malloc'd pmix_value_t owned by the caller (PMIX_VALUE_RELEASE). */
PMIX_EXPORT pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[],
                                   const pmix_info_t info[], size_t ninfo, pmix_value_t **val);

/* Non-blocking PMIx_Get: the value passed to cbfunc is valid only during the callback. */
PMIX_EXPORT pmix_status_t PMIx_Get_nb(const pmix_proc_t *proc, const char key[],
                                      const pmix_info_t info[], size_t ninfo,
                                      pmix_value_cbfunc_t cbfunc, void *cbdata);

/* Store key=val for proc in this process's own cache only; nothing is sent to the server. */
PMIX_EXPORT pmix_status_t PMIx_Store_internal(const pmix_proc_t *proc, const char key[],
                                              pmix_value_t *val);

/* ------------------------------------------------------------------------------------------ */
/* Publish / lookup (a name service kept by the host)                                         */

/* Publish the key/value pairs of info in the host's data store. */
PMIX_EXPORT pmix_status_t PMIx_Publish(const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Publish. */
PMIX_EXPORT pmix_status_t PMIx_Publish_nb(const pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Look up the keys named in data[i].key; found values and publishers are filled in place. */
PMIX_EXPORT pmix_status_t PMIx_Lookup(pmix_pdata_t data[], size_t ndata, const pmix_info_t info[],
                                      size_t ninfo);

/* Non-blocking lookup of the NULL-terminated keys array. */
PMIX_EXPORT pmix_status_t PMIx_Lookup_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                         pmix_lookup_cbfunc_t cbfunc, void *cbdata);

/* Withdraw the published keys (NULL: everything this process published). */
PMIX_EXPORT pmix_status_t PMIx_Unpublish(char **keys, const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Unpublish. */
PMIX_EXPORT pmix_status_t PMIx_Unpublish_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                            pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ------------------------------------------------------------------------------------------ */
/* Dynamic processes                                                                          */

/* Start the applications in apps as a new job; on success nspace receives its namespace. */
PMIX_EXPORT pmix_status_t PMIx_Spawn(const pmix_info_t job_info[], size_t ninfo,
                                     const pmix_app_t apps[], size_t napps, pmix_nspace_t nspace);

/* Non-blocking PMIx_Spawn: cbfunc receives the status and the new namespace. */
PMIX_EXPORT pmix_status_t PMIx_Spawn_nb(const pmix_info_t job_info[], size_t ninfo,
                                        const pmix_app_t apps[], size_t napps,
                                        pmix_spawn_cbfunc_t cbfunc, void *cbdata);

/* Collectively connect procs so they may exchange data and events. */
PMIX_EXPORT pmix_status_t PMIx_Connect(const pmix_proc_t procs[], size_t nprocs,
                                       const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Connect. */
PMIX_EXPORT pmix_status_t PMIx_Connect_nb(const pmix_proc_t procs[], size_t nprocs,
                                          const pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Collectively undo a PMIx_Connect among procs. */
PMIX_EXPORT pmix_status_t PMIx_Disconnect(const pmix_proc_t procs[], size_t nprocs,
                                          const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Disconnect. */
PMIX_EXPORT pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t ranges[], size_t nprocs,
                                             const pmix_info_t info[], size_t ninfo,
                                             pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ------------------------------------------------------------------------------------------ */
/* Job layout                                                                                 */

/* Return in *procs (malloc'd, caller frees with PMIX_PROC_FREE) the procs of nspace (every
 * namespace when empty/NULL) that run on nodename (this node when NULL). */
PMIX_EXPORT pmix_status_t PMIx_Resolve_peers(const char *nodename, const pmix_nspace_t nspace,
                                             pmix_proc_t **procs, size_t *nprocs);

/* Return in *nodelist a malloc'd comma-separated list of the nodes hosting nspace. */
PMIX_EXPORT pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char **nodelist);

/* ------------------------------------------------------------------------------------------ */
/* Queries, logging, resource management                                                      */

/* Answer the queries; *results is a malloc'd array the caller frees with PMIX_INFO_FREE. */
PMIX_EXPORT pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries,
                                          pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Query_info. */
PMIX_EXPORT pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries,
                                             pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Send data to the logging channels named in data/directives (stdout, syslog, ...). */
PMIX_EXPORT pmix_status_t PMIx_Log(const pmix_info_t data[], size_t ndata,
                                   const pmix_info_t directives[], size_t ndirs);

/* Non-blocking PMIx_Log. */
PMIX_EXPORT pmix_status_t PMIx_Log_nb(const pmix_info_t data[], size_t ndata,
                                      const pmix_info_t directives[], size_t ndirs,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Ask the resource manager to grow, shrink or extend this job's allocation. */
PMIX_EXPORT pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t directive,
                                                  pmix_info_t *info, size_t ninfo,
                                                  pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Allocation_request. */
PMIX_EXPORT pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t directive,
                                                     pmix_info_t *info, size_t ninfo,
                                                     pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Apply directives (kill, signal, cleanup registration, ...) to targets. */
PMIX_EXPORT pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets,
                                           const pmix_info_t directives[], size_t ndirs,
                                           pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Job_control. */
PMIX_EXPORT pmix_status_t PMIx_Job_control_nb(const pmix_proc_t targets[], size_t ntargets,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Ask the host to watch this process (heartbeats, file activity) and raise error on failure. */
PMIX_EXPORT pmix_status_t PMIx_Process_monitor(const pmix_info_t *monitor, pmix_status_t error,
                                               const pmix_info_t directives[], size_t ndirs,
                                               pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Process_monitor. */
PMIX_EXPORT pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t *monitor, pmix_status_t error,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Send one heartbeat to a monitor set up with PMIX_SEND_HEARTBEAT. */
#define PMIx_Heartbeat()                                                                \
    do {                                                                                \
        pmix_info_t wu_hb_info_;                                                        \
        PMIX_INFO_CONSTRUCT(&wu_hb_info_);                                              \
        PMIX_INFO_LOAD(&wu_hb_info_, PMIX_SEND_HEARTBEAT, NULL, PMIX_POINTER);          \
        (void)PMIx_Process_monitor_nb(&wu_hb_info_, PMIX_SUCCESS, NULL, 0, NULL, NULL); \
        PMIX_INFO_DESTRUCT(&wu_hb_info_);                                               \
    } while (0)

/* ------------------------------------------------------------------------------------------ */
/* Security credentials                                                                       */

/* Obtain a credential for this process; credential->bytes is malloc'd, owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_Get_credential(const pmix_info_t info[], size_t ninfo,
                                              pmix_byte_object_t *credential);

/* Non-blocking PMIx_Get_credential. */
PMIX_EXPORT pmix_status_t PMIx_Get_credential_nb(const pmix_info_t info[], size_t ninfo,
                                                 pmix_credential_cbfunc_t cbfunc, void *cbdata);

/* Check a credential obtained by some process; results may describe its owner. */
PMIX_EXPORT pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t *cred,
                                                   const pmix_info_t info[], size_t ninfo,
                                                   pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Validate_credential. */
PMIX_EXPORT pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t *cred,
                                                      const pmix_info_t info[], size_t ninfo,
                                                      pmix_validation_cbfunc_t cbfunc,
                                                      void *cbdata);

/* ------------------------------------------------------------------------------------------ */
/* Process groups                                                                             */

/* Collectively create the group grp out of procs. */
PMIX_EXPORT pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[],
                                               size_t nprocs, const pmix_info_t directives[],
                                               size_t ndirs, pmix_info_t **results,
                                               size_t *nresults);

/* Non-blocking PMIx_Group_construct. */
PMIX_EXPORT pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[],
                                                  size_t nprocs, const pmix_info_t info[],
                                                  size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                                  void *cbdata);

/* Invite procs to join the group grp led by the caller. */
PMIX_EXPORT pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[],
                                            size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                            pmix_info_t **results, size_t *nresult);

/* Non-blocking PMIx_Group_invite. */
PMIX_EXPORT pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[],
                                               size_t nprocs, const pmix_info_t info[],
                                               size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                               void *cbdata);

/* Accept or decline (opt) an invitation from leader to join grp. */
PMIX_EXPORT pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t *leader,
                                          pmix_group_opt_t opt, const pmix_info_t info[],
                                          size_t ninfo, pmix_info_t **results, size_t *nresult);

/* Non-blocking PMIx_Group_join. */
PMIX_EXPORT pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t *leader,
                                             pmix_group_opt_t opt, const pmix_info_t info[],
                                             size_t ninfo, pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Leave the group grp. */
PMIX_EXPORT pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[],
                                           size_t ninfo);

/* Non-blocking PMIx_Group_leave. */
PMIX_EXPORT pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[],
                                              size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Collectively dissolve the group grp. */
PMIX_EXPORT pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[],
                                              size_t ninfo);

/* Non-blocking PMIx_Group_destruct. */
PMIX_EXPORT pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[],
                                                 size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                 void *cbdata);

/* ------------------------------------------------------------------------------------------ */
/* Events                                                                                     */

/* Register evhdlr for the status codes in codes (all codes when NULL). The handler's
 * reference is reported through cbfunc, or returned directly when cbfunc is NULL. */
PMIX_EXPORT pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes,
                                                      pmix_info_t info[], size_t ninfo,
                                                      pmix_notification_fn_t evhdlr,
                                                      pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata);

/* Remove the handler registered under evhdlr_ref. */
PMIX_EXPORT pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc,
                                                        void *cbdata);

/* Raise event status, as seen from source, to the processes within range. */
PMIX_EXPORT pmix_status_t PMIx_Notify_event(pmix_status_t status, const pmix_proc_t *source,
                                            pmix_data_range_t range, const pmix_info_t info[],
                                            size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ------------------------------------------------------------------------------------------ */
/* Fabric and topology                                                                        */

/* Obtain a handle on the fabric described by directives (cost and distance information). */
PMIX_EXPORT pmix_status_t PMIx_Fabric_register(pmix_fabric_t *fabric,
                                               const pmix_info_t directives[], size_t ndirs);

/* Non-blocking PMIx_Fabric_register. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t *fabric,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Refresh the information held in fabric. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_update(pmix_fabric_t *fabric);

/* Non-blocking PMIx_Fabric_update. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc,
                                                void *cbdata);

/* Release a fabric handle. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t *fabric);

/* Non-blocking PMIx_Fabric_deregister. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc,
                                                    void *cbdata);

/* Distances from cpuset to the devices of topo; *distances is malloc'd, owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_Compute_distances(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                                 pmix_info_t info[], size_t ninfo,
                                                 pmix_device_distance_t *distances[],
                                                 size_t *ndist);

/* Non-blocking PMIx_Compute_distances. */
PMIX_EXPORT pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                                    pmix_info_t info[], size_t ninfo,
                                                    pmix_device_dist_cbfunc_t cbfunc, void *cbdata);

/* Fill topo with this node's topology (shared with the server when possible). */
PMIX_EXPORT pmix_status_t PMIx_Load_topology(pmix_topology_t *topo);

/* Release what PMIx_Load_topology put in topo (not topo itself). */
PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo);

/* Parse a cpuset string (as PMIX_CPUSET carries it) into cpuset. */
PMIX_EXPORT pmix_status_t PMIx_Parse_cpuset_string(const char *cpuset_string,
                                                   pmix_cpuset_t *cpuset);

/* Fill cpuset with the binding of this process or thread (ref). */
PMIX_EXPORT pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t *cpuset, pmix_bind_envelope_t ref);

/* Release what cpuset holds (not cpuset itself). */
PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset);

/* Compute the relative locality of two PMIX_LOCALITY_STRING values. */
PMIX_EXPORT pmix_status_t PMIx_Get_relative_locality(const char *locality1, const char *locality2,
                                                     pmix_locality_t *locality);

/* Give the library's internal progress a chance to run (Wireup progresses on its own
 * thread; this returns at once). */
PMIX_EXPORT void PMIx_Progress(void);

/* ------------------------------------------------------------------------------------------ */
/* Names of values. Returned const strings are static; char * results are malloc'd.          */

PMIX_EXPORT const char *PMIx_Error_string(pmix_status_t status);
PMIX_EXPORT const char *PMIx_Proc_state_string(pmix_proc_state_t state);
PMIX_EXPORT const char *PMIx_Scope_string(pmix_scope_t scope);
PMIX_EXPORT const char *PMIx_Persistence_string(pmix_persistence_t persist);
PMIX_EXPORT const char *PMIx_Data_range_string(pmix_data_range_t range);
PMIX_EXPORT const char *PMIx_Data_type_string(pmix_data_type_t type);
PMIX_EXPORT const char *PMIx_Alloc_directive_string(pmix_alloc_directive_t directive);
PMIX_EXPORT const char *PMIx_IOF_channel_string(pmix_iof_channel_t channel);
PMIX_EXPORT const char *PMIx_Job_state_string(pmix_job_state_t state);
/* The macro name (e.g. "PMIX_JOB_SIZE") of an attribute key string, or NULL if unknown. */
PMIX_EXPORT const char *PMIx_Get_attribute_string(const char *attribute);
/* The key string of an attribute macro name: the inverse of PMIx_Get_attribute_string. */
PMIX_EXPORT const char *PMIx_Get_attribute_name(const char *attrstring);
PMIX_EXPORT const char *PMIx_Link_state_string(pmix_link_state_t state);
PMIX_EXPORT const char *PMIx_Device_type_string(pmix_device_type_t type);
PMIX_EXPORT const char *PMIx_Value_comparison_string(pmix_value_cmp_t cmp);
/* Printable forms of an info, a value and a directives mask; free() the result. */
PMIX_EXPORT char *PMIx_Info_string(const pmix_info_t *info);
PMIX_EXPORT char *PMIx_Value_string(const pmix_value_t *value);
PMIX_EXPORT char *PMIx_Info_directives_string(pmix_info_directives_t directives);

/* Identity of the library: "OpenPMIx <version> (...)". Static string. */
PMIX_EXPORT const char *PMIx_Get_version(void);

/* ------------------------------------------------------------------------------------------ */
/* Data buffers: type-tagged serialization for host and tool messages                        */

/* Append num_vals items of type from src to buffer, packed for target (NULL: this library's
 * own format). */
PMIX_EXPORT pmix_status_t PMIx_Data_pack(const pmix_proc_t *target, pmix_data_buffer_t *buffer,
                                         void *src, int32_t num_vals, pmix_data_type_t type);

/* Take up to *max_num_values items of type from buffer into dest; *max_num_values is set to the
 * number actually unpacked. */
PMIX_EXPORT pmix_status_t PMIx_Data_unpack(const pmix_proc_t *source, pmix_data_buffer_t *buffer,
                                           void *dest, int32_t *max_num_values,
                                           pmix_data_type_t type);

/* Deep-copy one item of type; *dest is malloc'd and owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_Data_copy(void **dest, void *src, pmix_data_type_t type);

/* Printable form of one item of type; *output is malloc'd and owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_Data_print(char **output, char *prefix, void *src,
                                          pmix_data_type_t type);

/* Append the unread part of src to dest. */
PMIX_EXPORT pmix_status_t PMIx_Data_copy_payload(pmix_data_buffer_t *dest, pmix_data_buffer_t *src);

/* Move the unread part of buffer into payload (the caller owns payload->bytes). */
PMIX_EXPORT pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload);

/* Give payload's bytes to buffer; payload is emptied. */
PMIX_EXPORT pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload);

/* Copy payload's bytes into buffer; payload is left untouched. */
PMIX_EXPORT pmix_status_t PMIx_Data_embed(pmix_data_buffer_t *buffer,
                                          const pmix_byte_object_t *payload);

/* Compress / decompress size bytes; true on success with *outbytes malloc'd. */
PMIX_EXPORT bool PMIx_Data_compress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                    size_t *nbytes);
PMIX_EXPORT bool PMIx_Data_decompress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                      size_t *nbytes);

/* ------------------------------------------------------------------------------------------ */
/* Value and info helpers (the PMIX_VALUE_* and PMIX_INFO_* macros call these)               */

/* Copy data of type into val (strings and nested structures are duplicated). */
PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data,
                                          pmix_data_type_t type);

/* Copy the content of val out to a malloc'd *data of *sz bytes. */
PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz);

/* Free whatever val points to and reset it to PMIX_UNDEF (val itself is not freed). */
PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val);

/* Deep-copy src into dest. */
PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src);

/* Compare two values of the same type. */
PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1, pmix_value_t *v2);

/* Free the elements of d->array and the array itself (d itself is not freed). */
PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d);

/* Set info->key to key and load data of type into info->value. */
PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data,
                                         pmix_data_type_t type);

/* Deep-copy src into dest, flags included. */
PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src);

/* Info lists: build an info array one element at a time. PMIx_Info_list_start returns an
 * opaque handle (NULL on memory exhaustion) that add/insert/xfer append to, convert turns
 * into a pmix_data_array_t of PMIX_INFO owned by the caller, and release frees. */
PMIX_EXPORT void *PMIx_Info_list_start(void);
PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value,
                                             pmix_data_type_t type);
/* Append info itself (not a copy); the list takes ownership of its content. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info);
/* Append a copy of info. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info);
PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par);
PMIX_EXPORT void PMIx_Info_list_release(void *ptr);
/* PMIx 5: add a copy of key/value at the front; walk the list (see pmix_deprecated.h). */
PMIX_EXPORT pmix_status_t PMIx_Info_list_prepend(void *ptr, const char *key, const void *value,
                                                 pmix_data_type_t type);
PMIX_EXPORT pmix_info_t *PMIx_Info_list_get_info(void *ptr, void *prev, void **next);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

/* The functions the PMIx 5 API adds: struct life cycles, argv, checks, strings, sessions. */
#include "pmix_wu_api5.h"

#endif /* PMIx_H */
