// SPDX-License-Identifier: MIT
// The entry point that computes in 64-bit integers (Int64: shaderInt64): y = 5 * (2x) + 1.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int64_t v = int64_t(data[i] * 2.0);
    data[i] = float(v * 5l + 1l);
}
