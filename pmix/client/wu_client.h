/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client.h -- internal state and helpers of the PMIx client library (pmix/client/).
 *
 * Threads. PMIx_Init starts one progress thread (opal/event/wu_progress.h). Everything below
 * marked "progress thread" (the connection state) is touched only there: the public functions
 * shift their work into it and the blocking ones wait for the nonblocking form to complete.
 * User callbacks run on the progress thread with no lock held, so they may call back into the
 * library. The lock wu_client.lock guards the init reference count and is never held across a
 * wait or callback. Exceptions to "progress thread only" save thread hops:
 *  - requests: a blocking fence and a commit send their request from the caller's thread when
 *    nothing this process shifted is still pending (wu_client_may_send_here); the pending
 *    list is under wu_client.req_lock, and replies are handled on the progress thread;
 *  - the data store: a Get whose answer is in it is answered in the caller's thread, and a Put
 *    stores its value there, under wu_client.store_lock (held for reading wherever the store is
 *    read, the progress thread included, and for writing wherever it changes; never across a
 *    wait or callback);
 *  - the staged puts: PMIx_Put stages and PMIx_Commit packs them in the caller's thread, under
 *    wu_client.stage_lock; only the packed commit is handed to the progress thread to send.
 *
 * Modes. Connected: PMIX_NAMESPACE, PMIX_RANK and WU_PMIX_SERVER_URI name the server, and the
 * client talks the protocol of pmix/common/wu_proto.h over one ptl connection. Singleton: none of
 * them set; the client registers a one-process job in its own store and answers everything
 * locally. A connection that ends while the client is initialized puts it in the "lost" state:
 * every pending request completes with PMIX_ERR_LOST_CONNECTION, later requests that need the
 * server fail with PMIX_ERR_UNREACH, and local data stays readable. */
#ifndef WU_CLIENT_H
#define WU_CLIENT_H

#include "mca/gds/gds.h"
#include "mca/ptl/ptl.h"
#include "opal/event/wu_progress.h"
#include "opal/event/wu_wait.h"
#include "pmix/common/wu_buffer.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include "pmix.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Longest a blocking call waits for a server that is alive but silent where the Standard
 * promises an answer soon (connect, finalize, abort acknowledgement), in seconds. */
#define WU_CLIENT_HANDSHAKE_TIMEOUT 30.0
/* A local timer for requests with PMIX_TIMEOUT fires this much after the server should have
 * answered PMIX_ERR_TIMEOUT itself (it stays the authority; the timer only bounds the wait). */
#define WU_CLIENT_TIMEOUT_GRACE 1.0

typedef enum { WU_CLIENT_SINGLETON, WU_CLIENT_CONNECTED, WU_CLIENT_LOST } wu_client_mode_t;

/* Completion of a request sent to the server (progress thread). status is the reply's status,
 * or PMIX_ERR_LOST_CONNECTION / PMIX_ERR_TIMEOUT / PMIX_ERR_UNREACH when no reply came. reply
 * (NULL unless a reply came) is positioned after the status and valid only during the call. */
typedef void (*wu_client_reply_fn_t)(int status, wu_buffer_t *reply, void *cbdata);

typedef struct wu_client_req wu_client_req_t;

typedef struct wu_client {
    pthread_mutex_t lock; /* guards refs and the fields set by init/finalize */
    int refs;             /* PMIx_Init count */
    pid_t pid;            /* process that initialized */
    pmix_proc_t myproc;
    char hostname[256];
    wu_progress_t *pt;
    /* The buffer of the last request sent, kept for the next one (any thread, under
     * spare_lock): a large commit then reuses warm memory instead of pages that fault again
     * each time. */
    pthread_mutex_t spare_lock;
    wu_buffer_t spare;
    const wu_gds_module_t *gds;
    bool plog_open, ptl_open, psec_open;
    bool singleton; /* set by init, constant until finalize: any thread may read it */
    /* The server is OpenPMIx's (wu_client_opmix.c), and the buffer type it was told (WU_OBFR_*):
     * set by init, constant until finalize. */
    bool opmix;
    uint8_t obtype;
    int omajor; /* its release's major number (4, 5) */
    /* Guards store against the Gets answered in their callers' threads (wu_client_data.c):
     * once initialized, the progress thread changes store only while it holds this for
     * writing, and other threads read store only while they hold it for reading. The progress
     * thread's own reads need no lock: no other thread writes. */
    pthread_rwlock_t store_lock;
    /* Guards staged (below). Never held with store_lock, across a wait or a callback. */
    pthread_mutex_t stage_lock;
    /* What PMIx_Put staged for the next Commit, replaced key by key, in gds stores of their own
     * (under the own proc; NULL until the first Put): [0] local scope, [1] remote scope. */
    wu_gds_store_t *staged[2];
    /* Commits sent or handed to the progress thread whose answer has not come: past a bound,
     * PMIx_Commit waits (a loop of commits stays bounded in memory, and a later fence does not
     * queue behind thousands of them at the server). */
    atomic_int commits_out;
    /* Set when the connection to the server is lost (mode LOST), for the threads that may not
     * read mode; under req_lock. */
    atomic_bool lost;
    /* Functions shifted into the progress thread that have not returned yet (wu_client_shift,
     * _call, _wait_call): while there are any, a request is not sent from the caller's thread,
     * which could overtake what the same thread shifted before. */
    atomic_int shifted;
    /* Guards next_tag and pending: requests are registered in any thread (a blocking fence or
     * a commit sends from the caller's), replies and failures handled on the progress thread. */
    pthread_mutex_t req_lock;
    /* pt while the library is initialized in this process: set at the end of PMIx_Init,
     * cleared by the last PMIx_Finalize and, in a child, by fork (pthread_atfork). What
     * wu_client_ready reads, without a lock or a system call on every Get. */
    wu_progress_t *_Atomic live;

    /* progress thread only, from here on */
    wu_client_mode_t mode;
    wu_gds_store_t *store;
    wu_ptl_conn_t *conn;
    pmix_proc_t server;
    uint32_t next_tag;        /* req_lock */
    wu_client_req_t *pending; /* requests sent, awaiting their reply (req_lock) */
    char **cleanup;           /* singleton: paths registered for removal */
    bool *cleanup_recursive;  /* parallel to cleanup */
    size_t ncleanup;
} wu_client_t;

