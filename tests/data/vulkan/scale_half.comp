// SPDX-License-Identifier: MIT
// The entry point that computes in half (Float16: shaderFloat16; the buffer stays float, so no 16-bit
// storage is needed): y = 4x + 1.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float16_t x = float16_t(data[i]);
    data[i] = float(x * float16_t(4.0) + float16_t(1.0));
}
