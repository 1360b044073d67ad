// SPDX-License-Identifier: MIT
// Guard constants annotate refuses (spec/guards.md, "Errors"), one per definition given to glslang:
// NOT_BOOLEAN an int named spvcond_has_Float64, UNKNOWN a name that is neither an aspect nor a capability,
// TWICE two constants for one requirement (Float64 is the aspect fp64), TWICE_CAPABILITY two for one
// capability the module declares (tests/shaders.py gives the second the first's name).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
#if defined(NOT_BOOLEAN)
layout(constant_id = 200) const int spvcond_has_Float64 = 1;
#define GUARD (spvcond_has_Float64 != 0)
#elif defined(UNKNOWN)
layout(constant_id = 200) const bool spvcond_has_Teleportation = true;
#define GUARD spvcond_has_Teleportation
#elif defined(TWICE_CAPABILITY)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(constant_id = 200) const bool spvcond_has_Int64 = true;
layout(constant_id = 201) const bool spvcond_has_Int64_second = true; /* named spvcond_has_Int64 by the test */
#define GUARD (spvcond_has_Int64 && spvcond_has_Int64_second && int64_t(data[0]) > 0l)
#else
layout(constant_id = 200) const bool spvcond_has_Float64 = true;
layout(constant_id = 201) const bool spvcond_has_fp64 = true;
#define GUARD (spvcond_has_Float64 && spvcond_has_fp64)
#endif

float twice(float x) { return x * 2.0; }

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (GUARD)
        data[i] = twice(data[i]);
}
