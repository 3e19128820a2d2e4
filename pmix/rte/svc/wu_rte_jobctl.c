/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_jobctl.c -- PMIx_Job_control on the running job: the host's job_control upcall and
 * the JOBCTL messages between the nodes.
 *
 * Directives: PMIX_JOB_CTRL_SIGNAL (a signal number) delivers that signal to the targets;
 * PMIX_JOB_CTRL_KILL kills them (SIGKILL); PMIX_JOB_CTRL_TERMINATE asks them to end (SIGTERM,
 * then SIGKILL after pls's grace period, as when a job is terminated). Several are carried out
 * in the order given. The cleanup registrations, which the server handles itself, are ignored
 * here, and so are the other directives (PMIX_JOB_CTRL_PREEMPTIBLE, checkpoint methods...: they
 * inform, this launcher has nothing to do with them) unless marked required, which gives
 * PMIX_ERR_NOT_SUPPORTED. Targets: none means every rank of the caller's job; else ranks of the
 * running job, PMIX_RANK_WILDCARD for all of them. A caller outside the job (a tool connected to
 * wrun's server, such as OpenPMIx's pctrl) must name its targets. A bad signal number is PMIX_ERR_BAD_PARAM, a
 * target the job does not have PMIX_ERR_NOT_FOUND, both before anything is done. The caller is
 * answered once the request is checked, then it is carried out (so a caller that kills itself
 * hears its answer first).
 *
 * How the job ends: a process that ends after a KILL or TERMINATE aimed at it is no failure,
 * however it ends (its peers in a fence with it still see the fence fail): the job goes on, and
 * its exit status is what the other processes give, 0 if none failed. wrun says which ranks
 * were ended at whose request. A process that dies of a signal sent with PMIX_JOB_CTRL_SIGNAL
 * fails the job as any death by a signal does.
 *
 * Where: the upcall (server thread) copies the request and shifts it to the rte thread. wrun,
 * the head node, checks it and carries it out: it marks the ranks, signals its own node's
 * through pls and sends JOBCTL to every daemon, which signals those of its node. wired checks
 * the request against its job map and sends it up as JOBCTL (one per directive), which the
 * head carries out the same way. JOBCTL: u32 requesting rank, i32 signal (0: terminate), u32
 * 1 when the ends are no failure, u32 n and n u32 ranks (n = 0: every rank). */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "pmix/common/wu_regex.h"
#include "pmix/common/wu_value.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/svc/wu_rte_svc.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* One directive to carry out. */
typedef struct {
    int sig;      /* > 0: deliver it; 0: terminate */
    bool ordered; /* KILL, TERMINATE: the ends are no failure */
} jc_act_t;

/* Which ranks: all, or ranks[0..n). */
typedef struct {
    bool all;
    uint32_t *ranks;
    uint32_t n;
} jc_sel_t;

typedef struct {
    pmix_proc_t requester;
    pmix_proc_t *targets;
    size_t ntargets;
    jc_act_t *acts;
    size_t nacts;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} jc_req_t;

static void req_free(jc_req_t *r)
{
    free(r->targets);
    free(r->acts);
    free(r);
}

/* The directives as actions (*acts NULL, *n 0 when there is nothing to do). */
static pmix_status_t parse(const pmix_info_t dirs[], size_t ndirs, jc_act_t **acts, size_t *n)
{
    *acts = NULL;
    *n = 0;
    if (ndirs > 0 && NULL == (*acts = calloc(ndirs, sizeof **acts))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ndirs; i++) {
        const pmix_info_t *d = &dirs[i];
        if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_SIGNAL)) {
            int sig = 0;
            pmix_status_t rc = PMIX_SUCCESS;
            PMIX_VALUE_GET_NUMBER(rc, &d->value, sig, int);
            if (PMIX_SUCCESS != rc || sig <= 0 || sig >= NSIG) {
                return PMIX_ERR_BAD_PARAM;
            }
            (*acts)[(*n)++] = (jc_act_t){.sig = sig, .ordered = false};
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_KILL)) {
            if (PMIX_INFO_TRUE(d)) {
                (*acts)[(*n)++] = (jc_act_t){.sig = SIGKILL, .ordered = true};
            }
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_TERMINATE)) {
            if (PMIX_INFO_TRUE(d)) {
                (*acts)[(*n)++] = (jc_act_t){.sig = 0, .ordered = true};
            }
        } else if (PMIX_INFO_IS_REQUIRED(d) && !PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP) &&
                   !PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP_DIR) &&
                   !PMIX_CHECK_KEY(d, PMIX_CLEANUP_RECURSIVE)) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
    }
    return PMIX_SUCCESS;
}

