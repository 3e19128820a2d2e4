/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_proto.h -- the client <-> server protocol of Wireup's PMIx library.
 *
 * One ptl frame (mca/ptl/ptl.h) carries one message. Its payload is a sequence of values packed
 * with wu_pack (pmix/common/wu_pack.h), each preceded by nothing else: both sides know the
 * order from the command. The frame tag matches a reply to its request: the client picks a
 * nonzero tag per request, the server answers with the same tag and the flag
 * WU_PROTO_FLAG_REPLY. Tag 0 is reserved for messages the server sends on its own, unflagged:
 * a PMIX_UINT8 command, then its fields (WU_CMD_NOTIFY and WU_CMD_REGISTER_EVENTS). A client
 * that cannot read a message of the server raises PMIX_ERR_COMM_FAILURE to its own handlers.
 *
 * Request payload:  PMIX_UINT8 command, then the command's fields.
 * Reply payload:    PMIX_STATUS status, then (only when status is PMIX_SUCCESS unless said
 *                   otherwise) the command's reply fields.
 * A "list of X" is one wu_pack call of n elements of type X (n may be 0); wu_pack's own header
 * carries the type and the count, so the reader allocates before unpacking.
 *
 * The first message on a connection must be WU_CMD_CONNECT; the server drops a connection
 * whose first message is anything else, and answers every malformed request (unknown command,
 * missing or mistyped field, trailing bytes) with PMIX_ERR_BAD_PARAM when it can parse the
 * command byte, else drops the connection. A server never crashes or blocks on bad input.
 *
 * Blob format (fence_nb data, direct modex data, dmodex_request replies): a concatenation of
 * records, each  PMIX_PROC proc, PMIX_SIZE n, n x PMIX_INFO  (the proc's data of the scope the
 * blob is for). Blobs are self-delimiting and concatenable: the host may join the blobs of
 * several servers and the result parses as the union (wu_proto_blob_* helpers). */
#ifndef WU_PROTO_H
#define WU_PROTO_H

#include "opal/util/wu_macros.h"
#include "pmix/common/wu_buffer.h"

#include <stdint.h>

/* Environment variable with the URI of the server a launched client connects to
 * (set by PMIx_server_setup_fork; OpenPMIx's PMIX_SERVER_URI* names are left unset). */
#define WU_PROTO_URI_ENV "WU_PMIX_SERVER_URI"
/* Protocol version sent in CONNECT; a server refuses a client of another major version. */
#define WU_PROTO_VERSION "wireup-2"

/* Capabilities a client announces in CONNECT (UINT32 bits); a server uses only those given. */
/* The client maps fence data the server passes as a shared segment (mca/gds/gds.h seg_attach). */
#define WU_PROTO_CAP_SEGMENTS 0x1u
/* The client maps the registered per-process data the server passes as a shared segment with
 * the CONNECT reply (mca/gds/gds.h job_seg_attach). */
#define WU_PROTO_CAP_JOB_SEGMENT 0x2u

#define WU_PROTO_FLAG_REPLY 0x1u

/* The most codes, and the most processes in the filter, of one WU_CMD_REGISTER_EVENTS. */
#define WU_PROTO_MAX_EVENT_CODES 4096

/* The status of requests that fail because a process they wait for ended without finalizing
 * (what the design calls PMIX_ERR_PROC_TERMINATED). PMIx 4.2 has no status of that name; the closest is
 * "process terminated without sync". */
#define WU_PROTO_ERR_TERMINATED PMIX_ERR_PROC_TERM_WO_SYNC

