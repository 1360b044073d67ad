/* SPDX-License-Identifier: MIT */
/* A helper called under a guard and without one stays unconditional. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static float offset(float x)
{
    return x + 1.0f;
}

static float offset_fp64(float x)
{
    return (float)((double)offset(x) * 1.0) + 64.0f;
}

kernel void shared(global float *a)
{
    size_t i = get_global_id(0);
    float y = offset(a[i]);
    if (spvcond_device_has(fp64))
        y = offset_fp64(a[i]);
    a[i] = y;
}
