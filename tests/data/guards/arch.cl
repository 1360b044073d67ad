/* SPDX-License-Identifier: MIT */
/* An architecture guard: Ponte Vecchio, other Intel GPUs, everything else. */
#include <spvcond/device_if.h>

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static float on_pvc(float x)
{
    return x + 21.0f;
}

static float on_intel_gpu(float x)
{
    return x + 1.0f;
}

static float elsewhere(float x)
{
    return x;
}

kernel void tuned(global float *a)
{
    size_t i = get_global_id(0);
    if (spvcond_architecture_is(intel_gpu_pvc))
        a[i] = on_pvc(a[i]);
    else if (spvcond_architecture_family_is(intel_gpu))
        a[i] = on_intel_gpu(a[i]);
    else
        a[i] = elsewhere(a[i]);
}
