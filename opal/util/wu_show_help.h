/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_show_help.h -- user-facing messages from the compiled-in help catalog.
 *
 * Every message a user may read (a bad option, a component that cannot run, a failed launch)
 * lives in a help file, help-<area>.txt, as a [topic] section whose text is a printf format.
 * At build time config/wu_help_to_c.pl compiles all help files into wu_help_catalog[], so a
 * message never depends on files installed at run time. Code names a message by file basename
 * and topic, and supplies the arguments:
 *
 *     wu_show_help("help-wu-util.txt", "unknown-option", true, "wrun", "--npx");
 *
 * Printed messages are framed by lines of dashes. Repeats of one file+topic (for instance the
 * same failure reported by many ranks and relayed to the launcher) are counted instead of
 * printed while aggregation is on, and summarised by wu_show_help_flush(). All functions are
 * thread safe. */
#ifndef WU_SHOW_HELP_H
#define WU_SHOW_HELP_H

#include "opal/util/wu_macros.h"

#include <stdarg.h>
#include <stdbool.h>

/* One catalog entry: file is the help file's basename ("help-wu-util.txt"), text the topic's
 * lines, each ending in '\n', trailing blank lines removed. */
typedef struct {
    const char *file, *topic, *text;
} wu_help_entry_t;

/* The generated catalog, terminated by an entry whose fields are all NULL. */
extern const wu_help_entry_t wu_help_catalog[];

/* Raw (unformatted) text of a topic, or NULL if file or topic is unknown or NULL. file may be
 * given with a directory; only its basename is used. Static storage. */
WU_EXPORT const char *wu_help_lookup(const char *file, const char *topic);

/* Format a topic with printf-style arguments (which must match the topic's conversions), framed
 * by lines of 74 dashes. want_error_header adds a first line naming the program, its PID and
 * host. Returns a malloc'd string the caller frees, or NULL when out of memory. An unknown
 * file/topic (or NULL) gives a framed message saying which topic is missing from the catalog,
 * never NULL. */
WU_EXPORT char *wu_show_help_string(const char *file, const char *topic, bool want_error_header,
                                    ...);

/* va_list form of wu_show_help_string(); ap is consumed. */
char *wu_show_help_vstring(const char *file, const char *topic, bool want_error_header, va_list ap);

/* Format as wu_show_help_string() and print with one write(2). With aggregation on, a repeat of
 * a file+topic already printed is only counted (see wu_show_help_flush()). Returns WU_SUCCESS
 * (also when the repeat was only counted), WU_ERR_BAD_PARAM for a NULL file or topic (the
 * "missing topic" message is printed anyway), WU_ERR_NOMEM, or WU_ERR_SYS if the write
 * failed. */
WU_EXPORT int wu_show_help(const char *file, const char *topic, bool want_error_header, ...);

/* Print text rendered elsewhere (e.g. relayed from another process) with one write(2), a newline
 * appended if missing, aggregated under file+topic like wu_show_help(). Returns WU_SUCCESS,
 * WU_ERR_BAD_PARAM if an argument is NULL, WU_ERR_NOMEM or WU_ERR_SYS. */
int wu_show_help_norender(const char *file, const char *topic, const char *rendered_text);

/* Turn aggregation on or off. Until this is called, aggregation is on unless the environment
 * sets PMIX_MCA_base_help_aggregate to 0, false, no or off (the MCA base should register the
 * parameter base_help_aggregate and call this with its value). Turning it off flushes the
 * counts and forgets which topics were printed. */
void wu_show_help_set_aggregate(bool on);

/* Print one line for each file+topic whose repeats were counted since the last flush, saying how
 * many more there were, plus one line telling how to turn aggregation off; then reset the
 * counts. Prints nothing if nothing was counted. One write(2) in all. */
WU_EXPORT void wu_show_help_flush(void);

/* Tests and daemons: where messages go from now on (fd is not owned: the caller keeps it open
 * while in use); -1 (or any negative fd) restores stderr. */
void wu_show_help_set_fd(int fd);

#endif
