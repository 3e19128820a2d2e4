/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server.h -- internal state of the PMIx server library, shared by the pmix/server files.
 *
 * Threading: every field below is touched only on the server's progress thread (wu_srv.pt),
 * except what PMIx_server_init sets before the thread starts and never changes afterwards
 * (host module, identity, URIs, session directory), which any thread may read. PMIx_server_*
 * calls shift their work into the thread; host upcalls are made from it; host callbacks (any
 * thread) come back through wu_srv_op_t, which shifts them into it.
 *
 * Objects: a namespace (wu_srv_nspace_t) exists once registered or once a client of it is
 * registered; a client (wu_srv_client_t) is a process the host registered to run on this node
 * (local) and owns what it committed; a peer (wu_srv_peer_t) is one accepted connection. Pending
 * requests (gets, fences, connects, dmodex requests, host operations) live in lists of their
 * own and name their targets by process identity, never by pointer to a client, so a client
 * may be deregistered at any time. */
#ifndef WU_SERVER_H
#define WU_SERVER_H

#include "mca/gds/gds.h"
#include "mca/psec/psec.h"
#include "pmix/common/wu_self.h"
#include "mca/ptl/ptl.h"
#include "opal/class/wu_hash_table.h"
#include "opal/class/wu_ring_buffer.h"
#include "opal/event/wu_progress.h"
#include "pmix/common/wu_buffer.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"
#include "pmix/server/wu_server_host.h"
#include "pmix_server.h"

#include "pmix/common/wu_pack.h"

#include <stdbool.h>
#include <sys/uio.h>
#include <sys/types.h>

/* Unpack exactly one element of type t into dst. */
static inline int wu_srv_unpack1(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    int32_t one = 1;
    return wu_unpack(b, dst, &one, t);
}

#define WU_SRV_HELP "help-wu-server.txt"

/* A path registered with PMIX_REGISTER_CLEANUP(_DIR), removed at deregister_nspace. */
typedef struct wu_srv_cleanup {
    struct wu_srv_cleanup *next;
    char *path;
    bool dir, recursive;
    uid_t owner; /* the registering client's uid: only paths it owns are removed */
} wu_srv_cleanup_t;

typedef struct wu_srv_nspace {
    struct wu_srv_nspace *next;
    char name[PMIX_MAX_NSLEN + 1];
    bool registered; /* PMIx_server_register_nspace done */
    int nlocalprocs;
    bool has_size;
    uint32_t size;     /* PMIX_JOB_SIZE when given */
    pmix_info_t *info; /* deep copy of the registration, sent in CONNECT replies */
    size_t ninfo;
    int jobseg; /* its per-process data as a sealed segment (gds job_seg_make), or -1 */
    wu_srv_cleanup_t *cleanups;
} wu_srv_nspace_t;

typedef enum {
    WU_SRV_CL_REGISTERED, /* not connected (yet, or again after a finalize) */
    WU_SRV_CL_CONNECTING, /* CONNECT accepted by psec, host upcall running */
    WU_SRV_CL_CONNECTED,
    WU_SRV_CL_FINALIZED,
    WU_SRV_CL_TERMINATED /* connection lost without FINALIZE */
} wu_srv_cl_state_t;

typedef struct wu_srv_client {
    struct wu_srv_client *next;
    pmix_proc_t proc;
    uid_t uid;
    gid_t gid;
    void *server_object;
    wu_srv_cl_state_t state;
    pid_t pid;
    uint32_t caps;               /* what it announced in CONNECT (WU_PROTO_CAP_*) */
    wu_ptl_conn_t *conn;         /* one reference while CONNECTING/CONNECTED */
    pmix_status_t commit_status; /* the last commit failed in the client: why */
} wu_srv_client_t;

/* The cbdata of an accepted connection. Freed by the closed callback, which first sets the
 * connection's cbdata to NULL: code holding a connection reference finds its peer with
 * wu_ptl_conn_get_cbdata and treats NULL as "gone". */
typedef struct wu_srv_peer {
    wu_ptl_conn_t *conn;
    bool has_proc; /* CONNECT got as far as naming a registered client */
    bool connected;
    pmix_proc_t proc;
    struct wu_srv_opmix *ox; /* a process on OpenPMIx's library (wu_server_opmix.c), or NULL */
    /* An OpenPMIx tool (wu_server_opmix_tool.c): connected without a client registration, proc
     * is the identifier it has or was given, uid and gid what the kernel and its credential
     * agree on. The handlers that need a client's registration refuse it or use these. */
    bool tool;
    uid_t uid;
    gid_t gid;
} wu_srv_peer_t;

