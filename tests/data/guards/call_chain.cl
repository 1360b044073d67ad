/* SPDX-License-Identifier: MIT */
/* A guarded call chain: the guard reaches the callee of the callee. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static double square(double d)
{
    return d * d;
}

static float norm_fp64(float x, float y)
{
    return (float)sqrt(square((double)x) + square((double)y));
}

static float norm_fp32(float x, float y)
{
    return sqrt(x * x + y * y);
}

kernel void norm(global float *a)
{
    size_t i = get_global_id(0);
    float x = a[i];
    a[i] = spvcond_device_has(fp64) ? norm_fp64(x, 0.0f) + 64.0f : norm_fp32(x, 0.0f) + 32.0f;
}
