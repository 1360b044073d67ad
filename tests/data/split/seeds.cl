// SPDX-License-Identifier: MIT
// Split's seed examples (spec/split.md): two kernels with and without fp64, kernels with required
// work-group and sub-group sizes, a helper shared across images, an exported function.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

float shared_helper(float x) { return x * 0.5f + 1.0f; }

float exported_scale(float x) { return x * 3.0f; }

kernel void plain(global float *a) { a[get_global_id(0)] = shared_helper(a[get_global_id(0)]); }

kernel void also_plain(global float *a) { a[get_global_id(0)] += 1.0f; }

kernel void with_double(global float *a)
{
    double d = a[get_global_id(0)];
    a[get_global_id(0)] = shared_helper((float)(d * 2.0));
}

__attribute__((reqd_work_group_size(16, 1, 1))) kernel void sized(global float *a) { a[get_global_id(0)] *= 2.0f; }

__attribute__((intel_reqd_sub_group_size(16))) kernel void subgroup(global float *a)
{
    a[get_global_id(0)] = shared_helper(a[get_global_id(0)]) - 1.0f;
}
