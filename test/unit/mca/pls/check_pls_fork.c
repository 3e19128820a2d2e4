/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pls_fork.c -- the pls framework with its fork component: exit codes, signals, output,
 * exec failures, terminate and signal operations, and that nothing is left behind; the rsh and
 * slurm components through stand-in agents (an ssh and an srun that run the command here). */
#include "mca/pls/pls.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_argv.h"
#include "test/support/wu_test.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXP 8

/* What the callbacks saw; written on the progress thread, read after done (wait). */
typedef struct {
    char out[MAXP][4096], err[MAXP][4096];
    size_t nout[MAXP], nerr[MAXP];
    int eof[MAXP];
    int started, exited;
    bool ended[MAXP];
    wu_wait_t done;
} seen_t;

static wu_progress_t *pt;
static seen_t seen;
static const char *first = "rsh"; /* the component expected first in priority order */

static void on_started(wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    (void)job;
    (void)proc;
    seen.started++;
}

static bool on_output(wu_pls_job_t *job, wu_pls_proc_t *proc, int stream, const char *d, size_t n)
{
    char *buf = WU_PLS_STDOUT == stream ? seen.out[proc->rank] : seen.err[proc->rank];
    size_t *len = WU_PLS_STDOUT == stream ? &seen.nout[proc->rank] : &seen.nerr[proc->rank];
    (void)job;
    if (0 == n) {
        seen.eof[proc->rank]++;
        return true;
    }
    if (*len + n < sizeof seen.out[0]) {
        memcpy(buf + *len, d, n);
        *len += n;
        buf[*len] = '\0';
    }
    return true;
}

/* Takes one piece of stdout, then wants no more. */
static bool refuse_output(wu_pls_job_t *job, wu_pls_proc_t *proc, int stream, const char *d,
                          size_t n)
{
    (void)job;
    (void)d;
    if (WU_PLS_STDOUT == stream && n > 0) {
        seen.nout[proc->rank] += n;
        return false;
    }
    return true;
}

/* Counts stdout bytes, and holds stdout after its first piece. */
static bool hold_first(wu_pls_job_t *job, wu_pls_proc_t *proc, int stream, const char *d, size_t n)
{
    (void)d;
    if (WU_PLS_STDOUT == stream && n > 0) {
        if (0 == seen.nout[proc->rank]) {
            wu_pls_hold_output(job, WU_PLS_STDOUT, true);
        }
        seen.nout[proc->rank] += n;
    }
    return true;
}

static void on_exited(wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    (void)job;
    seen.exited++;
    seen.ended[proc->rank] = true;
}

static void on_done(wu_pls_job_t *job)
{
    (void)job;
    wu_wait_release(&seen.done, WU_SUCCESS);
}

static void setup(void)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    memset(&seen, 0, sizeof seen);
    wu_wait_init(&seen.done);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_pls_base_open());
    ck_assert_str_eq(first, wu_pls_base_component_name(NULL)); /* it passes local jobs on */
    pt = wu_progress_start("pls-test");
    ck_assert_ptr_nonnull(pt);
}

static void teardown(void)
{
    wu_progress_stop(pt);
    wu_pls_base_close();
    wu_mca_base_close();
    wu_wait_destroy(&seen.done);
}

/* A job running /bin/sh -c script (each rank gets RANK=<n> in its environment). */
static wu_pls_job_t *sh_job(uint32_t n, const char *script)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, "sh", NULL};
    wu_pls_job_t *job = wu_pls_job_new("test.ns", n, argv, pt);
    extern char **environ;
    ck_assert_ptr_nonnull(job);
    job->cb = (wu_pls_callbacks_t){
        .started = on_started, .output = on_output, .exited = on_exited, .done = on_done};
    for (uint32_t i = 0; i < n; i++) {
        char v[16];
        job->procs[i].env = wu_argv_copy(environ);
        snprintf(v, sizeof v, "%u", i);
        ck_assert_int_eq(WU_SUCCESS, wu_setenv("RANK", v, true, &job->procs[i].env));
    }
    return job;
}

static void wait_done(void)
{
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&seen.done, 20));
}

/* Is pid gone? A zombie counts as gone: an orphan waits as one until init reaps it, and in a
 * container init may never do so. */
