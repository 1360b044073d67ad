/* SPDX-License-Identifier: MIT */
/* printf through the layer: on NVIDIA's route it becomes the driver's vprintf (an int, a float promoted to
 * double, a string in constant memory). Compiled at test time with clang-15 + llvm-spirv-15. */
__kernel void hello(__global float *a)
{
    size_t i = get_global_id(0);
    if (i == 3)
        printf("spvcond printf: i=%d x=%.1f s=%s\n", (int)i, a[i], "ok");
    a[i] = a[i] * 2.0f;
}
