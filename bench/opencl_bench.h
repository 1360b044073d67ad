/* SPDX-License-Identifier: MIT */
/* What the benchmarks that time whole runs (layer_speed.c, layer_cost.c, startup.c) share: a millisecond
 * clock, the median of a series (sorted in place), and a whole file read into memory with a NUL after it
 * (PTX is handed over as a C string). Inline, so that a benchmark that needs only some uses only those. */
#ifndef SPVCOND_BENCH_OPENCL_BENCH_H
#define SPVCOND_BENCH_OPENCL_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double
now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static inline int
by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static inline void *
read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
    if (buf)
        buf[*size] = 0;
    fclose(f);
    return buf;
}

#endif