static bool gone(pid_t pid)
{
    char path[64], buf[256], *p;
    FILE *f;
    size_t n;
    if (0 != kill(pid, 0) && ESRCH == errno) {
        return true;
    }
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (NULL == (f = fopen(path, "r"))) {
        return true;
    }
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    p = strrchr(buf, ')'); /* "pid (comm) S ..." */
    return NULL != p && 0 == strncmp(p, ") Z", 3);
}

static int count_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 1024; fd++) {
        if (fcntl(fd, F_GETFD) >= 0) {
            n++;
        }
    }
    return n;
}

/* --- exit codes ------------------------------------------------------------------------------- */

static const struct {
    const char *script;
    int code; /* exit code, or -signal */
} exits[] = {
    {"exit 0", 0},
    {"exit 3", 3},
    {"exit $RANK", -100}, /* rank i exits i */
    {"kill -TERM $$", -SIGTERM},
    {"kill -KILL $$", -SIGKILL},
    {"kill -SEGV $$", -SIGSEGV},
};

START_TEST(exit_codes)
{
    const uint32_t n = 4;
    wu_pls_job_t *job = sh_job(n, exits[_i].script);
    int fds = count_fds();
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    ck_assert_str_eq("fork", wu_pls_base_component_name(job));
    wait_done();
    ck_assert_int_eq((int)n, seen.started);
    ck_assert_int_eq((int)n, seen.exited);
    for (uint32_t r = 0; r < n; r++) {
        int st = job->procs[r].wait_status;
        ck_assert_int_eq(WU_PLS_PROC_EXITED, job->procs[r].state);
        if (-100 == exits[_i].code) {
            ck_assert(WIFEXITED(st));
            ck_assert_int_eq((int)r, WEXITSTATUS(st));
        } else if (exits[_i].code >= 0) {
            ck_assert(WIFEXITED(st));
            ck_assert_int_eq(exits[_i].code, WEXITSTATUS(st));
        } else {
            ck_assert(WIFSIGNALED(st));
            ck_assert_int_eq(-exits[_i].code, WTERMSIG(st));
        }
        ck_assert(gone(job->procs[r].pid));
    }
    wu_pls_job_free(job);
    ck_assert_int_eq(fds, count_fds());
}
END_TEST

/* --- output ----------------------------------------------------------------------------------- */

START_TEST(output_per_rank)
{
    const uint32_t n = 3;
    wu_pls_job_t *job =
        sh_job(n, "echo out $RANK; echo err $RANK >&2; printf 'no newline'; exit 0");
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    for (uint32_t r = 0; r < n; r++) {
        char want[64];
        snprintf(want, sizeof want, "out %u\nno newline", r);
        ck_assert_str_eq(want, seen.out[r]);
        snprintf(want, sizeof want, "err %u\n", r);
        ck_assert_str_eq(want, seen.err[r]);
        ck_assert_int_eq(2, seen.eof[r]); /* both streams ended */
    }
    wu_pls_job_free(job);
}
END_TEST

/* Large output (more than a pipe holds) arrives whole. */
START_TEST(output_large)
{
    wu_pls_job_t *job = sh_job(1, "i=0; while [ $i -lt 300 ]; do echo 0123456789; "
                                  "i=$((i+1)); done | wc -c; head -c 200000 /dev/zero | wc -c");
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    ck_assert_str_eq("3300\n200000\n", seen.out[0]);
    wu_pls_job_free(job);
}
END_TEST

/* A caller that wants no more output closes the pipe: the writer gets SIGPIPE, as `yes | head`. */
START_TEST(output_refused)
{
    wu_pls_job_t *job = sh_job(2, "exec yes");
    job->cb.output = refuse_output;
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    for (int r = 0; r < 2; r++) {
        ck_assert(WIFSIGNALED(job->procs[r].wait_status));
        ck_assert_int_eq(SIGPIPE, WTERMSIG(job->procs[r].wait_status));
        ck_assert_uint_gt(seen.nout[r], 0);
    }
    wu_pls_job_free(job);
}
END_TEST

/* In the progress thread: how many stdout bytes rank 0 gave, or -1 once it has ended. */
static void peek_rank0(wu_wait_call_t *call)
{
    wu_wait_call_done(call, seen.ended[0] ? -1 : (int)seen.nout[0]);
}

