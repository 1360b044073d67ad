/* SPDX-License-Identifier: MIT */
/* A guard inside a loop. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static float step_fp64(float x)
{
    return (float)((double)x + 16.0);
}

static float step_fp32(float x)
{
    return x + 8.0f;
}

kernel void steps(global float *a)
{
    size_t i = get_global_id(0);
    float x = a[i];
    for (int k = 0; k < 4; k++) {
        if (spvcond_device_has(fp64))
            x = step_fp64(x);
        else
            x = step_fp32(x);
    }
    a[i] = x;
}