/* The ranks the targets name in job (none: every rank of the caller's). */
static pmix_status_t select_ranks(const rte_job_t *job, const jc_req_t *r, jc_sel_t *s)
{
    bool *seen;
    s->all = 0 == r->ntargets;
    s->ranks = NULL;
    s->n = 0;
    if (0 != strncmp(r->requester.nspace, job->nspace, PMIX_MAX_NSLEN) && 0 == r->ntargets) {
        return PMIX_ERR_NOT_FOUND; /* a tool (or another job) must name its targets */
    }
    for (size_t i = 0; i < r->ntargets; i++) {
        const pmix_proc_t *t = &r->targets[i];
        if (0 != strncmp(t->nspace, job->nspace, PMIX_MAX_NSLEN) ||
            (PMIX_RANK_WILDCARD != t->rank && t->rank >= job->np)) {
            return PMIX_ERR_NOT_FOUND;
        }
        s->all = s->all || PMIX_RANK_WILDCARD == t->rank;
    }
    if (s->all) {
        return PMIX_SUCCESS;
    }
    if (NULL == (seen = calloc(job->np, sizeof *seen)) ||
        NULL == (s->ranks = calloc(r->ntargets, sizeof *s->ranks))) {
        free(seen);
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < r->ntargets; i++) {
        if (!seen[r->targets[i].rank]) {
            seen[r->targets[i].rank] = true;
            s->ranks[s->n++] = r->targets[i].rank;
        }
    }
    free(seen);
    return PMIX_SUCCESS;
}

/* Deliver a's signal (or the terminate) to the selected processes of this node. */
static void apply_here(rte_job_t *job, int sig, const jc_sel_t *s)
{
    if (NULL == job->pls || job->terminating) {
        return; /* none here, or all of them are ending already */
    }
    if (s->all) {
        (void)(sig > 0 ? wu_pls_signal_job(job->pls, sig) : wu_pls_terminate_job(job->pls, 0));
        return;
    }
    for (uint32_t i = 0; i < s->n; i++) {
        const rte_proc_t *rp = &job->procs[s->ranks[i]];
        if (rp->lidx >= 0 && !rp->exited) {
            uint32_t l = (uint32_t)rp->lidx;
            (void)(sig > 0 ? wu_pls_signal_proc(job->pls, l, sig)
                           : wu_pls_terminate_proc(job->pls, l));
        }
    }
}

static pmix_status_t pack(wu_dmsg_t *m, pmix_rank_t from, const jc_act_t *a, const jc_sel_t *s)
{
    pmix_status_t rc = wu_dmsg_put_u32(m, from);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(m, a->sig) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, a->ordered ? 1 : 0) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, s->all ? 0 : s->n) : rc;
    for (uint32_t i = 0; PMIX_SUCCESS == rc && !s->all && i < s->n; i++) {
        rc = wu_dmsg_put_u32(m, s->ranks[i]);
    }
    return rc;
}

/* Read a JOBCTL of a job of np ranks; false if it does not decode or names other ranks.
 * s->ranks is the caller's to free. */
static bool unpack(wu_dmsg_t *m, uint32_t np, pmix_rank_t *from, jc_act_t *a, jc_sel_t *s)
{
    uint32_t ordered = 0, n = 0;
    int32_t sig = 0;
    s->ranks = NULL;
    if (PMIX_SUCCESS != wu_dmsg_get_u32(m, from) || PMIX_SUCCESS != wu_dmsg_get_i32(m, &sig) ||
        PMIX_SUCCESS != wu_dmsg_get_u32(m, &ordered) || PMIX_SUCCESS != wu_dmsg_get_u32(m, &n) ||
        *from >= np || sig < 0 || sig >= NSIG || n > np ||
        (n > 0 && NULL == (s->ranks = calloc(n, sizeof *s->ranks)))) {
        return false;
    }
    a->sig = sig;
    a->ordered = 0 != ordered;
    s->all = 0 == n;
    for (s->n = 0; s->n < n; s->n++) {
        if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &s->ranks[s->n]) || s->ranks[s->n] >= np) {
            free(s->ranks);
            s->ranks = NULL;
            return false;
        }
    }
    return true;
}

/* Head node: the ends of the selected ranks are no failure; tell the user (by: the tool that
 * asked, NULL: rank from of the job). */
static void mark_ordered(rte_job_t *job, pmix_rank_t from, const char *by, const jc_act_t *a,
                         const jc_sel_t *s)
{
    char *list = NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < (s->all ? job->np : s->n); i++) {
        rte_proc_t *rp = &job->procs[s->all ? i : s->ranks[i]];
        if (!rp->exited) {
            rp->ordered_end = true;
            job->scratch[n++] = rp->rank;
        }
    }
    if (n > 0 && PMIX_SUCCESS == wu_regex_ranks_compress(job->scratch, n, &list)) {
        if (NULL != by) {
            wu_rte_say("jobctl-end-tool", wu_rte_tool, 1 == n ? "" : "s", list, job->nspace,
                       a->sig > 0 ? "killed" : "terminated", by);
        } else {
            wu_rte_say("jobctl-end", wu_rte_tool, 1 == n ? "" : "s", list, job->nspace,
                       a->sig > 0 ? "killed" : "terminated", from);
        }
    }
    free(list);
}