static void resume_stdout(wu_wait_call_t *call)
{
    wu_pls_hold_output(call->cbdata, WU_PLS_STDOUT, false);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* A held stream is not read: its writer waits in its write, with one piece delivered; once
 * resumed, all of it arrives. */
START_TEST(output_held)
{
    wu_pls_job_t *job = sh_job(1, "exec head -c 300000 /dev/zero");
    char path[64], wchan[64] = "";
    int got;
    job->cb.output = hold_first;
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    snprintf(path, sizeof path, "/proc/%d/wchan", (int)job->procs[0].pid);
    /* it fills its pipe and waits there (up to 10 s; a kernel without wchan: 1 s) */
    for (int i = 0; i < 100 && NULL == strstr(wchan, "pipe_write"); i++) {
        FILE *f = fopen(path, "r");
        size_t n = NULL != f ? fread(wchan, 1, sizeof wchan - 1, f) : 0;
        wchan[n] = '\0';
        if (NULL != f) {
            fclose(f);
        }
        if (i >= 10 && NULL == strpbrk(wchan, "abcdefghijklmnopqrstuvwxyz")) {
            break;
        }
        usleep(100000);
    }
    got = wu_progress_shift_wait(pt, peek_rank0, NULL, 0);
    ck_assert_int_gt(got, 0);
    ck_assert_int_lt(got, 300000);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, resume_stdout, job, 0));
    wait_done();
    ck_assert_uint_eq(300000, seen.nout[0]);
    ck_assert(WIFEXITED(job->procs[0].wait_status));
    ck_assert_int_eq(0, WEXITSTATUS(job->procs[0].wait_status));
    wu_pls_job_free(job);
}
END_TEST

/* The child has no descriptor of ours besides 0-2, stdin is /dev/null, and signal handling is
 * back to the defaults with nothing blocked. */
START_TEST(child_environment)
{
    int leak = open("/dev/null", O_RDONLY); /* not close-on-exec: must not reach the child */
    wu_pls_job_t *job;
    ck_assert_int_ge(leak, 3);
    job = sh_job(1, "ls /proc/self/fd | tr '\\n' ' '; read x && echo got-input; "
                    "grep -E '^(SigBlk|SigIgn)' /proc/self/status");
    signal(SIGUSR1, SIG_IGN); /* ignored here, must be default there */
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    signal(SIGUSR1, SIG_DFL);
    close(leak);
    /* ls sees 0 1 2 and its own directory descriptor (3) */
    ck_assert_msg(0 == strncmp(seen.out[0], "0 1 2 3 S", 9), "fds: %s", seen.out[0]);
    ck_assert_ptr_null(strstr(seen.out[0], "got-input"));
    ck_assert_msg(NULL != strstr(seen.out[0], "SigBlk:\t0000000000000000"), "%s", seen.out[0]);
    ck_assert_msg(NULL != strstr(seen.out[0], "SigIgn:\t0000000000000000"), "%s", seen.out[0]);
    wu_pls_job_free(job);
}
END_TEST

/* --- failures --------------------------------------------------------------------------------- */

START_TEST(program_not_found)
{
    char *argv[] = {"/nonexistent/wu-no-such-program", NULL};
    char *argv2[] = {"wu-no-such-program-in-path", NULL};
    wu_pls_job_t *job = wu_pls_job_new("t", 2, argv, pt);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_pls_launch_job(job));
    ck_assert_int_eq(ENOENT, job->launch_errno);
    ck_assert_int_eq(0, seen.started + seen.exited);
    wu_pls_job_free(job);
    job = wu_pls_job_new("t", 1, argv2, pt);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_pls_launch_job(job));
    ck_assert_int_eq(ENOENT, job->launch_errno);
    wu_pls_job_free(job);
}
END_TEST

