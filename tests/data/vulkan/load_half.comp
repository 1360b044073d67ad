// SPDX-License-Identifier: MIT
// Halves read from a storage buffer and converted, no arithmetic in half (StorageBuffer16BitAccess:
// storageBuffer16BitAccess; not Float16). The buffer of floats is read as halves through a second block at
// the same binding: y = 8 h + 1, h the high half of x's bits (0.5: 0x3F00, 1.75).
#version 450
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
layout(set = 0, binding = 0) buffer Halves { float16_t halves[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    data[i] = float(halves[2 * i + 1]) * 8.0 + 1.0;
}
