/* SPDX-License-Identifier: BSD-3-Clause */
/* launch_mpi.c -- MPI hello, timed end to end by contrib/bench/launch under wrun and mpirun:
 * MPI_Init, rank and size, one MPI_Barrier, MPI_Finalize. Rank 0 prints
 *   launch_mpi: N ranks
 * Not built by this tree: the script compiles it with Open MPI's mpicc. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("launch_mpi: %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
