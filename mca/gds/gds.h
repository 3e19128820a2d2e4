/* SPDX-License-Identifier: BSD-3-Clause */
/* gds.h -- the gds framework: the data store of the PMIx client and server.
 *
 * gds decides how the key/value data a process knows about is kept and found: what the host
 * registered for a namespace (job-level data, per-process data, per-node and per-application
 * data), what processes Put, and the job-level data of foreign namespaces received with a Get
 * reply. The framework selects exactly one module (WU_MCA_SELECT_ONE): "shmem" (the default)
 * or "hash".
 *
 * Every operation takes a store handle: an independent data store created by store_create. The
 * server and the client each own one store; tests create several. "hash" keeps everything in
 * hash tables in process memory. "shmem" keeps the same in a hash store and adds shared
 * segments: a server lays a fence's collected data out once (seg_make) in a sealed memfd that
 * every local participant maps read-only (seg_attach) and looks up in place. Callers only ever
 * see the opaque wu_gds_store_t.
 *
 * Lookup rule (RFC0009): a fetch consults exactly ONE table. Job-level data lives under
 * PMIX_RANK_WILDCARD, a process's data under its rank; fetch(nspace, rank, key) looks only at
 * that rank's table, with no fallback from a rank to the wildcard or back. Node-level and
 * application-level data have their own fetch operations. Keys beginning with "pmix" are
 * reserved: put accepts them only when they are Standard-defined attributes. A store keeps no
 * scope: which of its values go to local or remote peers (PMIx_Put scopes) is decided by the
 * client/server code that fills it, which can keep one store per scope if it needs to.
 *
 * Thread safety: none. A store must be used by one thread at a time; the server calls it only
 * from its progress thread, the client from its own serialization point. */
#ifndef WU_GDS_H
#define WU_GDS_H

#include "mca/base/wu_mca.h"

#include "pmix_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WU_gds_VERSION 6u

/* A data store; its layout belongs to the module that created it. */
typedef struct wu_gds_store wu_gds_store_t;

/* Node id meaning "not given" in fetch_node. */
#define WU_GDS_NODEID_NONE UINT32_MAX

/* Common argument rules for every operation below: nspace must be a non-empty string of at most
 * PMIX_MAX_NSLEN characters, key a non-empty string of at most PMIX_MAX_KEYLEN characters,
 * store a handle from store_create; otherwise PMIX_ERR_BAD_PARAM. Values are deep-copied in
 * (PMIx_Value_xfer); values handed out are malloc'd copies the caller releases with
 * PMIx_Value_destruct + free (PMIX_VALUE_RELEASE). */
