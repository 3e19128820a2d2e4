/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_self.h -- the server process's own data, for a process that is a server but not a client
 * (a host such as Open MPI's mpirun): PMIx_Store_internal, PMIx_Get and PMIx_Get_nb (client
 * layer) use the server's data through these hooks, which the server sets while it runs
 * (wu_server_self.c). The layers stay apart: the client does not know the server. */
#ifndef WU_SELF_H
#define WU_SELF_H

#include "pmix_common.h"

typedef struct wu_self_hooks {
    /* Keep val (copied) as proc's key; an empty namespace is the server's own. */
    pmix_status_t (*store)(const pmix_proc_t *proc, const char *key, const pmix_value_t *val);
    /* A copy of proc's key as this node holds it; PMIX_ERR_NOT_FOUND if it does not. An empty
     * namespace (rank PMIX_RANK_UNDEF) is the server itself; key NULL: all of proc's data, as a
     * PMIX_DATA_ARRAY of PMIX_INFO. */
    pmix_status_t (*get)(const pmix_proc_t *proc, const char *key, pmix_value_t **val);
    /* The same, answered to cbfunc from the server's thread. */
    pmix_status_t (*get_nb)(const pmix_proc_t *proc, const char *key, pmix_value_cbfunc_t cbfunc,
                            void *cbdata);
} wu_self_hooks_t;

/* Set (NULL: none) by the server between PMIx_server_init and PMIx_server_finalize. */
void wu_self_hooks_set(const wu_self_hooks_t *hooks);
/* The hooks, or NULL when no server runs in this process. */
const wu_self_hooks_t *wu_self_hooks(void);

#endif
