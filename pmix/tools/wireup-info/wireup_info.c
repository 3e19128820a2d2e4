/* SPDX-License-Identifier: BSD-3-Clause */
/* wireup_info.c -- wireup-info: what this Wireup installation is, which frameworks and components it
 * has, and every parameter with its value and where the value came from. */
#include "pmix/tools/wireup-info/wireup_info.h"
#include "pmix/rte/wu_rte.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *PMIx_Get_version(void);

bool wi_parsable = false;
int wi_level = 9;

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: wireup-info [OPTION]...\n"
            "Show how Wireup was built, its frameworks and components, and its parameters.\n"
            "\n"
            "  -a, --all                 show everything, including every parameter\n"
            "  -p, --param FW COMP       show the parameters of framework FW, component COMP\n"
            "                            (either may be \"all\"; FW \"mca\" or \"base\" for global "
            "ones)\n"
            "  -l, --level N             only parameters of info level <= N (1-9; default 9)\n"
            "      --mca NAME VALUE      set a parameter as the command line would (repeatable)\n"
            "      --parsable            one key:value line per fact, for scripts\n"
            "  -V, --version             print the version and exit\n"
            "  -h, --help                print this help and exit\n"
            "\n"
            "Parameters come from, highest precedence first: the command line (--mca), the\n"
            "environment (PMIX_MCA_<name>), ~/.pmix/mca-params.conf, the system file\n"
            "%s/pmix-mca-params.conf, and the built-in default.\n",
            WU_SYSCONFDIR);
}

void wi_fact(const char *key, const char *label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (wi_parsable) {
        printf("%s:", key);
    } else {
        printf("%24s: ", label);
    }
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static void show_build(void)
{
    wi_fact("package", "Package", "Wireup %s", WU_VERSION);
    wi_fact("version:pmix", "PMIx library", "%s", PMIx_Get_version());
    wi_fact("version:standard", "PMIx Standard", "%s", WU_PMIX_STD_VERSION);
    wi_fact("path:prefix", "Prefix", "%s", WU_PREFIX);
    wi_fact("path:pkglibdir", "Component directory", "%s", WU_PKGLIBDIR);
    wi_fact("path:sysconfdir", "System parameter file", "%s/pmix-mca-params.conf", WU_SYSCONFDIR);
    wi_fact("config:cli", "Configure command line", "%s", WU_CONFIGURE_CMDLINE);
    wi_fact("config:cc", "C compiler", "%s", WU_BUILD_CC);
    wi_fact("config:cflags", "C flags", "%s", WU_BUILD_CFLAGS);
    wi_fact("config:debug", "Debug build", "%s", WU_ENABLE_DEBUG ? "yes" : "no");
    wi_fact("config:components", "Components built", "%s", WU_MCA_BUILD_SUMMARY);
}

static void show_frameworks(bool params)
{
    wu_mca_framework_t **fws = wu_mca_frameworks();
    const wu_mca_dso_failure_t *fail;
    size_t nfail = wu_mca_dso_failures(&fail);
    for (size_t i = 0; NULL != fws[i]; i++) {
        wi_show_components(fws[i]);
        if (params) {
            wi_show_params(fws[i]->name, NULL);
        }
    }
    for (size_t i = 0; i < nfail; i++) {
        wi_fact("mca:failed-load", "MCA failed load", "%s: %s", fail[i].path, fail[i].reason);
    }
}

int main(int argc, char **argv)
{
    const char *pfw = NULL, *pcomp = NULL;
    bool all = false, want_param = false;
    int rc, status = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (0 == strcmp(a, "-h") || 0 == strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (0 == strcmp(a, "-V") || 0 == strcmp(a, "--version")) {
            printf("wireup-info (Wireup) %s\n%s\n", WU_VERSION, PMIx_Get_version());
            return 0;
        } else if (0 == strcmp(a, "-a") || 0 == strcmp(a, "--all")) {
            all = true;
        } else if (0 == strcmp(a, "--parsable") || 0 == strcmp(a, "--parseable")) {
            wi_parsable = true;
        } else if (0 == strcmp(a, "-p") || 0 == strcmp(a, "--param")) {
            if (i + 2 >= argc) {
                fprintf(stderr,
                        "wireup-info: %s needs two arguments: a framework and a component "
                        "(either may be \"all\")\n",
                        a);
                return 2;
            }
            pfw = argv[++i];
            pcomp = argv[++i];
            want_param = true;
        } else if (0 == strcmp(a, "-l") || 0 == strcmp(a, "--level")) {
            char *end;
            long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || '\0' != *end || v < 1 || v > 9) {
                fprintf(stderr, "wireup-info: %s needs a level from 1 to 9\n", a);
                return 2;
            }
            wi_level = (int)v;
            i++;
        } else if (0 == strcmp(a, "--mca") || 0 == strcmp(a, "-mca")) {
            if (i + 2 >= argc) {
                fprintf(stderr, "wireup-info: %s needs a parameter name and a value\n", a);
                return 2;
            }
            if (WU_SUCCESS != wu_mca_param_set_cmdline(argv[i + 1], argv[i + 2])) {
                fprintf(stderr, "wireup-info: cannot set parameter %s\n", argv[i + 1]);
                return 2;
            }
            i += 2;
        } else {
            fprintf(stderr, "wireup-info: unknown option \"%s\"; see wireup-info --help\n", a);
            return 2;
        }
    }

    if (WU_SUCCESS != (rc = wu_mca_base_open()) || WU_SUCCESS != (rc = wu_rte_mca_register())) {
        fprintf(stderr, "wireup-info: the component system could not start: %s\n", wu_strerror(rc));
        return 1;
    }
    /* Open every framework so the selection is shown as it would happen in a job. */
    for (wu_mca_framework_t **fw = wu_mca_frameworks(); NULL != *fw; fw++) {
        if (WU_SUCCESS != wu_mca_framework_open(*fw)) {
            status = 1; /* the problem was reported where it was found */
        }
    }
    if (want_param) {
        bool fw_all = 0 == strcmp(pfw, "all");
        bool comp_all = 0 == strcmp(pcomp, "all");
        if (!fw_all) {
            wu_mca_framework_t *fw = wu_mca_framework_find(pfw);
            if (NULL == fw && 0 != strcmp(pfw, "mca") && 0 != strcmp(pfw, "base")) {
                fprintf(stderr,
                        "wireup-info: there is no framework \"%s\"; see wireup-info for the list\n",
                        pfw);
                status = 2;
            } else if (NULL != fw) {
                wi_show_components(fw);
            }
        }
        if (2 != status && 0 == wi_show_params(fw_all ? NULL : pfw, comp_all ? NULL : pcomp) &&
            !comp_all) {
            fprintf(stderr, "wireup-info: no parameters for component \"%s\" of \"%s\"\n", pcomp,
                    pfw);
            status = 2;
        }
    } else {
        show_build();
        show_frameworks(all);
        if (all) {
            wi_show_params("mca", NULL);
            wi_show_params("base", NULL);
        }
    }
    wu_mca_param_report_unknown(true);
    for (wu_mca_framework_t **fw = wu_mca_frameworks(); NULL != *fw; fw++) {
        wu_mca_framework_close(*fw);
    }
    wu_mca_base_close();
    return status;
}
