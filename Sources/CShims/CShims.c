#include "CShims.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <string.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

_Static_assert(RS_EPOLLIN == EPOLLIN, "EPOLLIN");
_Static_assert(RS_EPOLLOUT == EPOLLOUT, "EPOLLOUT");
_Static_assert(RS_EPOLLERR == EPOLLERR, "EPOLLERR");
_Static_assert(RS_EPOLLHUP == EPOLLHUP, "EPOLLHUP");
_Static_assert(RS_EPOLLRDHUP == EPOLLRDHUP, "EPOLLRDHUP");
_Static_assert(RS_EPOLLET == (uint32_t)EPOLLET, "EPOLLET");
_Static_assert(RS_AF_INET == AF_INET, "AF_INET");
_Static_assert(RS_AF_INET6 == AF_INET6, "AF_INET6");

enum { RS_MAX_BATCH = 64 };

int rs_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &event);
}

int rs_epoll_add(int epfd, int fd, uint32_t events, uint64_t token) {
    return epoll_control(epfd, EPOLL_CTL_ADD, fd, events, token);
}

int rs_epoll_modify(int epfd, int fd, uint32_t events, uint64_t token) {
    return epoll_control(epfd, EPOLL_CTL_MOD, fd, events, token);
}

int rs_epoll_remove(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }

int rs_epoll_wait(int epfd, rs_epoll_event *events, int max_events, int timeout_ms) {
    struct epoll_event ready[RS_MAX_BATCH];
    if (max_events > RS_MAX_BATCH) max_events = RS_MAX_BATCH;
    int count = epoll_wait(epfd, ready, max_events, timeout_ms);
    for (int i = 0; i < count; i++) {
        events[i].events = ready[i].events;
        events[i].token = ready[i].data.u64;
    }
    return count;
}

int rs_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int rs_timerfd_arm_absolute(int fd, int64_t deadline_ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (deadline_ns > 0) {
        spec.it_value.tv_sec = deadline_ns / 1000000000;
        spec.it_value.tv_nsec = deadline_ns % 1000000000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int64_t rs_timerfd_drain(int fd) {
    uint64_t expirations = 0;
    ssize_t n = read(fd, &expirations, sizeof expirations);
    if (n == (ssize_t)sizeof expirations) return (int64_t)expirations;
    if (n < 0 && errno == EAGAIN) return 0;
    return -1;
}

int rs_eventfd_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int rs_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t n = write(fd, &one, sizeof one);
    if (n == (ssize_t)sizeof one || (n < 0 && errno == EAGAIN)) return 0;
    return -1;
}

int rs_eventfd_drain(int fd) {
    uint64_t value = 0;
    ssize_t n = read(fd, &value, sizeof value);
    if (n == (ssize_t)sizeof value || (n < 0 && errno == EAGAIN)) return 0;
    return -1;
}

static volatile sig_atomic_t last_interrupt = 0;
static int interrupt_fd = -1;

static void on_interrupt(int signal_number) {
    int saved = errno;
    last_interrupt = signal_number;
    uint64_t one = 1;
    if (interrupt_fd >= 0) (void)!write(interrupt_fd, &one, sizeof one);
    errno = saved;
}

int rs_interrupt_fd(void) {
    if (interrupt_fd >= 0) return interrupt_fd;
    interrupt_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (interrupt_fd < 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0 || sigaction(SIGTERM, &action, NULL) != 0) return -1;
    return interrupt_fd;
}

int rs_interrupt_take(int fd) {
    uint64_t count = 0;
    (void)!read(fd, &count, sizeof count);
    return (int)last_interrupt;
}

static int64_t clock_ns(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int64_t rs_monotonic_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

void rs_sleep_until_monotonic_ns(int64_t deadline_ns) {
    struct timespec deadline = {.tv_sec = deadline_ns / 1000000000, .tv_nsec = deadline_ns % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {}
}

/// Converts an rs_address to a sockaddr; returns its length, 0 for an unknown family.
static socklen_t to_sockaddr(const rs_address *address, struct sockaddr_storage *out) {
    memset(out, 0, sizeof *out);
    if (address->family == AF_INET) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)out;
        v4->sin_family = AF_INET;
        v4->sin_port = htons(address->port);
        memcpy(&v4->sin_addr, address->bytes, 4);
        return sizeof *v4;
    }
    if (address->family == AF_INET6) {
        struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(address->port);
        v6->sin6_scope_id = address->scope_id;
        memcpy(&v6->sin6_addr, address->bytes, 16);
        return sizeof *v6;
    }
    return 0;
}

static void from_sockaddr(const struct sockaddr_storage *in, rs_address *out) {
    memset(out, 0, sizeof *out);
    if (in->ss_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)in;
        out->family = AF_INET;
        out->port = ntohs(v4->sin_port);
        memcpy(out->bytes, &v4->sin_addr, 4);
    } else if (in->ss_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)in;
        out->family = AF_INET6;
        out->port = ntohs(v6->sin6_port);
        out->scope_id = v6->sin6_scope_id;
        memcpy(out->bytes, &v6->sin6_addr, 16);
    }
}

