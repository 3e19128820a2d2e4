/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_daemon_int.h -- shared by the two parts of the daemon side (wired):
 * wu_rte_daemon.c (its life: connecting to its parent, its subtree of the launch tree, the
 * server's upcalls, this node's side of the job) and wu_rte_daemon_msg.c (the messages from the
 * head and the requests they start). */
#ifndef WU_RTE_DAEMON_INT_H
#define WU_RTE_DAEMON_INT_H

#include "mca/ptl/ptl.h"
#include "opal/class/wu_list.h"
#include "pmix/rte/dist/wu_rte_beat.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_relay.h"
#include "pmix/rte/dist/wu_rte_wired.h"

#include <stdbool.h>
#include <stdint.h>

struct rte_daemon {
    uint32_t node;
    wu_ptl_conn_t *conn;
    wu_wait_t launched; /* LAUNCH arrived (or the head is gone) */
    bool launched_done;
    wu_wait_t end; /* SHUTDOWN arrived, or the head is gone */
    bool end_done;
    wu_wait_t closed; /* the connection's closed callback has run */
    bool head_lost;
    bool terminate; /* TERMINATE came before the job ran */
    bool shutdown;  /* SHUTDOWN came (or the head is gone): the job may be removed */
    char *nspace;
    wu_rte_spec_t *app;
    wu_rte_jobmap_t *map;
    uint32_t map_node;
    pmix_proc_t parent;      /* who spawned the job (empty namespace: nobody) */
    wu_list_t *fences, *dmx; /* this node's fences and direct-modex requests waiting (wu_dmsg.h) */
    wu_list_t early;         /* requests about this node's procs before the job was registered */
    wu_list_t din;           /* standard input for this node's ranks, one item per rank */
    uint64_t next_id;
    wu_rte_tree_t tree;    /* the daemons this one starts (and their agents, ssh), if any */
    wu_rte_relay_t *relay; /* their connections to us */
    wu_wait_t agents_done;
    wu_rte_beat_peer_t beat; /* when the parent last sent anything */
    wu_rte_beat_t *ticker;   /* our heartbeats to it (NULL: no check) */
};

/* wu_rte_daemon.c */
/* This process's daemon (NULL before it starts and after it ends). */
struct rte_daemon *wu_rte_daemon_self(void);
/* Release w (WU_SUCCESS) unless *flag says it was released already. */
void wu_rte_daemon_release_once(wu_wait_t *w, bool *flag);
/* Send m up to the parent (if packed is PMIX_SUCCESS and the parent is there); m is destructed. */
void wu_rte_daemon_send_msg(struct rte_daemon *d, uint32_t type, wu_dmsg_t *m,
                            pmix_status_t packed);
/* The job is over here: its registration and session directory go. */
void wu_rte_daemon_release_job(rte_job_t *job);

/* wu_rte_daemon_msg.c */
/* The parent connection's callbacks, and the heartbeat's tick (wu_rte_beat.h). */
void wu_rte_daemon_on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload,
                           size_t len, void *cbdata);
void wu_rte_daemon_on_closed(wu_ptl_conn_t *c, int status, void *cbdata);
void wu_rte_daemon_beat_tick(void *arg, double now, bool judge);
/* This node's side of the job (rte_role_t): the job is registered (serve the requests that came
 * before), its processes are launched (standard input may flow), input stops, the job is being
 * terminated. */
void wu_rte_daemon_registered(rte_job_t *job);
void wu_rte_daemon_stdin_launched(rte_job_t *job);
void wu_rte_daemon_stdin_stop(rte_job_t *job);
bool wu_rte_daemon_terminating(const rte_job_t *job);
/* Set up d's lists of input and early requests; the daemon ends: free what they still hold. */
void wu_rte_daemon_msg_init(struct rte_daemon *d);
void wu_rte_daemon_msg_fini(struct rte_daemon *d);
/* Report threads: n more (or fewer) running; wait up to limit seconds for none to run. */
void wu_rte_daemon_reports_add(int n);
void wu_rte_daemon_reports_wait(double limit);

#endif
