// SPDX-License-Identifier: MIT
// A storage image (core in Vulkan: no requirement): y = 7x + 1 through a texel.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
layout(set = 0, binding = 1, r32f) uniform image2D img;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    imageStore(img, ivec2(i, 0), vec4(data[i]));
    data[i] = imageLoad(img, ivec2(i, 0)).x * 7.0 + 1.0;
}
