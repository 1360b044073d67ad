/* SPDX-License-Identifier: MIT */
/* The fp64 / fp16 / otherwise chain; each path writes x / 2 plus a number that names it. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static float refine_fp64(float x)
{
    double d = (double)x;
    return (float)(d * 0.5 + 64.0);
}

static float refine_fp16(float x)
{
    half h = (half)x;
    return (float)(h * (half)0.5) + 16.0f;
}

static float refine_fp32(float x)
{
    return x * 0.5f + 32.0f;
}

kernel void refine(global float *a)
{
    size_t i = get_global_id(0);
    float x = a[i], y;
    if (spvcond_device_has(fp64))
        y = refine_fp64(x);
    else if (spvcond_device_has(fp16))
        y = refine_fp16(x);
    else
        y = refine_fp32(x);
    a[i] = y;
}
