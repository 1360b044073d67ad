// SPDX-License-Identifier: MIT
// printf in a kernel that takes a constant pointer: NVIDIA's constant space cannot be made generic then, so the
// format string and the %s string must reach vprintf from elsewhere (docs/opencl-layer.md, "NVIDIA").
// On a[i] = i it prints "x=3 s=constant".
constant char greeting[] = "constant";

kernel void constant_printf(constant int *x)
{
    if (get_global_id(0) == 0)
        printf("x=%d s=%s\n", x[3], greeting);
}
