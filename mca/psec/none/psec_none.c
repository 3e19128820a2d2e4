/* SPDX-License-Identifier: BSD-3-Clause */
/* psec_none.c -- psec component "none": no credentials, every peer is accepted. Runs only when
 * named (PMIX_MCA_psec=none) and warns once per process that connections are not checked. */
#include "mca/psec/psec.h"
#include "opal/util/wu_show_help.h"

#include <pthread.h>

static pthread_once_t warn_once = PTHREAD_ONCE_INIT;

static void warn(void)
{
    wu_show_help("help-psec-none.txt", "security-off", true);
}

static int none_open(void)
{
    pthread_once(&warn_once, warn);
    return WU_SUCCESS;
}

static int none_create_cred(int fd, char **cred, size_t *len)
{
    (void)fd;
    (void)cred;
    (void)len;
    return WU_SUCCESS;
}

static int none_validate_peer(int fd, uid_t want_uid, gid_t want_gid, const char *cred, size_t len,
                              wu_psec_peer_t *got)
{
    (void)fd;
    (void)want_uid;
    (void)want_gid;
    (void)cred;
    (void)len;
    if (NULL != got) {
        got->uid = (uid_t)-1;
        got->gid = (gid_t)-1;
        got->pid = (pid_t)-1;
    }
    return WU_SUCCESS;
}

static const wu_psec_module_t none_module = {
    .mode = "none",
    .create_cred = none_create_cred,
    .server_token = NULL,
    .validate_peer = none_validate_peer,
};

WU_MCA_COMPONENT(psec, none, .priority = -1, .open = none_open,
                 .description = "No connection security: accepts every peer (only when named)",
                 .module = &none_module);
