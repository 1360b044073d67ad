/* SPDX-License-Identifier: MIT */
/* spvcond-batch: the command-line tool's command lines run one after another in one process, for the test
 * scripts (tests/verdicts.py, run()) and memcheck (tools/run-memcheck.sh); built, not installed. Under the
 * sanitizers a process costs 50-90 ms to start and to end (most of it LeakSanitizer's scan at exit), under
 * valgrind about a second, and the tests start the tool tens of thousands of times; here each command
 * line costs what its work costs. The tool's code is the same objects as spvcond's, all but main
 * (main.c); cli_main keeps nothing between calls (cli.h).
 *
 * Requests on standard input, each a run of NUL-terminated fields:
 *     STDOUT-PATH \0 STDERR-PATH \0 ARGC \0 ARG0 \0 ... ARG(ARGC-1) \0
 * The command's standard output and error go to the two files (created or truncated); its standard input
 * is /dev/null. The reply, on standard output, is the exit status and a newline. At the end of the input
 * the process exits 0, and a leak of any command is LeakSanitizer's report on standard error then; a
 * command that dies takes the process with it, its signal the requester's to see. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* One NUL-terminated field into *field (grown as needed): 1, or 0 at the end of the input. */
static int
read_field(FILE *in, char **field, size_t *capacity)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != 0) {
        if (n + 1 >= *capacity) {
            size_t grown = *capacity ? *capacity * 2 : 256;
            char *p = realloc(*field, grown);
            if (!p)
                return 0;
            *field = p;
            *capacity = grown;
        }
        (*field)[n++] = (char)c;
    }
    if (c == EOF)
        return 0;
    if (!*field && !(*field = malloc(*capacity = 1)))
        return 0;
    (*field)[n] = 0;
    return 1;
}

/* `path` opened for writing onto descriptor `fd`: 1, or 0 when it cannot be. */
static int
redirect(int fd, const char *path)
{
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (f < 0)
        return 0;
    int ok = dup2(f, fd) >= 0;
    close(f);
    return ok;
}

/* One request read and run: its exit status, or -1 at the end of the input (or on a malformed request). */
static int
serve_one(FILE *in, int null_out, int saved_err)
{
    char *paths[2] = {NULL, NULL}, *count = NULL, **argv = NULL;
    size_t caps[2] = {0, 0}, count_cap = 0;
    int rc = -1, argc = 0;
    if (!read_field(in, &paths[0], &caps[0]) || !read_field(in, &paths[1], &caps[1]) ||
        !read_field(in, &count, &count_cap))
        goto done;
    long n = strtol(count, NULL, 10);
    if (n < 1 || n > 65536 || !(argv = calloc((size_t)n + 1, sizeof(*argv))))
        goto done;
    for (; argc < n; argc++) {
        size_t cap = 0;
        if (!read_field(in, &argv[argc], &cap))
            goto done;
    }
    fflush(stdout);
    fflush(stderr);
    if (redirect(STDOUT_FILENO, paths[0]) && redirect(STDERR_FILENO, paths[1])) {
        rc = cli_main(argc, argv);
        fflush(stdout);
        fflush(stderr);
    } else {
        rc = 3; /* the tool's I/O error */
    }
    dup2(null_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
done:
    for (int i = 0; argv && i < argc; i++)
        free(argv[i]);
    free(argv);
    free(paths[0]);
    free(paths[1]);
    free(count);
    return rc;
}

int
main(void)
{
    /* Requests and replies on descriptors of their own: 0, 1 and 2 are the commands' (1 and 2 between
     * commands: /dev/null and this process's standard error, where a leak report goes at the end). */
    int requests = dup(STDIN_FILENO), replies = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    int null_in = open("/dev/null", O_RDONLY), null_out = open("/dev/null", O_WRONLY);
    if (requests < 0 || replies < 0 || saved_err < 0 || null_in < 0 || null_out < 0 ||
        dup2(null_in, STDIN_FILENO) < 0 || dup2(null_out, STDOUT_FILENO) < 0)
        return 3;
    close(null_in);
    FILE *in = fdopen(requests, "rb");
    FILE *out = fdopen(replies, "w");
    if (!in || !out)
        return 3;
    int rc;
    while ((rc = serve_one(in, null_out, saved_err)) >= 0) {
        fprintf(out, "%d\n", rc);
        fflush(out);
    }
    fclose(in);
    fclose(out);
    close(null_out);
    close(saved_err);
    return 0;
}
