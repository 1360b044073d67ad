// SPDX-License-Identifier: MIT
// The x86_64 + avx512f variant of add (base.cl), for spirv-link --fnvar-targets.
int add(int a, int b)
{
    int r;
    __asm__("vpaddd %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
