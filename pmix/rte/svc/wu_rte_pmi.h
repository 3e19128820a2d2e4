/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pmi.h -- the PMI-1/PMI-2 server of a node (wu_rte_pmi.c: connections and I/O;
 * wu_rte_pmi_cmds.c: the commands, the key-value space and barriers; wu_rte_pmi_dpm.c: name
 * service and spawn). The rte calls the
 * functions declared in wu_rte_internal.h; what is below is shared by the two files. */
#ifndef WU_RTE_PMI_H
#define WU_RTE_PMI_H

#include "opal/class/wu_hash_table.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix/rte/svc/wu_rte_pmi_wire.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event;
typedef struct rte_pmi rte_pmi_t;

/* One local process's connection. */
typedef struct pmi_conn {
    rte_pmi_t *pmi;
    uint32_t rank;
    int fd;       /* ours; -1 once closed */
    int child_fd; /* the process's end until it started; -1 after */
    struct event *ev, *wev;
    char *in, *out;
    size_t inlen, incap, outlen, outoff, outcap;
    bool v2;             /* it said init with pmi_version 2: messages carry lengths */
    bool inited;         /* init (or fullinit) done */
    bool finalized;      /* finalize done */
    bool ended;          /* the process ended */
    bool in_barrier;     /* waiting in barrier_in / kvs-fence */
    wu_pmi_wire_t bwire; /* the barrier request's format */
    char *thrid;         /* PMI-2: the waiting request's thrid, echoed in the answer */
    char *wait_key;      /* PMI-2 info-getnodeattr with wait: the key it waits for */
    char *wait_thrid;
} pmi_conn_t;

struct rte_pmi {
    rte_job_t *job;
    uint32_t n;             /* local processes */
    pmi_conn_t *conns;      /* by local index */
    wu_hash_table_t *kvs;   /* key -> value (malloc'd) */
    wu_hash_table_t *nattr; /* node attributes */
    size_t kvs_bytes;       /* keys and values held, bounded by WU_PMI_KVS_MAX */
    char *fresh;            /* puts since the last barrier, for the other nodes (records) */
    size_t nfresh, capfresh;
    bool coll;     /* the fence across nodes runs */
    char *mapping; /* PMI_process_mapping, made on first use ("" when it does not fit) */
};

/* The most bytes of keys and values a job's key-value space holds on one node. */
#define WU_PMI_KVS_MAX ((size_t)256 << 20)

/* wu_rte_pmi.c: queue an answer (ended here, freed). */
void wu_rte_pmi_send(pmi_conn_t *c, wu_pmi_out_t *o);
void wu_rte_pmi_close(pmi_conn_t *c);

/* wu_rte_pmi_cmds.c: an answer's start (cmd, and a PMI-2 thrid when not NULL); a failure
 * answer (rc=-1 and why, spaces made '_'). */
void wu_rte_pmi_answer_begin(wu_pmi_out_t *o, wu_pmi_wire_t wire, const char *thrid,
                             const char *cmd);
void wu_rte_pmi_fail(pmi_conn_t *c, wu_pmi_wire_t wire, const char *thrid, const char *cmd,
                     const char *why);
/* wu_rte_pmi_dpm.c: PMI-1 publish_name, unpublish_name, lookup_name and PMI-2 name-publish,
 * name-unpublish, name-lookup, served by the launcher's data service (answered later). */
void wu_rte_pmi_names(pmi_conn_t *c, const wu_pmi_msg_t *m);
/* wu_rte_pmi_dpm.c: a spawn (PMI-1 mcmd=spawn, PMI-2 spawn), answered once the job started. */
void wu_rte_pmi_spawn(pmi_conn_t *c, const wu_pmi_msg_t *m);
/* wu_rte_pmi_cmds.c: the job's preput values (WU_PMI_PREPUT_* in its contexts' environment)
 * into p's key-value space (main thread, at set-up). */
void wu_rte_pmi_preputs(rte_pmi_t *p);

/* wu_rte_pmi_cmds.c: answer one message (false: the connection was closed); say once that the
 * process sent something unusable and close its connection; its connection ended (lost before
 * finalize counts as for PMIx clients); see whether the barrier is complete. */
bool wu_rte_pmi_command(pmi_conn_t *c, const wu_pmi_msg_t *m);
void wu_rte_pmi_bad(pmi_conn_t *c, const char *what);
void wu_rte_pmi_lost(pmi_conn_t *c);
void wu_rte_pmi_check_barrier(rte_pmi_t *p);

/* wu_rte_pmi_cmds.c, rte thread: what this node's processes wait for in PMI (a barrier, a node
 * attribute), one line each appended to *lines, for --timeout's report. */
void wu_rte_pmi_blocked(rte_job_t *job, char ***lines);

#endif
