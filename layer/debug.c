/* SPDX-License-Identifier: MIT */
/* What the layer says of itself when asked (docs/opencl-layer.md, "Is the layer active?"): with
 * SPVCOND_LAYER_DEBUG set (to anything but 0), lines on standard error beginning "spvcond layer:". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layer.h"

bool
layer_debug_enabled(void)
{
    const char *v = getenv("SPVCOND_LAYER_DEBUG");
    return v && *v && strcmp(v, "0") != 0;
}

void
layer_debug(const char *format, ...)
{
    if (!layer_debug_enabled())
        return;
    char line[2048];
    va_list ap;
    va_start(ap, format);
    vsnprintf(line, sizeof(line), format, ap);
    va_end(ap);
    fprintf(stderr, "spvcond layer: %s\n", line);
}

double
layer_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double
layer_elapsed_ms(double since)
{
    return layer_now_ms() - since;
}