typedef enum wu_proto_cmd {
    /* req:   STRING protocol version (WU_PROTO_VERSION), STRING psec mode (may be NULL),
     *        BYTE_OBJECT credential (may be empty), PROC the client's identity, PID its pid,
     *        optionally UINT32 capabilities (WU_PROTO_CAP_*; absent: none), then optionally
     *        list of INFO: the programming model the client declared in PMIx_Init
     *        (PMIX_PROGRAMMING_MODEL, PMIX_MODEL_LIBRARY_NAME, PMIX_MODEL_LIBRARY_VERSION,
     *        PMIX_THREADING_MODEL; absent: none declared; other keys are ignored). The server
     *        passes them to the host's client_connected2 and, once the connection is
     *        accepted, raises PMIX_MODEL_DECLARED for its own process's handlers.
     * reply: list of INFO  = the namespace's registration (the info array the host gave
     *                        PMIx_server_register_nspace, loaded by the client with gds
     *                        register_nspace), UINT32 nlocalprocs,
     *        PROC the server's own identity.
     *        To a client with WU_PROTO_CAP_JOB_SEGMENT the server may leave the PMIX_PROC_DATA
     *        arrays out of the list and pass them as one wu_shm segment (sealed memfd, one per
     *        namespace and node, rank by rank) with the frame instead.
     * Errors: PMIX_ERR_INVALID_CRED (psec refused), PMIX_ERR_NOT_FOUND (proc not registered
     * with register_client), PMIX_ERR_EXISTS (that proc is already connected). */
    WU_CMD_CONNECT = 1,
    /* req: nothing.  reply: nothing. The server runs client_finalized, then answers. */
    WU_CMD_FINALIZE = 2,
    /* req: STATUS status, STRING message (may be NULL), list of PROC (empty = whole job).
     * reply: nothing; sent after the host's abort upcall completed (or failed). */
    WU_CMD_ABORT = 3,
    /* req: STATUS (PMIX_SUCCESS; an error says the client's commit failed before it could
     *      be sent, and the lists are empty), list of INFO local-scope data (PMIX_LOCAL and
     *      PMIX_GLOBAL puts), list of INFO remote-scope data that is not in the local-scope
     *      list with the same value (PMIX_REMOTE puts), list of INFO (BOOL true) naming the
     *      keys of the local-scope list that are in the remote scope too (PMIX_GLOBAL puts:
     *      sent once).
     * reply: nothing; the client does not wait for it (PMIx_Commit returns once the request is
     * sent: later requests of the same client are handled after it) and reports a refusal.
     * The data replace earlier commits key by key. Pending GETs for these keys are answered;
     * after a failed commit, GETs of missing keys get its status. */
    WU_CMD_COMMIT = 4,
    /* req: list of PROC participants (rank PMIX_RANK_WILDCARD = every proc of that nspace;
     *      an empty list = every proc of the caller's nspace), list of INFO directives
     *      (PMIX_COLLECT_DATA, PMIX_TIMEOUT, others ignored).
     * reply: when PMIX_COLLECT_DATA was given, a blob (BYTE_OBJECT, format above) with the
     *        data of every participant this client may see (local-scope data of procs on its
     *        node, remote-scope data of the others); else nothing. To a client with
     *        WU_PROTO_CAP_SEGMENTS the server may instead send an empty BYTE_OBJECT, then
     *        STRING the namespace of the data, with the frame carrying a sealed memfd that holds
     *        the same data as one wu_shm segment (pmix/common/wu_shm.h): written once, mapped by
     *        every local participant.
     * Errors: PMIX_ERR_TIMEOUT, WU_PROTO_ERR_TERMINATED (a participant exited or
     * disconnected without finalizing), PMIX_ERR_NOT_SUPPORTED (remote participants and the
     * host has no fence_nb), the host's error. */
    WU_CMD_FENCE = 5,
    /* req: PROC whose data (rank PMIX_RANK_WILDCARD: job-level), STRING key,
     *      list of INFO directives (PMIX_TIMEOUT, PMIX_OPTIONAL, PMIX_IMMEDIATE, ...).
     * reply: VALUE the value, then list of INFO = the job-level data of proc's namespace when
     *        that namespace differs from the requester's (RFC0009: cached by the client), else
     *        an empty list.
     * A real rank's key that is not committed yet is waited for (until PMIX_TIMEOUT, or the
     * proc's end, which gives WU_PROTO_ERR_TERMINATED) unless PMIX_OPTIONAL or
     * PMIX_IMMEDIATE is given (then PMIX_ERR_NOT_FOUND). A remote proc's data comes from the
     * host's direct_modex upcall. Unknown namespace: PMIX_ERR_INVALID_NAMESPACE (or what the
     * host's direct_modex says). */
    WU_CMD_GET = 6,
    /* req: list of PROC targets, list of INFO directives.  reply: nothing.
     * PMIX_REGISTER_CLEANUP / PMIX_REGISTER_CLEANUP_DIR (+ PMIX_CLEANUP_RECURSIVE): the server
     * removes those paths when the namespace is deregistered. Any other directive: the whole
     * request goes to the host's job_control upcall (PMIX_ERR_NOT_SUPPORTED without one), whose
     * status is the reply's. */
    WU_CMD_JOB_CONTROL = 7,
    /* req: list of QUERY.  reply: list of INFO, one per answered key (see PMIx_Query_info). */
    WU_CMD_QUERY = 8,
    /* req: list of INFO data, list of INFO directives.  reply: nothing. */
    WU_CMD_LOG = 9,
    /* req: STATUS event, PROC source, DATA_RANGE range (never PMIX_RANGE_PROC_LOCAL),
     *      list of INFO.
     * reply: nothing; sent once the event was handed to the covered local clients (never back to
     *        the sender) and, for ranges beyond the node, to the host's notify_event upcall
     *        (whose status it carries). PMIX_ERR_NOT_SUPPORTED: PMIX_RANGE_RM without that
     *        upcall. The server also sends this command, with the same fields, to a client as a
     *        message of its own (tag 0): an event for the client's handlers. */
    WU_CMD_NOTIFY = 10,
    /* req: list of INFO, the data to publish and the directives (PMIX_RANGE, PMIX_PERSISTENCE,
     *      PMIX_TIMEOUT, PMIX_ACCESS_*) as the caller gave them.
     * reply: nothing. The server passes them to the host's publish upcall with the client's
     * PMIX_USERID and PMIX_GRPID added. Errors: the host's (PMIX_ERR_DUPLICATE_KEY ...),
     * PMIX_ERR_NOT_SUPPORTED without the upcall. */
    WU_CMD_PUBLISH = 11,
    /* req: list of STRING keys (at least one), list of INFO directives (PMIX_RANGE, PMIX_WAIT,
     *      PMIX_TIMEOUT).
     * reply: with PMIX_SUCCESS and also with PMIX_ERR_PARTIAL_SUCCESS: list of PDATA, the keys
     *        found (publisher and value). Errors: PMIX_ERR_NOT_FOUND, PMIX_ERR_NO_PERMISSIONS,
     *        PMIX_ERR_TIMEOUT, the host's; PMIX_ERR_NOT_SUPPORTED without the upcall. */
    WU_CMD_LOOKUP = 12,
    /* req: list of STRING keys (empty: everything the caller published), list of INFO
     *      directives (PMIX_RANGE).
     * reply: nothing. Errors: the host's (PMIX_ERR_NOT_FOUND, PMIX_ERR_NO_PERMISSIONS for a
     * key another process published), PMIX_ERR_NOT_SUPPORTED without the upcall. */
    WU_CMD_UNPUBLISH = 13,
    /* PMIx_Connect. req: list of PROC participants (at least one; rank PMIX_RANK_WILDCARD: every
     *      proc of that nspace), list of INFO directives (PMIX_TIMEOUT, others passed on).
     * reply: as a collecting FENCE's: the data of every participant this client may see (a
     *        blob, or a segment), the other namespaces' job data registered with the server.
     * A collective: it completes when every participant has called it. Errors as FENCE's;
     * PMIX_ERR_NOT_SUPPORTED when participants are elsewhere and the host cannot connect. */
    WU_CMD_CONNECT_PROCS = 14,
    /* PMIx_Disconnect. req: as WU_CMD_CONNECT_PROCS.  reply: nothing. A collective too. */
    WU_CMD_DISCONNECT_PROCS = 15,
    /* req: SIZE ref (the client's handler), list of STATUS codes (empty: every code, a default
     *      handler), list of PROC (the handler's PMIX_EVENT_AFFECTED_PROC(S) filter; empty: none).
     * reply: nothing, once the server has taken note. The server then sends, as messages of its
     *        own (tag 0), each environment event it has cached that the handler takes (its
     *        code, not PMIX_EVENT_NON_DEFAULT for a default handler, affected processes meeting
     *        the filter) and whose range covers the client, oldest first: this command, SIZE
     *        ref, then the fields of WU_CMD_NOTIFY. The client hands each to that handler alone.
     * Errors: PMIX_ERR_BAD_PARAM (more than WU_PROTO_MAX_EVENT_CODES codes or filter procs). */
    WU_CMD_REGISTER_EVENTS = 16,
    /* PMIx_Spawn. req: list of INFO job directives, list of APP applications (at least one).
     * reply: STRING the new job's namespace, once the host has started it. Errors: the host's;
     * PMIX_ERR_NOT_SUPPORTED without its spawn upcall. */
    WU_CMD_SPAWN = 17,
    /* PMIx_Get_credential. req: list of INFO directives (PMIX_CRED_TYPE...).
     * reply: BYTE_OBJECT the credential, list of INFO about it (PMIX_CRED_TYPE). Errors: the
     * host's, else psec's (PMIX_ERR_NOT_SUPPORTED: a mode without credentials). */
    WU_CMD_GET_CRED = 18,
    /* PMIx_Validate_credential. req: BYTE_OBJECT the credential, list of INFO directives.
     * reply: list of INFO about its owner (PMIX_USERID, PMIX_GRPID, PMIX_PROCID). Errors:
     * PMIX_ERR_INVALID_CRED (not issued by this server's psec, or altered), the host's. */
    WU_CMD_VALIDATE_CRED = 19,
    /* PMIx_Group_construct. req: STRING the group's name, list of PROC members (at least one;
     *      the caller among them), list of INFO directives (PMIX_GROUP_ASSIGN_CONTEXT_ID,
     *      PMIX_TIMEOUT, others passed to the host).
     * reply: list of INFO results: PMIX_GROUP_CONTEXT_ID (SIZE) when asked for, the same at
     *        every member; PMIX_GROUP_MEMBERSHIP (DATA_ARRAY of PROC).
     * A collective of the members, as a connect without data (trackers per name and set);
     * members on other nodes go through the host's group upcall. Errors as CONNECT_PROCS'. */
    WU_CMD_GROUP_CONSTRUCT = 20,
    /* PMIx_Group_destruct. req: STRING name, list of PROC members (as constructed), list of
     *      INFO directives. reply: nothing. A collective of the members. */
    WU_CMD_GROUP_DESTRUCT = 21,
    /* PMIx_Process_monitor. req: INFO monitor, STATUS to raise when it trips, list of INFO
     *      directives. reply: nothing. Heartbeat and file monitors (and PMIX_SEND_HEARTBEAT,
     *      PMIX_MONITOR_CANCEL) are the server's; any other monitor goes to the host's monitor
     *      upcall (PMIX_ERR_NOT_SUPPORTED without one). */
    WU_CMD_MONITOR = 22,
    WU_CMD_MAX = 23
} wu_proto_cmd_t;

