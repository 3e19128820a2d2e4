/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_pnet.c -- run under `wrun -n N e2e_pnet MODE [PORTS]`: what the pnet framework added to
 * the job. MODE "tcp": wu.pnet.tcp.ifaces and wu.pnet.tcp.key are job-level strings (Get at
 * PMIX_RANK_WILDCARD) equal to WU_PNET_TCP_IFACES and WU_PNET_TCP_KEY in the environment, and
 * wu.pnet.tcp.ports is PORTS (NOT_FOUND when PORTS is not given). MODE "none": all three are
 * NOT_FOUND and the variables unset. Prints "pnet rank R: ok key=K" for test/e2e/pnet.sh, which
 * compares the key across ranks. Public PMIx API only. */
#include "e2e_util.h"

static const char *const keys[] = {"wu.pnet.tcp.ifaces", "wu.pnet.tcp.key", "wu.pnet.tcp.ports"};
static const char *const envs[] = {"WU_PNET_TCP_IFACES", "WU_PNET_TCP_KEY", "WU_PNET_TCP_PORTS"};

/* the job-level string key, or NULL if NOT_FOUND (any other failure fails the program) */
static char *job_string(const char *key)
{
    pmix_status_t st;
    pmix_value_t *v = e2e_get(e2e_me.nspace, PMIX_RANK_WILDCARD, key, NULL, 0, &st);
    char *s;
    if (NULL == v) {
        E2E_CHECK(PMIX_ERR_NOT_FOUND == st,
                  "Get(%s, WILDCARD) returned %s, expected a value or "
                  "NOT_FOUND",
                  key, PMIx_Error_string(st));
        return NULL;
    }
    E2E_CHECK(PMIX_STRING == v->type && NULL != v->data.string, "%s is a %s, expected a string",
              key, PMIx_Data_type_string(v->type));
    s = strdup(v->data.string);
    e2e_free_value(v);
    return s;
}

int main(int argc, char **argv)
{
    char *got[3];
    int tcp;

    if (argc < 2 || argc > 3 || (0 != strcmp(argv[1], "tcp") && 0 != strcmp(argv[1], "none"))) {
        fprintf(stderr, "usage: %s tcp|none [expected ports lo-hi]\n", argv[0]);
        return 2;
    }
    tcp = 0 == strcmp(argv[1], "tcp");
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    e2e_step("Get the pnet keys");
    for (int i = 0; i < 3; i++) {
        const char *env = getenv(envs[i]);
        int want = tcp && (i < 2 || 3 == argc);
        got[i] = job_string(keys[i]);
        if (!want) {
            E2E_CHECK(NULL == got[i], "%s is \"%s\", expected NOT_FOUND", keys[i], got[i]);
            E2E_CHECK(NULL == env, "%s is set (\"%s\"), expected unset", envs[i], env);
            continue;
        }
        E2E_CHECK(NULL != got[i], "%s is NOT_FOUND", keys[i]);
        E2E_CHECK(NULL != env && 0 == strcmp(env, got[i]),
                  "%s is \"%s\" but the job's %s is \"%s\"", envs[i], env ? env : "(unset)",
                  keys[i], got[i]);
    }
    if (tcp) {
        E2E_CHECK(NULL != strchr(got[0], '=') && NULL != strchr(got[0], '/'),
                  "wu.pnet.tcp.ifaces \"%s\" is not a list of name=addr/prefix", got[0]);
        E2E_CHECK(32 == strlen(got[1]) && 32 == strspn(got[1], "0123456789abcdef"),
                  "wu.pnet.tcp.key \"%s\" is not 32 hex digits", got[1]);
        E2E_CHECK(3 != argc || 0 == strcmp(got[2], argv[2]),
                  "wu.pnet.tcp.ports is \"%s\", "
                  "expected \"%s\"",
                  got[2], argv[2]);
    }
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("pnet rank %u: ok key=%s\n", e2e_me.rank, tcp ? got[1] : "none");
    for (int i = 0; i < 3; i++) {
        free(got[i]);
    }
    return 0;
}
