/* SPDX-License-Identifier: MIT */
/* fp64 used inline in the guarded block: the kernel requires fp64, with a warning. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void inline_use(global float *a)
{
    size_t i = get_global_id(0);
    if (spvcond_device_has(fp64))
        a[i] = (float)((double)a[i] * 2.0);
    else
        a[i] = a[i] * 2.0f;
}