/* Command name for messages ("connect", "fence", ...); "unknown" for anything else. */
const char *wu_proto_cmd_name(int cmd);

/* Pack a "list of X" (one wu_pack call of n elements). */
int wu_proto_pack_list(wu_buffer_t *b, const void *elems, size_t n, pmix_data_type_t t);
/* Unpack a "list of X": *elems is a malloc'd array of n elements of type t (NULL when 0),
 * released by the caller with the type's free macro (PMIX_INFO_FREE, PMIX_PROC_FREE, ...).
 * Refuses counts above what the buffer can hold (PMIX_ERR_UNPACK_FAILURE). */
int wu_proto_unpack_list(wu_buffer_t *b, void **elems, size_t *n, pmix_data_type_t t);

/* Append one blob record for proc with its n infos. */
int wu_proto_blob_add(wu_buffer_t *blob, const pmix_proc_t *proc, const pmix_info_t *info,
                      size_t n);
/* Read the next record of a blob: PMIX_SUCCESS with *info (PMIX_INFO_FREE) and *n,
 * PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER at the clean end, another error on a bad record. */
int wu_proto_blob_next(wu_buffer_t *blob, pmix_proc_t *proc, pmix_info_t **info, size_t *n);

/* A list of PMIX_INFO written key by key (same wire form as wu_proto_pack_list of an info
 * array): wu_proto_list_begin, then wu_proto_list_add per key (its signature fits a gds
 * each_proc walk), then wu_proto_list_end. The value is packed, not kept. */
