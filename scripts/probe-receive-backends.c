// probe-receive-backends: what the kernel charges a receiver per datagram for the
// traffic shape a worker sees through SRS (many sockets, each paced at a media rate),
// under three receive backends, before anyone builds one of them into EventLoop:
//
//   epoll        the loop today: sleep out the batching window, epoll_wait, then one
//                recvmmsg per ready socket (SO_TIMESTAMPNS on, as rtcswarm asks)
//   uring-coop   io_uring, IORING_SETUP_COOP_TASKRUN, one multishot recvmsg per socket
//                (IORING_OP_RECVMSG with IORING_RECV_MULTISHOT) into a provided buffer
//                ring, the ring's fd waited on with epoll_wait
//   uring-defer  the same with IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN:
//                the receives run in io_uring_enter(GETEVENTS), all at once per wake-up
//
// `--epoll-wakes` with uring-defer blocks in epoll_wait on the ring's fd (no sleep) and
// counts the waits that timed out with datagrams pending: under DEFER_TASKRUN the
// ring's fd does not become readable when a receive is ready, so such a loop must wait
// in io_uring_enter itself.
//
// A forked sender paces SOCKETS x PPS datagrams of 1,200 bytes round robin on 127.0.0.1;
// the receiver's user and system CPU over the run, per datagram received, is printed.
//
// Build and run (Debian liburing-dev):
//   cc -O2 -o /tmp/probe scripts/probe-receive-backends.c -luring
//   /tmp/probe epoll; /tmp/probe uring-coop; /tmp/probe uring-defer
//   /tmp/probe uring-defer --epoll-wakes
// Options: --sockets N (200) --pps N (152) --seconds N (12) --window-ms N (2).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { payload_size = 1200, buffer_size = 2048, buffer_count = 1024, batch = 16 };

static int sockets = 200, pps = 152, seconds = 12, window_ms = 2, epoll_wakes = 0;
static int *fds, *ports;
static long long received, idle_waits;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void sleep_until(long long ns) {
    struct timespec t = {ns / 1000000000LL, ns % 1000000000LL};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
}

static void fail(const char *what, int error) {
    fprintf(stderr, "%s: %s\n", what, strerror(error));
    exit(1);
}

/// Sends to every socket in turn, one datagram each 1/(sockets x pps) s, a second longer
/// than the receiver listens.
static void send_paced(void) {
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    char payload[payload_size];
    memset(payload, 7, sizeof payload);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    long long step = 1000000000LL / ((long long)sockets * pps), at = now_ns();
    long long end = at + (seconds + 1) * 1000000000LL;
    for (int i = 0; at < end; i = (i + 1) % sockets, at += step) {
        to.sin_port = htons(ports[i]);
        sendto(s, payload, sizeof payload, 0, (struct sockaddr *)&to, sizeof to);
        if (i % 16 == 0) sleep_until(at);
    }
    _exit(0);
}

static void receive_with_epoll(long long end) {
    int ep = epoll_create1(0);
    for (int i = 0; i < sockets; i++) {
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = i};
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e);
    }
    struct mmsghdr messages[batch];
    struct iovec vectors[batch];
    static char buffers[batch][buffer_size], controls[batch][64];
    struct sockaddr_in from[batch];
    struct epoll_event ready[256];
    for (long long woke = now_ns(); now_ns() < end;) {
        sleep_until(woke + window_ms * 1000000LL);
        woke = now_ns();
        int count = epoll_wait(ep, ready, 256, 100);
        for (int k = 0; k < count; k++) {
            for (int got = batch; got == batch;) {
                for (int j = 0; j < batch; j++) {
                    vectors[j] = (struct iovec){buffers[j], buffer_size};
                    messages[j].msg_hdr = (struct msghdr){.msg_name = &from[j], .msg_namelen = sizeof from[j],
                        .msg_iov = &vectors[j], .msg_iovlen = 1, .msg_control = controls[j], .msg_controllen = 64};
                }
                got = recvmmsg(fds[ready[k].data.u32], messages, batch, MSG_DONTWAIT, NULL);
                if (got > 0) received += got;
            }
        }
    }
}

static void arm(struct io_uring *ring, struct msghdr *shape, int index) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    io_uring_prep_recvmsg_multishot(sqe, fds[index], shape, 0);
    sqe->flags |= IOSQE_BUFFER_SELECT;
    sqe->buf_group = 1;
    sqe->user_data = index;
}

