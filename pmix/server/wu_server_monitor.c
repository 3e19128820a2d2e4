/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_monitor.c -- PMIx_Process_monitor in the server (WU_CMD_MONITOR): heartbeat and file
 * monitors, watched by the server library itself under any host (as OpenPMIx's server does),
 * and every other kind of monitor handed to the host's monitor upcall.
 *
 * - PMIX_MONITOR_HEARTBEAT: the process promises a heartbeat (PMIx_Heartbeat, a
 *   PMIX_SEND_HEARTBEAT request) every PMIX_MONITOR_HEARTBEAT_TIME seconds. Each period without
 *   one is a miss; after PMIX_MONITOR_HEARTBEAT_DROPS misses in a row (default 1) it trips.
 * - PMIX_MONITOR_FILE: an absolute path, checked every PMIX_MONITOR_FILE_CHECK_TIME seconds; a
 *   check at which none of the watched properties changed (PMIX_MONITOR_FILE_SIZE, _ACCESS,
 *   _MODIFY: size, access time, modification time; size and modification when none is named)
 *   is a miss, and PMIX_MONITOR_FILE_DROPS misses (default 1) trip it. A file that cannot be
 *   read any more is a miss too.
 * - A monitor that trips raises the status the request named (PMIX_MONITOR_HEARTBEAT_ALERT,
 *   PMIX_MONITOR_FILE_ALERT, ...) as an event of the watched process: range
 *   PMIX_RANGE_NAMESPACE, with PMIX_EVENT_AFFECTED_PROC and PMIX_MONITOR_ID (when the request
 *   gave one). It reaches the job's processes on this node and the host's notify_event upcall.
 *   The monitor then ends: one alert, no storm.
 * - PMIX_MONITOR_CANCEL ends the requester's monitors of that PMIX_MONITOR_ID (all of them for
 *   an empty or no id); PMIX_ERR_NOT_FOUND when none was there.
 * - A process's monitors end when it finalizes, disconnects or is deregistered.
 * Bounds: at most WU_SRV_MON_MAX monitors per process, periods of 1 s to a day, a path of at
 * most PATH_MAX. A server whose user is not the client's watches only files the client owns. */
#include "opal/event/wu_progress.h"
#include "opal/util/wu_output.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WU_SRV_MON_MAX     64
#define WU_SRV_MON_MAX_SEC 86400u

typedef struct wu_srv_mon {
    struct wu_srv_mon *next;
    pmix_proc_t proc;    /* the process watched (the requester) */
    char *id;            /* PMIX_MONITOR_ID, or NULL */
    pmix_status_t error; /* what to raise when it trips */
    uint32_t period;     /* seconds between checks */
    uint32_t drops;      /* misses in a row that trip it */
    uint32_t missed;
    bool beat;  /* heartbeat: one came since the last check */
    char *path; /* file: what is watched (NULL for a heartbeat) */
    bool size, atime, mtime;
    bool seen; /* file: a first stat was made */
    struct stat last;
    wu_timer_t *timer;
} wu_srv_mon_t;

static wu_srv_mon_t *monitors;

static void mon_free(wu_srv_mon_t *m)
{
    if (NULL != m->timer) {
        (void)wu_progress_timer_cancel(m->timer);
    }
    free(m->id);
    free(m->path);
    free(m);
}

/* Unlink m from the list (progress thread). */
static void mon_unlink(wu_srv_mon_t *m)
{
    for (wu_srv_mon_t **pp = &monitors; NULL != *pp; pp = &(*pp)->next) {
        if (*pp == m) {
            *pp = m->next;
            return;
        }
    }
}

