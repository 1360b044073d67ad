// SPDX-License-Identifier: MIT
// A subgroup reduction (GroupNonUniformArithmetic: Vulkan 1.1 and the arithmetic operations in the compute
// stage, a property rather than a feature): y = 6x + the subgroup's largest 1.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    data[i] = data[i] * 6.0 + subgroupMax(1.0);
}
