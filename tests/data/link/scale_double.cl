// SPDX-License-Identifier: MIT
// A variant of scale.cl that computes in double precision (Float64), for another target.
float scaled(float x, float a) { return (float)((double)x * (double)a); }

kernel void scale(global float *x, float a)
{
    size_t i = get_global_id(0);
    x[i] = scaled(x[i], a);
}