/* A request waiting for the host (upcall accepted, cbfunc not called yet). The host's cbfunc
 * copies what it hands over, then shifts the op into the progress thread, where done() runs,
 * the host's release function is called and the op is freed: a host may call cbfunc inside its
 * own upcall or while holding a lock its release function takes (Slurm does both). At
 * PMIx_server_finalize ops still waiting are orphaned: a late host callback then only releases
 * the host's data and frees the op, in the host's call (there is no thread left to wait for). */
typedef struct wu_srv_op wu_srv_op_t;
typedef void (*wu_srv_op_fn_t)(wu_srv_op_t *op);
/* A GET of a proc of another node through the host's direct_modex (wu_server_data.c): how many
 * times the host was asked, until when a key missing from its answers is asked for again (0:
 * the grace, from the first answer on), and whether that is the request's PMIX_TIMEOUT. */
typedef struct wu_srv_refetch {
    unsigned asked;
    double until;
    bool timed;
} wu_srv_refetch_t;
struct wu_srv_op {
    wu_srv_op_t *prev, *next; /* in wu_srv.ops while waiting */
    wu_srv_op_fn_t done;      /* progress thread: the host answered (status, data, info) */
    bool shifted, orphaned;   /* guarded by wu_srv_lock */
    pmix_status_t status;
    char *data; /* copy of the host's modex data */
    size_t ndata;
    pmix_info_t *info; /* copy of the host's info */
    size_t ninfo;
    pmix_pdata_t *pdata; /* copy of the host's lookup answer */
    size_t npdata;
    /* The host's release function for what it handed over, called when op is freed: never
     * inside the host's own call (a host may hold a lock there that its release takes). */
    pmix_release_cbfunc_t relfn;
    void *relcbdata;
    /* What the upcall was given (a request's directives, keys), kept until the host answers:
     * a host may keep pointers into them while it works (OpenPMIx keeps them alive too). */
    pmix_info_t *req_info;
    size_t nreq_info;
    char **req_keys; /* NULL-terminated */
    pmix_app_t *req_apps;
    size_t nreq_apps;
    pmix_byte_object_t req_cred; /* a credential to validate (bytes malloc'd) */
    wu_ptl_conn_t *conn;         /* requester (one reference), or NULL */
    uint32_t tag;
    pmix_proc_t proc;      /* whom the operation is about */
    pmix_proc_t requester; /* GET: who asked */
    char key[PMIX_MAX_KEYLEN + 1];
    uint64_t ref; /* owner-specific: a fence tracker id */
    uint64_t id;
    wu_srv_refetch_t refetch; /* GET through the host's direct_modex */
};

/* Per-request state of a GET waiting for data (wu_server_data.c). */
typedef struct wu_srv_get wu_srv_get_t;
/* A fence tracker (wu_server_fence.c). */
typedef struct wu_srv_fence wu_srv_fence_t;
/* An event the server keeps: cached or held (wu_server_evcache.c). */
typedef struct wu_srv_ev wu_srv_ev_t;
/* A CONNECT waiting for its namespace (wu_server_switch.c). */
typedef struct wu_srv_pconn wu_srv_pconn_t;
/* A PMIx_server_dmodex_request waiting for a commit (wu_server_api.c). */
typedef struct wu_srv_dmx wu_srv_dmx_t;

typedef struct wu_srv {
    bool initialized; /* API side: between init and finalize */
    bool stopping;    /* progress thread: finalize has failed everything pending */
    wu_progress_t *pt;
    pmix_server_module_t host;
    pmix_proc_t me;
    char hostname[256];
    char *session_dir;
    wu_ptl_listeners_t *listeners; /* best first */
    const char *uri;               /* what setup_fork hands out: the best listener's */
    /* For clients on OpenPMIx's library (server_openpmix): a loopback TCP listener of its own
     * when no listener is TCP, and the URI they are given ("<nspace>.<rank>;tcp4://..."). */
    wu_ptl_listener_t *olistener;
    char *ouri;
    const char *token; /* psec token for peers without kernel identity, or NULL */
    /* the data, all in the selected gds module (wu_server_data.c) */
    const wu_gds_module_t *gds;
    wu_gds_store_t *store;   /* what the host registered (job, proc, node, app data) */
    wu_gds_store_t *local;   /* local clients' commits, local scope (PMIX_LOCAL, PMIX_GLOBAL) */
    wu_gds_store_t *export;  /* local clients' commits, remote scope only (PMIX_REMOTE) */
    wu_gds_store_t *globals; /* per client: key -> BOOL true if local's value is remote too */
    wu_gds_store_t *remote;  /* data of procs on other nodes (fence results, direct modex) */
    wu_hash_table_t *gets;   /* "rank@nspace" of a target -> the GETs waiting for it */
    wu_srv_nspace_t *nspaces;
    wu_srv_client_t *clients;
    wu_srv_op_t *ops;
    wu_srv_fence_t *fences;
    wu_srv_pconn_t *pconns;
    wu_srv_dmx_t *dmx;
    wu_ring_buffer_t *evcache; /* recent environment events (NULL: caching off) */
    wu_srv_ev_t *held;         /* job-specific events for clients not connected yet, oldest first */
    size_t nheld;
    uint64_t next_id;
    int out; /* verbose stream */
} wu_srv_t;

