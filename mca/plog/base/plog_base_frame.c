/* SPDX-License-Identifier: BSD-3-Clause */
/* plog_base_frame.c -- the plog framework declaration and its dispatch. */
#include "mca/plog/plog.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

WU_MCA_FRAMEWORK(plog, "PMIx_Log channels (stdout, stderr, syslog, ...)", WU_MCA_SELECT_ALL);

int wu_plog_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_plog_framework);
}

void wu_plog_base_close(void)
{
    wu_mca_framework_close(&wu_mca_plog_framework);
}

static bool serves(const wu_plog_module_t *m, const char *channel)
{
    for (const char *const *c = m->channels; NULL != c && NULL != *c; c++) {
        if (0 == strcmp(*c, channel)) {
            return true;
        }
    }
    return false;
}

bool wu_plog_base_has_channel(const char *channel)
{
    const wu_plog_module_t *m;
    for (size_t i = 0; NULL != (m = wu_mca_active_module(&wu_mca_plog_framework, i)); i++) {
        if (serves(m, channel)) {
            return true;
        }
    }
    return false;
}

int wu_plog_base_log(const wu_plog_entry_t *entry)
{
    const wu_plog_module_t *m;
    if (NULL == entry || NULL == entry->channel || NULL == entry->message) {
        return WU_ERR_BAD_PARAM;
    }
    for (size_t i = 0; NULL != (m = wu_mca_active_module(&wu_mca_plog_framework, i)); i++) {
        int rc;
        if (!serves(m, entry->channel)) {
            continue;
        }
        rc = m->log(entry);
        if (WU_ERR_TAKE_NEXT != rc) {
            return rc;
        }
    }
    WU_MCA_VERBOSE(&wu_mca_plog_framework, WU_VERB_INFO, "plog:base: no module serves channel %s",
                   entry->channel);
    return WU_ERR_NOT_SUPPORTED;
}

static wu_plog_fd_writer_t fd_writer;

void wu_plog_base_set_fd_writer(wu_plog_fd_writer_t writer)
{
    fd_writer = writer;
}

int wu_plog_base_write_fd(int fd, const char *text, size_t len)
{
    if (NULL != fd_writer && fd_writer(fd, text, len)) {
        return WU_SUCCESS;
    }
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0) {
            if (EINTR == errno) {
                continue;
            }
            return WU_ERR_SYS;
        }
        text += n;
        len -= (size_t)n;
    }
    return WU_SUCCESS;
}
