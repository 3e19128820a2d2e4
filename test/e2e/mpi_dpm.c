/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_dpm.c -- MPI's dynamic process calls, built with Open MPI's mpicc and run under wrun
 * (issue 14):
 *   mpi_dpm pair            rank 0 opens a port, publishes its name and accepts; rank 1 looks
 *                           the name up and connects (each on MPI_COMM_SELF); they exchange a
 *                           number over the intercommunicator and disconnect
 *   mpi_dpm server NAME     every rank of this job accepts (MPI_COMM_WORLD) on a port
 *                           published as NAME; then an allreduce over the intercommunicator
 *   mpi_dpm client NAME     every rank looks NAME up and connects; the same allreduce
 *   mpi_dpm spawn N [ROOT [HOST]]  MPI_Comm_spawn of N children (this program as "child") by
 *                           rank ROOT (0 by default; on HOST: the info key "host"), a reduction
 *                           over the intercommunicator and a merged communicator; a child's
 *                           line names its host
 *   mpi_dpm multiple        MPI_Comm_spawn_multiple of two commands (this program as "child",
 *                           1 and 2 processes): the same checks over 3 children
 *   mpi_dpm names NAME      the name service alone, without ports (an MPI whose network cannot
 *                           open one, as Debian's MPICH on UCX): rank 0 publishes NAME with a
 *                           made-up port name, every rank looks it up and compares, rank 0
 *                           unpublishes it, then a lookup fails
 * Prints "mpi_dpm MODE: rank R ok" per rank at the end. The spawned command is this program,
 * or the one the environment variable MPI_DPM_CHILD names (a script that runs this program in
 * another environment), given the argument "child". */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static void fail(const char *what, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "mpi_dpm rank %d: %s failed: %s\n", rank, what, msg);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

#define CHECK(call)               \
    do {                          \
        int rc_ = (call);         \
        if (MPI_SUCCESS != rc_) { \
            fail(#call, rc_);     \
        }                         \
    } while (0)

/* Look name up until it is published (MPI_Lookup_name does not wait), 60 s at most. */
static void lookup(const char *name, char *port)
{
    for (int i = 0; i < 600; i++) {
        if (MPI_SUCCESS == MPI_Lookup_name(name, MPI_INFO_NULL, port)) {
            return;
        }
        usleep(100 * 1000);
    }
    fail("MPI_Lookup_name (60 s)", MPI_ERR_NAME);
}

static void pair(void)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm inter;
    int v = 0;
    if (size < 2) {
        fail("pair needs 2 ranks", MPI_ERR_OTHER);
    }
    if (0 == rank) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(MPI_Publish_name("wu-dpm-pair", MPI_INFO_NULL, port));
        CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
        v = 41;
        CHECK(MPI_Send(&v, 1, MPI_INT, 0, 7, inter));
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE));
        if (42 != v) {
            fail("the answer over the intercommunicator", MPI_ERR_OTHER);
        }
        CHECK(MPI_Unpublish_name("wu-dpm-pair", MPI_INFO_NULL, port));
        CHECK(MPI_Comm_disconnect(&inter));
        CHECK(MPI_Close_port(port));
    } else if (1 == rank) {
        lookup("wu-dpm-pair", port);
        CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 7, inter, MPI_STATUS_IGNORE));
        v++;
        CHECK(MPI_Send(&v, 1, MPI_INT, 0, 8, inter));
        CHECK(MPI_Comm_disconnect(&inter));
    }
}

/* both sides: an allreduce of ranks over the intercommunicator (each side gets the sum of the
 * other side's ranks) */
static void check_inter(MPI_Comm inter)
{
    int rsize = 0, sum = 0, want;
    CHECK(MPI_Comm_remote_size(inter, &rsize));
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter));
    want = rsize * (rsize - 1) / 2;
    if (sum != want) {
        fprintf(stderr, "mpi_dpm rank %d: intercommunicator allreduce gave %d, not %d\n", rank, sum,
                want);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
}

static void server(const char *name)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm inter;
    if (0 == rank) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(MPI_Publish_name(name, MPI_INFO_NULL, port));
    }
    CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    check_inter(inter);
    if (0 == rank) {
        CHECK(MPI_Unpublish_name(name, MPI_INFO_NULL, port));
    }
    CHECK(MPI_Comm_disconnect(&inter));
    if (0 == rank) {
        CHECK(MPI_Close_port(port));
    }
}

static void client(const char *name)
{
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter;
    if (0 == rank) {
        lookup(name, port);
    }
    CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    check_inter(inter);
    CHECK(MPI_Comm_disconnect(&inter));
}

