/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_server.h -- the PMIx server API of Wireup, compatible with OpenPMIx 4.2.
 *
 * A host (resource manager daemon, launcher) embeds the PMIx server: it hands the library a
 * table of upcalls (pmix_server_module_t), registers the jobs and clients it starts, and the
 * library serves the clients' requests, calling the host for whatever needs the host's help
 * (collectives across nodes, spawning, publishing, ...).
 *
 * Upcall contract: an upcall returns PMIX_SUCCESS when it accepted the request and will call
 * the supplied cbfunc exactly once later; PMIX_OPERATION_SUCCEEDED when it completed at once
 * (cbfunc is not called); any error when it refused (cbfunc is not called). A NULL entry in the
 * module means the host does not support that operation.
 */
#ifndef PMIx_SERVER_API_H
#define PMIx_SERVER_API_H

#include "pmix_common.h"

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Upcalls the host provides                                                                  */

/* A client of a registered namespace connected (server_object is what the host passed to
 * PMIx_server_register_client). */
typedef pmix_status_t (*pmix_server_client_connected_fn_t)(const pmix_proc_t *proc,
                                                           void *server_object,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

/* As client_connected, with the directives the client passed to PMIx_Init. */
typedef pmix_status_t (*pmix_server_client_connected2_fn_t)(const pmix_proc_t *proc,
                                                            void *server_object, pmix_info_t info[],
                                                            size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                            void *cbdata);

/* A client called PMIx_Finalize. */
typedef pmix_status_t (*pmix_server_client_finalized_fn_t)(const pmix_proc_t *proc,
                                                           void *server_object,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

/* A client called PMIx_Abort: terminate procs (NULL: its whole job) with status. */
typedef pmix_status_t (*pmix_server_abort_fn_t)(const pmix_proc_t *proc, void *server_object,
                                                int status, const char msg[], pmix_proc_t procs[],
                                                size_t nprocs, pmix_op_cbfunc_t cbfunc,
                                                void *cbdata);

/* All local participants of a fence arrived: the host completes the fence across nodes,
 * exchanging data (ndata bytes, self-delimiting and concatenable) and returns everybody's data
 * through cbfunc. */
typedef pmix_status_t (*pmix_server_fencenb_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  char *data, size_t ndata,
                                                  pmix_modex_cbfunc_t cbfunc, void *cbdata);

/* A local client asked for data of proc, which lives on another node: the host fetches it
 * (with PMIx_server_dmodex_request on that node) and returns it through cbfunc. */
typedef pmix_status_t (*pmix_server_dmodex_req_fn_t)(const pmix_proc_t *proc,
                                                     const pmix_info_t info[], size_t ninfo,
                                                     pmix_modex_cbfunc_t cbfunc, void *cbdata);

/* Publish / lookup / unpublish on behalf of client proc. */
typedef pmix_status_t (*pmix_server_publish_fn_t)(const pmix_proc_t *proc, const pmix_info_t info[],
                                                  size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                  void *cbdata);
typedef pmix_status_t (*pmix_server_lookup_fn_t)(const pmix_proc_t *proc, char **keys,
                                                 const pmix_info_t info[], size_t ninfo,
                                                 pmix_lookup_cbfunc_t cbfunc, void *cbdata);
typedef pmix_status_t (*pmix_server_unpublish_fn_t)(const pmix_proc_t *proc, char **keys,
                                                    const pmix_info_t info[], size_t ninfo,
                                                    pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Start a new job for client proc. */
typedef pmix_status_t (*pmix_server_spawn_fn_t)(const pmix_proc_t *proc,
                                                const pmix_info_t job_info[], size_t ninfo,
                                                const pmix_app_t apps[], size_t napps,
                                                pmix_spawn_cbfunc_t cbfunc, void *cbdata);

/* Connect / disconnect procs across nodes. */
typedef pmix_status_t (*pmix_server_connect_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);
typedef pmix_status_t (*pmix_server_disconnect_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                                     const pmix_info_t info[], size_t ninfo,
                                                     pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Clients want (or no longer want) to hear about the events in codes. */
typedef pmix_status_t (*pmix_server_register_events_fn_t)(pmix_status_t *codes, size_t ncodes,
                                                          const pmix_info_t info[], size_t ninfo,
                                                          pmix_op_cbfunc_t cbfunc, void *cbdata);
typedef pmix_status_t (*pmix_server_deregister_events_fn_t)(pmix_status_t *codes, size_t ncodes,
                                                            pmix_op_cbfunc_t cbfunc, void *cbdata);

/* A client raised an event that must travel beyond this node. */
typedef pmix_status_t (*pmix_server_notify_event_fn_t)(pmix_status_t code,
                                                       const pmix_proc_t *source,
                                                       pmix_data_range_t range, pmix_info_t info[],
                                                       size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                       void *cbdata);

/* Called by a host listener with each accepted socket. */
typedef void (*pmix_connection_cbfunc_t)(int incoming_sd, void *cbdata);

/* The host offers to run the accept loop on listening_sd itself. */
typedef pmix_status_t (*pmix_server_listener_fn_t)(int listening_sd,
                                                   pmix_connection_cbfunc_t cbfunc, void *cbdata);

/* Answer queries the library cannot answer from its own data. */
typedef pmix_status_t (*pmix_server_query_fn_t)(pmix_proc_t *proct, pmix_query_t *queries,
                                                size_t nqueries, pmix_info_cbfunc_t cbfunc,
                                                void *cbdata);

/* The host's answer to a tool connection: status and the identity assigned to the tool. */
typedef void (*pmix_tool_connection_cbfunc_t)(pmix_status_t status, pmix_proc_t *proc,
                                              void *cbdata);

/* A tool connected: the host assigns it an identity and reports through cbfunc. */
typedef void (*pmix_server_tool_connection_fn_t)(pmix_info_t *info, size_t ninfo,
                                                 pmix_tool_connection_cbfunc_t cbfunc,
                                                 void *cbdata);

/* Log data for client on the channels the host manages. */
typedef void (*pmix_server_log_fn_t)(const pmix_proc_t *client, const pmix_info_t data[],
                                     size_t ndata, const pmix_info_t directives[], size_t ndirs,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Change client's allocation. */
typedef pmix_status_t (*pmix_server_alloc_fn_t)(const pmix_proc_t *client,
                                                pmix_alloc_directive_t directive,
                                                const pmix_info_t data[], size_t ndata,
                                                pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Apply job-control directives from requestor to targets. */
typedef pmix_status_t (*pmix_server_job_control_fn_t)(const pmix_proc_t *requestor,
                                                      const pmix_proc_t targets[], size_t ntargets,
                                                      const pmix_info_t directives[], size_t ndirs,
                                                      pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Monitor requestor as described by monitor, raising error when it fails. */
typedef pmix_status_t (*pmix_server_monitor_fn_t)(const pmix_proc_t *requestor,
                                                  const pmix_info_t *monitor, pmix_status_t error,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Issue / check a credential on behalf of proc. */
typedef pmix_status_t (*pmix_server_get_cred_fn_t)(const pmix_proc_t *proc,
                                                   const pmix_info_t directives[], size_t ndirs,
                                                   pmix_credential_cbfunc_t cbfunc, void *cbdata);
typedef pmix_status_t (*pmix_server_validate_cred_fn_t)(
    const pmix_proc_t *proc, const pmix_byte_object_t *cred, const pmix_info_t directives[],
    size_t ndirs, pmix_validation_cbfunc_t cbfunc, void *cbdata);

/* Forward the output channels of procs (on other nodes) to this server. */
typedef pmix_status_t (*pmix_server_iof_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_iof_channel_t channels, pmix_op_cbfunc_t cbfunc,
                                              void *cbdata);

/* Deliver bo (stdin data from source; an empty bo means end of input) to targets. */
typedef pmix_status_t (*pmix_server_stdin_fn_t)(const pmix_proc_t *source,
                                                const pmix_proc_t targets[], size_t ntargets,
                                                const pmix_info_t directives[], size_t ndirs,
                                                const pmix_byte_object_t *bo,
                                                pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Complete a group construct/destruct (op) across nodes. */
typedef pmix_status_t (*pmix_server_grp_fn_t)(pmix_group_operation_t op, char grp[],
                                              const pmix_proc_t procs[], size_t nprocs,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Perform a fabric operation (op) for requestor. */
typedef pmix_status_t (*pmix_server_fabric_fn_t)(const pmix_proc_t *requestor,
                                                 pmix_fabric_operation_t op,
                                                 const pmix_info_t directives[], size_t ndirs,
                                                 pmix_info_cbfunc_t cbfunc, void *cbdata);

/* PMIx 5: carry out a session control request (pause, resume, terminate, ... session sessionID)
 * that requestor made with PMIx_Session_control. */
typedef pmix_status_t (*pmix_server_session_control_fn_t)(const pmix_proc_t *requestor,
                                                          uint32_t sessionID,
                                                          const pmix_info_t directives[],
                                                          size_t ndirs, pmix_info_cbfunc_t cbfunc,
                                                          void *cbdata);

/* The host's upcall table. PMIx 4.x laid out the first 28 pointers (224 bytes on LP64); PMIx 5
 * appended session_control. The order is part of the ABI and never changes. A host compiled
 * against 4.x headers passes the shorter table, and nothing tells the library which one it got:
 * so the library reads only the 28 members of 4.x (PMIx_server_init), never session_control. */
typedef struct pmix_server_module_4_0_0_t {
    pmix_server_client_connected_fn_t client_connected; /* deprecated by client_connected2 */
    pmix_server_client_finalized_fn_t client_finalized;
    pmix_server_abort_fn_t abort;
    pmix_server_fencenb_fn_t fence_nb;
    pmix_server_dmodex_req_fn_t direct_modex;
    pmix_server_publish_fn_t publish;
    pmix_server_lookup_fn_t lookup;
    pmix_server_unpublish_fn_t unpublish;
    pmix_server_spawn_fn_t spawn;
    pmix_server_connect_fn_t connect;
    pmix_server_disconnect_fn_t disconnect;
    pmix_server_register_events_fn_t register_events;
    pmix_server_deregister_events_fn_t deregister_events;
    pmix_server_listener_fn_t listener;
    pmix_server_notify_event_fn_t notify_event;
    pmix_server_query_fn_t query;
    pmix_server_tool_connection_fn_t tool_connected;
    pmix_server_log_fn_t log;
    pmix_server_alloc_fn_t allocate;
    pmix_server_job_control_fn_t job_control;
    pmix_server_monitor_fn_t monitor;
    pmix_server_get_cred_fn_t get_credential;
    pmix_server_validate_cred_fn_t validate_credential;
    pmix_server_iof_fn_t iof_pull;
    pmix_server_stdin_fn_t push_stdin;
    pmix_server_grp_fn_t group;
    pmix_server_fabric_fn_t fabric;
    pmix_server_client_connected2_fn_t client_connected2;
    pmix_server_session_control_fn_t session_control; /* PMIx 5; never read by the library */
} pmix_server_module_t;

/* ------------------------------------------------------------------------------------------ */
/* Callbacks of server API calls                                                              */

/* Result of PMIx_server_dmodex_request: the data blob of the proc (valid during the call). */
typedef void (*pmix_dmodex_response_fn_t)(pmix_status_t status, char *data, size_t sz,
                                          void *cbdata);

/* Result of PMIx_server_setup_application: info to pass to PMIx_server_setup_local_support on
 * every node. The receiver calls cbfunc(provided_cbdata) when done with info. */
typedef void (*pmix_setup_application_cbfunc_t)(pmix_status_t status, pmix_info_t info[],
                                                size_t ninfo, void *provided_cbdata,
                                                pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ------------------------------------------------------------------------------------------ */
/* Server API                                                                                 */

/* Start the server side of the library with the host's upcalls (module is copied; NULL means
 * no upcalls) and directives (session directory, tool support, ...). */
PMIX_EXPORT pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[],
                                           size_t ninfo);

/* Stop serving, drop every client and release all server state. */
PMIX_EXPORT pmix_status_t PMIx_server_finalize(void);

/* Encode a comma-separated list (of node names) into a compact string for PMIX_NODE_MAP;
 * *regex is malloc'd and owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_generate_regex(const char *input, char **regex);

/* Encode the per-node rank lists (";" between nodes, "," between ranks) for PMIX_PROC_MAP;
 * *ppn is malloc'd and owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_generate_ppn(const char *input, char **ppn);

/* Describe the job nspace (nlocalprocs of its procs run here) with the job-level, node-level
 * and proc-level data in info. cbfunc reports completion. */
PMIX_EXPORT pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs,
                                                      pmix_info_t info[], size_t ninfo,
                                                      pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Forget nspace and all its data; cbfunc (may be NULL) reports completion. */
PMIX_EXPORT void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc,
                                               void *cbdata);

/* Allow proc, running as uid/gid, to connect; server_object is handed back in upcalls. */
PMIX_EXPORT pmix_status_t PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid, gid_t gid,
                                                      void *server_object, pmix_op_cbfunc_t cbfunc,
                                                      void *cbdata);

/* Forget proc; cbfunc (may be NULL) reports completion. */
PMIX_EXPORT void PMIx_server_deregister_client(const pmix_proc_t *proc, pmix_op_cbfunc_t cbfunc,
                                               void *cbdata);

/* Add to *env (an argv-style array the caller owns) what a child needs to find this server
 * as proc. */
PMIX_EXPORT pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env);

/* Collect the data committed by local client proc for a remote server (direct modex);
 * cbfunc receives it, waiting until proc has committed. */
PMIX_EXPORT pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc,
                                                     pmix_dmodex_response_fn_t cbfunc,
                                                     void *cbdata);

/* Gather what the fabric and other subsystems need before nspace is launched. */
PMIX_EXPORT pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace,
                                                        pmix_info_t info[], size_t ninfo,
                                                        pmix_setup_application_cbfunc_t cbfunc,
                                                        void *cbdata);

/* Apply, on a node, the information produced by PMIx_server_setup_application. */
PMIX_EXPORT pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace,
                                                          pmix_info_t info[], size_t ninfo,
                                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Deliver output bo of source on channel to the tools and clients that asked for it. */
PMIX_EXPORT pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source,
                                                  pmix_iof_channel_t channel,
                                                  const pmix_byte_object_t *bo,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Collect this node's resource inventory. */
PMIX_EXPORT pmix_status_t PMIx_server_collect_inventory(pmix_info_t directives[], size_t ndirs,
                                                        pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Hand an inventory (from PMIx_server_collect_inventory on some node) to this library. */
PMIX_EXPORT pmix_status_t PMIx_server_deliver_inventory(pmix_info_t info[], size_t ninfo,
                                                        pmix_info_t directives[], size_t ndirs,
                                                        pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Declare the attributes the host supports for the API function named function. */
PMIX_EXPORT pmix_status_t PMIx_Register_attributes(char *function, char *attrs[]);

/* Locality string (PMIX_LOCALITY_STRING) of cpuset; *locality is malloc'd. */
PMIX_EXPORT pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t *cpuset,
                                                               char **locality);

/* String form of cpuset (PMIX_CPUSET); *cpuset_string is malloc'd. */
PMIX_EXPORT pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t *cpuset,
                                                             char **cpuset_string);

/* Define / delete the named process set. */
PMIX_EXPORT pmix_status_t PMIx_server_define_process_set(const pmix_proc_t *members,
                                                         size_t nmembers, const char *pset_name);
PMIX_EXPORT pmix_status_t PMIx_server_delete_process_set(char *pset_name);

/* Add / remove resources (nodes, devices) known to the library. */
PMIX_EXPORT pmix_status_t PMIx_server_register_resources(pmix_info_t info[], size_t ninfo,
                                                         pmix_op_cbfunc_t cbfunc, void *cbdata);
PMIX_EXPORT pmix_status_t PMIx_server_deregister_resources(pmix_info_t info[], size_t ninfo,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_SERVER_API_H */
