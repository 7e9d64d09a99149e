/* ls-wrapper.c — stands in for a GNU coreutils build tree's src/ls while
 * GNU's own test suite runs (tests/support/gnu-suite.sh): it runs statls
 * as the GNU ls of that tree, with STATLS_GNU_VERSION set to the tree's
 * release and argv[0] "ls".  Compiled by gnu-suite.sh with
 *   -DSTATLS='"/abs/path/to/statls"' -DGNU_VERSION='"9.7"'
 * (static where the C library allows it).  Exit status 127 when statls
 * cannot be run, as a shell says for a missing program. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if !defined STATLS || !defined GNU_VERSION
#error "compile with -DSTATLS='\"/path/to/statls\"' -DGNU_VERSION='\"9.7\"'"
#endif

int main(int argc, char **argv)
{
    char *args[argc + 1];
    (void)argc;
    if (setenv("STATLS_GNU_VERSION", GNU_VERSION, 1) != 0) {
        perror("ls-wrapper: setenv");
        return 127;
    }
    args[0] = "ls";
    for (int i = 1; i <= argc; i++)
        args[i] = argv[i];
    execv(STATLS, args);
    fprintf(stderr, "ls-wrapper: cannot run %s: %s\n", STATLS, strerror(errno));
    return 127;
}
