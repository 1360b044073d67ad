/* SPDX-License-Identifier: MIT */
/* If/else on fp64, the early return form. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static float twice_fp64(float x)
{
    return (float)((double)x * 2.0) + 64.0f;
}

static float twice_fp32(float x)
{
    return x * 2.0f + 32.0f;
}

kernel void twice(global float *a)
{
    size_t i = get_global_id(0);
    if (!spvcond_device_has(fp64)) {
        a[i] = twice_fp32(a[i]);
        return;
    }
    a[i] = twice_fp64(a[i]);
}
