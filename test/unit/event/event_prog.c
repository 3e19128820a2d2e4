/* SPDX-License-Identifier: BSD-3-Clause */
/* event_prog.c -- a PMIx client run by check_event_server under the real server, one scenario
 * per run (argv[1]); exit status 0 when every check passed, else 1 with the failed check on
 * stderr. Linked with libpmix.so, as an application is. Each handler records the events it
 * gets ("text" of PMIX_EVENT_TEXT_MESSAGE) in order; a check waits (up to 10 s) for a given
 * event, then compares the whole record, so an event that should not have come is seen: the
 * server sends in order, and the awaited one comes last.
 *
 *   ns      rank 1 registers, tells rank 0 (EV_PEER_FD); rank 0 notifies PMIX_RANGE_NAMESPACE,
 *           _SESSION and _GLOBAL (the test host has no notify_event upcall:
 *           PMIX_ERR_NOT_SUPPORTED), and _RM, then PMIX_RANGE_LOCAL: rank 1 gets only that one,
 *           from rank 0; rank 0's own handler gets each range that covers it once (the server
 *           does not echo it).
 *   server  registers, tells the host (EV_READY_FD), waits for the host's event.
 *   lost    registers for PMIX_ERR_LOST_CONNECTION, tells the host, which drops the client.
 *   comm    registers for PMIX_ERR_COMM_FAILURE, tells the host, which sends it garbage.
 *   cache   the host cached env-2 o env-3 env-4 (ring of 4; env-1 pushed out; a "nc" event
 *           with PMIX_EVENT_DO_NOT_CACHE not kept): handler A (EV_CODE, nonblocking) is
 *           acknowledged, then gets env-2 env-3 env-4; the host sends env-5; default handler B
 *           gets o env-3 env-4 env-5 and A nothing more; env-6 reaches both.
 *   held    the host notified job-specific events before this client connected: the handler
 *           registered after PMIx_Init gets those aimed at this rank (argv[2]: their texts,
 *           comma-separated, in order), then the host's "live" event. */
#include "pmix.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Event handlers have a fixed signature; most use few of its parameters. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define EV_CODE  (PMIX_EXTERNAL_ERR_BASE - 21) /* as check_event_server.c */
#define EV_OTHER (PMIX_EXTERNAL_ERR_BASE - 22)

static pmix_proc_t me;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "event_prog %s:%u: line %d: check failed: %s\n", me.nspace, \
                    (unsigned)me.rank, __LINE__, #cond);                                \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

/* What the handlers got: per label (the handler's cbdata, a string), "text,text,...". */
static pthread_mutex_t mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static char seen[4][512];
static const char *labels[4] = {"A", "B", "C", "D"};
static pmix_proc_t source;
static pmix_status_t last_status;

static int label_index(const char *label)
{
    for (int i = 0; i < 4; i++) {
        if (0 == strcmp(labels[i], label)) {
            return i;
        }
    }
    CHECK(!"unknown label");
    return 0;
}

/* Append item to label's record. */
static void note(const char *label, const char *item)
{
    char *s = seen[label_index(label)];
    pthread_mutex_lock(&mx);
    if ('\0' != s[0]) {
        strncat(s, ",", sizeof seen[0] - strlen(s) - 1);
    }
    strncat(s, item, sizeof seen[0] - strlen(s) - 1);
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mx);
}

static void hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *src, pmix_info_t info[],
                 size_t ninfo, pmix_info_t *results, size_t nresults,
                 pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const char *text = "?", *label = NULL;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_TEXT_MESSAGE) &&
            PMIX_STRING == info[i].value.type) {
            text = info[i].value.data.string;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_RETURN_OBJECT)) {
            label = info[i].value.data.ptr; /* given at registration */
        }
    }
    CHECK(NULL != label);
    pthread_mutex_lock(&mx);
    source = *src;
    last_status = status;
    pthread_mutex_unlock(&mx);
    note(label, text);
    /* let the other handlers of the chain see it too */
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* Wait up to 10 s until label's record ends with item; then it must be want exactly. */
static void expect(const char *label, const char *item, const char *want)
{
    const char *s = seen[label_index(label)];
    struct timespec ts;
    size_t n = strlen(item);
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 10;
    pthread_mutex_lock(&mx);
    while (strlen(s) < n || 0 != strcmp(s + strlen(s) - n, item)) {
        if (0 != pthread_cond_timedwait(&cv, &mx, &ts)) {
            break;
        }
    }
    if (0 != strcmp(s, want)) {
        fprintf(stderr, "event_prog %s:%u: handler %s got \"%s\", expected \"%s\"\n", me.nspace,
                (unsigned)me.rank, label, s, want);
        exit(1);
    }
    pthread_mutex_unlock(&mx);
}

static void reg_cb(pmix_status_t status, size_t ref, void *cbdata)
{
    CHECK(PMIX_SUCCESS == status);
    note(cbdata, "ack");
}

static int fd_of(const char *name)
{
    const char *v = getenv(name);
    CHECK(NULL != v);
    return atoi(v);
}

static void tell(const char *fd_name)
{
    char c = 'r';
    CHECK(1 == write(fd_of(fd_name), &c, 1));
}

static void await_peer(void)
{
    char c;
    CHECK(1 == read(fd_of("EV_PEER_FD"), &c, 1));
}

/* Registration of hdlr for codes (NULL: a default handler) recording under label: blocking,
 * or with cbfunc. */