int rs_udp_socket(uint16_t family) {
    return socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
}

int rs_tcp_socket(uint16_t family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
}

int rs_bind(int fd, const rs_address *address) {
    struct sockaddr_storage storage;
    socklen_t length = to_sockaddr(address, &storage);
    if (length == 0) { errno = EAFNOSUPPORT; return -1; }
    return bind(fd, (struct sockaddr *)&storage, length);
}

int rs_connect(int fd, const rs_address *address) {
    struct sockaddr_storage storage;
    socklen_t length = to_sockaddr(address, &storage);
    if (length == 0) { errno = EAFNOSUPPORT; return -1; }
    return connect(fd, (struct sockaddr *)&storage, length);
}

int rs_listen(int fd, int backlog) { return listen(fd, backlog); }

int rs_accept(int fd, rs_address *peer) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof storage;
    int client = accept4(fd, (struct sockaddr *)&storage, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (client >= 0 && peer) from_sockaddr(&storage, peer);
    return client;
}

int rs_local_address(int fd, rs_address *out) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) return -1;
    from_sockaddr(&storage, out);
    return 0;
}

static int set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof value);
}

int rs_set_reuse_address(int fd) { return set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1); }

int rs_set_tcp_nodelay(int fd) { return set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1); }

int rs_set_buffer_sizes(int fd, int receive, int send, int *granted_receive, int *granted_send) {
    if (receive > 0 && set_int_option(fd, SOL_SOCKET, SO_RCVBUF, receive) != 0) return -1;
    if (send > 0 && set_int_option(fd, SOL_SOCKET, SO_SNDBUF, send) != 0) return -1;
    socklen_t length = sizeof(int);
    if (granted_receive && getsockopt(fd, SOL_SOCKET, SO_RCVBUF, granted_receive, &length) != 0)
        return -1;
    length = sizeof(int);
    if (granted_send && getsockopt(fd, SOL_SOCKET, SO_SNDBUF, granted_send, &length) != 0)
        return -1;
    return 0;
}

int rs_enable_drop_counter(int fd) { return set_int_option(fd, SOL_SOCKET, SO_RXQ_OVFL, 1); }

int rs_enable_receive_timestamps(int fd) { return set_int_option(fd, SOL_SOCKET, SO_TIMESTAMPNS, 1); }

int rs_socket_error(int fd) {
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return -1;
    return error;
}

