// SPDX-License-Identifier: MIT
// Inline assembly as a user writes it (SPV_INTEL_inline_assembly): the generic variant of add.
int add(int a, int b)
{
    int r;
    __asm__("add %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

__kernel void k(__global int *o, __global const int *a, __global const int *b)
{
    size_t i = get_global_id(0);
    o[i] = add(a[i], b[i]);
}

__kernel void k_double(__global double *o, __global const double *a)
{
    size_t i = get_global_id(0);
    o[i] = a[i] * 2.0 + add((int)i, 1);
}
