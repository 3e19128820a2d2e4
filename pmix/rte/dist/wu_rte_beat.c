/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_beat.c -- the liveness check of the launch tree's connections: the parameters, the
 * bookkeeping of a peer's last sign of life, and the ticker.
 *
 * TCP keepalive does not see a process that stopped (SIGSTOP, a hung file system, a debugger):
 * its kernel still acknowledges. So each side of a connection of the launch tree (wrun and a
 * first-level daemon, a relay and a daemon it started) sends BEAT, an empty frame, every
 * rte_base_heartbeat_interval seconds, and notes when anything last came from the other side
 * (a message when it is delivered, the bytes of one still arriving at the next tick); the side
 * that heard nothing for rte_base_heartbeat_misses intervals declares the peer lost (the owners
 * of the connections do what that means: wu_rte_dvm.c, wu_rte_relay.c, wu_rte_daemon.c). One ticker per owner scans only its own connections (a process's children
 * in the tree and its parent), and a beat costs one 12-byte frame, no allocation. Beats are sent
 * and read by the rte progress thread, which runs no user code: ranks that keep every core busy
 * do not stop it. A tick that comes late (the thread itself was held up) judges nobody, since
 * what the peers sent meanwhile waits to be read. */
#include "pmix/rte/dist/wu_rte_beat.h"
#include "opal/event/wu_wait.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>

static int interval = 2;
static int misses = 5;

static const wu_mca_param_t beat_params[] = {
    WU_PARAM_INT_RANGE("heartbeat_interval", &interval, 0, 3600, WU_INFO_LVL_4,
                       "Seconds between the heartbeats that wrun and the daemons of the launch "
                       "tree send each other (0: no liveness check)"),
    WU_PARAM_INT_RANGE("heartbeat_misses", &misses, 2, 1000, WU_INFO_LVL_4,
                       "Heartbeat intervals without a byte from a daemon (or from its parent) "
                       "after which it is declared lost"),
    WU_PARAM_END};

/* Put a parameter that is not at its default in our environment, from which the daemons we
 * start take theirs (wu_rte_spawn.c): both ends of a connection then agree (wrun's --mca sets
 * only wrun's own value). */
static void pass_on(const char *name, int value, int dflt)
{
    char var[64], val[16];
    snprintf(var, sizeof var, "PMIX_MCA_rte_base_%s", name);
    snprintf(val, sizeof val, "%d", value);
    if (value != dflt) {
        (void)setenv(var, val, 1);
    }
}

int wu_rte_beat_register(void)
{
    static bool done = false;
    int rc = WU_SUCCESS;
    if (!done) {
        rc = wu_mca_param_register_table("rte", "base", beat_params);
        done = WU_SUCCESS == rc;
        if (done) {
            pass_on("heartbeat_interval", interval, 2);
            pass_on("heartbeat_misses", misses, 5);
        }
    }
    return rc;
}

double wu_rte_beat_limit(void)
{
    return (double)interval * (double)misses;
}

bool wu_rte_beat_lost(wu_rte_beat_peer_t *p, uint64_t rx, double now, double limit)
{
    if (rx != p->rx) {
        p->rx = rx;
        p->heard = now;
    }
    if (limit <= 0 || p->silence > 0 || now - p->heard <= limit) {
        return false;
    }
    p->silence = now - p->heard;
    return true;
}

bool wu_rte_beat_late(double last, double now, double iv)
{
    return now - last > 1.5 * iv;
}

const char *wu_rte_beat_why(const wu_rte_beat_peer_t *p, char *buf, size_t size)
{
    snprintf(buf, size, "stopped answering, no message for %.0f s", p->silence);
    return buf;
}

struct wu_rte_beat {
    wu_progress_t *pt;
    struct event *ev;
    wu_rte_beat_tick_fn tick;
    void *arg;
    double iv;
    double last; /* when the previous tick ran */
};

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    wu_rte_beat_t *b = arg;
    double now = wu_time_now();
    bool judge = !wu_rte_beat_late(b->last, now, b->iv);
    (void)fd;
    (void)what;
    b->last = now;
    b->tick(b->arg, now, judge);
}

typedef struct {
    wu_rte_beat_t *b;
    bool start;
} beat_op_t;

static void beat_op(wu_rte_beat_t *b, bool start)
{
    if (start) {
        struct timeval tv = {.tv_sec = (time_t)b->iv, .tv_usec = 0};
        b->ev = event_new(wu_progress_base(b->pt), -1, EV_PERSIST, on_tick, b);
        b->last = wu_time_now();
        if (NULL != b->ev && 0 != event_add(b->ev, &tv)) {
            event_free(b->ev);
            b->ev = NULL;
        }
    } else if (NULL != b->ev) {
        event_free(b->ev); /* deletes it first */
        b->ev = NULL;
    }
}

static void beat_op_in(wu_wait_call_t *call)
{
    beat_op_t *op = call->cbdata;
    beat_op(op->b, op->start);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Run the start or stop on pt's thread (at once if this is it). */
static void on_thread(wu_rte_beat_t *b, bool start)
{
    beat_op_t op = {.b = b, .start = start};
    if (wu_progress_in_thread(b->pt)) {
        beat_op(b, start);
    } else if (WU_SUCCESS != wu_progress_shift_wait(b->pt, beat_op_in, &op, 0) && !start &&
               NULL != b->ev) {
        event_free(b->ev); /* the loop is stopping: nothing runs it any more */
        b->ev = NULL;
    }
}

wu_rte_beat_t *wu_rte_beat_start(wu_progress_t *pt, wu_rte_beat_tick_fn tick, void *arg)
{
    wu_rte_beat_t *b;
    if (interval <= 0 || NULL == pt || NULL == (b = calloc(1, sizeof *b))) {
        return NULL;
    }
    *b = (wu_rte_beat_t){.pt = pt, .tick = tick, .arg = arg, .iv = (double)interval};
    on_thread(b, true);
    if (NULL == b->ev) {
        free(b);
        return NULL;
    }
    return b;
}

void wu_rte_beat_stop(wu_rte_beat_t *b)
{
    if (NULL != b) {
        on_thread(b, false);
        free(b);
    }
}

void wu_rte_beat_send(wu_ptl_conn_t *c)
{
    if (NULL != c) {
        (void)wu_ptl_send(c, WU_DMSG_BEAT, 0, NULL, 0);
    }
}
