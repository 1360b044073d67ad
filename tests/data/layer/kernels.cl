/* SPDX-License-Identifier: MIT */
/* OpenCL C as applications write it, for the layer's routes: local memory with barriers, vector loads and
 * stores, and a global atomic, each on one float buffer a[i] = i (the layer test's host program). First
 * results: reduce 2016 1 2 3 (the sum of a[0..63] in a[0]); vectors 8 10 12 14 (a[4..7] doubled into
 * a[0..3]); atomics 0 1.00003 2 3 (256 atomic increments of a[1]'s bits: 0x3f800000 + 256); calls_kernel
 * 1 4 7 10 (a kernel calling a kernel that calls a function reading its work-item id, with a memory fence: at
 * -O0 clang asks that none be inlined, which pocl cannot grant).
 * Compiled at test time with clang-15 + llvm-spirv-15. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void reduce(__global float *a)
{
    __local float partial[64];
    size_t l = get_local_id(0), g = get_global_id(0);
    partial[l] = a[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = 32; s > 0; s >>= 1) {
        if (l < s)
            partial[l] += partial[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0 && g == 0)
        a[0] = partial[0];
}

__kernel void vectors(__global float *a)
{
    if (get_global_id(0) == 0) {
        float4 v = vload4(1, a);
        vstore4(v * 2.0f, 0, a);
    }
}

__kernel void atomics(__global float *a)
{
    atomic_inc((volatile __global int *)&a[1]);
}

float triple(__global float *a)
{
    return a[get_global_id(0)] * 3.0f;
}

__kernel void scaled(__global float *a)
{
    float v = triple(a);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    a[get_global_id(0)] = v + 1.0f;
}

__kernel void calls_kernel(__global float *a)
{
    scaled(a);
}