typedef struct wu_proto_list {
    wu_buffer_t *b;
    size_t mark, n;
} wu_proto_list_t;
int wu_proto_list_begin(wu_proto_list_t *l, wu_buffer_t *b);
pmix_status_t wu_proto_list_add(const char *key, const pmix_value_t *val, void *list);
int wu_proto_list_end(wu_proto_list_t *l);

/* Called for each info read by the *_each readers below; proc is the blob record's proc (NULL
 * for a plain list). fn may take the info's value (leaving it PMIX_UNDEF); whatever is left is
 * released after the call. A status other than PMIX_SUCCESS stops the walk and is returned. */
typedef int (*wu_proto_info_fn_t)(const pmix_proc_t *proc, pmix_info_t *info, void *ctx);
/* Read a list of PMIX_INFO element by element, handing each to fn (NULL: only check them), so
 * the list never exists as one array (a pmix_info_t is over 500 bytes, whatever its value).
 * PMIX_SUCCESS, fn's status, or the unpack error of a bad element (the ones before it were
 * handed to fn already; the cursor is then left where the list started). */
int wu_proto_unpack_info_each(wu_buffer_t *b, const pmix_proc_t *proc, wu_proto_info_fn_t fn,
                              void *ctx);
/* wu_proto_blob_next handing the record's infos to fn instead of returning an array. Same
 * statuses (and fn's). */
WU_EXPORT int wu_proto_blob_next_each(wu_buffer_t *blob, pmix_proc_t *proc, wu_proto_info_fn_t fn,
                                      void *ctx);

#endif /* WU_PROTO_H */