extern wu_client_t wu_client;

/* ---- wu_client_msg.c -------------------------------------------------------------------- */

/* Is the library initialized (by this process)? Any thread. */
bool wu_client_ready(void);
/* Run fn(arg) on the progress thread and wait for it (inline when already there). fn returns
 * the status. PMIX_ERR_INIT when not initialized. */
int wu_client_call(int (*fn)(void *arg), void *arg);
/* Shift fn into the progress thread and wait until it calls wu_wait_call_done (for requests
 * that need the server). PMIX_ERR_WOULD_BLOCK from the progress thread (a callback), which
 * could never see the answer; PMIX_ERR_INIT when not initialized. */
int wu_client_wait_call(wu_wait_call_fn_t fn, void *arg);
/* Shift fn(arg) into the progress thread (never inline). PMIX_ERR_INIT when not initialized. */
int wu_client_shift(wu_shift_fn_t fn, void *arg);
/* May the calling thread send a request itself (wu_client_request), without a shift? Not on the
 * progress thread (which may), not while shifted functions are pending (they could send
 * something this thread asked for earlier), and only while connected. */
bool wu_client_may_send_here(void);

/* Does a request of buf's size fit through the transport? If not, says so (naming the limit and
 * how to raise it). Any thread. */
bool wu_client_msg_fits(const wu_buffer_t *buf);
/* Start a request (progress thread, or any thread for which wu_client_may_send_here said yes,
 * with timeout 0): buf holds the command byte and fields (it is sent and destructed here). cb runs exactly once, later, never inline; timeout > 0 adds a local timer
 * giving PMIX_ERR_TIMEOUT. Returns PMIX_SUCCESS, or an error (PMIX_ERR_UNREACH when not
 * connected) and cb is not called. */
int wu_client_request(wu_buffer_t *buf, double timeout, wu_client_reply_fn_t cb, void *cbdata);
/* wu_client_request with options: WU_CLIENT_REQ_ANY_THREAD, cb may run in a thread waiting in
 * wu_client_await (it only records the answer and releases a wait; it must not call the
 * application). */
#define WU_CLIENT_REQ_ANY_THREAD 1u
int wu_client_request_opt(wu_buffer_t *buf, double timeout, wu_client_reply_fn_t cb, void *cbdata,
                          unsigned opts);
/* Before blocking on w until a request completes (not on the progress thread): read the
 * connection in this thread meanwhile when possible, delivering replies to requests made with
 * WU_CLIENT_REQ_ANY_THREAD here, which spares the progress thread's wakeup (wu_ptl_conn_await).
 * Returns when w is released or the progress thread must take over; wait on w afterwards
 * either way. */
void wu_client_await(wu_wait_t *w);
/* Begin a request buffer with its command byte. */
int wu_client_msg_start(wu_buffer_t *buf, uint8_t cmd);
/* ptl callbacks of the connection to the server. */
void wu_client_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload, size_t len,
                    void *cbdata);
void wu_client_closed(wu_ptl_conn_t *c, int status, void *cbdata);
/* Fail every pending request with status (progress thread). */
void wu_client_fail_pending(int status);

/* ---- wu_client_opmix.c: under an OpenPMIx server ---------------------------------------- */

/* What a request sent to an OpenPMIx server needs for its reply to be read back as Wireup's. */
typedef struct wu_client_ox {
    uint8_t wcmd;                  /* the Wireup command */
    pmix_proc_t proc;              /* GET: whose data */
    char key[PMIX_MAX_KEYLEN + 1]; /* GET: the key */
} wu_client_ox_t;
/* Connect to the OpenPMIx server of uri ("<nspace>.<rank>;tcp4://...", PMIX_SERVER_URI41's
 * value) as this process (wu_client.myproc), on wu_client.pt: sets wu_client.conn, server,
 * obtype. Not from the progress thread. PMIX_SUCCESS, PMIX_ERR_BAD_PARAM (uri), PMIX_ERR_UNREACH
 * (refused, or nobody there), PMIX_ERR_TIMEOUT, PMIX_ERR_NOMEM. */
