/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_time.h -- the monotonic clock in seconds, for deadlines and intervals (not the time of
 * day). */
#ifndef WU_TIME_H
#define WU_TIME_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC (since an unspecified start; unaffected by changes of the date). */
static inline double wu_time_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
