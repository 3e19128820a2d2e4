/* SPDX-License-Identifier: BSD-3-Clause */
/* check_stubs.c -- an OpenPMIx 4.2 program calling Wireup's API stubs.
 *
 * Compiled by test/abi/exports.sh against the INSTALLED OpenPMIx headers only (no Wireup include
 * directory) and run with Wireup's libpmix.so.2 first in LD_LIBRARY_PATH, so it checks the ABI
 * from the application's side: the calls bind, and the stubs behave as documented in
 * docs/api-status.md (PMIX_ERR_NOT_SUPPORTED; a refused non-blocking request never calls its
 * callback). Prints unnumbered TAP lines; exports.sh adds the plan.
 *
 * The functions called here are ones no issue has scheduled yet ("later" in docs/api-status.md);
 * when one gets implemented, swap it for another stub. */
#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void report(bool ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    if (!ok) {
        failures++;
    }
}

/* Every callback bumps this counter; the stubs must never call one. */
static int callbacks;

static void op_cb(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
    callbacks++;
}

static void info_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                    pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)status;
    (void)info;
    (void)ninfo;
    (void)cbdata;
    (void)release_fn;
    (void)release_cbdata;
    callbacks++;
}

int main(void)
{
    char what[160];
    int marker = 0;

    /* This must be Wireup's library, not OpenPMIx's (both are named libpmix.so.2). */
    const char *version = PMIx_Get_version();
    report(NULL != version && NULL != strstr(version, "Wireup"),
           "PMIx_Get_version comes from Wireup's libpmix.so.2");

    report(PMIX_ERR_NOT_SUPPORTED == -47,
           "the installed headers agree PMIX_ERR_NOT_SUPPORTED is -47");

    /* Blocking stubs: one status, nothing else. */
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_proc_t proc;
    memset(&proc, 0, sizeof(proc));
    strcpy(proc.nspace, "wu-abi-test");
    proc.rank = 0;
    pmix_byte_object_t cred = {.bytes = NULL, .size = 0};
    pmix_topology_t topo = {.source = NULL, .topology = NULL};
    pmix_cpuset_t cpuset = {.source = NULL, .bitmap = NULL};
    pmix_fabric_t fabric;
    memset(&fabric, 0, sizeof(fabric));
    const struct {
        const char *name;
        pmix_status_t rc;
    } blocking[] = {
        {"PMIx_Allocation_request",
         PMIx_Allocation_request(PMIX_ALLOC_NEW, NULL, 0, &results, &nresults)},
        {"PMIx_Fabric_update", PMIx_Fabric_update(&fabric)},
        {"PMIx_Fabric_register", PMIx_Fabric_register(&fabric, NULL, 0)},
        {"PMIx_server_define_process_set", PMIx_server_define_process_set(&proc, 1, "pset")},
        {"PMIx_tool_set_server", PMIx_tool_set_server(&proc, NULL, 0)},
    };
    for (size_t i = 0; i < sizeof(blocking) / sizeof(blocking[0]); i++) {
        snprintf(what, sizeof(what), "%s returns PMIX_ERR_NOT_SUPPORTED (got %d)", blocking[i].name,
                 (int)blocking[i].rc);
        report(PMIX_ERR_NOT_SUPPORTED == blocking[i].rc, what);
    }
    report(NULL == results && 0 == nresults && NULL == fabric.name && NULL == fabric.module,
           "the blocking stubs leave their result arguments alone");

    /* Non-blocking stubs: refused at once, and the callback never runs. */
    const struct {
        const char *name;
        pmix_status_t rc;
    } nonblocking[] = {
        {"PMIx_Allocation_request_nb",
         PMIx_Allocation_request_nb(PMIX_ALLOC_EXTEND, NULL, 0, info_cb, &marker)},
        {"PMIx_Fabric_register_nb", PMIx_Fabric_register_nb(&fabric, NULL, 0, op_cb, &marker)},
        {"PMIx_IOF_push", PMIx_IOF_push(&proc, 1, &cred, NULL, 0, op_cb, &marker)},
        {"PMIx_server_register_resources", PMIx_server_register_resources(NULL, 0, op_cb, &marker)},
        {"PMIx_server_collect_inventory", PMIx_server_collect_inventory(NULL, 0, info_cb, &marker)},
    };
    for (size_t i = 0; i < sizeof(nonblocking) / sizeof(nonblocking[0]); i++) {
        snprintf(what, sizeof(what), "%s returns PMIX_ERR_NOT_SUPPORTED (got %d)",
                 nonblocking[i].name, (int)nonblocking[i].rc);
        report(PMIX_ERR_NOT_SUPPORTED == nonblocking[i].rc, what);
    }
    snprintf(what, sizeof(what), "no callback of a refused request ran (%d did)", callbacks);
    report(0 == callbacks && 0 == marker, what);

    /* Functions without a status. */
    PMIx_Progress();
    PMIx_Topology_destruct(&topo);
    PMIx_Cpuset_destruct(&cpuset);
    report(NULL == topo.topology && NULL == cpuset.bitmap,
           "PMIx_Progress and the destruct functions of empty objects return and touch nothing");

    return 0 == failures ? 0 : 1;
}