START_TEST(program_not_executable)
{
    char dir[256], *path, *argv[2];
    wu_pls_job_t *job;
    int fd;
    wu_test_tmpdir_make("wu_pls", dir, sizeof dir);
    path = wu_path_join(dir, "noexec", NULL);
    fd = open(path, O_CREAT | O_WRONLY, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);
    argv[0] = path;
    argv[1] = NULL;
    job = wu_pls_job_new("t", 1, argv, pt);
    ck_assert_int_eq(WU_ERR_NO_PERMISSIONS, wu_pls_launch_job(job));
    ck_assert_int_eq(EACCES, job->launch_errno);
    wu_pls_job_free(job);
    /* executable but not a valid program: exec itself fails in the child */
    ck_assert_int_eq(0, chmod(path, 0700));
    fd = open(path, O_WRONLY | O_TRUNC);
    ck_assert_int_eq(4, write(fd,
                              "\x7f"
                              "ELF",
                              4));
    close(fd);
    job = wu_pls_job_new("t", 2, argv, pt);
    job->cb = (wu_pls_callbacks_t){.started = on_started, .exited = on_exited, .done = on_done};
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    ck_assert_int_eq(0, seen.started);
    ck_assert_int_eq(2, seen.exited);
    for (int r = 0; r < 2; r++) {
        ck_assert_int_eq(WU_PLS_PROC_FAILED, job->procs[r].state);
        ck_assert_int_eq(ENOEXEC, job->procs[r].exec_errno);
        ck_assert_int_eq(WU_PLS_EXIT_CANNOT_RUN, WEXITSTATUS(job->procs[r].wait_status));
    }
    wu_pls_job_free(job);
    unlink(path);
    free(path);
    wu_test_tmpdir_remove(dir);
}
END_TEST

START_TEST(bad_cwd)
{
    wu_pls_job_t *job = sh_job(1, "exit 0");
    job->cwd = strdup("/nonexistent-wu-dir");
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    ck_assert_int_eq(WU_PLS_PROC_FAILED, job->procs[0].state);
    ck_assert_int_eq(ENOENT, job->procs[0].exec_errno);
    wu_pls_job_free(job);
}
END_TEST

START_TEST(cwd_used)
{
    wu_pls_job_t *job = sh_job(1, "pwd");
    job->cwd = strdup("/");
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    wait_done();
    ck_assert_str_eq("/\n", seen.out[0]);
    wu_pls_job_free(job);
}
END_TEST

/* --- terminate and signal --------------------------------------------------------------------- */

START_TEST(terminate_sleeping_job)
{
    /* the processes also start a grandchild in their group, which must go too */
    wu_pls_job_t *job = sh_job(4, "sleep 100 & echo $!; wait");
    pid_t grandchild[4];
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    for (int tries = 0; tries < 200; tries++) {
        int have = 0;
        for (int r = 0; r < 4; r++) {
            have += NULL != strchr(seen.out[r], '\n'); /* racy read, fine for a poll */
        }
        if (4 == have) {
            break;
        }
        usleep(20000);
    }
    for (int r = 0; r < 4; r++) {
        grandchild[r] = (pid_t)atoi(seen.out[r]);
        ck_assert_int_gt(grandchild[r], 0);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_pls_terminate_job(job, 5));
    wait_done();
    for (int r = 0; r < 4; r++) {
        ck_assert(WIFSIGNALED(job->procs[r].wait_status));
        ck_assert_int_eq(SIGTERM, WTERMSIG(job->procs[r].wait_status));
        for (int t = 0; t < 100 && !gone(grandchild[r]); t++) {
            usleep(10000); /* reparented to init, which reaps it */
        }
        ck_assert_msg(gone(grandchild[r]), "grandchild %d still there", (int)grandchild[r]);
    }
    wu_pls_job_free(job);
}
END_TEST

/* A process that ignores SIGTERM is killed once the grace period is over. */
START_TEST(terminate_escalates_to_kill)
{
    wu_pls_job_t *job = sh_job(2, "trap '' TERM; echo ready; while :; do sleep 1; done");
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    for (int t = 0; t < 200 && (0 == seen.nout[0] || 0 == seen.nout[1]); t++) {
        usleep(20000);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_pls_terminate_job(job, 0.3));
    wait_done();
    for (int r = 0; r < 2; r++) {
        ck_assert(WIFSIGNALED(job->procs[r].wait_status));
        ck_assert_int_eq(SIGKILL, WTERMSIG(job->procs[r].wait_status));
    }
    wu_pls_job_free(job);
}
END_TEST

