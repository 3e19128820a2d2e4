/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_shapes.c -- an MPI program of the common shapes, for test/e2e/mpi.sh: a point-to-point
 * ring, Allreduce, Alltoall and Barrier, each checked against the value it must give. Built by
 * the test with Debian's mpicc (Open MPI 4.1) and run under wrun on Wireup's libpmix.
 *
 *   mpi_shapes            run every shape; rank 0 prints "mpi_shapes: N ranks: ring allreduce
 *                         alltoall barrier ok", each failure is printed and the exit code is 1
 *   mpi_shapes shm        also report, from rank 0, how many shared-memory segment files of this
 *                         job exist in /dev/shm after MPI_Init ("shm segments: K")
 *   mpi_shapes abort R S  rank R calls MPI_Abort(MPI_COMM_WORLD, S) after MPI_Init; the others
 *                         wait in a barrier (and must be killed by the launcher)
 *   mpi_shapes crash R    rank R dies of SIGSEGV after MPI_Init; the others wait in a barrier */
#include <mpi.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int me, n, bad;

static void check(int ok, const char *what, long got, long want)
{
    if (!ok) {
        printf("rank %d: %s gave %ld, want %ld\n", me, what, got, want);
        bad = 1;
    }
}

static void ring(void)
{
    int next = (me + 1) % n, prev = (me + n - 1) % n, token = -1;
    /* the token goes round twice, each rank adding its rank */
    for (int lap = 0; lap < 2; lap++) {
        if (0 == me) {
            /* non-blocking: with one rank the token goes to itself, which MPI_Send may not
             * buffer (MPICH does not) */
            MPI_Request req;
            int out = 0 == lap ? 0 : token;
            MPI_Isend(&out, 1, MPI_INT, next, lap, MPI_COMM_WORLD, &req);
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += me;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
        }
    }
    if (0 == me) {
        long want = (long)n * (n - 1); /* two laps of 1 + ... + n-1 */
        check(token == want, "ring", token, want);
    }
}

static void allreduce(void)
{
    long mine = me + 1, sum = 0, want = (long)n * (n + 1) / 2;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    check(sum == want, "allreduce", sum, want);
}

static void alltoall(void)
{
    int *out = malloc(sizeof(int) * (size_t)n), *in = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        out[i] = me * 1000 + i;
    }
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++) {
        check(in[i] == i * 1000 + me, "alltoall", in[i], i * 1000 + me);
    }
    free(out);
    free(in);
}

/* Shared-memory segment files of this job in /dev/shm: Open MPI's shared-memory BTL names them
 * <btl>_segment.<host>.<uid>.<jobid>.<local rank>, the BTL being vader (Open MPI 4) or sm (5);
 * we count those of any job of this uid, which in the test's private run is ours. */
static int shm_segments(void)
{
    char host[64] = "";
    struct dirent *d;
    int count = 0;
    DIR *dir = opendir("/dev/shm");
    gethostname(host, sizeof host - 1);
    if (NULL == dir) {
        return -1;
    }
    while (NULL != (d = readdir(dir))) {
        for (int k = 0; k < 2; k++) {
            char prefix[128];
            snprintf(prefix, sizeof prefix, "%s_segment.%s.%x.", 0 == k ? "vader" : "sm", host,
                     (unsigned)getuid());
            count += 0 == strncmp(d->d_name, prefix, strlen(prefix));
        }
    }
    closedir(dir);
    return count;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc > 3 && 0 == strcmp(argv[1], "abort")) {
        if (me == atoi(argv[2])) {
            MPI_Abort(MPI_COMM_WORLD, atoi(argv[3]));
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes */
        printf("rank %d: the barrier completed after an abort\n", me);
        MPI_Finalize();
        return 1;
    }
    if (argc > 2 && 0 == strcmp(argv[1], "crash")) {
        MPI_Barrier(MPI_COMM_WORLD); /* every rank has its shared-memory segment */
        if (me == atoi(argv[2])) {
            raise(SIGSEGV);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes */
        printf("rank %d: the barrier completed after a crash\n", me);
        MPI_Finalize();
        return 1;
    }
    if (argc > 1 && 0 == strcmp(argv[1], "shm")) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == me) {
            printf("shm segments: %d\n", shm_segments());
        }
    }
    ring();
    allreduce();
    alltoall();
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == me) {
        printf("mpi_shapes: %d ranks: ring allreduce alltoall barrier %s\n", n,
               bad ? "FAILED" : "ok");
    }
    MPI_Finalize();
    return bad;
}
