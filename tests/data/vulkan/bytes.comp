// SPDX-License-Identifier: MIT
// 8-bit storage (tests/shaders.py): load_bytes reads signed bytes from a buffer and converts them
// (StorageBuffer8BitAccess alone), add_bytes adds them as bytes (Int8 as well).
#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
layout(set = 0, binding = 1) buffer Bytes { int8_t bytes[]; };

void load_bytes()
{
    uint i = gl_GlobalInvocationID.x;
    data[i] = float(int(bytes[i])); // widened first: a byte converted to float needs Int8
}

void add_bytes()
{
    uint i = gl_GlobalInvocationID.x;
    data[i] = float(bytes[i] + bytes[i + 1]);
}
