/* SPDX-License-Identifier: MIT */
/* The layer's NVIDIA route finds OpenCL built-ins in libclc's nvptx64 library by name across the two
 * address-space numberings (layer/builtin_names.c): the names below are the translator's (SPIR) and
 * libclc's (NVPTX) for the same functions, as llvm-spirv-15 -r and /usr/lib/clc/nvptx64--nvidiacl.bc have
 * them. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../layer/builtin_names.h"

static void
same(const char *spir, const char *nvptx)
{
    char a[512], b[512];
    cr_assert(layer_builtin_canonical(spir, true, a, sizeof(a)), "%s parses", spir);
    cr_assert(layer_builtin_canonical(nvptx, false, b, sizeof(b)), "%s parses", nvptx);
    cr_assert_str_eq(a, b, "%s is %s", spir, nvptx);
}

Test(builtin_names, address_spaces)
{
    same("_Z13get_global_idj", "_Z13get_global_idj");
    same("_Z3sinf", "_Z3sinf");
    /* constant 2 -> 4, global and local unchanged, generic and private the plain pointer */
    same("_Z6vload4mPU3AS2Kf", "_Z6vload4mPU3AS4Kf");
    same("_Z6vload4mPU3AS1Kf", "_Z6vload4mPU3AS1Kf");
    same("_Z6vload4mPU3AS3Kc", "_Z6vload4mPU3AS3Kc");
    same("_Z5fractfPU3AS4f", "_Z5fractfPf");
    same("_Z5fractfPf", "_Z5fractfPf");
    same("_Z10atomic_addPU3AS1Vii", "_Z10atomic_addPU3AS1Vii");
    /* vectors and substitutions: S_ names the vector, and its numbering changes with the qualifiers */
    same("_Z6sincosDv4_fPU3AS4S_", "_Z6sincosDv4_fPS_");
    same("_Z5frexpDv2_dPU3AS4Dv2_i", "_Z5frexpDv2_dPDv2_i");
    same("_Z6remquoffPU3AS4i", "_Z6remquoffPi");
    same("_Z7vstore4Dv4_fmPU3AS1f", "_Z7vstore4Dv4_fmPU3AS1f");
    same("_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i", "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i");
}

Test(builtin_names, substitutions_renumbered)
{
    char out[256];
    /* In SPIR's name S0_ is the pointer PU3AS3Kf (U3AS3Kf is S_); written out, it is the pointer again. */
    cr_assert(layer_builtin_canonical("_Z3fooPU3AS3KfS0_", true, out, sizeof(out)));
    cr_assert_str_eq(out, "_Z3fooPU3AS3KfPU3AS3Kf");
    /* Generic pointers lose their qualifier: S0_ is still the pointer, not what the numbering becomes. */
    cr_assert(layer_builtin_canonical("_Z3fooPU3AS4fS0_", true, out, sizeof(out)));
    cr_assert_str_eq(out, "_Z3fooPfPf");
    cr_assert(layer_builtin_canonical("_Z3fooPU3AS4fS_", true, out, sizeof(out)));
    cr_assert_str_eq(out, "_Z3fooPff", "U3AS4f is S_");
    cr_assert(layer_builtin_canonical("_Z3fooPU3AS2fS_", true, out, sizeof(out)));
    cr_assert_str_eq(out, "_Z3fooPU3AS4fU3AS4f");
}

Test(builtin_names, refused)
{
    char out[64];
    const char *bad[] = {"", "_Z", "_Z3", "_Z3sin", "_Z9sin", "main", "_Z3sinq", "_Z3sinS_", "_Z3sinS0_",
                         "_Z3sinDv", "_Z3sinDv4", "_Z3sinDv4_", "_Z3sinP", "_Z3sinU3AS", "_Z3sinU3AS9f",
                         "_Z3fooN3barE", "_Z3sinSZ_"};
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
        cr_assert(!layer_builtin_canonical(bad[k], true, out, sizeof(out)), "%s is refused", bad[k]);
    cr_assert(!layer_builtin_canonical("_Z6vload4mPU3AS2Kf", true, out, 8), "too small an output is refused");
    cr_assert(!layer_builtin_canonical(NULL, true, out, sizeof(out)));
    char deep[256] = "_Z3foo";
    for (int k = 0; k < 60; k++)
        strcat(deep, "P");
    strcat(deep, "f");
    cr_assert(!layer_builtin_canonical(deep, true, out, sizeof(out)), "nesting is bounded");
}

Test(builtin_names, clang_numbering)
{
    /* The translator counts OpenCL's types as substitution candidates, clang does not (pocl's library has
     * _Z12write_imagei20ocl_image2d_array_woDv4_iS_, the translator's name ends in S0_). */
    static const char *const pairs[][2] = {
        {"_Z12write_imagei20ocl_image2d_array_woDv4_iS0_", "_Z12write_imagei20ocl_image2d_array_woDv4_iS_"},
        {"_Z12write_imagei14ocl_image3d_woDv4_iS0_", "_Z12write_imagei14ocl_image3d_woDv4_iS_"},
        {"_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i", "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i"},
        {"_Z11read_imagei14ocl_image2d_ro11ocl_samplerDv2_fS1_", "_Z11read_imagei14ocl_image2d_ro11ocl_samplerDv2_fS_"},
        /* an OpenCL type named again is written again (no candidate names it) */
        {"_Z3foo14ocl_image2d_roS_", "_Z3foo14ocl_image2d_ro14ocl_image2d_ro"},
        /* names without OpenCL types are unchanged */
        {"_Z6sincosDv4_fPU3AS4S_", "_Z6sincosDv4_fPU3AS4S_"},
        {"_Z3fooPU3AS3KfS0_", "_Z3fooPU3AS3KfS0_"},
        {"_Z17wait_group_eventsiP9ocl_event", "_Z17wait_group_eventsiP9ocl_event"},
    };
    char out[256], canonical[256], again[256];
    for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
        cr_assert(layer_builtin_clang_name(pairs[k][0], out, sizeof(out)), "%s parses", pairs[k][0]);
        cr_assert_str_eq(out, pairs[k][1], "%s as clang mangles it", pairs[k][0]);
        /* the canonical text reads clang's numbering */
        cr_assert(layer_builtin_canonical(out, false, canonical, sizeof(canonical)));
        cr_assert(layer_builtin_clang_name(canonical, again, sizeof(again)));
    }
    cr_assert(layer_builtin_canonical("_Z12write_imagei14ocl_image3d_woDv4_iS_", false, canonical, sizeof(canonical)));
    cr_assert_str_eq(canonical, "_Z12write_imagei14ocl_image3d_woDv4_iDv4_i");
    cr_assert(!layer_builtin_clang_name("_Z3foo14ocl_image2d_roS0_", out, sizeof(out)), "no second candidate");
    cr_assert(!layer_builtin_clang_name("_Z12write_imagei14ocl_image3d_woDv4_iS0_", out, 20), "too small");
}
