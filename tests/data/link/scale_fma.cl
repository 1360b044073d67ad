// SPDX-License-Identifier: MIT
// A variant of scale.cl for devices with a fused multiply-add: the same kernel and helper.
float scaled(float x, float a) { return fma(x, a, 0.0f); }

kernel void scale(global float *x, float a)
{
    size_t i = get_global_id(0);
    x[i] = scaled(x[i], a);
}
