/* SPDX-License-Identifier: MIT */
/* The demonstration module for the JIT client: kernels with different needs sharing helpers.
 * Compiled at test time with clang-15 + llvm-spirv-15, then annotated. */
float twice_f(float x) { return 2.0f * x; }
double twice_d(double x) { return 2.0 * x; }

__kernel void scale_float(__global float *a) { size_t i = get_global_id(0); a[i] = twice_f(a[i]); }
__kernel void scale_double(__global double *a) { size_t i = get_global_id(0); a[i] = twice_d(a[i]); }
__kernel void mix_double(__global float *a)
{
    size_t i = get_global_id(0);
    a[i] = (float)twice_d((double)a[i]) + twice_f(1.0f);
}

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void scale_half(__global float *a)
{
    size_t i = get_global_id(0);
    half h = (half)a[i];
    a[i] = (float)(h * (half)2.0f);
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void add_one(__global float *a)
{
    size_t i = get_global_id(0);
    a[i] = a[i] + 1.0f;
}
