// SPDX-License-Identifier: MIT
// The guard of refine.comp in HLSL, as glslang reads it (-D): the specialization constant's name is what
// counts. glslang's HLSL front end inlines every function, so the double path ends up inside main, which no
// consumer can remove from it: main requires fp64, and annotate says so (spec/guards.md, "Shaders").
[[vk::constant_id(200)]] const bool spvcond_has_Float64 = true;
RWStructuredBuffer<float> data : register(u0);
float refine_double(float x) { return (float)((double)x * 0.5 + 64.0); }
float refine_float(float x) { return x * 0.5 + 32.0; }
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = data[id.x], y;
    if (spvcond_has_Float64)
        y = refine_double(x);
    else
        y = refine_float(x);
    data[id.x] = y;
}
