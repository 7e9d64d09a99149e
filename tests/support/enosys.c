/* Runs a program with a seccomp filter that makes the named system calls
 * fail with ENOSYS, as on old kernels or under restrictive container
 * profiles.
 * Usage: enosys CALL[,CALL...] PROGRAM [ARG...]
 * CALL is statx or getxattrat (Linux 6.13). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_getxattrat
#define __NR_getxattrat 464 /* the same number on every architecture */
#endif

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: enosys CALL[,CALL...] PROGRAM [ARG...]\n");
        return 125;
    }
    struct sock_filter filter[16];
    unsigned n = 0;
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                               offsetof(struct seccomp_data, nr));
    for (char *call = strtok(argv[1], ","); call; call = strtok(NULL, ",")) {
        long nr;
        if (strcmp(call, "statx") == 0)
            nr = __NR_statx;
        else if (strcmp(call, "getxattrat") == 0)
            nr = __NR_getxattrat;
        else {
            fprintf(stderr, "enosys: unknown call '%s'\n", call);
            return 125;
        }
        if (n + 3 > sizeof filter / sizeof filter[0]) {
            fprintf(stderr, "enosys: too many calls\n");
            return 125;
        }
        filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
        filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                                   SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
    }
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = { .len = n, .filter = filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        perror("seccomp");
        return 125;
    }
    execv(argv[2], argv + 2);
    perror("execv");
    return 127;
}
