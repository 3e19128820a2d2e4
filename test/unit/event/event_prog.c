/* SPDX-License-Identifier: BSD-3-Clause */
/* event_prog.c -- a PMIx client run by check_event_server under the real server, one scenario
 * per run (argv[1]); exit status 0 when every check passed, else 1 with the failed check on
 * stderr. Linked with libpmix.so, as an application is.
 *
 *   ns      rank 1 registers, tells rank 0 (EV_PEER_FD), rank 0 notifies PMIX_RANGE_NAMESPACE:
 *           rank 1's handler sees it once, from rank 0; rank 0's own handler sees it once (the
 *           server does not send it back).
 *   server  registers, tells the host (EV_READY_FD), waits for the host's event.
 *   lost    registers for PMIX_ERR_LOST_CONNECTION, tells the host, which drops the client. */
#include "pmix.h"

#include <stdatomic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Event handlers have a fixed signature; most use few of its parameters. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define EV_CODE (PMIX_EXTERNAL_ERR_BASE - 21)

static pmix_proc_t me;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "event_prog %s:%u: line %d: check failed: %s\n", me.nspace, \
                    (unsigned)me.rank, __LINE__, #cond);                                \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static _Atomic int ncalls, nops, op_status = 1;
static pmix_proc_t source;
static char text[64];

static void hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *src, pmix_info_t info[],
                 size_t ninfo, pmix_info_t *results, size_t nresults,
                 pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    source = *src;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_TEXT_MESSAGE) &&
            PMIX_STRING == info[i].value.type) {
            snprintf(text, sizeof text, "%s", info[i].value.data.string);
        }
    }
    ncalls++;
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void op_cb(pmix_status_t status, void *cbdata)
{
    op_status = status;
    nops++;
}

/* Wait up to 10 s for *v to reach want, then a moment for extra calls. */
static void wait_count(_Atomic int *v, int want)
{
    for (int i = 0; i < 10000 && *v < want; i++) {
        usleep(1000);
    }
    usleep(200 * 1000);
    CHECK(want == *v);
}

static int fd_of(const char *name)
{
    const char *v = getenv(name);
    CHECK(NULL != v);
    return atoi(v);
}

static void register_for(pmix_status_t code)
{
    CHECK(PMIx_Register_event_handler(&code, 1, NULL, 0, hdlr, NULL, NULL) >= 0);
}

static void scenario_ns(void)
{
    char c = 'r';
    register_for(EV_CODE);
    if (1 == me.rank) {
        CHECK(1 == write(fd_of("EV_PEER_FD"), &c, 1));
        wait_count(&ncalls, 1);
        CHECK(0 == source.rank && PMIX_CHECK_NSPACE(source.nspace, me.nspace));
        CHECK(0 == strcmp("ns-hello", text));
    } else {
        pmix_info_t info;
        CHECK(1 == read(fd_of("EV_PEER_FD"), &c, 1));
        PMIX_INFO_LOAD(&info, PMIX_EVENT_TEXT_MESSAGE, "ns-hello", PMIX_STRING);
        CHECK(PMIX_SUCCESS ==
              PMIx_Notify_event(EV_CODE, NULL, PMIX_RANGE_NAMESPACE, &info, 1, op_cb, NULL));
        wait_count(&nops, 1);
        CHECK(PMIX_SUCCESS == op_status);
        wait_count(&ncalls, 1); /* delivered here by this process, not echoed by the server */
        CHECK(PMIX_CHECK_PROCID(&source, &me));
        PMIX_INFO_DESTRUCT(&info);
        /* PMIX_RANGE_RM: the test host has no notify_event upcall */
        CHECK(PMIX_ERR_NOT_SUPPORTED ==
              PMIx_Notify_event(EV_CODE, NULL, PMIX_RANGE_RM, NULL, 0, NULL, NULL));
    }
}

static void scenario_server(void)
{
    char c = 'r';
    register_for(EV_CODE);
    CHECK(1 == write(fd_of("EV_READY_FD"), &c, 1));
    wait_count(&ncalls, 1);
    CHECK(0 == strcmp("from-host", text));
}

static void scenario_lost(void)
{
    char c = 'r';
    register_for(PMIX_ERR_LOST_CONNECTION);
    CHECK(1 == write(fd_of("EV_READY_FD"), &c, 1));
    wait_count(&ncalls, 1);
    CHECK(PMIX_CHECK_PROCID(&source, &me));
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
    } else {
        CHECK(!"unknown scenario");
    }
    CHECK(PMIX_SUCCESS == PMIx_Finalize(NULL, 0));
    return 0;
}