static void receive_with_uring(long long end, unsigned flags) {
    struct io_uring ring;
    struct io_uring_params params = {.flags = flags};
    int error = io_uring_queue_init_params(2 * buffer_count, &ring, &params);
    if (error < 0) fail("io_uring_queue_init_params", -error);
    struct io_uring_buf_ring *buffers;
    if (posix_memalign((void **)&buffers, 4096, buffer_count * sizeof(struct io_uring_buf))) fail("posix_memalign", ENOMEM);
    io_uring_buf_ring_init(buffers);
    struct io_uring_buf_reg registration = {.ring_addr = (unsigned long)buffers, .ring_entries = buffer_count, .bgid = 1};
    if ((error = io_uring_register_buf_ring(&ring, &registration, 0))) fail("io_uring_register_buf_ring", -error);
    char *pool = malloc((size_t)buffer_count * buffer_size);
    int mask = io_uring_buf_ring_mask(buffer_count);
    for (int i = 0; i < buffer_count; i++) io_uring_buf_ring_add(buffers, pool + (size_t)i * buffer_size, buffer_size, i, mask, i);
    io_uring_buf_ring_advance(buffers, buffer_count);
    struct msghdr shape = {.msg_namelen = sizeof(struct sockaddr_in), .msg_controllen = 64};
    for (int i = 0; i < sockets; i++) arm(&ring, &shape, i);
    io_uring_submit(&ring);
    int ep = epoll_create1(0);
    struct epoll_event e = {.events = EPOLLIN};
    epoll_ctl(ep, EPOLL_CTL_ADD, ring.ring_fd, &e);
    int defer = flags & IORING_SETUP_DEFER_TASKRUN;
    for (long long woke = now_ns(); now_ns() < end;) {
        if (!epoll_wakes) sleep_until(woke + window_ms * 1000000LL);
        woke = now_ns();
        if (!defer || epoll_wakes) {
            struct epoll_event event;
            if (epoll_wait(ep, &event, 1, 100) == 0) idle_waits++;
        }
        if (defer) io_uring_get_events(&ring);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0, rearmed = 0;
        io_uring_for_each_cqe(&ring, head, cqe) {
            seen++;
            if (cqe->res > 0 && (cqe->flags & IORING_CQE_F_BUFFER)) {
                int id = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
                char *buffer = pool + (size_t)id * buffer_size;
                if (io_uring_recvmsg_validate(buffer, cqe->res, &shape)) received++;
                io_uring_buf_ring_add(buffers, buffer, buffer_size, id, mask, 0);
                io_uring_buf_ring_advance(buffers, 1);
            }
            if (!(cqe->flags & IORING_CQE_F_MORE)) {
                arm(&ring, &shape, (int)cqe->user_data);
                rearmed++;
            }
        }
        io_uring_cq_advance(&ring, seen);
        if (rearmed) io_uring_submit(&ring);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s epoll|uring-coop|uring-defer [--epoll-wakes] [--sockets N] [--pps N] [--seconds N] [--window-ms N]\n", argv[0]);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--epoll-wakes")) epoll_wakes = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--sockets")) sockets = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--pps")) pps = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--seconds")) seconds = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--window-ms")) window_ms = atoi(argv[++i]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    fds = calloc(sockets, sizeof *fds);
    ports = calloc(sockets, sizeof *ports);
    for (int i = 0; i < sockets; i++) {
        struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t length = sizeof address;
        int one = 1, size = 1 << 20;
        fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        bind(fds[i], (struct sockaddr *)&address, sizeof address);
        getsockname(fds[i], (struct sockaddr *)&address, &length);
        ports[i] = ntohs(address.sin_port);
        setsockopt(fds[i], SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
        setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    }
    pid_t sender = fork();
    if (sender == 0) send_paced();
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    long long end = now_ns() + seconds * 1000000000LL;
    const char *mode = argv[1];
    if (!strcmp(mode, "epoll")) receive_with_epoll(end);
    else if (!strcmp(mode, "uring-coop")) receive_with_uring(end, IORING_SETUP_COOP_TASKRUN);
    else if (!strcmp(mode, "uring-defer")) receive_with_uring(end, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    else { fprintf(stderr, "unknown backend %s\n", mode); kill(sender, SIGKILL); return 2; }
    getrusage(RUSAGE_SELF, &after);
    kill(sender, SIGKILL);
    double user = (after.ru_utime.tv_sec - before.ru_utime.tv_sec) * 1e3 + (after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e3;
    double system = (after.ru_stime.tv_sec - before.ru_stime.tv_sec) * 1e3 + (after.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e3;
    printf("%s%s: %lld of %lld datagrams, user %.0f ms, system %.0f ms, %.2f us per datagram, %lld waits timed out\n",
           mode, epoll_wakes ? " --epoll-wakes" : "", received, (long long)sockets * pps * seconds, user, system,
           received ? (user + system) * 1000 / received : 0, idle_waits);
    return 0;
}
