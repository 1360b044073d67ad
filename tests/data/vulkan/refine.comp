// SPDX-License-Identifier: MIT
// Guarded code (spec/guards.md, "Shaders"): one entry point that refines in double where the device has
// Float64, else in half where it has Float16, else in float: y = x/2 + 64, + 16 or + 32.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#include "spvcond/has.glsl"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
SPVCOND_HAS(Float64, 200)
SPVCOND_HAS(Float16, 201)

float refine_double(float x) { return float(double(x) * 0.5lf + 64.0lf); }
float refine_half(float x) { return float(float16_t(x) * float16_t(0.5)) + 16.0; }
float refine_float(float x) { return x * 0.5 + 32.0; }

void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = data[i], y;
    if (spvcond_has(Float64))
        y = refine_double(x);
    else if (spvcond_has(Float16))
        y = refine_half(x);
    else
        y = refine_float(x);
    data[i] = y;
}
