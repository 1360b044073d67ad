/* SPDX-License-Identifier: MIT */
/* Compiled with -g by tests/debian_kernels.py: debug information must follow stripped functions. */
double twice(double x) { return 2.0 * x; }
float half_it(float x) { return x * 0.5f; }
__kernel void kd(__global double *a) { size_t i = get_global_id(0); a[i] = twice(a[i]); }
__kernel void kf(__global float *a) { size_t i = get_global_id(0); a[i] = half_it(a[i]); }
