// SPDX-License-Identifier: MIT
// The entry point that computes in double (Float64: shaderFloat64): y = 3x + 1.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    double x = double(data[i]);
    data[i] = float(fma(x, 3.0lf, 1.0lf)); // GLSL.std.450's Fma on doubles
}
