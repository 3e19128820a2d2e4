/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_core.h -- the bottom layer of the runtime (pmix/rte/core): what every other layer of
 * the launchers uses and which itself uses no other layer: the process's identity (tool name,
 * host name, launcher or daemon), the rte progress thread, one-line messages to stderr, and the
 * watchdog that cleans up after the launcher however it ends.
 *
 * Layers above plug into it through hooks (wu_rte_core_set_text_sink); it calls nothing above. */
#ifndef WU_RTE_CORE_H
#define WU_RTE_CORE_H

#include "opal/event/wu_progress.h"
#include "opal/util/wu_macros.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

extern const char *wu_rte_tool;   /* "wrun", "wired", ... (for messages) */
extern char wu_rte_hostname[256]; /* this node */
extern bool wu_rte_daemon_mode;   /* this process is wired (set before the server starts) */

/* Name this process (tool: NULL for "wrun") and learn the host name; before anything else. */
void wu_rte_core_identify(const char *tool);
/* Start and stop the rte progress thread (WU_ERR_SILENT if it cannot start). */
int wu_rte_core_start(void);
void wu_rte_core_stop(void);
/* The rte progress thread, or NULL when not started. */
WU_EXPORT wu_progress_t *wu_rte_progress(void);

/* Where text for stdout or stderr goes while a job's output is queued (on the rte thread): the
 * sink returns false if it did not take the text, which is then written plainly. The job's I/O
 * layer installs it; NULL removes it. */
typedef bool (*wu_rte_text_sink_fn)(int fd, const char *text, size_t len);
void wu_rte_core_set_text_sink(wu_rte_text_sink_fn sink);
/* Text for our stdout or stderr: on the rte thread through the sink (behind the job's queued
 * output), else written at once. */
void wu_rte_write_text(int fd, const char *text, size_t len);
/* A one-line message from help-wu-rte.txt on stderr (not framed). */
void wu_rte_say(const char *topic, ...);

/* The directory of the libpmix.so.2 that belongs to this launcher, which the job's processes get
 * first in LD_LIBRARY_PATH: the one this process has loaded, else beside the launcher in a build
 * tree (.libs), ../lib of an installed or relocated launcher, or the configured libdir. NULL when
 * none of them holds the library. */
const char *wu_rte_libdir(void);

/* wu_rte_watchdog.c: start the watchdog (wu_rte_init, before any thread); tell it of a process
 * this launcher started (any thread), or that every process told of so far is reaped. */
void wu_rte_watchdog_start(void);
void wu_rte_watch_pid(pid_t pid);
void wu_rte_watch_forget(void);
/* First thing in the launcher's main: if argv asks for the watchdog (the launcher's program run
 * again by wu_rte_init's watchdog), be it and never return; else note that this program can. */
WU_EXPORT void wu_rte_watchdog_dispatch(int argc, char **argv);

#endif
