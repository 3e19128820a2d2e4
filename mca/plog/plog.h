/* SPDX-License-Identifier: BSD-3-Clause */
/* plog.h -- the plog framework: where PMIx_Log messages go.
 *
 * PMIx_Log hands the library a set of log requests, each naming a channel: "stdout", "stderr",
 * "syslog", and later "email" or a site's own. plog decides who writes each one. Every component
 * declares the channels it serves; the framework opens all willing components (select_all), and
 * a request goes to the first active module, in priority order, that serves its channel and does
 * not pass it on with WU_ERR_TAKE_NEXT. A channel nobody serves gives WU_ERR_NOT_SUPPORTED, which
 * PMIx_Log reports per request. The user chooses components with PMIX_MCA_plog (e.g. "^syslog")
 * and tunes them with PMIX_MCA_plog_<comp>_<param>.
 *
 * A PMIx_Log request reaches plog in exactly one process: a singleton client logs locally; a
 * connected client sends it to its server, which hands it to its host's log upcall (the
 * launcher, which logs it through plog in its own process) or, without one, logs it itself.
 * Each of them calls wu_plog_base_log_request (mca/plog/base/plog_base.h), which owns the one
 * mapping from log keys to channels (wu_plog_base_channel) and the request's directives
 * (PMIX_LOG_ONCE, _SOURCE, _SYSLOG_PRI, _TIMESTAMP, _GENERATE_TIMESTAMP).
 *
 * Modules are called from the progress thread (or the caller's thread for tools that log
 * synchronously); they must not block for long and must write each message atomically. */
#ifndef WU_PLOG_H
#define WU_PLOG_H

#include "mca/base/wu_mca.h"

#include <time.h>

#define WU_plog_VERSION 1u

/* One request to log one message on one channel. */
typedef struct wu_plog_entry {
    const char *channel; /* "stdout", "stderr", "syslog", ... */
    const char *message; /* text; a trailing newline is added where the channel needs one */
    const char *source;  /* who logged it, e.g. "nspace:rank"; may be NULL */
    int severity;        /* syslog(3) priority (LOG_ERR ... LOG_DEBUG); -1: the channel's default */
    time_t timestamp;    /* when it was logged; 0: now */
} wu_plog_entry_t;

typedef struct wu_plog_module {
    const char *const *channels; /* NULL-terminated */
    /* WU_SUCCESS: written; WU_ERR_TAKE_NEXT: let the next module have it; else an error. */
    int (*log)(const wu_plog_entry_t *entry);
} wu_plog_module_t;

extern wu_mca_framework_t wu_mca_plog_framework;

/* Open / close the framework (select every willing component). */
int wu_plog_base_open(void);
void wu_plog_base_close(void);
/* Route one entry to the modules (see above). */
int wu_plog_base_log(const wu_plog_entry_t *entry);
/* Is there an active module for this channel? */
bool wu_plog_base_has_channel(const char *channel);

/* Components that write to the process's own file descriptors (stdout, stderr) write through
 * here, never with write(2) themselves: a process that forwards other output to those fds (a
 * launcher) installs a writer that queues the text behind that output instead of blocking the
 * caller's thread on a reader that does not read. The writer returns true when it took the
 * text (copied it); false, or no writer, means a plain blocking write. WU_SUCCESS or
 * WU_ERR_SYS. Setting the writer is for the process's main program, before logging starts. */
typedef bool (*wu_plog_fd_writer_t)(int fd, const char *text, size_t len);
WU_EXPORT int wu_plog_base_write_fd(int fd, const char *text, size_t len);
WU_EXPORT void wu_plog_base_set_fd_writer(wu_plog_fd_writer_t writer);

/* The channel a PMIx_Log data key asks for (PMIX_LOG_STDERR -> "stderr", PMIX_LOG_SYSLOG and
 * PMIX_LOG_LOCAL/GLOBAL_SYSLOG -> "syslog", PMIX_LOG_MSG -> "stderr", PMIX_LOG_EMAIL ->
 * "email", ...); NULL when the key names no channel. */
const char *wu_plog_base_channel(const char *key);

#endif
