/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_ring.c -- the MPI example of the README's run command (contrib/quickstart.sh builds it with
 * Open MPI's mpicc and runs it as `wrun --oversubscribe -n 4 mpi_ring`): a token goes round the
 * ranks once, then an Allreduce sums the ranks; rank 0 prints both results. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0, sum = 0;
    char host[MPI_MAX_PROCESSOR_NAME];
    int len;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    if (size > 1) {
        if (0 == rank) {
            MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("MPI rank %d of %d on %s\n", rank, size, host);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        printf("ring: the token came back as %d, Allreduce of the ranks: %d (both should be %d)\n",
               token, sum, size * (size - 1) / 2);
    }
    MPI_Finalize();
    return 0;
}
