/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_self.h -- the server process's own PMIx_Store_internal and PMIx_Get
 * (wu_server_self.c), for a host that is not also a client. */
#ifndef WU_SERVER_SELF_H
#define WU_SERVER_SELF_H

#include "pmix_common.h"

#include <stdbool.h>

/* Between PMIx_server_init and PMIx_server_finalize. */
bool wu_server_self_active(void);
/* Keep val (copied) as proc's key in the server's data; an empty namespace is the server's. */
pmix_status_t wu_server_self_store(const pmix_proc_t *proc, const char *key,
                                   const pmix_value_t *val);
/* A copy of proc's key as this node holds it; PMIX_ERR_NOT_FOUND if it does not. */
pmix_status_t wu_server_self_get(const pmix_proc_t *proc, const char *key, pmix_value_t **val);
/* The same, answered to cbfunc from the server's progress thread (val is released after it). */
pmix_status_t wu_server_self_get_nb(const pmix_proc_t *proc, const char *key,
                                    pmix_value_cbfunc_t cbfunc, void *cbdata);

#endif
