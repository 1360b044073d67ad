/* SPDX-License-Identifier: MIT */
/* A guarded call whose result flows through an OpPhi (the conditional operator). */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static float pick_fp64(float x)
{
    return (float)((double)x * 0.5) + 64.0f;
}

static float pick_fp32(float x)
{
    return x * 0.5f + 32.0f;
}

kernel void pick(global float *a)
{
    size_t i = get_global_id(0);
    a[i] = spvcond_device_has(fp64) ? pick_fp64(a[i]) : pick_fp32(a[i]);
}