static pmix_status_t register_with(const pmix_status_t *codes, size_t ncodes, const char *label,
                                   pmix_hdlr_reg_cbfunc_t cbfunc)
{
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_EVENT_RETURN_OBJECT, (void *)label, PMIX_POINTER);
    rc = PMIx_Register_event_handler((pmix_status_t *)codes, ncodes, &info, 1, hdlr, cbfunc,
                                     (void *)label);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

static void register_for(const pmix_status_t *codes, size_t ncodes, const char *label)
{
    CHECK(register_with(codes, ncodes, label, NULL) >= 0);
}

static void notify_text(pmix_data_range_t range, const char *text, pmix_status_t want)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_EVENT_TEXT_MESSAGE, text, PMIX_STRING);
    CHECK(want == PMIx_Notify_event(EV_CODE, NULL, range, &info, 1, NULL, NULL));
    PMIX_INFO_DESTRUCT(&info);
}

static const pmix_status_t ev_code[] = {EV_CODE};

static void scenario_ns(void)
{
    register_for(ev_code, 1, "A");
    if (1 == me.rank) {
        tell("EV_PEER_FD");
        expect("A", "ns-hello", "ns-namespace,ns-session,ns-global,ns-hello");
        CHECK(0 == source.rank && PMIX_CHECK_NSPACE(source.nspace, me.nspace));
        return;
    }
    await_peer();
    /* beyond the node only the host could take it; it has no notify_event upcall: the peer on
     * this node gets each, but the answer says it went no further */
    notify_text(PMIX_RANGE_NAMESPACE, "ns-namespace", PMIX_ERR_NOT_SUPPORTED);
    notify_text(PMIX_RANGE_SESSION, "ns-session", PMIX_ERR_NOT_SUPPORTED);
    notify_text(PMIX_RANGE_GLOBAL, "ns-global", PMIX_ERR_NOT_SUPPORTED);
    CHECK(PMIX_ERR_NOT_SUPPORTED ==
          PMIx_Notify_event(EV_CODE, NULL, PMIX_RANGE_RM, NULL, 0, NULL, NULL));
    notify_text(PMIX_RANGE_LOCAL, "ns-hello", PMIX_SUCCESS);
    /* delivered here by this process, each time (not echoed by the server) */
    expect("A", "ns-hello", "ns-namespace,ns-session,ns-global,ns-hello");
    CHECK(PMIX_CHECK_PROCID(&source, &me));
}

static void scenario_server(void)
{
    register_for(ev_code, 1, "A");
    tell("EV_READY_FD");
    expect("A", "from-host", "from-host");
}

static void scenario_lost(void)
{
    const pmix_status_t lost = PMIX_ERR_LOST_CONNECTION;
    register_for(&lost, 1, "A");
    tell("EV_READY_FD");
    expect("A", "the connection to the local PMIx server was lost",
           "the connection to the local PMIx server was lost");
    CHECK(PMIX_CHECK_PROCID(&source, &me));
}

static void scenario_comm(void)
{
    const pmix_status_t comm = PMIX_ERR_COMM_FAILURE;
    const char *text = "a message from the local PMIx server could not be read";
    register_for(&comm, 1, "A");
    tell("EV_READY_FD");
    expect("A", text, text);
    CHECK(PMIX_ERR_COMM_FAILURE == last_status);
    /* the connection still works */
    notify_text(PMIX_RANGE_LOCAL, "still there", PMIX_SUCCESS);
}

static void scenario_cache(void)
{
    /* nonblocking: the acknowledgement comes before the cached events */
    CHECK(PMIX_SUCCESS == register_with(ev_code, 1, "A", reg_cb));
    expect("A", "env-4", "ack,env-2,env-3,env-4");
    tell("EV_READY_FD"); /* the host sends env-5 */
    expect("A", "env-5", "ack,env-2,env-3,env-4,env-5");
    register_for(NULL, 0, "B");
    expect("B", "env-5", "o,env-3,env-4,env-5");
    tell("EV_READY_FD"); /* the host sends env-6 */
    expect("B", "env-6", "o,env-3,env-4,env-5,env-6");
    expect("A", "env-6", "ack,env-2,env-3,env-4,env-5,env-6");
}

static void scenario_held(const char *want)
{
    char all[512];
    register_for(ev_code, 1, "A");
    expect("A", NULL != strrchr(want, ',') ? strrchr(want, ',') + 1 : want, want);
    tell("EV_READY_FD"); /* the host sends "live" */
    snprintf(all, sizeof all, "%s,live", want);
    expect("A", "live", all);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    alarm(30); /* never outlive the test */
    CHECK(PMIX_SUCCESS == PMIx_Init(&me, NULL, 0));
    if (0 == strcmp(what, "ns")) {
        scenario_ns();
    } else if (0 == strcmp(what, "server")) {
        scenario_server();
    } else if (0 == strcmp(what, "lost")) {
        scenario_lost();
    } else if (0 == strcmp(what, "comm")) {
        scenario_comm();
    } else if (0 == strcmp(what, "cache")) {
        scenario_cache();
    } else if (0 == strcmp(what, "held") && argc > 2) {
        scenario_held(argv[2]);
    } else {
        CHECK(!"unknown scenario");
    }
    CHECK(PMIX_SUCCESS == PMIx_Finalize(NULL, 0));
    return 0;
}