extern wu_srv_t wu_srv;
extern int wu_srv_connect_wait; /* seconds a CONNECT waits for its registration */
extern bool wu_srv_openpmix;    /* server_openpmix: accept clients on OpenPMIx's library */

/* ---- state (wu_server_state.c) ----------------------------------------------------------- */
wu_srv_nspace_t *wu_srv_nspace_find(const char *nspace);
wu_srv_nspace_t *wu_srv_nspace_get(const char *nspace); /* find or create; NULL: no memory */
void wu_srv_nspace_free(wu_srv_nspace_t *ns);
wu_srv_client_t *wu_srv_client_find(const pmix_proc_t *proc);
void wu_srv_client_free(wu_srv_client_t *cl);
/* Number of registered clients of nspace. */
size_t wu_srv_nspace_nclients(const char *nspace);
/* Integer value of an info of any integer type; false if not an integer. */
bool wu_srv_info_int(const pmix_info_t *info, long long *out);
/* Reply: STATUS then body (may be NULL), frame flagged WU_PROTO_FLAG_REPLY. */
void wu_srv_reply(wu_ptl_conn_t *conn, uint32_t tag, pmix_status_t status, const wu_buffer_t *body);
/* The same reply made once for many receivers (a fence's result): the payload (NULL: no memory;
 * release it with wu_ptl_shared_release), then one reply per receiver (conn not NULL); status
 * is the one inside, for the error path when the payload cannot go. The body is the bytes of
 * the nbody iovecs (none: no body). A reply above ptl_base_max_msg_size is not
 * made: the payload then holds only PMIX_ERR_OUT_OF_RESOURCE, and a message says why. */
wu_ptl_shared_t *wu_srv_reply_payload(pmix_status_t status, const struct iovec *body, int nbody);
void wu_srv_reply_shared(wu_ptl_conn_t *conn, uint32_t tag, pmix_status_t status,
                         wu_ptl_shared_t *payload);
/* Reply and close the connection (refused CONNECT). */
void wu_srv_reply_close(wu_ptl_conn_t *conn, uint32_t tag, pmix_status_t status);
/* "nspace:rank" for messages, in buf; the namespace escaped (wu_escape.h), since a peer may
 * have sent it, and cut with "..." if buf is short. */
const char *wu_srv_proc_str(const pmix_proc_t *p, char *buf, size_t len);

/* Host operations. wu_srv_op_new allocates and links an op (conn retained if not NULL);
 * wu_srv_op_finish unlinks it, runs done() with status set, frees it (progress thread). */
wu_srv_op_t *wu_srv_op_new(wu_srv_op_fn_t done, wu_ptl_conn_t *conn, uint32_t tag);
void wu_srv_op_finish(wu_srv_op_t *op, pmix_status_t status);
/* The upcall's return value decides: PMIX_SUCCESS waits for the cbfunc; anything else
 * finishes the op now (PMIX_OPERATION_SUCCEEDED as PMIX_SUCCESS). */
void wu_srv_op_started(wu_srv_op_t *op, pmix_status_t rc);
/* Host cbfuncs: cbdata is the op. */
void wu_srv_op_cb(pmix_status_t status, void *cbdata);
void wu_srv_op_modex_cb(pmix_status_t status, const char *data, size_t ndata, void *cbdata,
                        pmix_release_cbfunc_t relfn, void *relcbdata);
