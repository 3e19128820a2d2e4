/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_watchdog.c -- the launcher's watchdog (wrun and wired): a process that outlives the
 * launcher and cleans up after it, however it ends.
 *
 * The watchdog is forked before any thread starts. A launcher that dispatches its command line
 * through wu_rte_watchdog_dispatch first (wrun and wired do) has the child run the launcher's
 * own program again (/proc/self/exe) as "wu-watchdog --wu-watchdog FD PID", so that ps and
 * pgrep show it for what it is; any other program keeps the forked copy. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "opal/util/wu_session_dir.h"
#include "pmix/rte/core/wu_rte_core.h"
#include "opal/util/wu_time.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The argument that makes wrun or wired the watchdog. */
#define WATCHDOG_ARG "--wu-watchdog"

/* This program dispatches WATCHDOG_ARG: the watchdog may run it again. */
static bool can_exec = false;

/* The watchdog: a process forked before any thread starts that waits for this launcher to end,
 * however it ends. The launcher tells it, through a pipe, the pid of every process it starts
 * ("p PID" lines) and, once a job's processes are all reaped, to forget them ("f"). When the
 * pipe reaches end of file -- the launcher is gone, killed outright perhaps -- the watchdog
 * removes the session directories the launcher could not remove (the stale-directory sweep of
 * wu_session_dir.h, which removes only those whose owner is certainly gone), gives the
 * processes it was told of WATCH_GRACE seconds to notice the lost server and end, then kills
 * what is left of them (their process groups). After a normal end there is nothing to do. */
#define WATCH_GRACE 2.0

static int watch_fd = -1;

static void watch_say(const char *line)
{
    size_t n = strlen(line);
    if (watch_fd >= 0 && (ssize_t)n != write(watch_fd, line, n)) {
        /* the watchdog is gone: nothing to tell */
    }
}

void wu_rte_watch_pid(pid_t pid)
{
    char line[32];
    if (pid > 0) {
        snprintf(line, sizeof line, "p %ld\n", (long)pid);
        watch_say(line);
    }
}

void wu_rte_watch_forget(void)
{
    watch_say("f\n");
}

/* Is pid a live process (not a zombie)? */
static bool alive(pid_t pid)
{
    char path[64], buf[512], *rp;
    FILE *f;
    bool live = false;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (NULL != (f = fopen(path, "r"))) {
        if (NULL != fgets(buf, sizeof buf, f) && NULL != (rp = strrchr(buf, ')'))) {
            live = 'Z' != rp[2] && 'X' != rp[2];
        }
        fclose(f);
    }
    return live;
}

/* Wait until every process of pids[0..n) has ended (exited, a zombie or gone), limit seconds at
 * most: poll(2) on a pidfd of each (they are not our children: no waitpid). A process for which
 * no pidfd can be had (an old kernel, no fds left) cannot be watched: then the wait takes the
 * whole limit. */
static void wait_ended(const pid_t *pids, size_t n, double limit)
{
    struct pollfd *fds = calloc(n > 0 ? n : 1, sizeof *fds);
    size_t nf = 0;
    bool blind = NULL == fds;
    double until = wu_time_now() + limit;
    for (size_t i = 0; NULL != fds && i < n; i++) {
        int fd = alive(pids[i]) ? (int)syscall(SYS_pidfd_open, pids[i], 0) : -1;
        if (fd >= 0) {
            fds[nf].fd = fd;
            fds[nf++].events = POLLIN; /* readable once it has exited */
        } else if (alive(pids[i])) {
            blind = true;
        }
    }
    while (nf > 0 || blind) {
        double left = until - wu_time_now();
        int r;
        if (left <= 0) {
            break;
        }
        r = poll(fds, blind ? 0 : nf, (int)(left * 1000.0) + 1);
        if (r < 0 && EINTR == errno) {
            continue;
        }
        if (blind || r <= 0) {
            break; /* the limit is reached (or poll cannot wait) */
        }
        for (size_t i = 0; i < nf;) {
            if (0 != fds[i].revents) {
                (void)close(fds[i].fd);
                fds[i] = fds[--nf];
            } else {
                i++;
            }
        }
    }
    for (size_t i = 0; i < nf; i++) {
        (void)close(fds[i].fd);
    }
    free(fds);
}

