// SPDX-License-Identifier: MIT
// One of the entry points of tests/vulkan.py's module: y = 2x + 1 in single precision (GLSL.std.450's Fma).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    data[i] = fma(data[i], 2.0, 1.0);
}