void wu_srv_op_info_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                       pmix_release_cbfunc_t relfn, void *relcbdata);
void wu_srv_op_lookup_cb(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void *cbdata);
/* A spawn's answer: the new namespace, kept as op->data (a string). */
void wu_srv_op_spawn_cb(pmix_status_t status, pmix_nspace_t nspace, void *cbdata);
/* A credential (copied to op->data, op->ndata) and its info; a validation's info. */
void wu_srv_op_cred_cb(pmix_status_t status, pmix_byte_object_t *credential, pmix_info_t info[],
                       size_t ninfo, void *cbdata);
void wu_srv_op_valid_cb(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata);
/* Finalize: orphan every op still waiting for the host (progress thread). */
void wu_srv_ops_orphan(void);

/* ---- switchyard (wu_server_switch.c) ----------------------------------------------------- */
extern const wu_ptl_listener_cbs_t wu_srv_listener_cbs;
/* Run the handler of Wireup command cmd for peer's request tag (b after the command byte);
 * a handler's error is sent back as the reply. */
void wu_srv_dispatch(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd, wu_buffer_t *b);
/* A connect request whose credential psec accepted: wait for proc's registration or go on
 * (the host's client_connected, then the reply). model (nmodel infos): the declared model's
 * event, taken. */
void wu_srv_connect_begin(wu_srv_peer_t *peer, uint32_t tag, const pmix_proc_t *proc, pid_t pid,
                          uint32_t caps, const char *cred, size_t ncred, pmix_info_t **model,
                          size_t nmodel);

/* ---- OpenPMIx's clients (wu_server_opmix.c, wu_server_opmix_cmds.c) ---- */
/* A frame from a peer speaking OpenPMIx's protocol (WU_PTL_FLAG_FOREIGN). */
void wu_srv_opmix_recv(wu_srv_peer_t *peer, uint32_t tag, uint16_t flags, const void *payload,
                       size_t len);
/* Send a Wireup reply (status, then the command's fields) to an OpenPMIx peer, converted to the
 * reply of the OpenPMIx command it answers. */
void wu_srv_opmix_reply(wu_ptl_conn_t *conn, uint32_t tag, const void *payload, size_t len);
/* Check an OpenPMIx client's credential against the uid and gid registered for it; *got: what
 * was found. */
pmix_status_t wu_srv_opmix_validate(wu_ptl_conn_t *conn, uid_t uid, gid_t gid, const char *cred,
                                    size_t ncred, wu_psec_peer_t *got);
/* The connect of an OpenPMIx client was accepted: its answer (status and index). */
void wu_srv_opmix_connected(wu_srv_peer_t *peer);
/* An event message as Wireup packs it (command NOTIFY or REGISTER_EVENTS, fields) sent to an
 * OpenPMIx client. */
bool wu_srv_opmix_event(wu_ptl_conn_t *conn, const wu_buffer_t *b);
/* An OpenPMIx tool's handshake (process type 3 to 8, wu_server_opmix_tool.c) whose modules
 * were accepted (peer->ox set): check its credential, answer it, mark peer a connected tool.
 * uid, gid: what it claims; nspace, rank: its identifier ("" when it asks for one). */
void wu_srv_opmix_tool_hello(wu_srv_peer_t *peer, uint8_t type, const char *cred, size_t ncred,
                             uint32_t uid, uint32_t gid, const char *nspace, uint32_t rank);
/* Write the rendezvous files OpenPMIx's tools look for (tool: by pid and by the server's
 * namespace; session: the plain one; system: pmix.sys.<host> in systmp, NULL: the usual
 * temporary directory), after the OpenPMIx URI; remove them with wu_srv_rendezvous_remove. */
pmix_status_t wu_srv_rendezvous_write(bool tool, bool session, bool system, const char *systmp);
void wu_srv_rendezvous_remove(void);
/* Release peer's OpenPMIx state. */
void wu_srv_opmix_free(wu_srv_peer_t *peer);
/* Forget the groups OpenPMIx clients constructed (at the server's end). */
void wu_srv_opmix_groups_free(void);
/* A namespace or client was registered: retry CONNECTs waiting for it. */
void wu_srv_pconn_retry(void);
/* Fail every waiting CONNECT (finalize). */
void wu_srv_pconn_fail_all(pmix_status_t status);

/* ---- data (wu_server_data.c; blobs and pieces: wu_server_blob.c) ------------------------- */
/* Create the four stores and the table of waiting GETs (wu_srv.gds set); PMIX_ERR_NOMEM. */
pmix_status_t wu_srv_stores_create(void);
/* Release them (what was created; safe to call twice). */
void wu_srv_stores_release(void);
/* Remove a namespace's data from every store (deregister_nspace). */
void wu_srv_stores_purge(const char *nspace);
/* Append proc's blob record: its committed remote-scope (or local-scope) data; an empty
 * record for a client that has not committed; PMIX_ERR_NOT_FOUND for a proc unknown here. */
