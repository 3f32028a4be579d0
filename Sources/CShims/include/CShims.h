// C interop for what Swift's Glibc module cannot import: epoll, timerfd, eventfd,
// recvmmsg/sendmmsg with SO_RXQ_OVFL, and UDP GSO/GRO (all need _GNU_SOURCE).
//
// This public header deliberately includes only <stdint.h> and <stddef.h>: pulling
// <sys/socket.h> into a module of ours can shadow Glibc's SOCK_DGRAM and friends in
// release builds. Addresses cross the boundary as `rs_address`, and every RS_ constant
// is checked against the system header by a static assertion in CShims.c.
#ifndef RTCSWARM_CSHIMS_H
#define RTCSWARM_CSHIMS_H

#include <stddef.h>
#include <stdint.h>

#define RS_EPOLLIN 0x001u
#define RS_EPOLLOUT 0x004u
#define RS_EPOLLERR 0x008u
#define RS_EPOLLHUP 0x010u
#define RS_EPOLLRDHUP 0x2000u
#define RS_EPOLLET (1u << 31)

#define RS_AF_INET 2
#define RS_AF_INET6 10

/// An IPv4 or IPv6 socket address in host byte order for the port.
typedef struct {
    uint16_t family;     // RS_AF_INET or RS_AF_INET6
    uint16_t port;       // host byte order
    uint32_t scope_id;   // IPv6 only
    uint8_t bytes[16];   // IPv4 uses the first 4 bytes, network order
} rs_address;

/// One datagram slot for batched I/O. For receiving, `buffer`/`capacity` are set by the
/// caller and `length`/`address` are filled in; for sending, `length` bytes of `buffer`
/// go to `address`.
typedef struct {
    uint8_t *buffer;
    uint32_t capacity;
    uint32_t length;
    uint32_t truncated;  // set on receive when the datagram did not fit in `capacity`
    rs_address address;
    /// On receive: when the kernel took the datagram off the wire, on the CLOCK_MONOTONIC
    /// scale of `rs_monotonic_ns` (SO_TIMESTAMPNS, converted); 0 when the kernel gave none.
    int64_t received_ns;
} rs_datagram;

/// One epoll event: the ready mask and the 64-bit token given at registration.
typedef struct {
    uint32_t events;
    uint64_t token;
} rs_epoll_event;

// epoll (epoll(7))
int rs_epoll_create(void);
int rs_epoll_add(int epfd, int fd, uint32_t events, uint64_t token);
int rs_epoll_modify(int epfd, int fd, uint32_t events, uint64_t token);
int rs_epoll_remove(int epfd, int fd);
int rs_epoll_wait(int epfd, rs_epoll_event *events, int max_events, int timeout_ms);

// timerfd on CLOCK_MONOTONIC, armed with an absolute deadline; 0 disarms.
int rs_timerfd_create(void);
int rs_timerfd_arm_absolute(int fd, int64_t deadline_ns);
/// Reads the expiry counter; returns the number of expirations, 0 when none, -1 on error.
int64_t rs_timerfd_drain(int fd);

// eventfd: a cross-thread wake-up counter.
int rs_eventfd_create(void);
int rs_eventfd_signal(int fd);
int rs_eventfd_drain(int fd);

/// Installs handlers for SIGINT and SIGTERM that only record the signal and write to an
/// eventfd, and returns that eventfd: whichever thread the kernel picks, the event loop
/// sees the signal as readable data. Call once per process.
int rs_interrupt_fd(void);
/// Drains the eventfd and returns the last signal received (0 when none).
int rs_interrupt_take(int fd);

/// CLOCK_MONOTONIC in nanoseconds.
int64_t rs_monotonic_ns(void);
/// Sleeps until CLOCK_MONOTONIC reads `deadline_ns` (clock_nanosleep, TIMER_ABSTIME).
void rs_sleep_until_monotonic_ns(int64_t deadline_ns);

// Sockets. Every function returns -1 with errno set on failure.
int rs_udp_socket(uint16_t family);
int rs_tcp_socket(uint16_t family);
int rs_bind(int fd, const rs_address *address);
int rs_connect(int fd, const rs_address *address);
int rs_listen(int fd, int backlog);
/// Accepts one connection as a non-blocking, close-on-exec socket.
int rs_accept(int fd, rs_address *peer);
int rs_local_address(int fd, rs_address *out);
int rs_set_reuse_address(int fd);
int rs_set_tcp_nodelay(int fd);
/// Sets SO_RCVBUF/SO_SNDBUF (0 leaves one as it is) and reads back what the kernel granted.
int rs_set_buffer_sizes(int fd, int receive, int send, int *granted_receive, int *granted_send);
/// Asks the kernel to report receive-queue overflow drops (SO_RXQ_OVFL) with each datagram.
int rs_enable_drop_counter(int fd);
/// Asks the kernel to stamp each received datagram with its arrival time (SO_TIMESTAMPNS),
/// so a loop that reads late still knows when each datagram came.
int rs_enable_receive_timestamps(int fd);
/// Reads a pending socket error (SO_ERROR), e.g. after a non-blocking connect.
int rs_socket_error(int fd);

/// recvmmsg(2): fills up to `count` slots; returns how many. When the drop counter is
/// enabled, `*drops` receives the socket's cumulative overflow count (else it is untouched);
/// with receive timestamps enabled each slot's `received_ns` is set.
int rs_recv_batch(int fd, rs_datagram *slots, unsigned count, uint32_t *drops);
/// sendmmsg(2): sends up to `count` slots; returns how many were sent.
int rs_send_batch(int fd, const rs_datagram *slots, unsigned count);

/// UDP generic segmentation offload (UDP_SEGMENT): one call sends `length` bytes to
/// `address` as datagrams of `segment_size` bytes (the last may be shorter).
int rs_send_segmented(int fd, const uint8_t *buffer, uint32_t length, uint16_t segment_size,
                      const rs_address *address);
/// Turns UDP generic receive offload (UDP_GRO) on or off.
int rs_set_udp_gro(int fd, int enabled);

/// adjtimex(2) read-only: the kernel's estimated and maximum wall-clock error in
/// microseconds as chrony or ntpd keep them. Returns 1 when the clock is synchronized,
/// 0 when the kernel says it is not (TIME_ERROR), -1 (errno set) when it cannot be read.
int rs_clock_error(int64_t *estimated_us, int64_t *maximum_us);

#endif
