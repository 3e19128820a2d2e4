/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_tool.h -- the PMIx tool API of Wireup, compatible with OpenPMIx 4.2.
 *
 * A tool (debugger, job monitor, launcher front end) is a PMIx process that was not started by
 * the server it talks to: it attaches to one or more servers, may forward its stdin to a job and
 * may pull the output of a job's processes. The client API of pmix.h is available to tools too.
 */
#ifndef PMIx_TOOL_API_H
#define PMIx_TOOL_API_H

#include "pmix.h"
#include "pmix_server.h" /* pmix_server_module_t, for PMIx_tool_set_server_module */

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Receives output of source on channel for the handler iofhdlr; payload and info are valid
 * during the call only. */
typedef void (*pmix_iof_cbfunc_t)(size_t iofhdlr, pmix_iof_channel_t channel, pmix_proc_t *source,
                                  pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo);

/* Initialise as a tool and fill *proc with the tool's identity; info says whether and to
 * which server to connect (PMIX_SERVER_URI, PMIX_SERVER_PIDINFO, PMIX_TOOL_DO_NOT_CONNECT...). */
PMIX_EXPORT pmix_status_t PMIx_tool_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);

/* Disconnect from every server and release the tool library. */
PMIX_EXPORT pmix_status_t PMIx_tool_finalize(void);

/* Connect to one more server described by info; *server receives its identity and *myproc
 * the tool's identity (both may be NULL). */
PMIX_EXPORT pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server,
                                                     pmix_info_t info[], size_t ninfo);

/* Drop the connection to server. */
PMIX_EXPORT pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server);

/* List the servers the tool is connected to; *servers is malloc'd, owned by the caller. */
PMIX_EXPORT pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers[], size_t *nservers);

/* Make server (already attached) the one the tool's requests go to. */
PMIX_EXPORT pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server, pmix_info_t info[],
                                               size_t ninfo);

/* Older name of PMIx_tool_attach_to_server without the server argument (deprecated; also
 * declared by pmix_deprecated.h). */
PMIX_EXPORT pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc, pmix_info_t info[],
                                                      size_t ninfo);

/* Ask for the output channels of procs to be delivered to cbfunc. The handler's reference
 * is reported through regcbfunc. */
PMIX_EXPORT pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                                        pmix_hdlr_reg_cbfunc_t regcbfunc, void *regcbdata);

/* Stop the output delivery registered as iofhdlr. */
PMIX_EXPORT pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[],
                                              size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Send bo to the stdin of targets (NULL bo: forward this process's stdin, per directives). */
PMIX_EXPORT pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets,
                                        pmix_byte_object_t *bo, const pmix_info_t directives[],
                                        size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* PMIx 5: true while the tool is connected to a server. */
PMIX_EXPORT bool PMIx_tool_is_connected(void);

/* PMIx 5: a tool that also serves clients of its own hands over the upcalls its server side
 * makes (as PMIx_server_init does for a server). */
PMIX_EXPORT pmix_status_t PMIx_tool_set_server_module(pmix_server_module_t *module);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_TOOL_API_H */
