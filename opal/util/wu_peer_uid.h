/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_peer_uid.h -- who owns the other end of a TCP connection within this host: the kernel's
 * table of TCP sockets (procfs) lists each socket's owner, so the peer of a loopback (or other
 * same-host) connection can be identified without trusting what it claims. */
#ifndef WU_PEER_UID_H
#define WU_PEER_UID_H

#include <sys/types.h>

/* The uid owning the socket at the other end of the connected TCP socket fd, when that socket
 * is on this host and in this network namespace. 0 and *uid, or -1: not a TCP socket, the peer
 * is not local, or the table cannot be read. */
int wu_tcp_peer_uid(int fd, uid_t *uid);

#endif
