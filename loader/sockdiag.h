/* SPDX-License-Identifier: GPL-2.0 */
/* TCP sockets per congestion control, as sock_diag (and so ss) sees them. */
#ifndef __CCCTL_SOCKDIAG_H
#define __CCCTL_SOCKDIAG_H

/*
 * Call fn with the congestion control name of every full TCP socket, IPv4
 * and IPv6, listeners included, of the caller's network namespace; request
 * and TIME_WAIT sockets have none and are not counted.
 */
int sockdiag_each_ca(void (*fn)(const char *ca, void *ctx), void *ctx);

/*
 * A listening TCP socket on 127.0.0.1, port 0, on congestion control ca, in
 * the caller's network namespace: its fd, or a negative error (reported).
 */
int temp_listener(const char *ca);

#endif /* __CCCTL_SOCKDIAG_H */