pmix_status_t wu_srv_blob_of(const pmix_proc_t *proc, bool remote_scope, wu_buffer_t *blob);
/* Is key of proc in both scopes with the value of the local-scope store (a PMIX_GLOBAL put)? */
bool wu_srv_key_global(const pmix_proc_t *proc, const char *key);
/* A message built in pieces, to be sent without copying large values into it: packed bytes,
 * and byte objects of at least WU_SRV_REF_MIN bytes referred to where they are (in a store:
 * valid until the store changes, so the pieces are used at once). */
#define WU_SRV_REF_MIN 4096
/* Is t a type whose value is a byte object (sent by reference when large)? */
static inline bool wu_srv_is_bo(pmix_data_type_t t)
{
    return PMIX_BYTE_OBJECT == t || PMIX_COMPRESSED_BYTE_OBJECT == t ||
           PMIX_COMPRESSED_STRING == t || PMIX_REGEX == t;
}
typedef struct wu_srv_ref {
    size_t at; /* offset in buf where the bytes go */
    const void *bytes;
    size_t len;
} wu_srv_ref_t;
typedef struct wu_srv_pieces {
    wu_buffer_t buf;
    wu_srv_ref_t *refs;
    size_t nrefs, cap;
    size_t len; /* of the whole message */
} wu_srv_pieces_t;
void wu_srv_pieces_construct(wu_srv_pieces_t *p);
void wu_srv_pieces_destruct(wu_srv_pieces_t *p);
/* Append bytes by reference. */
pmix_status_t wu_srv_pieces_ref(wu_srv_pieces_t *p, const void *bytes, size_t len);
/* The iovecs of the message (malloc'd, *n of them), after the bytes of head (may be NULL). */
pmix_status_t wu_srv_pieces_iov(const wu_srv_pieces_t *p, const wu_buffer_t *head,
                                struct iovec **iov, int *n);
/* wu_srv_blob_of for the local scope, into pieces: the record refers to large values. */
pmix_status_t wu_srv_blob_pieces(const pmix_proc_t *proc, wu_srv_pieces_t *p);
/* Store every record of a blob as data of procs on other nodes (records of local clients are
 * skipped); if keep is not NULL, append the stored records to it. */
pmix_status_t wu_srv_blob_store(const char *data, size_t ndata, wu_buffer_t *keep);
/* A client committed or ended: answer the GETs and dmodex requests waiting for it. */
void wu_srv_data_changed(const pmix_proc_t *proc);
/* A client ended: status for waiters that can no longer be served (PROC_TERMINATED when it
 * died, NOT_FOUND when it finalized). */
void wu_srv_data_gone(const pmix_proc_t *proc, pmix_status_t status);
/* A requester's connection closed: drop its waiting GETs. */
void wu_srv_get_drop_conn(wu_ptl_conn_t *conn);
void wu_srv_get_fail_all(pmix_status_t status);
/* Complete a job registration (a PMIX_INFO array the caller owns, replaced when keys are
 * added) with what OpenPMIx derives from PMIX_NODE_MAP and PMIX_PROC_MAP: each process's
 * hostname, node id, local and node rank, each node's peers (PMIX_LOCAL_PEERS, and as names of
 * namespace nspace PMIX_LOCAL_PROCS), and the job's node list, node count, PMIX_MAX_PROCS and
 * local leader (wu_server_derive.c). PMIX_ERR_NOMEM: the registration's items may be lost, it
 * must fail. */
pmix_status_t wu_srv_derive(const char *nspace, pmix_info_t **info, size_t *ninfo);
/* The server process's own PMIx_Store_internal and PMIx_Get (wu_server_self.c), set as
 * wu_self_hooks while the server runs. */
extern const wu_self_hooks_t wu_srv_self_hooks;
/* A copy of what this node holds of t's key (registered, committed or fetched before), for
 * the server process's own PMIx_Get: PMIX_ERR_NOT_FOUND when a client would have to wait for
 * it or ask the host. Progress thread only. */
pmix_status_t wu_srv_lookup_copy(const pmix_proc_t *t, const char *key, pmix_value_t **val);
/* All that this node holds of t (a Get with no key) as a PMIX_DATA_ARRAY of PMIX_INFO: what
 * the host registered or stored for it, else its commits, else its data from other nodes.
 * Progress thread only. */
