/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dvm_int.h -- shared by the parts of the head node's side of the daemons:
 * wu_rte_dvm.c (starting them, sending to them, losing them, stopping them),
 * wu_rte_dvm_agents.c (the launch agents until the daemons call back), wu_rte_dvm_msg.c
 * (their messages, and the requests that wait for their answers) and wu_rte_dvm_coll.c (fences
 * and direct-modex requests across nodes). Everything here is used on the rte progress thread. */
#ifndef WU_RTE_DVM_INT_H
#define WU_RTE_DVM_INT_H

#include "mca/ptl/ptl.h"
#include "pmix/rte/dist/wu_rte_beat.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "pmix/rte/core/wu_rte_coll.h"

typedef struct dvm_node {
    struct rte_dvm *dvm;
    uint32_t node;       /* its index in the job map */
    uint32_t via;        /* the index in d of the first-level daemon that relays for it (its own
                            at the first level) */
    bool hello;          /* its HELLO was accepted */
    wu_ptl_conn_t *conn; /* first level: its daemon's connection, once HELLO was accepted (a
                            reference); NULL deeper in the tree */
    bool agent_ended;    /* its ssh ended */
    bool started;        /* it reported its processes started (PIDS), or ended, after LAUNCH */
    bool local_done;     /* it reported the end of every process it ran */
    bool lost;           /* its connection ended before that (or it failed) */
    bool closed;         /* its connection is gone */
    char *host;          /* the host name its daemon reported in HELLO (escaped) */
    char *early;         /* what its agent wrote before the daemon called back (bounded) */
    char *why;           /* the launch system's words on its agent's failure (escaped), or NULL */
    size_t nearly;
    wu_rte_beat_peer_t beat; /* first level: when its connection last carried anything */
} dvm_node_t;

struct rte_dvm {
    rte_job_t *job;
    char token[33];
    wu_ptl_listener_t *listener;
    wu_rte_tree_t tree; /* the daemons in d's order, the first level's agents (ssh) */
    dvm_node_t *d;
    uint32_t nd;
    uint32_t *by_node; /* map node -> index into d, UINT32_MAX: none (the head's own) */
    uint32_t nhello;   /* daemons whose HELLO was accepted */
    uint32_t nconn;    /* first-level connections accepted */
    wu_wait_t ready;   /* every daemon said HELLO, or one failed */
    bool ready_done;
    bool stopping;
    uint32_t nclosed;
    wu_wait_t closed; /* at stop: every connection has ended */
    bool closed_done;
    wu_wait_t agents_done;
    wu_rte_colls_t fences; /* fences being collected (wu_rte_dvm_coll.c) */
    wu_list_t *dmx;        /* this node's direct-modex requests waiting (wu_rte_dmsg.h) */
    wu_list_t early;       /* requests about this node's procs before it registered them */
    uint64_t next_id;
    char **lost_too;      /* nodes lost after the job's end was decided (the first few) */
    uint32_t nlost_too;   /* how many */
    char **report;        /* --timeout: the daemons' lines so far */
    char **env_later;     /* variables for the daemons too large for their command line */
    uint32_t nreport;     /* daemons that answered */
    uint32_t report_want; /* daemons asked */
    wu_wait_t report_wait;
    wu_rte_beat_t *beat;      /* the first level's heartbeats (NULL: no check) */
    wu_timer_t *launch_timer; /* rte_base_launch_timeout after LAUNCH, or NULL */
};

/* Send m (destructed here; NULL: no payload) to the daemon of map node `node`, through the
 * relays of the launch tree; dropped if it cannot be reached. */
void wu_rte_dvm_send_to(struct rte_dvm *dvm, uint32_t node, uint32_t type, wu_dmsg_t *m);
/* Send m (destructed here) to the daemons of the map nodes marked in to[]: once to each
 * first-level daemon whose branch of the tree holds any, which passes it down its branch
 * (daemons that were not meant to get it find nothing it is for). */
void wu_rte_dvm_send_many(struct rte_dvm *dvm, const bool *to, uint32_t type, wu_dmsg_t *m);
/* A message to every daemon but skip's (map node; WU_DMSG_ALL: none): one FWD_DOWN to each
 * first-level daemon, which handles it and passes it down its subtree. */
