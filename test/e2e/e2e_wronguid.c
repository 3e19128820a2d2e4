/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_wronguid.c -- `wrun -n 1 e2e_wronguid`, as root only: before its own PMIx_Init, rank 0
 * forks a child that drops to uid/gid 65534 (nobody) and calls PMIx_Init with the rank's
 * contact information. The server must refuse it (native psec checks the peer's uid), or the
 * 0700 session directory keeps it from connecting at all: both are a refusal, PMIx_Init must
 * fail (and not turn into a singleton). A second child changes only its effective ids (its
 * file-system ids stay root's), so it reaches the socket and psec must refuse it. The rank then
 * connects normally. Exits 77 when not root. */
#include "e2e_util.h"

#include <grp.h>
#include <sys/fsuid.h>
#include <sys/wait.h>

/* Child: become uid/gid 65534 and call PMIx_Init with the rank's contact information. With
 * keep_fs, only the effective ids change and the file-system ids stay root's, so the 0700
 * session directory does not stop the connection and the server's credential check (which
 * sees the effective uid through SO_PEERCRED) must refuse it. */
static void child(bool keep_fs)
{
    const char *how = keep_fs ? "euid 65534, fsuid 0" : "uid 65534";
    e2e_step(keep_fs ? "child: PMIx_Init as euid 65534 with fsuid 0"
                     : "child: PMIx_Init as uid 65534");
    if (keep_fs) {
        if (setgroups(0, NULL) != 0 || setegid(65534) != 0 || seteuid(65534) != 0) {
            fprintf(stderr, "child: cannot drop to euid 65534\n");
            _exit(3);
        }
        setfsgid(0);
        setfsuid(0);
        if (setfsuid((uid_t)-1) != 0) {
            fprintf(stderr, "child: cannot keep fsuid 0\n");
            _exit(3);
        }
    } else if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
        fprintf(stderr, "child: cannot drop to uid 65534\n");
        _exit(3);
    }
    alarm(40);
    pmix_status_t rc = PMIx_Init(&e2e_me, NULL, 0);
    if (rc == PMIX_SUCCESS) {
        fprintf(stderr, "child (%s): PMIx_Init SUCCEEDED as %s:%u: not refused\n", how,
                e2e_me.nspace, e2e_me.rank);
        _exit(1);
    }
    printf("child (%s): PMIx_Init refused: %s\n", how, PMIx_Error_string(rc));
    fflush(stdout);
    _exit(0);
}

static void run_child(bool keep_fs)
{
    int status;
    pid_t pid = fork();
    E2E_CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        child(keep_fs);
    }
    e2e_step("waiting for the child");
    E2E_CHECK(waitpid(pid, &status, 0) == pid, "waitpid failed");
    E2E_CHECK(WIFEXITED(status), "child died (status 0x%x)", status);
    E2E_CHECK(WEXITSTATUS(status) == 0, "child with the wrong uid (%s): exit %d (1: accepted)",
              keep_fs ? "fsuid 0" : "uid", WEXITSTATUS(status));
}

int main(void)
{
    if (geteuid() != 0) {
        printf("not root: cannot change uid, skipped\n");
        return 77;
    }
    run_child(false);
    run_child(true);
    e2e_step("PMIx_Init with the right uid");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init after the refused one");
    e2e_fence(NULL, 0, "PMIx_Fence");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("wronguid: ok\n");
    return 0;
}
