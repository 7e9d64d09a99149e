/*
 * tundelay: a delay line between two TUN devices, for bench/sshfs/sshfs.sh
 * where the kernel has no netem qdisc.
 *
 * It creates TUN_A in its own network namespace and TUN_B in the namespace
 * NETNS (a path such as /run/netns/NAME), then copies every IP packet read
 * on one device to the other DELAY_US microseconds after it was read, in
 * order, without holding back the packets behind it: the kernel's TCP runs
 * at both ends (its own segments, ACKs and windows), and the line adds
 * latency, not a bandwidth limit, as `tc qdisc ... netem delay` would on
 * each end of a veth pair. One thread; packets wait in a queue per
 * direction (a full queue drops, as netem's limit does).
 *
 * usage: tundelay DELAY_US NETNS TUN_A TUN_B READY_FILE
 *   READY_FILE is created once both devices exist (they are down and have
 *   no address: the caller sets them up). The devices go when the process
 *   ends (SIGTERM).
 *
 * build: gcc -O2 -o tundelay tundelay.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define SLOT 2048   /* the devices' MTU is 1500 */
#define SLOTS 8192  /* per direction */

struct queue {
    unsigned char (*data)[SLOT];
    uint16_t *len;
    uint64_t *due;
    size_t head, count;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int open_tun(const char *name)
{
    struct ifreq ifr;
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        perror("tundelay: /dev/net/tun");
        exit(3);
    }
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        fprintf(stderr, "tundelay: TUNSETIFF %s: %s\n", name, strerror(errno));
        exit(3);
    }
    return fd;
}

static void queue_init(struct queue *q)
{
    q->data = calloc(SLOTS, SLOT);
    q->len = calloc(SLOTS, sizeof *q->len);
    q->due = calloc(SLOTS, sizeof *q->due);
    if (!q->data || !q->len || !q->due) {
        perror("tundelay: calloc");
        exit(1);
    }
    q->head = q->count = 0;
}

/* Read every packet waiting on fd into q, due delay ns from now. */
static void take(int fd, struct queue *q, uint64_t delay)
{
    unsigned char spill[SLOT];
    for (;;) {
        int full = q->count == SLOTS;
        size_t i = (q->head + q->count) % SLOTS;
        ssize_t n = read(fd, full ? spill : q->data[i], SLOT);
        if (n <= 0)
            return; /* EAGAIN: drained */
        if (full)
            continue; /* dropped */
        q->len[i] = (uint16_t)n;
        q->due[i] = now_ns() + delay;
        q->count++;
    }
}

/* Write the packets of q that are due to fd; the next due time, or 0. */
static uint64_t give(int fd, struct queue *q, uint64_t now)
{
    while (q->count > 0) {
        size_t i = q->head;
        if (q->due[i] > now)
            return q->due[i];
        if (write(fd, q->data[i], q->len[i]) < 0 && errno != EAGAIN && errno != EIO)
            perror("tundelay: write");
        q->head = (q->head + 1) % SLOTS;
        q->count--;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: tundelay DELAY_US NETNS TUN_A TUN_B READY_FILE\n");
        return 2;
    }
    uint64_t delay = strtoull(argv[1], NULL, 10) * 1000u;
    int a = open_tun(argv[3]);
    int ns = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (ns < 0 || setns(ns, CLONE_NEWNET) < 0) {
        fprintf(stderr, "tundelay: setns %s: %s\n", argv[2], strerror(errno));
        return 3;
    }
    close(ns);
    int b = open_tun(argv[4]);
    /* Wake up when a packet is due, not up to 50 us later. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

    FILE *ready = fopen(argv[5], "w");
    if (!ready || fclose(ready) != 0) {
        perror("tundelay: ready file");
        return 1;
    }

    struct queue ab, ba; /* a -> b, b -> a */
    queue_init(&ab);
    queue_init(&ba);
    struct pollfd fds[2] = {{.fd = a, .events = POLLIN}, {.fd = b, .events = POLLIN}};
    for (;;) {
        uint64_t now = now_ns();
        uint64_t next_ab = give(b, &ab, now), next_ba = give(a, &ba, now);
        uint64_t next = next_ab && (!next_ba || next_ab < next_ba) ? next_ab : next_ba;
        struct timespec ts, *wait = NULL;
        if (next) {
            uint64_t left = next > now ? next - now : 0;
            ts.tv_sec = (time_t)(left / 1000000000u);
            ts.tv_nsec = (long)(left % 1000000000u);
            wait = &ts;
        }
        if (ppoll(fds, 2, wait, NULL) < 0 && errno != EINTR) {
            perror("tundelay: ppoll");
            return 1;
        }
        if (fds[0].revents & POLLIN)
            take(a, &ab, delay);
        if (fds[1].revents & POLLIN)
            take(b, &ba, delay);
    }
}
