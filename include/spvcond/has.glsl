// SPDX-License-Identifier: MIT
// Guarded code in GLSL (spec/guards.md, "Shaders"): a branch on whether the device has a SPIR-V capability
// (Float64, Float16, Int64, Int8, GroupNonUniformArithmetic...) or a DPC++ aspect keeps both paths in one
// module; `spvcond annotate` and the Vulkan layer keep only the path the device can run.
//
//     #extension GL_GOOGLE_include_directive : require
//     #include "spvcond/has.glsl"
//     SPVCOND_HAS(Float64, 200)              // once per name, with a specialization constant id of yours
//     ...
//     if (spvcond_has(Float64)) y = refine_double(x); else y = refine_float(x);
//
// Code under the guard that needs the capability belongs in a function called there: a consumer removes
// whole functions and calls, never instructions inside one. Without the header, the declaration is
// `layout(constant_id = 200) const bool spvcond_has_Float64 = true;`: the name is what counts.
#ifndef SPVCOND_HAS_GLSL
#define SPVCOND_HAS_GLSL
#define SPVCOND_HAS(name, id) layout(constant_id = id) const bool spvcond_has_##name = true;
#define spvcond_has(name) spvcond_has_##name
#endif