int wu_client_opmix_connect(const char *uri);
/* Rewrite the Wireup request in buf as the OpenPMIx request that does the same, and fill ox.
 * PMIX_ERR_NOT_SUPPORTED (said at ptl's verbose level) for a request OpenPMIx's server is not
 * asked here; buf is left as it was on any error. Any thread. */
int wu_client_opmix_request(wu_buffer_t *buf, wu_client_ox_t *ox);
/* Read the OpenPMIx reply payload to the request of ox: *status its status, out (constructed
 * by the caller) the Wireup reply's fields after the status. Data a GET brought are stored
 * (takes the store's lock). Returns an unpack error when the reply cannot be read. */
int wu_client_opmix_reply(const wu_client_ox_t *ox, const void *payload, size_t len,
                          pmix_status_t *status, wu_buffer_t *out);
/* The server's own message (tag 0): an event, handed on as Wireup's (wu_client_event_recv). */
void wu_client_opmix_event(const void *payload, size_t len);

/* ---- helpers shared by the API files ---------------------------------------------------- */

/* PMIX_TIMEOUT of info (any of n) in seconds (0: none). */
double wu_client_timeout(const pmix_info_t *info, size_t n);
/* Take / drop wu_client.store_lock for writing around a change of the store, for reading around
 * a lookup (any thread; never twice: the lock is not recursive). */
void wu_client_store_wrlock(void);
void wu_client_store_rdlock(void);
void wu_client_store_unlock(void);
/* Make store_lock and stage_lock new, free locks (in a child of fork, where they may have been
 * held). */
void wu_client_store_lock_reset(void);
/* Store the records of a blob (wu_proto.h format) as process data, except this process's own
 * (progress thread; takes store_lock itself). */
int wu_client_store_blob(const pmix_byte_object_t *bo);

/* ---- per-area hooks ---------------------------------------------------------------------- */

/* wu_client_data.c: free the staged puts (any thread; takes stage_lock). */
void wu_client_staged_clear(void);
/* wu_client_blk.c: the blocking form of a call with an _nb form:
 *     wu_client_blk_t b;
 *     rc = wu_client_blk_begin(&b, results, nresults);   (results may be NULL: none wanted)
 *     if (PMIX_SUCCESS == rc) rc = wu_client_blk_wait(&b, PMIx_X_nb(..., wu_client_blk_info, &b));
 * begin clears the results and refuses the progress thread (PMIX_ERR_WOULD_BLOCK) or a results
 * pointer without its count (PMIX_ERR_BAD_PARAM); the callbacks copy the infos into the
 * results and release the wait; wait waits when the call started and frees the results when it
 * failed. */
typedef struct {
    wu_wait_t w;
    pmix_info_t **res;
    size_t *nres;
} wu_client_blk_t;
pmix_status_t wu_client_blk_begin(wu_client_blk_t *b, pmix_info_t **res, size_t *nres);
void wu_client_blk_info(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                        pmix_release_cbfunc_t relfn, void *relcbdata);
void wu_client_blk_valid(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata);
void wu_client_blk_op(pmix_status_t status, void *cbdata);
pmix_status_t wu_client_blk_wait(wu_client_blk_t *b, pmix_status_t rc);
/* wu_client_group.c: the groups this process is in: their names (wu_argv_free), a group's
 * members (PMIX_PROC_FREE; PMIX_ERR_NOT_FOUND), and forgetting them all (last finalize). */
int wu_client_group_names(char ***names);
int wu_client_group_members(const char *name, pmix_proc_t **members, size_t *n);
/* procs with every (group name, rank) of a group of this process as its member(s), in *out
 * (PMIX_PROC_FREE with *nout); PMIX_ERR_NOT_FOUND when procs name no such group. */
int wu_client_group_expand(const pmix_proc_t *procs, size_t n, pmix_proc_t **out, size_t *nout);
/* Progress thread: the group is (now) these members; forget a group. */
void wu_client_group_set(const char *name, const pmix_proc_t *members, size_t n);
void wu_client_group_forget(const char *name);
void wu_client_groups_clear(void);
/* wu_client_topo.c: destroy the node's topology PMIx_Load_topology lent out (last finalize). */
void wu_client_topo_release(void);
/* wu_client_misc.c: remove the singleton's registered cleanup paths (progress thread). */
void wu_client_run_cleanup(void);
/* wu_client_event.c (progress thread): an unsolicited message from the server (tag 0); the
 * connection to the server was lost (after the pending requests failed). */
void wu_client_event_recv(const void *payload, size_t len);
void wu_client_event_lost(void);
/* wu_client_event.c (any thread): a message from the server could not be read; raises
 * PMIX_ERR_COMM_FAILURE to this process's handlers. */
void wu_client_event_comm_failure(void);
/* What pmix/event needs from the client: installed by PMIx_Init. */
extern const wu_event_rt_t wu_client_event_rt;

#endif
