/* SPDX-License-Identifier: MIT */
/* What each route's consumer takes (docs/opencl-layer.md, "Profiles"): the layer advertises SPIR-V 1.0 to 1.4
 * on every route it gives the IL path; what the route's consumer cannot read is lowered by the library where
 * it can be (spvcond_lower), and anything else beyond it is refused at the build with the reason, never
 * handed over: the SPIR-V/LLVM translator of Debian's LLVM 15 (pocl's bitcode, NVIDIA's PTX) ends the
 * process on SPIR-V 1.4's new instructions (lowered), and rusticl 22.3 on a printf whose format is a pointer
 * to a char array cast to a pointer to char (lowered to the address of its first element). */
#include <stdio.h>
#include <string.h>

#include "profiles.h"

enum {
    OP_EXT_INST = 12,
    OP_VARIABLE = 59,
    OP_COPY_MEMORY = 63,
    OP_COPY_MEMORY_SIZED = 64,
    OP_COPY_LOGICAL = 400,
    OP_PTR_EQUAL = 401,
    OP_PTR_NOT_EQUAL = 402,
    OP_PTR_DIFF = 403,
    OP_DECORATE_STRING = 5632,
    OP_MEMBER_DECORATE_STRING = 5633,
    OPENCL_STD_PRINTF = 184,
    STORAGE_FUNCTION = 7,
};

/* How many words a memory-operands mask takes, itself included: Aligned's literal, MakePointerAvailable's
 * and MakePointerVisible's scope ids. */
static uint32_t
memory_operands_words(uint32_t mask)
{
    return 1 + !!(mask & 0x2) + !!(mask & 0x8) + !!(mask & 0x10);
}

/* What the translator of LLVM 15 cannot read (SPIR-V 1.4's new instructions, and OpCopyMemory): its name, or
 * NULL. */
static const char *
spirv14_only(const uint32_t *w, uint32_t n)
{
    uint32_t op = w[0] & 0xffff;
    switch (op) {
    case OP_COPY_LOGICAL: return "OpCopyLogical";
    case OP_PTR_EQUAL: return "OpPtrEqual";
    case OP_PTR_NOT_EQUAL: return "OpPtrNotEqual";
    case OP_PTR_DIFF: return "OpPtrDiff";
    case OP_DECORATE_STRING: return "OpDecorateString";
    case OP_MEMBER_DECORATE_STRING: return "OpMemberDecorateString";
    case OP_COPY_MEMORY: /* any: the translator of LLVM 15 ends the process on OpCopyMemory */
        return "OpCopyMemory";
    case OP_COPY_MEMORY_SIZED: { /* a second set of memory operands, for the source */
        uint32_t first = op == OP_COPY_MEMORY ? 3 : 4;
        if (first < n && first + memory_operands_words(w[first]) < n)
            return "OpCopyMemorySized with the source's memory operands";
        return NULL;
    }
    default: return NULL;
    }
}

uint32_t
layer_profile_lowering(enum layer_route route, const uint32_t *words, size_t count)
{
    bool translator = route == LAYER_ROUTE_BITCODE || route == LAYER_ROUTE_PTX;
    bool rusticl = route == LAYER_ROUTE_SPIRV_BINARY;
    uint32_t flags = 0;
    for (size_t k = 5; (translator || rusticl) && k < count && (words[k] >> 16) && (words[k] >> 16) <= count - k;
         k += words[k] >> 16) {
        const uint32_t *w = &words[k];
        uint32_t op = w[0] & 0xffff;
        /* Mesa 22.3 drops a Function variable's initializer */
        if (rusticl && op == OP_VARIABLE && (w[0] >> 16) >= 5 && w[3] == STORAGE_FUNCTION)
            flags |= SPVCOND_LOWER_FUNCTION_INITIALIZERS;
        /* ... and ends the process on a printf whose format is a cast array pointer */
        if (rusticl && op == OP_EXT_INST && (w[0] >> 16) >= 5 && w[4] == OPENCL_STD_PRINTF)
            flags |= SPVCOND_LOWER_PRINTF_FORMAT;
        if (!translator)
            continue;
        if (op == OP_COPY_MEMORY)
            flags |= SPVCOND_LOWER_COPY_MEMORY | SPVCOND_LOWER_SPIRV14;
        else if (spirv14_only(w, w[0] >> 16))
            flags |= SPVCOND_LOWER_SPIRV14;
        /* pocl reads printf's arguments as C does on x86-64, a float as a double, a vector of four bytes or
         * less as an integer (NVIDIA's route lays them out itself) */
        if (route == LAYER_ROUTE_BITCODE && op == OP_EXT_INST && (w[0] >> 16) >= 5 && w[4] == OPENCL_STD_PRINTF)
            flags |= SPVCOND_LOWER_PRINTF_DOUBLE | SPVCOND_LOWER_PRINTF_SMALL_VECTORS;
    }
    return flags;
}

bool
layer_profile_check(enum layer_route route, const uint32_t *words, size_t count, char *msg, size_t msg_size)
{
    bool translator = route == LAYER_ROUTE_BITCODE || route == LAYER_ROUTE_PTX;
    for (size_t k = 5, index = 0; k < count; index++) {
        const uint32_t *w = &words[k];
        uint32_t n = w[0] >> 16;
        if (n == 0 || n > count - k) {
            snprintf(msg, msg_size, "instruction %zu at word %zu runs past the module's end", index, k);
            return false;
        }
        const char *name = translator ? spirv14_only(w, n) : NULL;
        if (name) {
            snprintf(msg, msg_size, "instruction %zu at word %zu is %s, which the SPIR-V/LLVM translator of this "
                     "route cannot read", index, k, name);
            return false;
        }
        k += n;
    }
    return true;
}
