/* SPDX-License-Identifier: MIT */
/* A shader module's requirements (spec/annotate.md, "Shader modules"): Vulkan lets a module declare a
 * capability only where the device allows it, so each function requires the optional capabilities its code
 * uses (Int64, Int8, subgroup operations, integer dot products...), beside the aspects fp64, fp16 and
 * atomic64, which stand for Float64, Float16 and Int64Atomics as they do for kernels. Images are core in
 * Vulkan: the image aspect is no shader's requirement. */
#include "annotate/state.h"
#include "devices/devices.h"

/* Whether the module is a shader module: it declares Shader and not Kernel. */
static bool
shader_module(const struct annotate *a)
{
    return spvcond_declared_caps_find(&a->caps, SPVCOND_CAPABILITY_SHADER) != SIZE_MAX &&
           spvcond_declared_caps_find(&a->caps, SPVCOND_CAPABILITY_KERNEL) == SIZE_MAX;
}

struct item_caps {
    const struct annotate *a;
    uint64_t need;
};

static spvcond_result
note_item_capability(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct item_caps *c = user;
    (void)inst;
    for (size_t k = 0; k < count; k++) {
        size_t d = spvcond_declared_caps_find(&c->a->caps, caps[k]);
        c->need |= d != SIZE_MAX ? spvcond_declared_cap_done(d) : 0;
    }
    return SPVCOND_OK;
}

spvcond_result
spvcond_shader_requirements(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    if (!a->inf.cap_need || !shader_module(a))
        return SPVCOND_OK;
    /* The declared capabilities a Vulkan device may lack and no aspect stands for. */
    uint64_t optional = 0;
    for (size_t d = 0; d < a->caps.count; d++) {
        uint32_t cap = a->caps.values[d];
        if (spvcond_vulkan_capability_optional(cap) && spvcond_aspect_of_capability(cap, false) == SPVCOND_ASPECT_MAX)
            optional |= spvcond_declared_cap_done(d);
    }
    /* Per module-level item (types above all: OpTypeInt 64 is what needs Int64), what it needs, once. */
    size_t base = m->section[SPVCOND_SECTION_EXTINST_IMPORT], items = m->section[SPVCOND_SECTION_FUNCTION] - base;
    uint64_t *item_need = optional ? spvcond_alloc_array(m->ctx, items + 1, sizeof(uint64_t)) : NULL;
    if (optional && !item_need)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        spvcond_aspects *own = &a->inf.own[f];
        own->bits[SPVCOND_ASPECT_IMAGE / 64] &= ~(UINT64_C(1) << (SPVCOND_ASPECT_IMAGE % 64));
        uint64_t need = a->inf.cap_need[f];
        for (uint32_t k = a->inf.item_start[f]; optional && k < a->inf.item_start[f + 1] && r == SPVCOND_OK; k++) {
            uint32_t item = a->inf.item_list[k];
            if (!(item_need[item] & SPVCOND_CAPS_KNOWN)) {
                struct item_caps c = {a, 0};
                r = spvcond_instruction_capabilities(m, base + item, note_item_capability, &c);
                item_need[item] = c.need | SPVCOND_CAPS_KNOWN;
            }
            need |= item_need[item] & ~SPVCOND_CAPS_KNOWN;
        }
        own->bits[2] = need & optional;
    }
    spvcond_dealloc(m->ctx, item_need);
    return r;
}
