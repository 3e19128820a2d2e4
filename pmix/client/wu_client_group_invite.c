/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_group_invite.c -- groups made by invitation, and leaving a group: PMIx_Group_invite,
 * PMIx_Group_join, PMIx_Group_leave (and their _nb forms), all built on events.
 *
 * The leader registers for PMIX_GROUP_INVITE_ACCEPTED and _DECLINED, then sends
 * PMIX_GROUP_INVITED (info PMIX_GROUP_ID) to the invited processes (a custom range). An invited
 * process answers with PMIx_Group_join: it accepts (having first registered for
 * PMIX_GROUP_CONSTRUCT_COMPLETE) or declines, an event to the leader. Once every invited
 * process has answered, the leader takes a context id for the group (a construct of itself
 * alone, which the host numbers like any other group) and sends PMIX_GROUP_CONSTRUCT_COMPLETE to
 * those who accepted, with PMIX_GROUP_CONTEXT_ID (when the invitation's directives asked for
 * one) and PMIX_GROUP_MEMBERSHIP (the leader and those who accepted): the invite and the
 * accepting joins return those results. PMIX_TIMEOUT bounds an invite and an accepting join
 * (PMIX_ERR_TIMEOUT). PMIx_Group_leave sends PMIX_GROUP_LEFT to the other members, who drop the
 * leaver from the group's membership (a handler of this file, registered with the first group),
 * and forgets the group. Everything but the API entry points runs on the progress thread. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>

typedef struct pend {
    struct pend *next;
    bool invite; /* the leader's invite, else an accepting join */
    char grp[PMIX_MAX_NSLEN + 1];
    pmix_proc_t leader;    /* a join's */
    pmix_proc_t *invitees; /* an invite's, and their answers (0: none yet, 1: yes, 2: no) */
    unsigned char *answer;
    size_t n, nanswered;
    pmix_info_t *dirs;
    size_t ndirs;
    double timeout;
    size_t ref; /* the event handler, once registered */
    bool registered;
    wu_timer_t *timer;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} pend_t;

static pend_t *pends; /* progress thread */

static void pend_free(pend_t *p)
{
    free(p->invitees);
    free(p->answer);
    if (NULL != p->dirs) {
        PMIX_INFO_FREE(p->dirs, p->ndirs);
    }
    free(p);
}

/* End p: no more events or timer, the caller's callback, p freed. */
static void complete(pend_t *p, pmix_status_t status, pmix_info_t *res, size_t nres)
{
    for (pend_t **pp = &pends; NULL != *pp; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
    (void)wu_progress_timer_cancel(p->timer);
    if (p->registered) {
        (void)PMIx_Deregister_event_handler(p->ref, NULL, NULL);
    }
    if (NULL != p->cbfunc) {
        p->cbfunc(status, res, nres, p->cbdata, NULL, NULL);
    }
    pend_free(p);
}

static const char *grp_of(const pmix_info_t *info, size_t ninfo)
{
    const pmix_info_t *g = wu_info_find(info, ninfo, PMIX_GROUP_ID);
    return NULL != g && PMIX_STRING == g->value.type ? g->value.data.string : NULL;
}

/* Send code to the n processes of to, about grp, with more infos (may be NULL). */
static pmix_status_t tell(pmix_status_t code, const char *grp, const pmix_proc_t *to, size_t n,
                          const pmix_info_t *more, size_t nmore)
{
    pmix_data_array_t range = {.type = PMIX_PROC, .size = n, .array = (void *)to};
    pmix_info_t *info;
    pmix_status_t rc;
    PMIX_INFO_CREATE(info, 2 + nmore);
    if (NULL == info) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&info[1], PMIX_GROUP_ID, grp, PMIX_STRING);
    for (size_t i = 0; i < nmore; i++) {
        (void)wu_info_copy(&info[2 + i], &more[i]);
    }
    rc = PMIx_Notify_event(code, &wu_client.myproc, PMIX_RANGE_CUSTOM, info, 2 + nmore, NULL, NULL);
    PMIX_INFO_FREE(info, 2 + nmore);
    return rc;
}