void wu_rte_dvm_send_everyone(struct rte_dvm *dvm, uint32_t skip, uint32_t type, const void *p,
                              size_t len);
/* An event to every daemon of every job but skip's (map node of from; WU_DMSG_ALL: none). */
void wu_rte_dvm_event_everyone(struct rte_dvm *from, uint32_t skip, const char *msg, size_t len);
/* Is dvm one of the running jobs' (it may have been freed otherwise)? */
bool wu_rte_dvm_live(const struct rte_dvm *dvm);
/* The daemon cbdata names, if it is a node of a running job's daemons; NULL otherwise. */
dvm_node_t *wu_rte_dvm_live_node(void *cbdata);
/* The daemon of map node `node`, or NULL (the head's own node, or none). */
dvm_node_t *wu_rte_dvm_node_of(const struct rte_dvm *dvm, uint32_t node);
/* Release w with rc unless *flag says it was released already. */
void wu_rte_dvm_release_once(wu_wait_t *w, bool *flag, int rc);
/* A daemon sent what no daemon of ours sends: its connection (its relay's, deeper in the
 * tree) is closed, which ends the job naming the node. */
void wu_rte_dvm_bad_peer(dvm_node_t *n);
/* n's daemon is lost (why: for the message, NULL when already said): its processes count as
 * ended, and the job ends with a failure. */
void wu_rte_dvm_node_lost(dvm_node_t *n, const char *why);
/* n's daemon reports that every process it was to run has ended: those it did not report
 * never started (the job ended before they could) and are accounted for as ended. */
void wu_rte_dvm_node_done(dvm_node_t *n);

/* wu_rte_dvm_agents.c: the callbacks of the agents' pls job (agents->user is the dvm). */
wu_pls_callbacks_t wu_rte_dvm_agent_callbacks(void);

/* wu_rte_dvm_msg.c: the listener's callbacks (a first-level daemon's frames), the heartbeat's
 * tick (wu_rte_beat.h), and the head role's stdin_to and report (wu_rte_job.h). */
void wu_rte_dvm_on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload,
                        size_t len, void *cbdata);
void wu_rte_dvm_on_closed(wu_ptl_conn_t *c, int status, void *cbdata);
void wu_rte_dvm_beat_tick(void *arg, double now, bool judge);
void wu_rte_dvm_stdin(rte_job_t *job, uint32_t rank, const char *data, size_t len);
void wu_rte_dvm_report(rte_job_t *job, char ***lines);
/* Can the daemon of map node `node` be sent to (it said HELLO; its relays are connected)? */
bool wu_rte_dvm_reachable(const struct rte_dvm *dvm, uint32_t node);

/* wu_rte_dvm_coll.c: the job is registered with this node's server: serve the direct-modex
 * requests that came before; a rank of the job ended: fences it can no longer join fail (both
 * rte thread, through the head's rte_role_t). */
void wu_rte_dvm_registered(rte_job_t *job);
void wu_rte_dvm_proc_ended(rte_job_t *job, uint32_t rank);
/* wu_rte_dvm_coll.c: a daemon's messages about fences and direct modex. */
void wu_rte_dvm_on_fence(struct rte_dvm *dvm, uint32_t node, wu_dmsg_t *m);
/* FENCE_AGG of a first-level relay whose branch (itself included) is branch[] (per map node);
 * false if it does not decode or names a node outside it. */
bool wu_rte_dvm_on_fence_agg(struct rte_dvm *dvm, const bool *branch, wu_dmsg_t *m);
void wu_rte_dvm_on_dmodex_req(struct rte_dvm *dvm, uint32_t node, wu_dmsg_t *m);
void wu_rte_dvm_on_dmodex_rep(struct rte_dvm *dvm, wu_dmsg_t *m);
/* Set up dvm's fences (WU_ERR_NOMEM); fail every fence and request still open and take no more
 * fences (the job is stopping). */
int wu_rte_dvm_coll_init(struct rte_dvm *dvm);
void wu_rte_dvm_coll_stop(struct rte_dvm *dvm);

#endif
