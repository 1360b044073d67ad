/* SPDX-License-Identifier: MIT */
/* Half-precision built-ins through the layer: libclc 15's nvptx64 library has none, so NVIDIA's route
 * computes them in float and rounds to half. On a[i] = i: 1 2 3.41406 4.73438 (fmax(h, 1) + sqrt(h) in
 * half: sqrt(3) rounds to 1.73242, and 4.73242 to the even 4.73438). Compiled at test time with clang-15 + llvm-spirv-15. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_math(__global float *a)
{
    size_t i = get_global_id(0);
    half h = (half)a[i];
    a[i] = (float)(fmax(h, (half)1.0f) + sqrt(h));
}