static void spawn(const char *self, int n, int root, const char *host)
{
    MPI_Comm inter, merged;
    MPI_Info info = MPI_INFO_NULL;
    char *argv[] = {"child", NULL};
    int errs[64], msize = 0;
    if (n < 1 || n > 64 || root < 0 || root >= size) {
        fail("spawn: 1 to 64 children from a rank of the job", MPI_ERR_OTHER);
    }
    if (NULL != host) {
        CHECK(MPI_Info_create(&info));
        CHECK(MPI_Info_set(info, "host", host));
    }
    CHECK(MPI_Comm_spawn(self, argv, n, info, root, MPI_COMM_WORLD, &inter, errs));
    if (NULL != host) {
        CHECK(MPI_Info_free(&info));
    }
    check_inter(inter);
    CHECK(MPI_Intercomm_merge(inter, 0, &merged));
    CHECK(MPI_Comm_size(merged, &msize));
    if (msize != size + n) {
        fail("the merged communicator's size", MPI_ERR_OTHER);
    }
    CHECK(MPI_Barrier(merged));
    CHECK(MPI_Comm_free(&merged));
    CHECK(MPI_Comm_disconnect(&inter));
}

static void spawn_multiple(const char *self)
{
    MPI_Comm inter, merged;
    char *cmds[2] = {(char *)self, (char *)self};
    char *argv0[] = {"child", NULL}, *argv1[] = {"child", NULL};
    char **argvs[2] = {argv0, argv1};
    int np[2] = {1, 2}, errs[3], msize = 0;
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    CHECK(MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_WORLD, &inter, errs));
    check_inter(inter);
    CHECK(MPI_Intercomm_merge(inter, 0, &merged));
    CHECK(MPI_Comm_size(merged, &msize));
    if (msize != size + 3) {
        fail("the merged communicator's size", MPI_ERR_OTHER);
    }
    CHECK(MPI_Barrier(merged));
    CHECK(MPI_Comm_free(&merged));
    CHECK(MPI_Comm_disconnect(&inter));
}

static void child(void)
{
    MPI_Comm parent, merged;
    CHECK(MPI_Comm_get_parent(&parent));
    if (MPI_COMM_NULL == parent) {
        fail("a child without a parent", MPI_ERR_OTHER);
    }
    check_inter(parent);
    CHECK(MPI_Intercomm_merge(parent, 1, &merged));
    CHECK(MPI_Barrier(merged));
    CHECK(MPI_Comm_free(&merged));
    CHECK(MPI_Comm_disconnect(&parent));
}

static void names(const char *name)
{
    char port[MPI_MAX_PORT_NAME], want[MPI_MAX_PORT_NAME];
    snprintf(want, sizeof want, "made-up-port:%s", name);
    if (0 == rank) {
        CHECK(MPI_Publish_name(name, MPI_INFO_NULL, want));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Lookup_name(name, MPI_INFO_NULL, port));
    if (0 != strcmp(port, want)) {
        fprintf(stderr, "mpi_dpm rank %d: looked up '%s', want '%s'\n", rank, port, want);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (0 == rank) {
        CHECK(MPI_Unpublish_name(name, MPI_INFO_NULL, want));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (MPI_SUCCESS == MPI_Lookup_name(name, MPI_INFO_NULL, port)) {
        fprintf(stderr, "mpi_dpm rank %d: '%s' found after its unpublish\n", rank, name);
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *self = NULL != getenv("MPI_DPM_CHILD") ? getenv("MPI_DPM_CHILD") : argv[0];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (0 == strcmp(mode, "pair")) {
        pair();
    } else if (0 == strcmp(mode, "server") && argc > 2) {
        server(argv[2]);
    } else if (0 == strcmp(mode, "client") && argc > 2) {
        client(argv[2]);
    } else if (0 == strcmp(mode, "spawn") && argc > 2) {
        spawn(self, atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 0, argc > 4 ? argv[4] : NULL);
    } else if (0 == strcmp(mode, "multiple")) {
        spawn_multiple(self);
    } else if (0 == strcmp(mode, "names") && argc > 2) {
        names(argv[2]);
    } else if (0 == strcmp(mode, "child")) {
        child();
    } else {
        fprintf(
            stderr,
            "usage: mpi_dpm pair | server NAME | client NAME | spawn N [ROOT [HOST]] | multiple | "
            "names NAME\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    {
        char host[256] = "";
        (void)gethostname(host, sizeof host - 1);
        printf("mpi_dpm %s: rank %d ok (on %s)\n", mode, rank, host);
    }
    return 0;
}
