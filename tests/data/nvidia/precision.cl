// SPDX-License-Identifier: MIT
// What NVIDIA's compiler makes of single-precision division, a function kept out of line, and a saturated
// conversion of NaN (the conformance suite's op_fdiv_*, function_noinline, and SaturatedConversion tests).
__attribute__((noinline)) float add_out_of_line(float a, float b) { return a + b; }

kernel void divide(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = a[i] / b[i];
}

kernel void out_of_line(global const float *a, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = add_out_of_line(a[i], 1.0f);
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void saturate(global const double *a, global int *out)
{
    size_t i = get_global_id(0);
    out[i] = convert_int_sat(a[i]);
}