static void timed_out(void *arg)
{
    pend_t *p = arg;
    for (pend_t *q = pends; NULL != q; q = q->next) {
        if (q == p) {
            complete(p, PMIX_ERR_TIMEOUT, NULL, 0);
            return;
        }
    }
}

/* ---- the leader ----------------------------------------------------------------------------- */

/* The context id is known: the members are told, the invite returns. */
static void invite_constructed(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                               pmix_release_cbfunc_t relfn, void *relcbdata)
{
    pend_t *p = cbdata;
    pmix_proc_t *members = NULL, *joined = NULL;
    pmix_data_array_t da;
    pmix_info_t res[2];
    size_t nres = 0, nm = 0, nj = 0;
    (void)relfn, (void)relcbdata;

    if (PMIX_SUCCESS == status && (NULL == (members = calloc(p->n + 1, sizeof *members)) ||
                                   NULL == (joined = calloc(p->n + 1, sizeof *joined)))) {
        status = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != status) {
        free(members);
        complete(p, status, NULL, 0);
        return;
    }
    members[nm++] = wu_client.myproc;
    for (size_t i = 0; i < p->n; i++) {
        if (1 == p->answer[i]) {
            members[nm++] = p->invitees[i];
            joined[nj++] = p->invitees[i];
        }
    }
    wu_client_group_set(p->grp, members, nm);
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_CONTEXT_ID)) {
            (void)wu_info_copy(&res[nres++], &info[i]);
        }
    }
    da = (pmix_data_array_t){.type = PMIX_PROC, .size = nm, .array = members};
    PMIX_INFO_LOAD(&res[nres], PMIX_GROUP_MEMBERSHIP, &da, PMIX_DATA_ARRAY);
    nres++;
    if (0 < nj) {
        status = tell(PMIX_GROUP_CONSTRUCT_COMPLETE, p->grp, joined, nj, res, nres);
    }
    complete(p, status, res, nres);
    for (size_t i = 0; i < nres; i++) {
        PMIX_INFO_DESTRUCT(&res[i]);
    }
    free(members);
    free(joined);
}

/* Every invited process has answered: a context id for the group (a construct of the leader
 * alone, numbered by the host as any group). */
