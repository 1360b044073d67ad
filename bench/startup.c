/* SPDX-License-Identifier: MIT */
/* Start-up (docs/performance.md, "Start-up"): whole processes timed from their spawn to their exit, the
 * commands taken in turn round after round (A B C A B C ...) so that a drift of the machine's speed strikes
 * them alike; each command's median and fastest wall time, and its median over the first command's (the
 * yardstick: /bin/true). Standard output and error go to /dev/null.
 *
 *   spvcond-startup ROUNDS COMMAND [ARG...] [-- COMMAND [ARG...]]...
 *
 * Exit status: 0 when every run of every command exited 0, 1 otherwise, 2 on bad usage. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "opencl_bench.h"

extern char **environ;

enum { MAX_COMMANDS = 16, MAX_ROUNDS = 1000 };

/* One run of argv: its wall time in ms, or -1 when it could not start or exited other than 0. */
static double
run_once(char **argv, posix_spawn_file_actions_t *quiet)
{
    pid_t pid;
    int status;
    double started = now_ms();
    if (posix_spawnp(&pid, argv[0], quiet, NULL, argv, environ) != 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    double took = now_ms() - started;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? took : -1;
}

int
main(int argc, char **argv)
{
    int rounds = argc > 2 ? atoi(argv[1]) : 0;
    char **commands[MAX_COMMANDS];
    int count = 0;
    for (int a = 2; a < argc && count < MAX_COMMANDS; a++) {
        if (strcmp(argv[a], "--") == 0) {
            argv[a] = NULL;
            continue;
        }
        if (a == 2 || argv[a - 1] == NULL)
            commands[count++] = &argv[a];
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || count < 1)
        return fprintf(stderr, "usage: spvcond-startup ROUNDS COMMAND [ARG...] [-- COMMAND [ARG...]]...\n"), 2;
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
    static double times[MAX_COMMANDS][MAX_ROUNDS];
    int failed = 0;
    for (int c = 0; c < count; c++) /* one run each first, not counted: the files in the page cache */
        failed |= run_once(commands[c], &quiet) < 0;
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < count; c++)
            failed |= (times[c][r] = run_once(commands[c], &quiet)) < 0;
    double yardstick = 0;
    printf("%-60s %10s %10s %8s\n", "command", "median ms", "min ms", "/ first");
    for (int c = 0; c < count; c++) {
        double middle = median(times[c], rounds); /* sorts them: the fastest first */
        if (c == 0)
            yardstick = middle;
        char shown[61] = "";
        for (char **w = commands[c]; *w && strlen(shown) < 58; w++)
            snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), "%s%s", w == commands[c] ? "" : " ",
                     strrchr(*w, '/') && w == commands[c] ? strrchr(*w, '/') + 1 : *w);
        printf("%-60s %10.3f %10.3f %8.2f\n", shown, middle, times[c][0], yardstick > 0 ? middle / yardstick : 0);
    }
    posix_spawn_file_actions_destroy(&quiet);
    if (failed)
        fprintf(stderr, "spvcond-startup: a run failed to start or exited other than 0\n");
    return failed;
}
