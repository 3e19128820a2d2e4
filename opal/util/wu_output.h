/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_output.h -- output streams with a verbosity level each, for diagnostics and debug traces.
 *
 * A stream is a small integer id naming a destination (stderr unless redirected), an optional
 * prefix and a verbosity level. Stream 0 always exists: stderr, no prefix, verbosity 0. Every
 * framework opens its own stream and sets its verbosity from <fw>_base_verbose.
 *
 * A message at level L is printed on a stream whose verbosity is V when 0 <= L <= V; a stream
 * at WU_VERB_NONE prints no leveled message at all. Each message goes out as one write(2) of
 * all its lines (each line starting with the stream's prefix, a newline appended if missing),
 * so lines of concurrent threads and processes do not interleave. All functions are thread
 * safe, usable before wu_output_init(), and ignore an invalid stream id. User-facing messages
 * belong in the help catalog (wu_show_help.h), not here. */
#ifndef WU_OUTPUT_H
#define WU_OUTPUT_H

#include "opal/util/wu_macros.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Named verbosity levels; the values between them are valid too. */
enum {
    WU_VERB_NONE = -1,      /* nothing but wu_output() */
    WU_VERB_ERROR = 0,      /* errors (the default of every stream) */
    WU_VERB_COMPONENT = 10, /* component selection: tried, rejected and why, selected */
    WU_VERB_WARN = 20,
    WU_VERB_INFO = 40,
    WU_VERB_TRACE = 60,
    WU_VERB_DEBUG = 80,
    WU_VERB_MAX = 100
};

/* Number of streams that can be open at once, stream 0 included. */
#define WU_OUTPUT_MAX_STREAMS 128

/* Take a reference on the output system. Idempotent and refcounted: each call must be matched
 * by one wu_output_finalize(). Returns WU_SUCCESS. */
int wu_output_init(void);

/* Drop a reference. The last one closes every stream but 0 and resets stream 0 to stderr with
 * verbosity 0. Extra calls are ignored. */
void wu_output_finalize(void);

/* Open a new stream writing to stderr with verbosity 0. prefix (may be NULL or "") is copied and
 * printed verbatim at the start of every line, e.g. "gds:hash: ". Returns the id (> 0) or
 * WU_ERR_OUT_OF_RESOURCE when all streams are in use, WU_ERR_NOMEM. Closed ids are reused. */
int wu_output_open(const char *prefix);

/* Close a stream; its id may be handed out again. Stream 0 and invalid ids are ignored. A
 * redirected fd is not closed (the caller owns it). */
void wu_output_close(int stream);

/* Set a stream's verbosity; values below WU_VERB_NONE become WU_VERB_NONE, values above
 * WU_VERB_MAX become WU_VERB_MAX. Invalid ids are ignored. */
void wu_output_set_verbosity(int stream, int level);

/* A stream's verbosity, or WU_VERB_NONE for an invalid id. */
int wu_output_get_verbosity(int stream);

/* Would a message at level be printed on stream? false for an invalid id or a negative level. */
bool wu_output_check(int level, int stream);

/* Print a message on stream whatever its verbosity (still nothing for an invalid id). */
void wu_output(int stream, const char *fmt, ...) WU_PRINTF(2, 3);

/* Print a message if wu_output_check(level, stream). Pass named levels (WU_VERB_*), not numbers.
 * The arguments are evaluated even when nothing is printed: guard costly ones with
 * wu_output_check(). */
WU_EXPORT void wu_output_verbose(int level, int stream, const char *fmt, ...) WU_PRINTF(3, 4);

/* va_list form of wu_output_verbose(); ap is consumed. */
void wu_output_vverbose(int level, int stream, const char *fmt, va_list ap) WU_PRINTF(3, 0);

/* Send a stream's output to fd instead of stderr (tests, daemons whose stderr is closed);
 * fd -1 restores stderr. The stream does not own fd: the caller keeps it open while in use and
 * closes it. Returns WU_SUCCESS, or WU_ERR_BAD_PARAM for an invalid stream or fd < -1. */
int wu_output_set_fd(int stream, int fd);

/* Parse a verbosity: a decimal number 0..100, or a name (none, error, component, warn or
 * warning, info, trace, debug, max), case-insensitive, surrounding blanks ignored. On success
 * stores the level in *level and returns WU_SUCCESS; otherwise WU_ERR_BAD_PARAM and *level is
 * unchanged. */
int wu_output_verbosity_parse(const char *s, int *level);

/* Name of the nearest named level at or below level, e.g. 45 -> "info", -5 -> "none",
 * 1000 -> "max". Never NULL; static storage. */
const char *wu_output_verbosity_name(int level);

/* Write all of buf to fd, retrying on EINTR and after a short write (so a message normally
 * takes exactly one write(2)). Returns WU_SUCCESS or WU_ERR_SYS with errno set. Shared with
 * wu_show_help; not meant for general use. */
int wu_output_write_all(int fd, const char *buf, size_t len);

#endif