START_TEST(signal_and_terminate_proc)
{
    wu_pls_job_t *job = sh_job(3, "trap 'echo usr1; exit 7' USR1; echo ready; "
                                  "while :; do sleep 0.05; done");
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    for (int t = 0; t < 200 && (0 == seen.nout[0] || 0 == seen.nout[1] || 0 == seen.nout[2]); t++) {
        usleep(20000);
    }
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_signal_proc(job, 1, -1));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_signal_proc(job, 99, SIGUSR1));
    ck_assert_int_eq(WU_SUCCESS, wu_pls_signal_proc(job, 1, SIGUSR1));
    ck_assert_int_eq(WU_SUCCESS, wu_pls_terminate_proc(job, 2));
    for (int t = 0; t < 200 && seen.exited < 2; t++) {
        usleep(20000);
    }
    ck_assert_int_eq(2, seen.exited);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_pls_signal_proc(job, 1, SIGUSR1));
    ck_assert_int_eq(WU_SUCCESS, wu_pls_signal_job(job, SIGKILL));
    wait_done();
    ck_assert_str_eq("ready\nusr1\n", seen.out[1]);
    ck_assert_int_eq(7, WEXITSTATUS(job->procs[1].wait_status));
    ck_assert_int_eq(SIGTERM, WTERMSIG(job->procs[2].wait_status));
    ck_assert_int_eq(SIGKILL, WTERMSIG(job->procs[0].wait_status));
    ck_assert_int_eq(WU_SUCCESS, wu_pls_terminate_daemons(job, 1));
    ck_assert_int_eq(WU_SUCCESS, wu_pls_cancel_operation());
    wu_pls_job_free(job);
}
END_TEST

/* Freeing a job that still runs kills and reaps it. */
START_TEST(free_running_job)
{
    wu_pls_job_t *job = sh_job(2, "sleep 100");
    pid_t p0, p1;
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    p0 = job->procs[0].pid;
    p1 = job->procs[1].pid;
    wu_pls_job_free(job);
    ck_assert(gone(p0));
    ck_assert(gone(p1));
}
END_TEST

START_TEST(bad_input)
{
    char *argv[] = {"/bin/true", NULL}, *empty[] = {NULL};
    wu_pls_job_t *job;
    ck_assert_ptr_null(wu_pls_job_new("t", 0, argv, pt));
    ck_assert_ptr_null(wu_pls_job_new("t", 1, empty, pt));
    ck_assert_ptr_null(wu_pls_job_new("t", 1, argv, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_launch_job(NULL));
    job = wu_pls_job_new("t", 1, argv, pt);
    ck_assert_int_eq(WU_ERR_INIT, wu_pls_signal_job(job, SIGTERM)); /* not launched */
    job->cb.done = on_done;
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    ck_assert_int_eq(WU_ERR_EXISTS, wu_pls_launch_job(job));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_signal_job(job, NSIG + 5));
    wait_done();
    wu_pls_job_free(job);
    wu_pls_job_free(NULL);
}
END_TEST

/* --- rsh: processes of other nodes, through a fake agent ------------------------------------- */

static char agent_dir[] = "/tmp/wu_pls_rsh_XXXXXX";

/* Write the stand-in agent called name, running script, in a new agent_dir; path gets its path. */
static void agent_write(const char *name, const char *script, char *path, size_t len)
{
    FILE *f;
    ck_assert_ptr_nonnull(mkdtemp(agent_dir));
    snprintf(path, len, "%s/%s", agent_dir, name);
    ck_assert_ptr_nonnull(f = fopen(path, "w"));
    fputs(script, f);
    ck_assert_int_eq(0, fclose(f));
    ck_assert_int_eq(0, chmod(path, 0700));
}

static void agent_remove(const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "%s/%s", agent_dir, name);
    unlink(path);
    rmdir(agent_dir);
    strcpy(agent_dir, "/tmp/wu_pls_rsh_XXXXXX");
}

/* Two processes on hosts[0] and hosts[1] through the component comp, whose command is prog and
 * whose agent says "said=HOST" first: each runs on its host with its remote environment
 * (spaces, quotes and $ arrive as they were) and --prefix's paths first. */
