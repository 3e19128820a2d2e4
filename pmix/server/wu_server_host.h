/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_host.h -- what the server library tells a host embedded in the same program (the rte
 * of wrun and wired) beyond the PMIx server module.
 *
 * The Standard's module has no upcall for a client that disconnects without PMIx_Finalize, yet
 * that moment matters to a launcher: when one process's death makes its peers fail at once (their
 * fence fails and they exit), the kernel may finish reaping a peer before the process that died
 * first, so exit order alone cannot say who failed first. The server sees the connection end
 * when the dying process closes its files, before its peers can react, and reports it here.
 * Nor has it one for the pids of processes on other nodes, which a proc table lists. */
#ifndef WU_SERVER_HOST_H
#define WU_SERVER_HOST_H

#include "opal/util/wu_macros.h"
#include "pmix_common.h"

#include <stdbool.h>
#include <sys/types.h>

/* Called on the server's progress thread when a connected client's connection ends without
 * PMIx_Finalize; server_object is the one given to PMIx_server_register_client. */
typedef void (*wu_server_lost_fn_t)(const pmix_proc_t *proc, void *server_object);

/* Install the hook (NULL removes it). Call before PMIx_server_init. */
WU_EXPORT void wu_server_set_lost_hook(wu_server_lost_fn_t fn);

/* The host's knowledge of the pid of a rank that is not a client of this server (it runs on
 * another node): 0 when it does not know. Called on the server's thread by the proc-table
 * queries (PMIX_QUERY_PROC_TABLE); must not block. */
typedef pid_t (*wu_server_pid_fn_t)(const char *nspace, pmix_rank_t rank);
/* Install the hook (NULL removes it). Call before PMIx_server_init. */
WU_EXPORT void wu_server_set_pid_hook(wu_server_pid_fn_t fn);

/* A PMIx_Connect or PMIx_Disconnect whose participants are not all clients of this server,
 * when the host is Wireup's own runtime (wrun, wired), which carries data the Standard's connect
 * upcall cannot: the local participants' committed data, local_blob in the local scope and
 * remote_blob in the remote one (wu_proto.h blob format; empty for a disconnect). The host
 * completes the operation over every participant, makes the namespaces of the others known to
 * the server (PMIx_server_register_nspace) and then calls cbfunc with a blob of the other
 * participants' data that this node's clients may see (or an error). Called on the server's
 * thread; returns PMIX_SUCCESS when cbfunc will be called. Without this hook the server uses the
 * host module's connect / disconnect upcalls, without data. */
typedef pmix_status_t (*wu_server_connect_fn_t)(bool disconnect, const pmix_proc_t procs[],
                                                size_t nprocs, const pmix_info_t info[],
                                                size_t ninfo, const char *local_blob, size_t nlocal,
                                                const char *remote_blob, size_t nremote,
                                                pmix_modex_cbfunc_t cbfunc, void *cbdata);
/* Install the hook (NULL removes it). Call before PMIx_server_init. */
WU_EXPORT void wu_server_set_connect_hook(wu_server_connect_fn_t fn);
/* The host's secret that every server of its job shares (at least 16 bytes): psec derives its
 * credential keys from it, so that a credential one server issued validates at any of them.
 * Before the job's processes ask for credentials. PMIX_ERR_NOT_SUPPORTED if psec's mode has no
 * such keys. */
WU_EXPORT pmix_status_t wu_server_set_cred_secret(const unsigned char *secret, size_t n);

/* The server's session directory (PMIX_SERVER_TMPDIR of its clients), NULL when the server is
 * not running. Set by PMIx_server_init and constant until PMIx_server_finalize: any thread. */
WU_EXPORT const char *wu_server_session_dir(void);

/* What the processes of nspace (size ranks) are blocked in, as far as the server can see: one
 * line per open fence ("ranks 0-2 in a fence (PMIx_Fence) that rank 3 has not reached") and per
 * waiting PMIx_Get, appended to *lines (wu_argv_free). For a launcher's --timeout report. Any
 * thread but the server's; waits at most a few seconds. WU_SUCCESS, WU_ERR_NOT_FOUND (server not
 * running), WU_ERR_TIMEOUT, WU_ERR_NOMEM. */
WU_EXPORT int wu_server_blocked_report(const char *nspace, uint32_t size, char ***lines);

#endif
