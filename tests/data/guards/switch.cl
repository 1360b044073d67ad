/* SPDX-License-Identifier: MIT */
/* A guard in a function with an OpSwitch: the switch's targets are read past its literals. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

static float mode_fp64(float x)
{
    return (float)((double)x + 1.0);
}

static float mode_fp32(float x)
{
    return x + 2.0f;
}

kernel void modes(global float *a, int mode)
{
    switch (mode) {
    case 0: a[0] = 1.0f; break;
    case 7: a[1] = 2.0f; break;
    default: break;
    }
    if (spvcond_device_has(fp64))
        a[2] = mode_fp64(a[2]);
    else
        a[2] = mode_fp32(a[2]);
}
