// SPDX-License-Identifier: MIT
// More shapes: a set with fp16 (half_scale); a member calling helpers (dbl_pow calls square, which uses
// double); a helper shared by a member and a kernel (clamp01, called by dbl_pow and by kernel direct);
// a kernel calling two sets (mix); a vtable in __constant memory (table, used by by_index).
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef float (*op)(float);

float clamp01(float x) { return x < 0.0f ? 0.0f : x > 100.0f ? 100.0f : x; }

double square(double d) { return d * d; }

float dbl_pow(float x) { return clamp01((float)square((double)x)); }

float half_scale(float x)
{
    half h = (half)x;
    return (float)(h * (half)2.0f);
}

float plain_add(float x) { return x + 10.0f; }

__constant op table[3] = {plain_add, dbl_pow, half_scale};

kernel void fill(global float *a)
{
    global op *slots = (global op *)(a + 8);
    slots[0] = plain_add;
    slots[1] = dbl_pow;
    slots[2] = half_scale;
}

kernel void direct(global float *a) { a[1] = clamp01(a[1] * 200.0f); }

kernel void by_index(global float *a) { a[0] = table[0](a[0]); }

kernel void mix(global float *a)
{
    global op *slots = (global op *)(a + 8);
    a[2] = slots[1](a[2]) + slots[0](0.0f);
}

kernel void halves(global float *a)
{
    global op *slots = (global op *)(a + 8);
    a[3] = slots[2](a[3]);
}
