/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_peer_uid.c -- the owner of a local TCP peer's socket, from /proc/net/tcp and tcp6: each
 * line is "sl local rem st queues timers retransmits uid ...", addresses as hex words the way
 * the kernel holds them. The peer's socket is the line whose local address is our peer's and
 * whose remote address is ours. */
#include "opal/util/wu_peer_uid.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* The kernel's text of an address and port: IPv4 one 32-bit word, IPv6 four, each printed in
 * host order as %08X, then ":%04X" for the port. */
static void addr_text(const struct sockaddr_storage *sa, char *buf, size_t len)
{
    uint32_t w[4];
    if (AF_INET == sa->ss_family) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        memcpy(w, &in->sin_addr, 4);
        snprintf(buf, len, "%08X:%04X", w[0], ntohs(in->sin_port));
    } else {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        memcpy(w, &in6->sin6_addr, 16);
        snprintf(buf, len, "%08X%08X%08X%08X:%04X", w[0], w[1], w[2], w[3], ntohs(in6->sin6_port));
    }
}

int wu_tcp_peer_uid(int fd, uid_t *uid)
{
    struct sockaddr_storage me, peer;
    socklen_t mlen = sizeof me, plen = sizeof peer;
    char mine[64], theirs[64], line[512];
    int found = -1;
    FILE *f;
    if (0 != getsockname(fd, (struct sockaddr *)&me, &mlen) ||
        0 != getpeername(fd, (struct sockaddr *)&peer, &plen) || me.ss_family != peer.ss_family ||
        (AF_INET != me.ss_family && AF_INET6 != me.ss_family)) {
        return -1;
    }
    addr_text(&me, mine, sizeof mine);
    addr_text(&peer, theirs, sizeof theirs);
    if (NULL == (f = fopen(AF_INET == me.ss_family ? "/proc/net/tcp" : "/proc/net/tcp6", "re"))) {
        return -1;
    }
    while (found < 0 && NULL != fgets(line, sizeof line, f)) {
        char local[64], remote[64];
        unsigned long owner;
        if (3 == sscanf(line, " %*s %63s %63s %*s %*s %*s %*s %lu", local, remote, &owner) &&
            0 == strcmp(local, theirs) && 0 == strcmp(remote, mine)) {
            *uid = (uid_t)owner;
            found = 0;
        }
    }
    fclose(f);
    return found;
}
