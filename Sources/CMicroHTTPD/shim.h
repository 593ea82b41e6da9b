#ifndef TAGARELA_CMICROHTTPD_SHIM_H
#define TAGARELA_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* Swift does not import C variadic functions, so the few variadic MHD calls
   we need are wrapped here with fixed arguments. */

static inline struct MHD_Daemon *
tg_start_daemon(unsigned int flags, uint16_t port,
                MHD_AccessHandlerCallback handler, void *handler_cls,
                MHD_RequestCompletedCallback completed, void *completed_cls,
                void *(*uri_logged)(void *cls, const char *uri, struct MHD_Connection *connection),
                unsigned int thread_pool_size,
                size_t connection_memory_limit,
                unsigned int connection_timeout_seconds,
                unsigned int connection_limit)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logged, NULL,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_END);
}

/* The port the daemon listens on: useful when it was started on port 0. */
static inline uint16_t
tg_daemon_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The client's address as text ("127.0.0.1", "::1"), written into buffer. */
static inline int
tg_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *addr = info->client_addr;
    if (addr->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)addr)->sin_addr, buffer, size) != NULL;
    }
    if (addr->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)addr)->sin6_addr, buffer, size) != NULL;
    }
    return 0;
}

#endif
