/* SPDX-License-Identifier: BSD-3-Clause */
/* srv_test.h -- shared fixture of the server suites (see srv_test.c). */
#ifndef SRV_TEST_H
#define SRV_TEST_H

#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "test/support/wu_test.h"

#include "pmix.h"
#include "pmix_server.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define TMO 10.0
#define NS  "check-server-job"

/* the test host */
extern int server_object_tag; /* its address is the server_object of every client */
extern _Atomic int n_connected, n_finalized, n_bad_object, n_fence_nb, n_dmodex;
extern bool host_refuse_connect; /* client_connected refuses */
extern bool host_hold_fence;     /* fence_nb keeps its callback in held_fence_cb(data) */
/* fence_nb answers inside the upcall, direct_modex from another thread, both holding a lock
 * their release function takes (Slurm's way); n_released counts releases, n_release_deadlock
 * those called while the lock was held (inside the host's call) */
extern bool host_inline;
extern _Atomic int n_released, n_release_deadlock;
extern pmix_modex_cbfunc_t held_fence_cb;
extern void *held_fence_cbdata;
extern pmix_server_module_t host;
/* a blob with "rk" = 4242 for NS rank 1 (a proc on another node); *data is malloc'd */
void remote_blob(char **data, size_t *ndata);
extern int host_late_from; /* remote_blob adds "late" from this direct modex on (0: never) */
extern char host_required_key[PMIX_MAX_KEYLEN + 1]; /* of the last direct modex, or "" */

/* raw protocol clients */
extern wu_progress_t *cpt; /* the clients' progress thread */
extern char uri[512];      /* the server's URI, from setup_fork */
extern char cli_cred[128]; /* the credential cli_connect sends: setup_fork's token, or "" */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    wu_ptl_conn_t *conn;
    uint32_t next_tag;
    uint32_t got_tag[16];
    wu_buffer_t got[16];
    int ngot;
    bool closed;
} cli_t;

void cli_open(cli_t *cl);
void cli_close(cli_t *cl);
/* wait (up to TMO) until pred holds; cl->lock held */
bool cli_wait_locked(cli_t *cl, bool (*pred)(cli_t *, uint32_t), uint32_t arg);
bool is_closed(cli_t *cl, uint32_t unused);
void msg_start(wu_buffer_t *b, uint8_t cmd);  /* a request: the command byte */
uint32_t cli_send(cli_t *cl, wu_buffer_t *b); /* sends and destructs b; returns the tag */
/* the status of the reply to tag (PMIX_ERR_LOST_CONNECTION if closed first); the rest of the
 * reply in *rest (may be NULL; caller destructs) */
pmix_status_t cli_reply(cli_t *cl, uint32_t tag, wu_buffer_t *rest);
pmix_status_t cli_call(cli_t *cl, wu_buffer_t *b, wu_buffer_t *rest);
pmix_status_t cli_connect(cli_t *cl, pmix_rank_t rank, uint32_t *nlocal);
pmix_status_t cli_commit(cli_t *cl, const char *lkey, uint32_t lval, const char *rkey,
                         uint32_t rval);
uint32_t cli_fence_send(cli_t *cl, bool collect, int timeout); /* over the whole job */
uint32_t cli_get_send(cli_t *cl, pmix_rank_t rank, const char *key, bool optional);
pmix_status_t cli_get_u32(cli_t *cl, uint32_t tag, uint32_t *out);

/* fixture */
extern char tmp[512];        /* the test's private directory (PMIX_SERVER_TMPDIR) */
extern pmix_nspace_t nsname; /* NS in the API's array type */
void op_done(pmix_status_t status, void *cbdata); /* cbdata: a wu_wait_t */
/* register NS (job size, nlocal local procs, clients 0..nlocal-1, rank 0 with uid_of0) and
 * set uri */
void register_job(uint32_t size, int nlocal, uid_t uid_of0);
void srv_setup(void);
void srv_teardown(void);

#endif