/* Remove the session directories whose owner is certainly gone (servers' in srv or TMPDIR). */
static void sweep(const char *srv)
{
    (void)wu_session_dir_sweep(NULL != srv && '\0' != srv[0] ? srv : NULL, "wu-server", NULL);
    (void)wu_session_dir_sweep(NULL, "wu-ptl", NULL);
}

static void watchdog_main(int in, pid_t launcher)
{
    const char *srv = getenv("PMIX_SERVER_TMPDIR");
    pid_t *pids = NULL;
    size_t n = 0, cap = 0, len = 0;
    char buf[256];

    for (;;) {
        ssize_t r = read(in, buf + len, sizeof buf - 1 - len);
        char *nl;
        if (r < 0 && EINTR == errno) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        len += (size_t)r;
        buf[len] = '\0';
        while (NULL != (nl = strchr(buf, '\n'))) {
            *nl = '\0';
            if ('f' == buf[0]) {
                n = 0;
            } else if ('p' == buf[0]) {
                if (n == cap) {
                    pid_t *grown = realloc(pids, (cap = cap > 0 ? 2 * cap : 64) * sizeof *pids);
                    if (NULL == grown) {
                        _exit(1);
                    }
                    pids = grown;
                }
                pids[n++] = (pid_t)strtol(buf + 2, NULL, 10);
            }
            len -= (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, len + 1);
        }
        if (len == sizeof buf - 1) {
            len = 0; /* no such line comes from us */
        }
    }
    /* end of file comes while the launcher is still exiting (its files close before it is a
     * zombie), when the sweep would take it for alive: wait until it is a zombie or gone (by
     * then we are another process's child), 5 s at most */
    wait_ended(&launcher, 1, 5.0);
    sweep(srv);
    wait_ended(pids, n, WATCH_GRACE);
    for (size_t i = 0; i < n; i++) {
        if (alive(pids[i])) {
            pid_t pg = getpgid(pids[i]);
            (void)kill(pg > 1 ? -pg : pids[i], SIGKILL);
        }
    }
    sweep(srv); /* what a process of the launcher's made since the first sweep */
    _exit(0);
}

/* Run this program again as the watchdog, reading fd; returns only if it could not. */
static void exec_self(int fd, pid_t launcher)
{
    char sfd[16], spid[24];
    char *argv[] = {"wu-watchdog", WATCHDOG_ARG, sfd, spid, NULL};
    if (!can_exec || 0 != fcntl(fd, F_SETFD, 0)) {
        return;
    }
    snprintf(sfd, sizeof sfd, "%d", fd);
    snprintf(spid, sizeof spid, "%ld", (long)launcher);
    (void)execv("/proc/self/exe", argv);
}

void wu_rte_watchdog_start(void)
{
    int p[2];
    pid_t pid, launcher = getpid();
    if (0 != pipe2(p, O_CLOEXEC)) {
        return; /* not fatal: the next launcher's sweep removes the directories */
    }
    pid = fork();
    if (0 == pid) {
        int fd = open("/dev/null", O_RDWR);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGTSTP, SIG_IGN);
        /* hold nothing of the launcher's: a reader of its output sees end of file with it */
        for (int k = 0; k < 3 && fd >= 0; k++) {
            (void)dup2(fd, k);
        }
        for (int k = 3; k < 1024; k++) {
            if (k != p[0]) {
                (void)close(k);
            }
        }
        exec_self(p[0], launcher);
        watchdog_main(p[0], launcher); /* it could not: the same, as a copy of the launcher */
    }
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        return;
    }
    watch_fd = p[1]; /* close-on-exec: only this process holds it */
}

void wu_rte_watchdog_dispatch(int argc, char **argv)
{
    can_exec = true;
    if (4 == argc && 0 == strcmp(argv[1], WATCHDOG_ARG)) {
        char *end;
        long fd = strtol(argv[2], &end, 10), pid;
        if ('\0' != *end || fd < 0 || fd > 65535) {
            _exit(1);
        }
        pid = strtol(argv[3], &end, 10);
        if ('\0' != *end || pid <= 1) {
            _exit(1);
        }
        watchdog_main((int)fd, (pid_t)pid); /* does not return */
    }
}