static void invite_answered(pend_t *p)
{
    pmix_info_t dir;
    bool yes = true;
    pmix_status_t rc;
    (void)wu_progress_timer_cancel(p->timer);
    p->timer = NULL;
    PMIX_INFO_LOAD(&dir, PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
    rc = PMIx_Group_construct_nb(
        p->grp, &wu_client.myproc, 1,
        wu_info_flag(p->dirs, p->ndirs, PMIX_GROUP_ASSIGN_CONTEXT_ID) ? &dir : NULL,
        wu_info_flag(p->dirs, p->ndirs, PMIX_GROUP_ASSIGN_CONTEXT_ID), invite_constructed, p);
    PMIX_INFO_DESTRUCT(&dir);
    if (PMIX_SUCCESS != rc) {
        complete(p, rc, NULL, 0);
    }
}

/* PMIX_GROUP_INVITE_ACCEPTED or _DECLINED from an invited process. */
static void on_answer(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const char *grp = grp_of(info, ninfo);
    (void)results, (void)nresults;
    for (pend_t *p = pends; NULL != p && NULL != grp; p = p->next) {
        if (!p->invite || !p->registered || p->ref != ref || 0 != strcmp(p->grp, grp)) {
            continue;
        }
        for (size_t i = 0; i < p->n; i++) {
            if (0 == p->answer[i] && PMIX_CHECK_PROCID(&p->invitees[i], source)) {
                p->answer[i] = PMIX_GROUP_INVITE_ACCEPTED == status ? 1 : 2;
                if (++p->nanswered == p->n) {
                    invite_answered(p);
                }
                break;
            }
        }
        break;
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* ---- an invited process ----------------------------------------------------------------------- */

/* PMIX_GROUP_CONSTRUCT_COMPLETE from the leader: the join returns its results. */
static void on_complete(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                        pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                        pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const char *grp = grp_of(info, ninfo);
    (void)status, (void)results, (void)nresults;
    for (pend_t *p = pends; NULL != p && NULL != grp; p = p->next) {
        if (!p->invite && p->registered && p->ref == ref && 0 == strcmp(p->grp, grp) &&
            PMIX_CHECK_PROCID(&p->leader, source)) {
            const pmix_info_t *m = wu_info_find(info, ninfo, PMIX_GROUP_MEMBERSHIP);
            pmix_info_t res[2];
            size_t nres = 0;
            if (NULL != m && PMIX_DATA_ARRAY == m->value.type &&
                PMIX_PROC == m->value.data.darray->type) {
                wu_client_group_set(p->grp, m->value.data.darray->array,
                                    m->value.data.darray->size);
                (void)wu_info_copy(&res[nres++], m);
            }
            for (size_t i = 0; i < ninfo; i++) {
                if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_CONTEXT_ID)) {
                    (void)wu_info_copy(&res[nres++], &info[i]);
                    break;
                }
            }
            complete(p, PMIX_SUCCESS, res, nres);
            for (size_t i = 0; i < nres; i++) {
                PMIX_INFO_DESTRUCT(&res[i]);
            }
            break;
        }
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* The handler of an invite (or a join) is in place: the invitation (or the acceptance) goes. */
static void registered(pmix_status_t status, size_t ref, void *cbdata)
{
    pend_t *p = cbdata;
    if (PMIX_SUCCESS == status) {
        p->ref = ref;
        p->registered = true;
        status = p->invite ? tell(PMIX_GROUP_INVITED, p->grp, p->invitees, p->n, NULL, 0)
                           : tell(PMIX_GROUP_INVITE_ACCEPTED, p->grp, &p->leader, 1, NULL, 0);
    }
    if (PMIX_SUCCESS != status) {
        complete(p, status, NULL, 0);
    } else if (p->timeout > 0) {
        p->timer = wu_progress_timer(wu_client.pt, p->timeout, timed_out, p);
    }
}

/* ---- starting (progress thread) ---------------------------------------------------------------- */

static void start_fn(void *arg)
{
    pend_t *p = arg;
    pmix_status_t codes[2] = {PMIX_GROUP_INVITE_ACCEPTED, PMIX_GROUP_INVITE_DECLINED};
    pmix_info_t first;
    pmix_status_t rc;
    p->next = pends;
    pends = p;
    /* ahead of the application's handlers of its category: the group is known here before
     * they learn of it (and, say, fence over the group's name) */
    PMIX_INFO_LOAD(&first, PMIX_EVENT_HDLR_PREPEND, NULL, PMIX_BOOL);
    if (p->invite) {
        rc = PMIx_Register_event_handler(codes, 2, &first, 1, on_answer, registered, p);
    } else {
        codes[0] = PMIX_GROUP_CONSTRUCT_COMPLETE;
        rc = PMIx_Register_event_handler(codes, 1, &first, 1, on_complete, registered, p);
    }
    PMIX_INFO_DESTRUCT(&first);
    if (PMIX_SUCCESS != rc) {
        complete(p, rc, NULL, 0);
    }
}

static pmix_status_t start(pend_t *p, const char *grp, const pmix_info_t *info, size_t ninfo)
{
    const pmix_info_t *t = wu_info_find(info, ninfo, PMIX_TIMEOUT);
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL != t) {
        long long secs = 0;
        pmix_status_t st;
        PMIX_VALUE_GET_NUMBER(st, &t->value, secs, long long);
        if (PMIX_SUCCESS != st || secs < 0 || secs > 1000000000LL) {
            rc = PMIX_ERR_BAD_PARAM;
        }
        p->timeout = (double)secs;
    }
    PMIX_LOAD_NSPACE(p->grp, grp);
    if (PMIX_SUCCESS == rc) {
        rc = wu_info_dup(&p->dirs, &p->ndirs, info, ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_shift(start_fn, p);
    }
    if (PMIX_SUCCESS != rc) {
        pend_free(p);
    }
    return rc;
}

/* A group's name and the client's state: PMIX_SUCCESS if an operation on it may start. */
static pmix_status_t usable(const char *grp, const pmix_info_t *info, size_t ninfo)
{
    if (NULL == grp || '\0' == grp[0] || strlen(grp) > PMIX_MAX_NSLEN ||
        (NULL == info && 0 < ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    return wu_client.singleton ? PMIX_ERR_UNREACH : PMIX_SUCCESS;
}

pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t info[], size_t ninfo,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc = usable(grp, info, ninfo);
    size_t n = 0;
    pend_t *p;
    if (PMIX_SUCCESS == rc && (NULL == procs || 0 == nprocs)) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < nprocs; i++) {
        if (PMIX_RANK_VALID < procs[i].rank) {
            rc = PMIX_ERR_BAD_PARAM; /* named processes */
        }
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == (p = calloc(1, sizeof *p)) ||
        NULL == (p->invitees = malloc(nprocs * sizeof *procs)) ||
        NULL == (p->answer = calloc(nprocs, 1))) {
        if (NULL != p) {
            pend_free(p);
        }
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_PROCID(&procs[i], &wu_client.myproc)) {
            p->invitees[n++] =
                procs[i]; /* the leader, named too (as OpenPMIx allows), is not invited */
        }
    }
    if (0 == n) {
        pend_free(p);
        return PMIX_ERR_BAD_PARAM; /* nobody to invite */
    }
    p->invite = true;
    p->n = n;
    p->cbfunc = cbfunc;
    p->cbdata = cbdata;
    return start(p, grp, info, ninfo);
}

pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t *leader, pmix_group_opt_t opt,
                                 const pmix_info_t info[], size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                 void *cbdata)
{
    pmix_status_t rc = usable(grp, info, ninfo);
    pend_t *p;
    if (PMIX_SUCCESS == rc && (NULL == leader || PMIX_RANK_VALID < leader->rank)) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (PMIX_GROUP_DECLINE == opt) {
        /* nothing to wait for: the leader is told, the call is done */
        rc = tell(PMIX_GROUP_INVITE_DECLINED, grp, leader, 1, NULL, 0);
        if (PMIX_SUCCESS == rc && NULL != cbfunc) {
            cbfunc(PMIX_SUCCESS, NULL, 0, cbdata, NULL, NULL);
        }
        return rc;
    }
    if (NULL == (p = calloc(1, sizeof *p))) {
        return PMIX_ERR_NOMEM;
    }
    p->leader = *leader;
    p->cbfunc = cbfunc;
    p->cbdata = cbdata;
    return start(p, grp, info, ninfo);
}

pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t *members = NULL, *others;
    size_t n = 0, k = 0;
    pmix_status_t rc = usable(grp, info, ninfo);
    if (PMIX_SUCCESS != rc || PMIX_SUCCESS != (rc = wu_client_group_members(grp, &members, &n))) {
        return rc;
    }
    others = members;
    for (size_t i = 0; i < n; i++) {
        if (!PMIX_CHECK_PROCID(&members[i], &wu_client.myproc)) {
            others[k++] = members[i];
        }
    }
    rc = 0 < k ? tell(PMIX_GROUP_LEFT, grp, others, k, NULL, 0) : PMIX_SUCCESS;
    PMIX_PROC_FREE(members, n);
    if (PMIX_SUCCESS == rc) {
        wu_client_group_forget(grp);
        if (NULL != cbfunc) {
            cbfunc(PMIX_SUCCESS, cbdata);
        }
    }
    return rc;
}

/* ---- the blocking forms ------------------------------------------------------------------------ */

pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                const pmix_info_t info[], size_t ninfo, pmix_info_t **results,
                                size_t *nresult)
{
    wu_client_blk_t b;
    pmix_status_t rc = wu_client_blk_begin(&b, results, nresult);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wu_client_blk_wait(
        &b, PMIx_Group_invite_nb(grp, procs, nprocs, info, ninfo, wu_client_blk_info, &b));
}

pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t *leader, pmix_group_opt_t opt,
                              const pmix_info_t info[], size_t ninfo, pmix_info_t **results,
                              size_t *nresult)
{
    wu_client_blk_t b;
    pmix_status_t rc = wu_client_blk_begin(&b, results, nresult);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wu_client_blk_wait(
        &b, PMIx_Group_join_nb(grp, leader, opt, info, ninfo, wu_client_blk_info, &b));
}

pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    wu_client_blk_t b;
    pmix_status_t rc = wu_client_blk_begin(&b, NULL, NULL);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wu_client_blk_wait(&b, PMIx_Group_leave_nb(grp, info, ninfo, wu_client_blk_op, &b));
}
