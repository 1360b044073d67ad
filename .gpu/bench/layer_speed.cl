/* SPDX-License-Identifier: MIT */
/* Kernels for bench/layer_speed.c: a memory-bound triad, and loops of sin/exp/sqrt/log in float and double
 * (the built-ins whose implementations differ most between libclc and NVIDIA's own library). */
__kernel void triad(__global float *c, __global const float *a, __global const float *b, float s)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + s * b[i];
}

__kernel void math_float(__global float *out, __global const float *in)
{
    size_t i = get_global_id(0);
    float x = in[i], acc = 0.0f;
    for (int s = 0; s < 32; s++) {
        acc += sin(x) + exp(x * 0.01f) + sqrt(x) + log(x + 1.0f);
        x += 0.5f;
    }
    out[i] = acc;
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void math_double(__global double *out, __global const double *in)
{
    size_t i = get_global_id(0);
    double x = in[i], acc = 0.0;
    for (int s = 0; s < 32; s++) {
        acc += sin(x) + exp(x * 0.01) + sqrt(x) + log(x + 1.0);
        x += 0.5;
    }
    out[i] = acc;
}