static void remote_procs(const char *comp, const char *prog, const char *said,
                         const char *const hosts[2])
{
    char *argv[] = {"/bin/sh", "-c", "echo \"v=$WU_T_V p=${PATH%%:*} l=${LD_LIBRARY_PATH%%:*}\"",
                    NULL};
    wu_pls_job_t *job = wu_pls_job_new("t", 2, argv, pt);
    const char *lib = strrchr(WU_LIBDIR, '/') + 1;
    ck_assert_ptr_nonnull(job);
    job->cb = (wu_pls_callbacks_t){
        .started = on_started, .output = on_output, .exited = on_exited, .done = on_done};
    job->prefix = strdup("/opt/it's here");
    for (uint32_t i = 0; i < 2; i++) {
        job->procs[i].host = strdup(hosts[i]);
        ck_assert_int_eq(WU_SUCCESS,
                         wu_argv_append(&job->procs[i].remote_env, "WU_T_V=a 'b' $c \"d\""));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    ck_assert_str_eq(comp, wu_pls_base_component_name(job));
    ck_assert_str_eq(prog, job->argv[0]); /* launch failures name the command */
    wait_done();
    for (uint32_t r = 0; r < 2; r++) {
        char want[256];
        snprintf(want, sizeof want,
                 "%s=%s\nv=a 'b' $c \"d\" p=/opt/it's here/bin l=/opt/it's here/%s\n", said,
                 hosts[r], lib);
        ck_assert_str_eq(want, seen.out[r]);
        ck_assert_int_eq(WU_PLS_PROC_EXITED, job->procs[r].state);
        ck_assert(WIFEXITED(job->procs[r].wait_status));
        ck_assert_int_eq(0, WEXITSTATUS(job->procs[r].wait_status));
    }
    wu_pls_job_free(job);
}

/* A daemon job's secret: a component that does not hand it itself (fork here; rsh through its
 * agent, whose standard input is the remote command's) gets it on each process's standard
 * input, one line, which then ends; without a secret the input stays /dev/null. */
static void secret_on_stdin(const char *const hosts[2], const char *said)
{
    char *argv[] = {"/bin/sh", "-c", "read -r line; echo \"got $line\"; cat; echo end", NULL};
    for (int with = 0; with < 2; with++) {
        wu_pls_job_t *job = wu_pls_job_new("t", 2, argv, pt);
        ck_assert_ptr_nonnull(job);
        job->cb = (wu_pls_callbacks_t){.output = on_output, .exited = on_exited, .done = on_done};
        job->secret = with ? strdup("0123abcd") : NULL;
        for (uint32_t i = 0; NULL != hosts && i < 2; i++) {
            job->procs[i].host = strdup(hosts[i]);
        }
        wu_wait_destroy(&seen.done);
        memset(&seen, 0, sizeof seen);
        wu_wait_init(&seen.done);
        ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
        wait_done();
        for (uint32_t r = 0; r < 2; r++) {
            char want[128], agent[64] = "";
            if (NULL != said) { /* what the agent says first */
                snprintf(agent, sizeof agent, "%s=%s\n", said, hosts[r]);
            }
            snprintf(want, sizeof want, "%sgot %s\nend\n", agent, with ? "0123abcd" : "");
            ck_assert_str_eq(want, seen.out[r]);
            ck_assert_int_eq(-1, job->procs[r].stdin_fd); /* closed once written */
        }
        wu_pls_job_free(job);
    }
}

START_TEST(fork_secret)
{
    secret_on_stdin(NULL, NULL);
}
END_TEST

/* stop (terminate_job or terminate_daemons) of two processes on hosts reaches the commands
 * that run them (and so what they started). */
static void remote_terminate(const char *const hosts[2], int (*stop)(wu_pls_job_t *, double))
{
    char *argv[] = {"sleep", "30", NULL};
    wu_pls_job_t *job = wu_pls_job_new("t", 2, argv, pt);
    ck_assert_ptr_nonnull(job);
    job->cb = (wu_pls_callbacks_t){.exited = on_exited, .done = on_done};
    job->procs[0].host = strdup(hosts[0]);
    job->procs[1].host = strdup(hosts[1]);
    ck_assert_int_eq(WU_SUCCESS, wu_pls_launch_job(job));
    ck_assert_int_eq(WU_SUCCESS, stop(job, 1));
    wait_done();
    for (uint32_t r = 0; r < 2; r++) {
        ck_assert(WIFSIGNALED(job->procs[r].wait_status));
        ck_assert(gone(job->procs[r].pid));
    }
    wu_pls_job_free(job);
}

static const char *const rsh_hosts[2] = {"nodeA", "nodeB"};
static char rsh_agent[64];

/* The agent: `AGENT HOST CMD` prints "host=HOST" and runs CMD with sh, as ssh would on HOST. */
static void setup_rsh(void)
{
    agent_write("agent", "#!/bin/sh\necho \"host=$1\"\nexec /bin/sh -c \"$2\"\n", rsh_agent,
                sizeof rsh_agent);
    setenv("PMIX_MCA_pls_rsh_agent", rsh_agent, 1);
    setup();
}

static void teardown_rsh(void)
{
    teardown();
    unsetenv("PMIX_MCA_pls_rsh_agent");
    agent_remove("agent");
}

/* Each process runs on its host through the agent (its command quoted for the remote shell). */
START_TEST(rsh_remote_procs)
{
    remote_procs("rsh", rsh_agent, "host", rsh_hosts);
}
END_TEST

/* An agent called ssh is given "--" before the host, so no host can be read as an option:
 * the stand-in refuses a command line without it. */
static char ssh_agent[64];

static void setup_ssh(void)
{
    agent_write("ssh",
                "#!/bin/sh\nwhile [ \"$1\" != -- ]; do\n    [ $# -gt 0 ] || exit 9\n    shift\n"
                "done\nshift\necho \"ssh-host=$1\"\nexec /bin/sh -c \"$2\"\n",
                ssh_agent, sizeof ssh_agent);
    setenv("PMIX_MCA_pls_rsh_agent", ssh_agent, 1);
    setup();
}

static void teardown_ssh(void)
{
    teardown();
    unsetenv("PMIX_MCA_pls_rsh_agent");
    agent_remove("ssh");
}

START_TEST(ssh_ends_options)
{
    remote_procs("rsh", ssh_agent, "ssh-host", rsh_hosts);
}
END_TEST

/* Signals and termination reach the agents (and so what they started). */
START_TEST(rsh_secret)
{
    secret_on_stdin(rsh_hosts, "host");
}
END_TEST

START_TEST(rsh_terminate)
{
    remote_terminate(rsh_hosts, wu_pls_terminate_job);
}
END_TEST

/* A job with processes here and elsewhere is refused; an agent that cannot run is reported. */
START_TEST(rsh_bad_jobs)
{
    char *argv[] = {"true", NULL};
    wu_pls_job_t *job = wu_pls_job_new("t", 2, argv, pt);
    ck_assert_ptr_nonnull(job);
    job->procs[1].host = strdup("nodeB");
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_launch_job(job));
    wu_pls_job_free(job);
}
END_TEST

