/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_target.c -- whom an event is aimed at and whom it is about: the processes its info
 * names (PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROC(S)), whether it is job-specific or an
 * environment event, and the matching of affected processes against a handler's filter (see
 * wu_event.h, "Targets"). */
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

size_t wu_event_procs(const pmix_info_t *info, size_t ninfo, const char *key,
                      const pmix_proc_t **procs)
{
    const pmix_info_t *i = wu_info_find(info, ninfo, key);
    const pmix_data_array_t *d;
    *procs = NULL;
    if (NULL == i) {
        return 0;
    }
    if (PMIX_PROC == i->value.type && NULL != i->value.data.proc) {
        *procs = i->value.data.proc;
        return 1;
    }
    if (PMIX_DATA_ARRAY == i->value.type && NULL != (d = i->value.data.darray) &&
        PMIX_PROC == d->type && NULL != d->array && d->size > 0) {
        *procs = d->array;
        return d->size;
    }
    return 0;
}

/* Do a and b name a process in common (rank PMIX_RANK_WILDCARD: every rank of its namespace)? */
static bool proc_meets(const pmix_proc_t *a, const pmix_proc_t *b)
{
    return PMIX_CHECK_NSPACE(a->nspace, b->nspace) &&
           (PMIX_RANK_WILDCARD == a->rank || PMIX_RANK_WILDCARD == b->rank || a->rank == b->rank);
}

bool wu_event_procs_meet(const pmix_proc_t *a, size_t na, const pmix_proc_t *b, size_t nb)
{
    for (size_t i = 0; i < na; i++) {
        for (size_t j = 0; j < nb; j++) {
            if (proc_meets(&a[i], &b[j])) {
                return true;
            }
        }
    }
    return false;
}

bool wu_event_has_custom_range(const pmix_info_t *info, size_t ninfo)
{
    return NULL != wu_info_find(info, ninfo, PMIX_EVENT_CUSTOM_RANGE);
}

bool wu_event_in_custom_range(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo)
{
    const pmix_proc_t *p;
    size_t n = wu_event_procs(info, ninfo, PMIX_EVENT_CUSTOM_RANGE, &p);
    return wu_event_procs_meet(p, n, proc, 1);
}

bool wu_event_affects(const pmix_info_t *info, size_t ninfo, const pmix_proc_t *filter,
                      size_t nfilter)
{
    static const char *const keys[] = {PMIX_EVENT_AFFECTED_PROC, PMIX_EVENT_AFFECTED_PROCS};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const pmix_proc_t *p;
        size_t n = wu_event_procs(info, ninfo, keys[k], &p);
        if (wu_event_procs_meet(p, n, filter, nfilter)) {
            return true;
        }
    }
    return false;
}

/* Does any process the info names under key belong to nspace (NULL: is any named at all)? */
static bool names_in(const pmix_info_t *info, size_t ninfo, const char *key, const char *nspace)
{
    const pmix_proc_t *p;
    size_t n = wu_event_procs(info, ninfo, key, &p);
    if (NULL == nspace) {
        return n > 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_NSPACE(p[i].nspace, nspace)) {
            return true;
        }
    }
    return false;
}

bool wu_event_is_job(const pmix_proc_t *source, pmix_data_range_t range, const pmix_info_t *info,
                     size_t ninfo, const char *nspace)
{
    if (PMIX_RANGE_NAMESPACE == range && !wu_event_has_custom_range(info, ninfo) &&
        (NULL == nspace || PMIX_CHECK_NSPACE(source->nspace, nspace))) {
        return true;
    }
    return names_in(info, ninfo, PMIX_EVENT_CUSTOM_RANGE, nspace) ||
           names_in(info, ninfo, PMIX_EVENT_AFFECTED_PROC, nspace) ||
           names_in(info, ninfo, PMIX_EVENT_AFFECTED_PROCS, nspace);
}