pmix_status_t wu_srv_export_copy(const pmix_proc_t *t, pmix_value_t **val);
/* Append a line per GET of nspace's processes still waiting (wu_server_blocked_report). */
int wu_srv_get_report(const char *nspace, char ***lines);
void wu_srv_dmx_fail_all(pmix_status_t status);
int wu_srv_cmd_get(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_commit(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);

/* ---- fences (wu_server_fence.c) ---------------------------------------------------------- */
int wu_srv_cmd_fence(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* PMIx_Connect and PMIx_Disconnect: collectives on the fence trackers (wu_server_fence.c). */
int wu_srv_cmd_connect_procs(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_disconnect_procs(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* The host's connect hook (wu_server_host.h), or NULL. */
extern wu_server_connect_fn_t wu_srv_connect_hook;
/* proc ended (terminated: WU_PROTO_ERR_TERMINATED to every fence it takes part in;
 * finalized: the same for the fences it has not contributed to). */
void wu_srv_fence_proc_gone(const pmix_proc_t *proc, bool terminated);
void wu_srv_fence_fail_all(pmix_status_t status);
/* Append a line per open fence of nspace (of size ranks): who is in it, who has not come. */
int wu_srv_fence_report(const char *nspace, uint32_t size, char ***lines);

/* ---- other commands (wu_server_cmds.c) --------------------------------------------------- */
int wu_srv_cmd_abort(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_job_control(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_query(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* The host's pid of a rank of another node (wu_server_set_pid_hook), 0 if unknown. */
pid_t wu_srv_host_pid(const char *nspace, pmix_rank_t rank);
int wu_srv_cmd_log(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_spawn(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* wu_server_fence.c: PMIx_Group_construct and PMIx_Group_destruct, collectives too */
int wu_srv_cmd_group_construct(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_group_destruct(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);

/* ---- monitors (wu_server_monitor.c) ----------------------------------------------------- */
int wu_srv_cmd_monitor(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* End the monitors of a process that finalized, vanished or was deregistered. */
void wu_srv_monitor_forget(const pmix_proc_t *proc);
/* End them all (finalize). */
void wu_srv_monitors_close(void);
/* wu_server_cred.c */
int wu_srv_cmd_get_cred(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_validate_cred(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* Remove the cleanup paths of ns (deregister_nspace). */
void wu_srv_cleanup_run(wu_srv_nspace_t *ns);

/* ---- the data service of the host (wu_server_pubsub.c) ----------------------------------- */
int wu_srv_cmd_publish(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_lookup(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
int wu_srv_cmd_unpublish(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);

/* ---- events (wu_server_event.c) ---------------------------------------------------------- */
int wu_srv_cmd_notify(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
/* What pmix/event needs from the server: installed by PMIx_server_init. */
extern const wu_event_rt_t wu_srv_event_rt;
/* Does the event's range cover local client cl? */
bool wu_srv_event_covers(const wu_srv_client_t *cl, const pmix_proc_t *source,
                         pmix_data_range_t range, const pmix_info_t *info, size_t ninfo);
/* Send the event to client cl as a message of the server's own (tag 0): WU_CMD_NOTIFY, or
 * with ref not NULL WU_CMD_REGISTER_EVENTS for that handler. False if it could not go. */
bool wu_srv_event_send(wu_srv_client_t *cl, const size_t *ref, const wu_event_rec_t *ev);

/* ---- cached and held events (wu_server_evcache.c) ---------------------------------------- */
extern int wu_srv_event_cache_size; /* server_event_cache_size */
extern int wu_srv_event_hold_max;   /* server_event_hold_max */
/* Make the cache (init); PMIX_ERR_NOMEM. */
pmix_status_t wu_srv_events_open(void);
/* Drop every cached and held event (finalize; safe to call twice). */
void wu_srv_events_close(void);
/* An event passed to the local clients (all but skip, may be NULL): cache it (an environment
 * event) or hold it for the local clients it is for that have not connected yet
 * (job-specific), unless it carries PMIX_EVENT_DO_NOT_CACHE. */
void wu_srv_event_keep(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                       const pmix_info_t *info, size_t ninfo, const pmix_proc_t *skip);
/* Client cl has connected (its CONNECT reply is sent): send it the events held for it. */
void wu_srv_event_connected(wu_srv_client_t *cl);
/* proc was deregistered: it will not get the events held for it. */
void wu_srv_event_forget(const pmix_proc_t *proc);
int wu_srv_cmd_register_events(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);

#endif