static const char *const slurm_hosts[2] = {"n1", "n2"};

/* Inside a stand-in allocation of n[1-2] (2 tasks each), with an srun that says which node it
 * was given ("node=NODE"), skips its options and runs the rest here. */
static void setup_slurm(void)
{
    char path[64], newpath[4200];
    agent_write("srun",
                "#!/bin/sh\n"
                "while [ $# -gt 0 ]; do\n"
                "    case $1 in\n"
                "    --nodelist=*) echo \"node=${1#--nodelist=}\" ;;\n"
                "    --*) ;;\n"
                "    *) break ;;\n"
                "    esac\n"
                "    shift\n"
                "done\n"
                "exec \"$@\"\n",
                path, sizeof path);
    snprintf(newpath, sizeof newpath, "%s:%s", agent_dir, getenv("PATH"));
    setenv("PATH", newpath, 1);
    setenv("SLURM_JOB_ID", "7", 1);
    setenv("SLURM_JOB_NODELIST", "n[1-2]", 1);
    setenv("SLURM_TASKS_PER_NODE", "2(x2)", 1);
    setenv("SLURM_JOB_CPUS_PER_NODE", "4(x2)", 1);
    first = "slurm";
    setup();
}

static void teardown_slurm(void)
{
    char *colon = strchr(getenv("PATH"), ':');
    teardown();
    first = "rsh";
    setenv("PATH", colon + 1, 1);
    unsetenv("SLURM_JOB_ID");
    unsetenv("SLURM_JOB_NODELIST");
    unsetenv("SLURM_TASKS_PER_NODE");
    unsetenv("SLURM_JOB_CPUS_PER_NODE");
    agent_remove("srun");
}

