/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_beat.h -- the liveness check on the connections of the launch tree (wrun and its
 * first-level daemons, each relay and the daemons it started): every interval each side sends
 * BEAT to the other, and a peer from which nothing came for misses intervals is lost
 * (wu_rte_beat.c). */
#ifndef WU_RTE_BEAT_H
#define WU_RTE_BEAT_H

#include "mca/ptl/ptl.h"
#include "opal/event/wu_progress.h"
#include "opal/util/wu_time.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Register rte_base_heartbeat_interval and rte_base_heartbeat_misses (once; wu_rte_init does). */
int wu_rte_beat_register(void);
/* Seconds of silence after which a peer is lost (interval times misses; 0: the check is off). */
double wu_rte_beat_limit(void);

/* What one side knows of one peer. */
typedef struct wu_rte_beat_peer {
    double heard;   /* when anything last came from it (wu_time_now) */
    uint64_t rx;    /* the bytes received from it then (wu_ptl_conn_rx_bytes) */
    double silence; /* the silence that made it lost (seconds), 0 while it is not */
} wu_rte_beat_peer_t;

/* A message came from the peer (or its HELLO): rx bytes came from it so far. */
static inline void wu_rte_beat_heard(wu_rte_beat_peer_t *p, uint64_t rx)
{
    p->heard = wu_time_now();
    p->rx = rx;
}
/* Is the peer lost at `now`, silent for longer than limit seconds (0: never)? rx: the bytes
 * received from it so far; any byte is a sign of life, not only BEAT: bytes that came since the
 * last message (a long frame arriving) count as heard now. The first time it is lost, p->silence records for how long and true is returned;
 * false after that. */
bool wu_rte_beat_lost(wu_rte_beat_peer_t *p, uint64_t rx, double now, double limit);
/* Was a tick due at `last` + interval late by more than half an interval at `now` (our own
 * thread was busy or the process stopped)? Then what the peers sent meanwhile is not read yet,
 * and nobody is judged on that tick. */
bool wu_rte_beat_late(double last, double now, double interval);
/* "stopped answering, no message for N s", for the messages naming a lost peer. */
const char *wu_rte_beat_why(const wu_rte_beat_peer_t *p, char *buf, size_t size);

/* The ticker: tick(arg, now, judge) on pt's thread every interval; judge is false on a late tick
 * (wu_rte_beat_late). A tick sends BEAT to each peer (wu_rte_beat_send) and, if judge, checks each
 * with wu_rte_beat_lost. */
typedef void (*wu_rte_beat_tick_fn)(void *arg, double now, bool judge);
typedef struct wu_rte_beat wu_rte_beat_t;
/* Any thread: start the ticker (NULL: the check is off, or no memory: no check). */
wu_rte_beat_t *wu_rte_beat_start(wu_progress_t *pt, wu_rte_beat_tick_fn tick, void *arg);
/* Any thread but from within tick: stop it and free it; no tick runs afterwards. NULL: no-op. */
void wu_rte_beat_stop(wu_rte_beat_t *b);
/* Send BEAT (an empty frame) on c; dropped if c is gone. */
void wu_rte_beat_send(wu_ptl_conn_t *c);

#endif