static void notified(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

/* Raise m's alert as an event of the watched process. */
static void mon_trip(const wu_srv_mon_t *m)
{
    pmix_info_t info[2];
    size_t n = 0;
    char who[PMIX_MAX_NSLEN + 16];

    wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: monitor %s of %s tripped (%s)",
                      NULL != m->id ? m->id : "(no id)", wu_srv_proc_str(&m->proc, who, sizeof who),
                      NULL != m->path ? m->path : "heartbeat");
    PMIx_Info_load(&info[n++], PMIX_EVENT_AFFECTED_PROC, &m->proc, PMIX_PROC);
    if (NULL != m->id) {
        PMIx_Info_load(&info[n++], PMIX_MONITOR_ID, m->id, PMIX_STRING);
    }
    (void)PMIx_Notify_event(m->error, &m->proc, PMIX_RANGE_NAMESPACE, info, n, notified, NULL);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

static bool ts_equal(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Did the file move on since the last check (or could it not be read)? */
static bool file_moved(wu_srv_mon_t *m)
{
    struct stat st;
    bool moved;
    if (0 != stat(m->path, &st)) {
        return false;
    }
    moved = !m->seen || (m->size && st.st_size != m->last.st_size) ||
            (m->atime && !ts_equal(st.st_atim, m->last.st_atim)) ||
            (m->mtime && !ts_equal(st.st_mtim, m->last.st_mtim));
    m->last = st;
    m->seen = true;
    return moved;
}

static void mon_check(void *arg)
{
    wu_srv_mon_t *m = arg;
    bool alive = NULL != m->path ? file_moved(m) : m->beat;

    (void)wu_progress_timer_cancel(m->timer); /* fired: release the handle */
    m->timer = NULL;
    m->beat = false;
    m->missed = alive ? 0 : m->missed + 1;
    if (m->missed >= m->drops) {
        mon_trip(m);
        mon_unlink(m);
        mon_free(m);
        return;
    }
    m->timer = wu_progress_timer(wu_srv.pt, (double)m->period, mon_check, m);
    if (NULL == m->timer) {
        mon_unlink(m); /* stopping: the monitor ends with the server */
        mon_free(m);
    }
}

static size_t count_of(const pmix_proc_t *proc)
{
    size_t n = 0;
    for (const wu_srv_mon_t *m = monitors; NULL != m; m = m->next) {
        n += PMIX_CHECK_PROCID(&m->proc, proc) ? 1 : 0;
    }
    return n;
}

/* A uint32 directive in [1, WU_SRV_MON_MAX_SEC]: *out set when present; false if malformed. */
static bool dir_u32(const pmix_info_t *dirs, size_t n, const char *key, uint32_t *out)
{
    const pmix_info_t *i = wu_info_find(dirs, n, key);
    long long v;
    if (NULL == i) {
        return true;
    }
    if (!wu_srv_info_int(i, &v) || v < 1 || v > WU_SRV_MON_MAX_SEC) {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* A new heartbeat or file monitor of cl from the request; PMIx status. */
static pmix_status_t mon_start(const wu_srv_client_t *cl, const pmix_info_t *what,
                               pmix_status_t error, const pmix_info_t *dirs, size_t ndirs)
{
    bool file = PMIX_CHECK_KEY(what, PMIX_MONITOR_FILE);
    const pmix_info_t *id = wu_info_find(dirs, ndirs, PMIX_MONITOR_ID);
    wu_srv_mon_t *m;
    uint32_t period = 0, drops = 1;

    if (!dir_u32(dirs, ndirs, file ? PMIX_MONITOR_FILE_CHECK_TIME : PMIX_MONITOR_HEARTBEAT_TIME,
                 &period) ||
        !dir_u32(dirs, ndirs, file ? PMIX_MONITOR_FILE_DROPS : PMIX_MONITOR_HEARTBEAT_DROPS,
                 &drops) ||
        0 == period || (NULL != id && PMIX_STRING != id->value.type)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (file &&
        (PMIX_STRING != what->value.type || NULL == what->value.data.string ||
         '/' != what->value.data.string[0] || strlen(what->value.data.string) >= PATH_MAX)) {
        return PMIX_ERR_BAD_PARAM; /* the server's working directory is not the client's */
    }
    if (count_of(&cl->proc) >= WU_SRV_MON_MAX) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (NULL == (m = calloc(1, sizeof *m))) {
        return PMIX_ERR_NOMEM;
    }
    m->proc = cl->proc;
    m->error = error;
    m->period = period;
    m->drops = drops;
    if ((NULL != id && NULL != id->value.data.string &&
         NULL == (m->id = strdup(id->value.data.string))) ||
        (file && NULL == (m->path = strdup(what->value.data.string)))) {
        mon_free(m);
        return PMIX_ERR_NOMEM;
    }
    if (file) {
        struct stat st;
        m->size = wu_info_flag(dirs, ndirs, PMIX_MONITOR_FILE_SIZE);
        m->atime = wu_info_flag(dirs, ndirs, PMIX_MONITOR_FILE_ACCESS);
        m->mtime = wu_info_flag(dirs, ndirs, PMIX_MONITOR_FILE_MODIFY);
        if (!m->size && !m->atime && !m->mtime) {
            m->size = m->mtime = true;
        }
        if (0 == stat(m->path, &st) && geteuid() != cl->uid && st.st_uid != cl->uid) {
            mon_free(m);
            return PMIX_ERR_NO_PERMISSIONS; /* not the client's to watch */
        }
        (void)file_moved(m); /* the state the first check compares with */
    }
    if (NULL == (m->timer = wu_progress_timer(wu_srv.pt, (double)period, mon_check, m))) {
        mon_free(m);
        return PMIX_ERR_NOMEM;
    }
    m->next = monitors;
    monitors = m;
    return PMIX_SUCCESS;
}

/* End proc's monitors of id (all of them for NULL or ""); how many ended. */
static size_t mon_end(const pmix_proc_t *proc, const char *id)
{
    size_t n = 0;
    for (wu_srv_mon_t **pp = &monitors; NULL != *pp;) {
        wu_srv_mon_t *m = *pp;
        if (PMIX_CHECK_PROCID(&m->proc, proc) &&
            (NULL == id || '\0' == id[0] || (NULL != m->id && 0 == strcmp(id, m->id)))) {
            *pp = m->next;
            mon_free(m);
            n++;
        } else {
            pp = &m->next;
        }
    }
    return n;
}

void wu_srv_monitor_forget(const pmix_proc_t *proc)
{
    (void)mon_end(proc, NULL);
}

void wu_srv_monitors_close(void)
{
    while (NULL != monitors) {
        wu_srv_mon_t *m = monitors;
        monitors = m->next;
        mon_free(m);
    }
}

static void monitor_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

int wu_srv_cmd_monitor(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    pmix_info_t what, *dirs = NULL;
    pmix_status_t error = PMIX_SUCCESS, rc = PMIX_ERR_BAD_PARAM;
    size_t ndirs = 0;
    wu_srv_op_t *op = NULL;

    PMIX_INFO_CONSTRUCT(&what);
    if (PMIX_SUCCESS != wu_srv_unpack1(b, &what, PMIX_INFO) ||
        PMIX_SUCCESS != wu_srv_unpack1(b, &error, PMIX_STATUS) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&dirs, &ndirs, PMIX_INFO) ||
        0 != wu_buffer_remaining(b)) {
        rc = PMIX_ERR_BAD_PARAM;
    } else if (NULL == cl) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (PMIX_CHECK_KEY(&what, PMIX_SEND_HEARTBEAT)) {
        for (wu_srv_mon_t *m = monitors; NULL != m; m = m->next) {
            if (NULL == m->path && PMIX_CHECK_PROCID(&m->proc, &cl->proc)) {
                m->beat = true;
            }
        }
        rc = PMIX_SUCCESS;
    } else if (PMIX_CHECK_KEY(&what, PMIX_MONITOR_HEARTBEAT) ||
               PMIX_CHECK_KEY(&what, PMIX_MONITOR_FILE)) {
        rc = mon_start(cl, &what, error, dirs, ndirs);
    } else if (PMIX_CHECK_KEY(&what, PMIX_MONITOR_CANCEL)) {
        const char *id = PMIX_STRING == what.value.type ? what.value.data.string : NULL;
        rc = 0 < mon_end(&cl->proc, id) ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    } else if (NULL == wu_srv.host.monitor) {
        rc = PMIX_ERR_NOT_SUPPORTED; /* a kind of monitor only a host could know */
    } else if (NULL == (op = wu_srv_op_new(monitor_done, peer->conn, tag))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        op->proc = cl->proc;
        rc = wu_srv.host.monitor(&op->proc, &what, error, dirs, ndirs, wu_srv_op_info_cb, op);
        wu_srv_op_started(op, rc);
        rc = PMIX_SUCCESS; /* monitor_done answers */
    }
    if (PMIX_SUCCESS == rc && NULL == op) {
        wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
    }
    PMIX_INFO_DESTRUCT(&what);
    if (NULL != dirs) {
        PMIX_INFO_FREE(dirs, ndirs);
    }
    return rc; /* an error: the switchyard answers */
}