int rs_recv_batch(int fd, rs_datagram *slots, unsigned count, uint32_t *drops) {
    if (count > RS_MAX_BATCH) count = RS_MAX_BATCH;
    struct mmsghdr messages[RS_MAX_BATCH];
    struct iovec vectors[RS_MAX_BATCH];
    struct sockaddr_storage addresses[RS_MAX_BATCH];
    union {
        char bytes[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } controls[RS_MAX_BATCH];
    memset(messages, 0, sizeof(messages[0]) * count);
    for (unsigned i = 0; i < count; i++) {
        vectors[i].iov_base = slots[i].buffer;
        vectors[i].iov_len = slots[i].capacity;
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
        messages[i].msg_hdr.msg_name = &addresses[i];
        messages[i].msg_hdr.msg_namelen = sizeof addresses[i];
        messages[i].msg_hdr.msg_control = controls[i].bytes;
        messages[i].msg_hdr.msg_controllen = sizeof controls[i].bytes;
    }
    int received = recvmmsg(fd, messages, count, MSG_DONTWAIT, NULL);
    // The kernel stamps datagrams on the wall clock; one offset per batch moves them to
    // the monotonic clock, and none is later than the moment it was read.
    int64_t monotonic = received > 0 ? clock_ns(CLOCK_MONOTONIC) : 0;
    int64_t offset = received > 0 ? monotonic - clock_ns(CLOCK_REALTIME) : 0;
    for (int i = 0; i < received; i++) {
        slots[i].length = messages[i].msg_len;
        slots[i].truncated = (messages[i].msg_hdr.msg_flags & MSG_TRUNC) ? 1 : 0;
        slots[i].received_ns = 0;
        from_sockaddr(&addresses[i], &slots[i].address);
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&messages[i].msg_hdr); c;
             c = CMSG_NXTHDR(&messages[i].msg_hdr, c)) {
            if (c->cmsg_level != SOL_SOCKET) continue;
            if (c->cmsg_type == SO_RXQ_OVFL && drops) {
                memcpy(drops, CMSG_DATA(c), sizeof(uint32_t));
            } else if (c->cmsg_type == SCM_TIMESTAMPNS) {
                struct timespec stamp;
                memcpy(&stamp, CMSG_DATA(c), sizeof stamp);
                int64_t at = (int64_t)stamp.tv_sec * 1000000000 + stamp.tv_nsec + offset;
                slots[i].received_ns = at < monotonic ? at : monotonic;
            }
        }
    }
    return received;
}

int rs_send_batch(int fd, const rs_datagram *slots, unsigned count) {
    if (count > RS_MAX_BATCH) count = RS_MAX_BATCH;
    struct mmsghdr messages[RS_MAX_BATCH];
    struct iovec vectors[RS_MAX_BATCH];
    struct sockaddr_storage addresses[RS_MAX_BATCH];
    memset(messages, 0, sizeof(messages[0]) * count);
    for (unsigned i = 0; i < count; i++) {
        vectors[i].iov_base = slots[i].buffer;
        vectors[i].iov_len = slots[i].length;
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
        messages[i].msg_hdr.msg_name = &addresses[i];
        messages[i].msg_hdr.msg_namelen = to_sockaddr(&slots[i].address, &addresses[i]);
    }
    return sendmmsg(fd, messages, count, MSG_DONTWAIT);
}

int rs_send_segmented(int fd, const uint8_t *buffer, uint32_t length, uint16_t segment_size,
                      const rs_address *address) {
    struct sockaddr_storage storage;
    struct iovec vector = {.iov_base = (void *)buffer, .iov_len = length};
    union {
        char bytes[CMSG_SPACE(sizeof(uint16_t))];
        struct cmsghdr align;
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    memset(&control, 0, sizeof control);
    message.msg_name = &storage;
    message.msg_namelen = to_sockaddr(address, &storage);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_UDP;
    header->cmsg_type = UDP_SEGMENT;
    header->cmsg_len = CMSG_LEN(sizeof(uint16_t));
    memcpy(CMSG_DATA(header), &segment_size, sizeof segment_size);
    return (int)sendmsg(fd, &message, MSG_DONTWAIT);
}

int rs_set_udp_gro(int fd, int enabled) { return set_int_option(fd, SOL_UDP, UDP_GRO, enabled ? 1 : 0); }

int rs_clock_error(int64_t *estimated_us, int64_t *maximum_us) {
    struct timex query;
    memset(&query, 0, sizeof query);  // modes 0: read, change nothing
    int state = adjtimex(&query);
    if (state < 0) return -1;
    *estimated_us = query.esterror;
    *maximum_us = query.maxerror;
    return state == TIME_ERROR ? 0 : 1;
}