typedef struct wu_gds_module {
    const char *name;

    /* Create an empty store. PMIX_SUCCESS with *store set, or PMIX_ERR_NOMEM. */
    pmix_status_t (*store_create)(wu_gds_store_t **store);
    /* Free a store and everything in it. NULL is a no-op. */
    void (*store_release)(wu_gds_store_t *store);

    /* Put one key/value for (nspace, rank): rank is a valid rank (process data) or
     * PMIX_RANK_WILDCARD (job-level data); other special ranks give PMIX_ERR_BAD_PARAM. A key
     * beginning with "pmix" that is not a Standard-defined attribute is refused with
     * PMIX_ERR_BAD_PARAM and a message on stderr (RFC0009); defined attributes and any other key
     * are accepted. An existing value under the same key is replaced. The namespace is created
     * if it is not known yet. val may hold any type (a NULL string included). */
    pmix_status_t (*put)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                         const char *key, const pmix_value_t *val);
    /* The same with the key and value taken from info. */
    pmix_status_t (*put_info)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                              const pmix_info_t *info);
    /* put_info without a copy: info's value moves into the store (on PMIX_SUCCESS it is left
     * empty, PMIX_UNDEF; on failure it is untouched). For data received in bulk (fence blobs). */
    pmix_status_t (*take_info)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                               pmix_info_t *info);

    /* One lookup in the table of (nspace, rank): PMIX_SUCCESS with *val a malloc'd copy, or
     * PMIX_ERR_NOT_FOUND if the namespace, the rank or the key is unknown. rank
     * PMIX_RANK_WILDCARD reads job-level data; a real rank reads only that rank's data (a
     * job-level key asked with a real rank is NOT found). Other special ranks: BAD_PARAM. */
    pmix_status_t (*fetch)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                           const char *key, pmix_value_t **val);
    /* fetch without a copy: *val is the store's own value, read-only and valid until the
     * store changes (not to be released). For sending large data without a copy. */
    pmix_status_t (*fetch_view)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                                const char *key, const pmix_value_t **val);
    /* Node-level data of a node of nspace, found by hostname (if not NULL) or else by node id
     * (if not WU_GDS_NODEID_NONE). PMIX_ERR_NOT_FOUND if the namespace, node or key is unknown. */
    pmix_status_t (*fetch_node)(wu_gds_store_t *store, const char *nspace, const char *hostname,
                                uint32_t nodeid, const char *key, pmix_value_t **val);
    /* Application-level data of application appnum of nspace; NOT_FOUND as above. */
    pmix_status_t (*fetch_app)(wu_gds_store_t *store, const char *nspace, uint32_t appnum,
                               const char *key, pmix_value_t **val);
    /* Is the namespace in the store (registered, put to or imported)? */
    bool (*has_nspace)(wu_gds_store_t *store, const char *nspace);

    /* Bulk load what a host registers for a namespace (PMIx_server_register_nspace):
     * - PMIX_PROC_DATA: a PMIX_DATA_ARRAY of PMIX_INFO whose first element is PMIX_RANK and the
     *   rest that rank's data, stored under the rank;
     * - PMIX_NODE_INFO_ARRAY: a PMIX_DATA_ARRAY of PMIX_INFO holding PMIX_HOSTNAME and/or
     *   PMIX_NODEID plus the node's data (all stored as node-level data, the identifying keys
     *   included). A node already known by either name or id is updated;
     * - PMIX_APP_INFO_ARRAY: the same with PMIX_APPNUM (0 if absent) plus the app's data;
     * - every other key (unknown ones, PMIX_NODE_MAP and PMIX_PROC_MAP too) is stored as given
     *   as job-level data.
     * The host is trusted: the reserved-key rule of put does not apply. On an error (malformed
     * array: PMIX_ERR_BAD_PARAM) what was loaded before the bad element stays. */
    pmix_status_t (*register_nspace)(wu_gds_store_t *store, const char *nspace,
                                     const pmix_info_t info[], size_t ninfo);
    /* Remove a namespace and every value it holds. PMIX_ERR_NOT_FOUND if unknown. */
    pmix_status_t (*purge_nspace)(wu_gds_store_t *store, const char *nspace);

    /* Everything stored for (nspace, rank) as a malloc'd info array (*info NULL when *ninfo is
     * 0) the caller frees with PMIX_INFO_FREE: rank PMIX_RANK_WILDCARD gives the job-level data
     * (RFC0009 "another namespace"), a real rank that process's data (what a server sends of
     * a client to other nodes). PMIX_ERR_NOT_FOUND if the namespace or the rank is unknown. */
    pmix_status_t (*export_proc)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                                 pmix_info_t **info, size_t *ninfo);
    /* Hand each key and value stored for (nspace, rank) to fn, in no particular order and
     * without copying: val is the store's own, read only and valid during the call; fn must not
     * change the store. Same statuses as export_proc (an unknown rank gives PMIX_ERR_NOT_FOUND),
     * or the first status other than PMIX_SUCCESS that fn returns. What a server packs for
     * others, however large, is never copied into an array first. */
    pmix_status_t (*each_proc)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                               pmix_status_t (*fn)(const char *key, const pmix_value_t *val,
                                                   void *ctx),
                               void *ctx);
    /* Cache a received job-level set for a (foreign) namespace: each info is stored as
     * job-level data, replacing values of the same keys. The namespace is created if needed. */
    pmix_status_t (*import_job)(wu_gds_store_t *store, const char *nspace, const pmix_info_t info[],
                                size_t ninfo);
    /* Move a process's data set into the store: take_info for each of the n infos (so the
     * reserved-key rule applies), and the (nspace, rank) table exists afterwards even when n is
     * 0, so has_proc tells "this process committed (nothing, perhaps)" from "nothing known".
     * rank PMIX_RANK_WILDCARD does the same for job-level data. Infos taken are left PMIX_UNDEF;
     * on an error the infos before the bad one are stored. */
    pmix_status_t (*take_proc)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                               pmix_info_t info[], size_t n);
    /* Is there a table for (nspace, rank), i.e. was anything (or take_proc with nothing) stored
     * for it? With PMIX_RANK_WILDCARD: does the store hold the namespace's job-level data (an
     * import_job of an empty set counts)? */
    bool (*has_proc)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank);
    /* The namespaces whose job-level data the store holds, in the order they were first stored,
     * as a malloc'd NULL-terminated argv (*names NULL if there is none; free with
     * wu_argv_free). PMIX_ERR_NOMEM or PMIX_SUCCESS. */
    pmix_status_t (*job_nspaces)(wu_gds_store_t *store, char ***names);

    /* PMIx_Resolve_peers semantics (docs/architecture.md, "Resolving"), for one namespace:
     * unknown namespace -> PMIX_ERR_INVALID_NAMESPACE; node not among the namespace's nodes ->
     * PMIX_SUCCESS, NULL, 0; node with PMIX_LOCAL_PEERS -> PMIX_SUCCESS and the listed ranks
     * (NULL, 0 for a NULL or empty list); PMIX_LOCAL_PEERS absent -> rebuilt from the per-rank
     * PMIX_HOSTNAME (else PMIX_NODEID) data when any rank has it, else
     * PMIX_ERR_DATA_VALUE_NOT_FOUND. *procs is malloc'd (PMIX_PROC_FREE). A malformed peer list
     * gives PMIX_ERR_BAD_PARAM. */
    pmix_status_t (*resolve_peers)(wu_gds_store_t *store, const char *nspace, const char *node,
                                   pmix_proc_t **procs, size_t *nprocs);
    /* PMIx_Resolve_nodes: unknown namespace -> PMIX_ERR_INVALID_NAMESPACE; no nodes (or none
     * with a hostname) -> PMIX_SUCCESS, NULL; else a malloc'd comma-separated list of the
     * hostnames in the order the nodes were first registered. */
    pmix_status_t (*resolve_nodes)(wu_gds_store_t *store, const char *nspace, char **nodelist);

    /* Remove key from the table of (nspace, rank), rank a real rank: PMIX_SUCCESS, or
     * PMIX_ERR_NOT_FOUND if it was not there. */
    pmix_status_t (*purge_key)(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                               const char *key);

    /* Shared segments; NULL in a module without them (hash).
     *
     * seg_make (a server): lay out len bytes of a blob (wu_proto.h format) as one segment in a
     * sealed memfd: PMIX_SUCCESS with *fd (close-on-exec; the caller closes it) and nspace
     * (every record's namespace). PMIX_ERR_NOT_SUPPORTED when the blob cannot be one segment:
     * records of several namespaces, none at all, more than gds_shmem_segment_max bytes, or no
     * memfds here; the caller then sends the blob itself. Another error for a bad blob. */
    pmix_status_t (*seg_make)(const void *blob, size_t len, char nspace[PMIX_MAX_NSLEN + 1],
                              int *fd);
    /* seg_attach (a client): map the segment in fd (the caller keeps fd and may close it at
     * once) as the newest data of the ranks of nspace it holds: the values the store held
     * under the segment's keys for its ranks are dropped from the hash tables (what the host
     * registered for a rank, under other keys, stays), except for rank keep (the caller's own,
     * whose Puts stay); older segments are superseded rank by rank, and one no rank needs any
     * more is unmapped. Later fetch, has_proc look in the hash tables first (registered data,
     * and what came after the segment), then in the newest segment holding the rank, then in
     * the job segment (job_seg_attach);
     * fetch_view, export_proc and each_proc see only the hash tables.
     * PMIX_ERR_BAD_PARAM for a segment that is not sealed or not well formed. */
    pmix_status_t (*seg_attach)(wu_gds_store_t *store, const char *nspace, int fd,
                                pmix_rank_t keep);
    /* job_seg_make (a server): lay out the per-process data (PMIX_PROC_DATA arrays) of what a
     * host registered for a namespace (info as given to register_nspace, already loaded by it)
     * as one segment in a sealed memfd: PMIX_SUCCESS with *fd (close-on-exec; the caller keeps
     * it for the namespace's clients and closes it). PMIX_ERR_NOT_SUPPORTED when there is
     * nothing to lay out, more than gds_shmem_segment_max bytes, or no memfds here: the
     * clients then get the data with the rest of the registration. There is no lower bound:
     * mapping even a small segment costs a client less than unpacking and storing the arrays
     * (about 45 kB less private memory per client at 8 procs). */
    pmix_status_t (*job_seg_make)(const pmix_info_t info[], size_t ninfo, int *fd);
    /* job_seg_attach (a client): map the segment in fd (the caller keeps fd) as the registered
     * per-process data of nspace, in place of the PMIX_PROC_DATA arrays register_nspace would
     * load. A fetch of a real rank looks in the hash tables, then in the newest fence segment
     * holding the rank, then here; has_proc sees the segment's ranks. One per namespace: a
     * second replaces the first. Unmapped by purge_nspace and store_release.
     * PMIX_ERR_BAD_PARAM for a segment that is not sealed or not well formed. */
    pmix_status_t (*job_seg_attach)(wu_gds_store_t *store, const char *nspace, int fd);
} wu_gds_module_t;

extern wu_mca_framework_t wu_mca_gds_framework;

/* Open / close the framework (selects one component). */
int wu_gds_base_open(void);
void wu_gds_base_close(void);
/* The selected module; NULL if the framework is not open. */
const wu_gds_module_t *wu_gds_base_module(void);

/* Is key in the reserved "pmix" namespace without being a Standard-defined attribute (so put
 * must refuse it)? Shared by every component. */
WU_EXPORT bool wu_gds_base_key_reserved(const char *key);

#endif
