/* SPDX-License-Identifier: MIT */
/* How the tool reports an error of its own (cli.h): "error: WHAT" on standard error. Shared by every part of
 * the tool, the option parser among them, so that none of them depends on the main file. */
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