/* Head node: carry out one action of rank from (rte thread). */
static void carry_out(rte_job_t *job, pmix_rank_t from, const char *by, const jc_act_t *a,
                      const jc_sel_t *s)
{
    wu_dmsg_t m;
    if (job->terminating) {
        return; /* the job is ending: everything is being terminated */
    }
    if (a->ordered) {
        mark_ordered(job, from, by, a, s);
    }
    apply_here(job, a->sig, s);
    if (NULL != job->dvm) {
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS == pack(&m, from, a, s)) {
            wu_rte_dvm_jobctl(job, m.base_ptr, m.bytes_used);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
}

/* wired: send one action up to the head node. */
static pmix_status_t send_up(pmix_rank_t from, const jc_act_t *a, const jc_sel_t *s)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = pack(&m, from, a, s);
    if (PMIX_SUCCESS == rc) {
        rc = wu_rte_daemon_up(WU_DMSG_JOBCTL, m.base_ptr, m.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return rc;
}

static void req_in_rte(void *arg)
{
    jc_req_t *r = arg;
    rte_job_t *job = wu_rte_job;
    jc_sel_t s = {.all = false, .ranks = NULL, .n = 0};
    pmix_status_t rc =
        NULL == job || !job->registered ? PMIX_ERR_NOT_FOUND : select_ranks(job, r, &s);
    for (size_t i = 0; PMIX_SUCCESS == rc && wu_rte_daemon_mode && i < r->nacts; i++) {
        rc = send_up(r->requester.rank, &r->acts[i], &s);
    }
    r->cbfunc(rc, NULL, 0, r->cbdata, NULL, NULL);
    if (PMIX_SUCCESS == rc && !wu_rte_daemon_mode) {
        /* a tool names itself: its name is shown escaped */
        char esc[4 * WU_ESC_SHORT + 4];
        bool tool = 0 != strncmp(r->requester.nspace, job->nspace, PMIX_MAX_NSLEN);
        const char *by =
            tool ? wu_str_escape(r->requester.nspace, WU_ESC_SHORT, esc, sizeof esc, 0) : NULL;
        for (size_t i = 0; i < r->nacts; i++) {
            carry_out(job, r->requester.rank, by, &r->acts[i], &s);
        }
    }
    free(s.ranks);
    req_free(r);
}

pmix_status_t wu_rte_jobctl_upcall(const pmix_proc_t *requester, const pmix_proc_t targets[],
                                   size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    jc_req_t *r;
    pmix_status_t rc;
    if (NULL == requester || NULL == cbfunc || (NULL == targets && ntargets > 0) ||
        (NULL == directives && ndirs > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = parse(directives, ndirs, &r->acts, &r->nacts)) || 0 == r->nacts) {
        req_free(r);
        return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc; /* nothing to do */
    }
    if (ntargets > 0) {
        if (NULL == (r->targets = malloc(ntargets * sizeof *r->targets))) {
            req_free(r);
            return PMIX_ERR_NOMEM;
        }
        memcpy(r->targets, targets, ntargets * sizeof *targets);
        r->ntargets = ntargets;
    }
    r->requester = *requester;
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), req_in_rte, r)) {
        req_free(r);
        return PMIX_ERR_INIT; /* shutting down */
    }
    return PMIX_SUCCESS;
}

/* A daemon's JOBCTL (head): false if it does not decode. */
static bool jobctl_at_head(rte_job_t *job, uint32_t node, wu_dmsg_t *m)
{
    (void)node;
    pmix_rank_t from = 0;
    jc_act_t a;
    jc_sel_t s;
    if (!unpack(m, job->np, &from, &a, &s)) {
        return false;
    }
    carry_out(job, from, NULL, &a, &s);
    free(s.ranks);
    return true;
}

/* The head's JOBCTL (wired): this node's processes. */
static void jobctl_at_daemon(rte_job_t *job, wu_dmsg_t *m)
{
    pmix_rank_t from = 0;
    jc_act_t a;
    jc_sel_t s;
    if (NULL != job && unpack(m, job->np, &from, &a, &s)) {
        apply_here(job, a.sig, &s);
        free(s.ranks);
    }
}

int wu_rte_jobctl_attach(void)
{
    return wu_dmsg_handle(WU_DMSG_JOBCTL, jobctl_at_head, jobctl_at_daemon);
}
