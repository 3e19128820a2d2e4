/* SPDX-License-Identifier: BSD-3-Clause */
/* pnet.h -- the pnet framework: what the network must know or prepare before a job starts.
 *
 * Two moments of a launch involve it. At the head, PMIx_server_setup_application asks every
 * active module's setup_app what the job's processes will need (the node's interfaces, a port
 * range reserved for the job, a per-job key, ...). Each answer is a list of job-level infos; the
 * server concatenates them, hands them to the host, and the host adds them to the job's
 * registration, so a client Gets them at PMIX_RANK_WILDCARD. On every node, before forking the
 * local processes, PMIx_server_setup_local_support gives the same infos to every module's
 * setup_local, which checks them and keeps what the local processes need; PMIx_server_setup_fork
 * then adds each module's fork_env to every child's environment. forget drops what a module
 * kept for a job once the job is deregistered (its reserved ports become free again).
 *
 * The framework is select_all: every willing component is active (PMIX_MCA_pnet chooses, e.g.
 * "tcp" or "none"), called in priority order. A module with nothing to add returns WU_SUCCESS
 * with no infos, or WU_ERR_TAKE_NEXT to pass; any other error fails the whole setup. Keys are
 * in Wireup's namespace ("wu.pnet.<comp>.<what>"), never "pmix*" (those are the Standard's).
 * Modules run in the server's progress thread, except fork_env (the host's thread: modules
 * guard what they share with it). Every function pointer may be NULL. */
#ifndef WU_PNET_H
#define WU_PNET_H

#include "mca/base/wu_mca.h"
#include "pmix_common.h"

#include <stddef.h>

#define WU_pnet_VERSION 1u

/* What pnet/tcp adds to a job (PMIX_STRING values; docs/pnet.md) and the environment variables
 * its local processes get with the same values. */
#define WU_PNET_TCP_IFACES     "wu.pnet.tcp.ifaces" /* "name=addr/prefix,...", launch node's */
#define WU_PNET_TCP_PORTS      "wu.pnet.tcp.ports"  /* "lo-hi", only when a port pool is set */
#define WU_PNET_TCP_KEY        "wu.pnet.tcp.key"    /* 32 hex digits, random per job */
#define WU_PNET_TCP_IFACES_ENV "WU_PNET_TCP_IFACES"
#define WU_PNET_TCP_PORTS_ENV  "WU_PNET_TCP_PORTS"
#define WU_PNET_TCP_KEY_ENV    "WU_PNET_TCP_KEY"

typedef struct wu_pnet_module {
    /* Head: the job-level infos nspace's processes need, given the infos the host passed to
     * setup_application. *out is created with PMIX_INFO_CREATE (the base frees it); leave it
     * NULL with *nout 0 to add nothing. */
    int (*setup_app)(const char *nspace, const pmix_info_t *info, size_t ninfo, pmix_info_t **out,
                     size_t *nout);
    /* Node: check and keep what this module's setup_app produced (info is everything the host
     * got back from setup_application, possibly with more of its own job data). */
    int (*setup_local)(const char *nspace, const pmix_info_t *info, size_t ninfo);
    /* Node, host's thread: what one local process of nspace gets in its environment, appended
     * to *vars as "NAME=value" strings (wu_argv_append); the base sets them. */
    int (*fork_env)(const char *nspace, char ***vars);
    /* The job is gone: release what was kept or reserved for it. */
    void (*forget)(const char *nspace);
} wu_pnet_module_t;

extern wu_mca_framework_t wu_mca_pnet_framework;

int wu_pnet_base_open(void);
void wu_pnet_base_close(void);
/* Every module's setup_app, concatenated in *out (PMIX_INFO_CREATE'd; NULL when empty). On an
 * error nothing is returned and what modules reserved for nspace is released. */
int wu_pnet_base_setup_app(const char *nspace, const pmix_info_t *info, size_t ninfo,
                           pmix_info_t **out, size_t *nout);
int wu_pnet_base_setup_local(const char *nspace, const pmix_info_t *info, size_t ninfo);
/* Set every module's fork_env variables for a process of nspace in *env. */
int wu_pnet_base_setup_fork(const char *nspace, char ***env);
void wu_pnet_base_forget(const char *nspace);

#endif
