/* SPDX-License-Identifier: MIT */
/* How the tool reports (cli.h): an error of its own as "error: WHAT" on standard error, and a library
 * result as an exit code. Shared by every part of the tool, the option parser and the files among them, so
 * that none of them depends on the main file. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

void
cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int
cli_exit_code(spvcond_result r)
{
    switch (r) {
    case SPVCOND_OK: return EXIT_OK;
    case SPVCOND_ERROR_OUT_OF_MEMORY: return EXIT_NOMEM;
    case SPVCOND_ERROR_INVALID_ARGUMENT: return EXIT_USAGE;
    default: return EXIT_INVALID;
    }
}
