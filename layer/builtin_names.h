/* SPDX-License-Identifier: MIT */
/* OpenCL built-in names across address-space numberings (builtin_names.c). */
#ifndef SPVCOND_LAYER_BUILTIN_NAMES_H
#define SPVCOND_LAYER_BUILTIN_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* An OpenCL built-in's Itanium-mangled name as clang writes it, with its parameter types written out (no
 * substitutions) into out, SPIR's address spaces turned into NVPTX's when spir_to_nvptx; false when the name is not one of the
 * grammar built-ins use or out is too small. Two names whose canonical texts are equal name one function. */
bool layer_builtin_canonical(const char *name, bool spir_to_nvptx, char *out, size_t out_size);

/* A built-in's name as the SPIR-V/LLVM translator writes it (its substitutions counting OpenCL's types,
 * `_Z12write_imagei14ocl_image3d_woDv4_iS0_`) written as clang mangles it (OpenCL's types are builtin types,
 * never substitution candidates: `..._woDv4_iS_`), the name libraries built by clang define (pocl's, libclc's);
 * false when the name is not one of the grammar built-ins use or out is too small. */
bool layer_builtin_clang_name(const char *name, char *out, size_t out_size);

/* SPIR's address space `as` (private 0, global 1, constant 2, local 3, generic 4) in NVPTX's numbering (global
 * 1, local 3, constant 4, and 0 for private and generic alike); -1 for one SPIR does not have. The one table
 * the names above and the NVIDIA route's rewriting of types (ptx.cpp) share. */
int layer_nvptx_address_space(unsigned as);

#endif