/* The allocation's nodes and slots, and what is wrong with a broken one. */
START_TEST(slurm_allocation)
{
    wu_pls_node_t *nodes = NULL;
    uint32_t n = 0;
    char *why = NULL;
    ck_assert(wu_pls_base_flat());
    ck_assert_int_eq(WU_SUCCESS, wu_pls_base_allocation(&nodes, &n, &why));
    ck_assert_uint_eq(2, n);
    ck_assert_str_eq("n1", nodes[0].name);
    ck_assert_str_eq("n2", nodes[1].name);
    ck_assert_uint_eq(2, nodes[0].slots);
    ck_assert_uint_eq(2, nodes[1].slots);
    wu_pls_nodes_free(nodes, n);
    /* inside a step the tasks are the step's: the job's CPUs count */
    setenv("SLURM_TASKS_PER_NODE", "1", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_pls_base_allocation(&nodes, &n, &why));
    ck_assert_uint_eq(2, n);
    ck_assert_uint_eq(4, nodes[1].slots);
    wu_pls_nodes_free(nodes, n);
    /* a count per node is needed */
    setenv("SLURM_JOB_CPUS_PER_NODE", "4", 1);
    setenv("SLURM_TASKS_PER_NODE", "2", 1);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_base_allocation(&nodes, &n, &why));
    ck_assert_ptr_null(nodes);
    ck_assert_ptr_nonnull(strstr(why, "names 2 nodes but SLURM_TASKS_PER_NODE=\"2\" gives 1"));
    free(why);
    setenv("SLURM_JOB_CPUS_PER_NODE", "4(x2)", 1);
    setenv("SLURM_TASKS_PER_NODE", "2(x", 1);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_base_allocation(&nodes, &n, &why));
    ck_assert_ptr_nonnull(strstr(why, "SLURM_TASKS_PER_NODE=\"2(x\": "));
    free(why);
    setenv("SLURM_TASKS_PER_NODE", "2(x2)", 1);
    setenv("SLURM_JOB_NODELIST", "n[1-", 1);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pls_base_allocation(&nodes, &n, &why));
    ck_assert_ptr_nonnull(strstr(why, "SLURM_JOB_NODELIST=\"n[1-\": "));
    free(why);
    setenv("SLURM_JOB_NODELIST", "n[1-2]", 1);
}
END_TEST

/* Each process runs as a step on its node, its arguments passed as they are (no shell
 * between). */
START_TEST(slurm_remote_procs)
{
    remote_procs("slurm", "srun", "node", slurm_hosts);
}
END_TEST

/* Stopping the daemons ends their sruns. */
START_TEST(slurm_terminate)
{
    remote_terminate(slurm_hosts, wu_pls_terminate_daemons);
}
END_TEST

static Suite *pls_fork_suite(void)
{
    Suite *s = suite_create("pls_fork");
    TCase *tc = tcase_create("fork");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, exit_codes, 0, WU_NELEMS(exits));
    tcase_add_test(tc, output_per_rank);
    tcase_add_test(tc, output_large);
    tcase_add_test(tc, output_refused);
    tcase_add_test(tc, output_held);
    tcase_add_test(tc, child_environment);
    tcase_add_test(tc, program_not_found);
    tcase_add_test(tc, program_not_executable);
    tcase_add_test(tc, bad_cwd);
    tcase_add_test(tc, cwd_used);
    tcase_add_test(tc, terminate_sleeping_job);
    tcase_add_test(tc, terminate_escalates_to_kill);
    tcase_add_test(tc, signal_and_terminate_proc);
    tcase_add_test(tc, free_running_job);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, fork_secret);
    suite_add_tcase(s, tc);
    tc = tcase_create("rsh");
    tcase_add_checked_fixture(tc, setup_rsh, teardown_rsh);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, rsh_remote_procs);
    tcase_add_test(tc, rsh_terminate);
    tcase_add_test(tc, rsh_secret);
    tcase_add_test(tc, rsh_bad_jobs);
    suite_add_tcase(s, tc);
    tc = tcase_create("ssh");
    tcase_add_checked_fixture(tc, setup_ssh, teardown_ssh);
    tcase_add_test(tc, ssh_ends_options);
    suite_add_tcase(s, tc);
    tc = tcase_create("slurm");
    tcase_add_checked_fixture(tc, setup_slurm, teardown_slurm);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, slurm_allocation);
    tcase_add_test(tc, slurm_remote_procs);
    tcase_add_test(tc, slurm_terminate);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pls_fork_suite)
