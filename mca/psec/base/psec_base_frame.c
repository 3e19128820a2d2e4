/* SPDX-License-Identifier: BSD-3-Clause */
/* psec_base_frame.c -- the psec framework declaration, mode checking and dispatch. */
#include "mca/psec/psec.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_show_help.h"
#include "pmix_common.h"

#include <string.h>

WU_MCA_FRAMEWORK(psec, "Credentials of clients and tools connecting to a PMIx server",
                 WU_MCA_SELECT_ONE);

int wu_psec_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_psec_framework);
}

void wu_psec_base_close(void)
{
    wu_mca_framework_close(&wu_mca_psec_framework);
}

const wu_psec_module_t *wu_psec_base_module(void)
{
    return wu_mca_active_module(&wu_mca_psec_framework, 0);
}

const char *wu_psec_base_mode(void)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    return NULL == m ? NULL : m->mode;
}

int wu_psec_base_check_mode(const char *requested)
{
    const char *mode = wu_psec_base_mode();
    char shown[4 * WU_ESC_SHORT + 4];
    if (NULL == mode) {
        return WU_ERR_INIT;
    }
    if (NULL == requested || '\0' == requested[0] || 0 == strcmp(requested, mode)) {
        return WU_SUCCESS;
    }
    /* requested came from the peer: shown escaped and bounded */
    wu_show_help("help-wu-psec.txt", "mode-mismatch", true,
                 wu_str_escape(requested, WU_ESC_SHORT, shown, sizeof shown, 0), mode, mode);
    return PMIX_ERR_INVALID_CRED;
}

int wu_psec_base_create_cred(int fd, char **cred, size_t *len)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    if (NULL == cred || NULL == len) {
        return WU_ERR_BAD_PARAM;
    }
    *cred = NULL;
    *len = 0;
    return m->create_cred(fd, cred, len);
}

int wu_psec_base_validate_peer(int fd, uid_t want_uid, gid_t want_gid, const char *cred, size_t len,
                               wu_psec_peer_t *got)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    if (NULL == cred && 0 != len) {
        return WU_ERR_BAD_PARAM;
    }
    return m->validate_peer(fd, want_uid, want_gid, cred, len, got);
}

int wu_psec_base_server_token(const char **token)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    if (NULL == token) {
        return WU_ERR_BAD_PARAM;
    }
    *token = NULL;
    return NULL == m->server_token ? WU_SUCCESS : m->server_token(token);
}

int wu_psec_base_issue_cred(const wu_psec_id_t *who, char **cred, size_t *len)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    if (NULL == who || NULL == cred || NULL == len) {
        return WU_ERR_BAD_PARAM;
    }
    *cred = NULL;
    *len = 0;
    return NULL == m->issue_cred ? PMIX_ERR_NOT_SUPPORTED : m->issue_cred(who, cred, len);
}

int wu_psec_base_set_cred_secret(const unsigned char *secret, size_t n)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    if (NULL == secret || n < 16) {
        return WU_ERR_BAD_PARAM;
    }
    return NULL == m->set_cred_secret ? PMIX_ERR_NOT_SUPPORTED : m->set_cred_secret(secret, n);
}

int wu_psec_base_check_cred(const char *cred, size_t len, wu_psec_id_t *who)
{
    const wu_psec_module_t *m = wu_psec_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    if (NULL == who || (NULL == cred && 0 < len)) {
        return WU_ERR_BAD_PARAM;
    }
    return NULL == m->check_cred ? PMIX_ERR_NOT_SUPPORTED : m->check_cred(cred, len, who);
}
