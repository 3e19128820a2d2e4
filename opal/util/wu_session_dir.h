/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_session_dir.h -- private per-process session directories, removed exactly.
 *
 * A session directory holds a process's rendezvous files and sockets. It is created with
 * mkdtemp (mode 0700, a fresh unique name) and remembered in a process-wide registry together
 * with every subdirectory made through wu_session_dir_mkdir and every file registered through
 * wu_session_dir_track. Removal deletes exactly those, deepest first, and the session directory
 * itself; anything else found there was made by someone else and stays, and the removal then
 * reports WU_ERR_EXISTS. Nothing is ever removed recursively, so a stray link or a foreign file
 * cannot make us delete what is not ours.
 *
 * Naming: "<tmpdir>/<prefix>.<host>.<uid>.XXXXXX", where <host> is the short host name (up to
 * the first '.') limited to 32 characters of [A-Za-z0-9-] (others become '-'), <uid> the real
 * uid and XXXXXX mkdtemp's random part. Unix socket paths are limited to 107 bytes, so when the
 * name would be longer than 80 bytes the host is left out
 * ("<tmpdir>/<prefix>.<uid>.XXXXXX"); a longer tmpdir still works, it only leaves less room.
 *
 * Stale directories: each session directory holds a file WU_SESSION_DIR_OWNER naming its
 * creator (pid, the process's start time from /proc/PID/stat, the pid namespace, the boot id and
 * the host). Before creating one, wu_session_dir_create removes the directories of the same
 * prefix in the same tmpdir that a process of this user left behind when it was killed
 * (wu_session_dir_sweep): only real directories (never a link) with exactly this naming, owned
 * by this user, mode 0700, whose owner file names a process that is certainly gone (no such
 * pid, a zombie, or another process under a reused pid, or a reboot since); a directory without
 * an owner file, or of another host or pid namespace, is left alone.
 *
 * All functions are thread safe (one mutex). A forked child inherits the registry, but
 * wu_session_dir_remove_all only removes directories created by the calling process id, so a
 * child that exits does not remove its parent's directories. */
#ifndef WU_SESSION_DIR_H
#define WU_SESSION_DIR_H

#include "opal/util/wu_macros.h"

/* Name of the owner file inside each session directory. */
#define WU_SESSION_DIR_OWNER ".wu-owner"

/* Create and register a new session directory inside tmpdir (NULL: wu_tmpdir(), which must
 * exist; it is not created). prefix names the user of the directory, e.g. "wired" (NULL:
 * "wireup"); it must be non-empty, at most 32 characters, without '/'. On success *path is the
 * malloc'd absolute path, which identifies the session in the calls below. Stale directories
 * of the same prefix in tmpdir are removed first (see above; their failures are ignored).
 * WU_SUCCESS, WU_ERR_BAD_PARAM (path NULL, bad prefix, relative tmpdir), WU_ERR_NOT_FOUND
 * (tmpdir does not exist), WU_ERR_NO_PERMISSIONS, WU_ERR_NOMEM, WU_ERR_SYS. */
WU_EXPORT int wu_session_dir_create(const char *tmpdir, const char *prefix, char **path);

/* Create directory name (mode 0700) inside session and register it. name is relative and may
 * have several components ("a/b"): missing ones are created and registered, existing real
 * directories are used (a symlink in the way is refused). Making a directory that this module
 * already made again is success. *path (may be NULL) receives the malloc'd absolute path.
 * WU_SUCCESS, WU_ERR_NOT_FOUND (session unknown), WU_ERR_BAD_PARAM (NULL, empty, absolute
 * name, "." or ".." components), WU_ERR_EXISTS (the final directory exists but was not made
 * here, or something not a directory is in the way), WU_ERR_NO_PERMISSIONS, WU_ERR_NOMEM,
 * WU_ERR_SYS. */
int wu_session_dir_mkdir(const char *session, const char *name, char **path);

/* Register a file (or socket, fifo, link) the caller creates inside session, so removal deletes
 * it. path is absolute below session or relative to it, without "." or ".." components. It need
 * not exist yet (register a socket before binding it); one that is missing at removal time is
 * not an error. Registering twice is harmless. A registered path that turns out to be a
 * directory is removed only when empty.
 * WU_SUCCESS, WU_ERR_NOT_FOUND (session unknown), WU_ERR_BAD_PARAM (path outside session or
 * malformed), WU_ERR_NOMEM. */
WU_EXPORT int wu_session_dir_track(const char *session, const char *path);

/* Remove what was made and registered in session, deepest first, then session itself, and
 * forget the session. Foreign entries stay in place.
 * WU_SUCCESS, WU_ERR_EXISTS (foreign entries were left; everything of ours that could go is
 * gone), WU_ERR_NOT_FOUND (session unknown), WU_ERR_NO_PERMISSIONS or WU_ERR_SYS (a removal
 * failed for another reason; the rest was still attempted). */
WU_EXPORT int wu_session_dir_remove(const char *session);

/* Remove the stale session directories "<prefix>.*" in tmpdir (NULL: wu_tmpdir(); prefix
 * NULL: "wireup") as described above, each with wu_path_rm_tree. *removed (may be NULL) counts
 * them. WU_SUCCESS, WU_ERR_BAD_PARAM (relative tmpdir, bad prefix), or the first error of
 * opening tmpdir or of a removal (the others are still attempted). */
WU_EXPORT int wu_session_dir_sweep(const char *tmpdir, const char *prefix, unsigned *removed);

/* wu_session_dir_remove for every session this process (by pid) created, e.g. at exit.
 * Sessions inherited from a parent across fork are forgotten without touching the disk.
 * Returns WU_SUCCESS or the first error of those removals (WU_ERR_EXISTS when foreign entries
 * were left somewhere); callers at exit may ignore it. */
int wu_session_dir_remove_all(void);

#endif
