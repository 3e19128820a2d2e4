/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_connect_int.h -- shared by the three parts of the connect service (wu_rte_connect.h):
 * wu_rte_connect.c (the servers' requests and their answers, groups, ends),
 * wu_rte_connect_coll.c (the head's collective: who contributes, what each gets back) and
 * wu_rte_connect_xchg.c (the exchange with other wruns through the rendezvous directory).
 * Everything here runs on the rte thread. */
#ifndef WU_RTE_CONNECT_INT_H
#define WU_RTE_CONNECT_INT_H

#include "pmix/rte/core/wu_rte_coll.h"
#include "pmix/rte/svc/wu_rte_connect.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix.h"

#include <stdbool.h>
#include <stdint.h>

/* What a collective is: a connect, a disconnect, a fence over other wruns' processes too, a
 * group construct or destruct (collectives without data; a construct's answer is the group's
 * context id, the same at every member: within one wrun the head's counter gives it; a group
 * with other wruns' processes takes one from the rendezvous that every wrun of it computes
 * alike, with the top bit set so that it never meets a counter's). */
enum { K_CONNECT = 0, K_DISCONNECT = 1, K_FENCE = 2, K_GROUP = 3, K_GROUP_END = 4 };

/* A request of this node's server, and whom to answer. */
typedef struct {
    uint8_t kind;
    char *grp; /* a group's name, else "" */
    pmix_proc_t *procs;
    size_t nprocs;
    int timeout;
    char *lblob, *rblob;
    size_t nl, nr;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
} creq_t;

/* What a node gave: its host's name, its participants' data, and whom to answer. */
typedef struct {
    char *host;
    char *lblob, *rblob;
    size_t nl, nr;
    wu_rte_rpc_t *call; /* a daemon's request */
    creq_t *local;      /* the head's own */
} part_t;

/* What another wrun wrote for the same collective. */
typedef struct {
    wu_list_item_t super;
    char *name;        /* its file */
    char **ns;         /* the namespaces it speaks for */
    pmix_info_t **job; /* their job data */
    size_t *njob;
    size_t nparts;
    char **host;
    char **lblob, **rblob;
    size_t *nl, *nr;
} theirs_t;

/* One collective on the head: the engine's collection (kind, the participant set and group
 * name as key), whose slots are the servers holding participants. The launcher's job's map
 * nodes are slots 0..nmain-1 (the head's server among them); a spawned job with daemons of its
 * own has a slot per node of its map from kbase[k] on (its part on the head node is the head's
 * slot). A slot that has contributed is from[slot] with its part in parts[slot]. */
typedef struct {
    wu_rte_coll_t super;
    pmix_proc_t *procs;
    size_t nprocs;
    uint32_t nmain;
    part_t *parts;
    char **foreign;   /* namespaces of other wruns among the participants */
    char **kids;      /* namespaces of this wrun's spawned jobs among them */
    uint32_t *kbase;  /* per kid: its first slot, UINT32_MAX when it has no daemons */
    bool exchanging;  /* every slot is in: meeting the other wruns */
    char prefix[64];  /* of the rendezvous files of this collective */
    char mine[128];   /* ours */
    wu_list_t theirs; /* theirs_t, the last read first */
    uint64_t ctxid;   /* a group construct's context id, given when it completes */
} cx_t;

/* wu_rte_connect.c */
pmix_status_t wu_rte_cx_put_infos(wu_dmsg_t *m, const pmix_info_t *info, size_t n);
pmix_status_t wu_rte_cx_get_infos(wu_dmsg_t *m, pmix_info_t **info, size_t *n);
/* A foreign namespace's job data made for host: its processes on host are its local peers. */
pmix_status_t wu_rte_cx_for_host(const pmix_info_t *in, size_t n, const char *host,
                                 pmix_info_t **out, size_t *nout);
/* Answer r with status, the blob (taken) and the foreign namespaces' job data (nf of them, in
 * ns[] and infos[], made for this node by the caller); r is freed. */
void wu_rte_cx_answer_local(creq_t *r, pmix_status_t status, char *blob, size_t nblob, size_t nf,
                            char *const *ns, pmix_info_t *const *infos, const size_t *ninfos);
void wu_rte_cx_creq_free(creq_t *r);

/* wu_rte_connect_coll.c */
/* Node `node` of dvm's job (dvm NULL: the head itself) contributes to the collective of kind
 * over procs (group grp, "" if none). Takes host and the blobs; answers call or local. */
void wu_rte_cx_contribute(const struct rte_dvm *dvm, uint32_t node, uint8_t kind, const char *grp,
                          const pmix_proc_t *procs, size_t nprocs, int timeout, char *host,
                          char *lblob, size_t nl, char *rblob, size_t nr, wu_rte_rpc_t *call,
                          creq_t *local);
/* Answer every slot of c with status (its data on success), and close c. */
void wu_rte_cx_finish(cx_t *c, pmix_status_t status);
/* The open collectives (their set, set up on first use; NULL if out of memory). */
wu_rte_colls_t *wu_rte_cx_colls(void);
/* Fail the collectives proc takes part in; fail them all. */
void wu_rte_cx_proc_ended(const pmix_proc_t *proc);
void wu_rte_cx_fail_all(pmix_status_t status);

/* wu_rte_connect_xchg.c */
WU_CLASS_DECLARATION(theirs_t);
/* Every slot of c is in and other wruns take part: write ours, read theirs, finish c once they
 * are all there. */
void wu_rte_cx_exchange_start(cx_t *c);
/* c ends: the context id of a group met through the rendezvous. */
uint64_t wu_rte_cx_exchange_ctxid(const cx_t *c);
/* A collective ended: keep watching the directory while any other exchanges. */
void wu_rte_cx_exchange_rewatch(void);
/* The launcher's job ended: forget the collectives' counts. */
void wu_rte_cx_exchange_forget(void);

#endif
