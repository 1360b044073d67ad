/* SPDX-License-Identifier: MIT */
/* Nested guards: fp64, and within it atomic64. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static void count_atomic64(global float *a, volatile global ulong *n)
{
    atom_inc(n);
    a[get_global_id(0)] = (float)((double)a[get_global_id(0)] + 1.0);
}

static void count_fp64(global float *a)
{
    a[get_global_id(0)] = (float)((double)a[get_global_id(0)] + 2.0);
}

static void count_plain(global float *a)
{
    a[get_global_id(0)] += 3.0f;
}

kernel void nested(global float *a, volatile global ulong *n)
{
    if (spvcond_device_has(fp64)) {
        if (spvcond_device_has(atomic64))
            count_atomic64(a, n);
        else
            count_fp64(a);
    } else {
        count_plain(a);
    }
}
