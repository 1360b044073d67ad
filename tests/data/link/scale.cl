// SPDX-License-Identifier: MIT
// The base of a multi-target module: one kernel and one helper, in single precision.
float scaled(float x, float a) { return x * a; }

kernel void scale(global float *x, float a)
{
    size_t i = get_global_id(0);
    x[i] = scaled(x[i], a);
}
