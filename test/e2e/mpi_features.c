/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_features.c -- an MPI program of the features beyond point-to-point and collectives, for
 * test/e2e/mpi_features.sh: MPI_THREAD_MULTIPLE (two threads per rank, each with its own
 * communicator, exchanging at once), a shared-memory window among the ranks of a node
 * (MPI_Win_allocate_shared, read through MPI_Win_shared_query), and MPI-IO (every rank writes
 * its block of one file collectively, then reads its neighbour's). Built by the test with
 * Open MPI's mpicc and run under wrun on Wireup's libpmix.
 *
 *   mpi_features DIR   the file of the MPI-IO part is made in DIR (and removed); rank 0 prints
 *                      "mpi_features: N ranks: threads shmwin io ok", each failure is printed
 *                      and the exit code is 1 */
#include <mpi.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 4096

static int me, n, bad;

static void check(int ok, const char *what, long got, long want)
{
    if (!ok) {
        printf("rank %d: %s gave %ld, want %ld\n", me, what, got, want);
        bad = 1;
    }
}

/* One thread's work: 50 rounds of a ring exchange and an Allreduce on its own communicator. */
typedef struct {
    MPI_Comm comm;
    int id;
    long sum;
} worker_t;

static void *work(void *arg)
{
    worker_t *w = arg;
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    w->sum = 0;
    for (int round = 0; round < 50; round++) {
        int out = me * 100 + w->id, in = -1;
        long mine = me + w->id, all = 0;
        MPI_Sendrecv(&out, 1, MPI_INT, next, round, &in, 1, MPI_INT, prev, round, w->comm,
                     MPI_STATUS_IGNORE);
        if (in != prev * 100 + w->id) {
            w->sum = -1;
            return NULL;
        }
        MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, w->comm);
        w->sum += all;
    }
    return NULL;
}

static void threads(void)
{
    worker_t w[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        w[i].id = i;
        MPI_Comm_dup(MPI_COMM_WORLD, &w[i].comm);
    }
    for (int i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        /* 50 rounds of sum(rank + id) */
        long want = 50L * ((long)n * (n - 1) / 2 + (long)n * i);
        check(w[i].sum == want, "threads", w[i].sum, want);
        MPI_Comm_free(&w[i].comm);
    }
}

static void shmwin(void)
{
    MPI_Comm node;
    MPI_Win win;
    int *mine, lme, ln;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &lme);
    MPI_Comm_size(node, &ln);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    MPI_Win_lock_all(0, win);
    *mine = 1000 + me;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    for (int r = 0; r < ln; r++) {
        MPI_Aint size;
        int unit, *theirs = NULL, world = -1;
        MPI_Group g, wg;
        MPI_Win_shared_query(win, r, &size, &unit, &theirs);
        MPI_Comm_group(node, &g);
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(g, 1, &r, wg, &world);
        check(NULL != theirs && *theirs == 1000 + world, "shared window", theirs ? *theirs : -1,
              1000 + world);
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

static void io(const char *dir)
{
    char path[4096], buf[BLOCK];
    MPI_File f;
    int next = (me + 1) % n, rc;
    snprintf(path, sizeof path, "%s/mpi_features.io", dir);
    memset(buf, 'a' + me % 26, sizeof buf);
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
    check(MPI_SUCCESS == rc, "MPI_File_open for writing", rc, MPI_SUCCESS);
    if (MPI_SUCCESS != rc) {
        return;
    }
    MPI_File_write_at_all(f, (MPI_Offset)me * BLOCK, buf, BLOCK, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&f);
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f);
    check(MPI_SUCCESS == rc, "MPI_File_open for reading", rc, MPI_SUCCESS);
    if (MPI_SUCCESS != rc) {
        return;
    }
    memset(buf, 0, sizeof buf);
    MPI_File_read_at_all(f, (MPI_Offset)next * BLOCK, buf, BLOCK, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&f);
    for (int i = 0; i < BLOCK; i++) {
        if (buf[i] != 'a' + next % 26) {
            check(0, "MPI-IO read of the next rank's block", buf[i], 'a' + next % 26);
            break;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == me) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    check(MPI_THREAD_MULTIPLE == provided, "MPI_Init_thread's thread level", provided,
          MPI_THREAD_MULTIPLE);
    if (MPI_THREAD_MULTIPLE == provided) {
        threads();
    }
    shmwin();
    io(argc > 1 ? argv[1] : ".");
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == me) {
        printf("mpi_features: %d ranks: threads shmwin io %s\n", n, bad ? "FAILED" : "ok");
    }
    MPI_Finalize();
    return bad;
}
