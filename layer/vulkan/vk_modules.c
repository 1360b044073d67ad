/* SPDX-License-Identifier: MIT */
/* The Vulkan layer's shader modules (docs/vulkan-layer.md): an annotated module specialized for the device at
 * vkCreateShaderModule, and one chained into a compute pipeline's stage at vkCreateComputePipelines; a plain
 * module, and one the library cannot read or specialize, goes to the driver as it came. vk_code_specialized
 * serves the shader objects too (vk_shader_objects.c). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "spvcond/spvcond.h"
#include "vk_common.h"

/* ---- shader modules ---- */

/* Whether the module's capabilities, which come first after its header, name SpecConditionalINTEL or
 * FunctionVariantsINTEL: read from the words without parsing the module, so that a plain module costs the
 * layer a few words' reading (the library parses only a module this finds conditional; a module this cannot
 * read goes to the driver as it came). */
static bool
declares_conditions(const uint32_t *code, size_t count)
{
    if (count < 5 || code[0] != 0x07230203u)
        return false; /* not SPIR-V in this byte order: the driver's to judge */
    for (size_t at = 5; at < count;) {
        uint32_t words = code[at] >> 16, opcode = code[at] & 0xffffu;
        if (opcode != 17 /* OpCapability */ || words != 2 || at + words > count)
            return false;
        if (code[at + 1] == 6245 /* SpecConditionalINTEL */ || code[at + 1] == 6246 /* FunctionVariantsINTEL */)
            return true;
        at += words;
    }
    return false;
}

/* The module, which declares_conditions found conditional, specialized for the device, in *words (spvcond_free'd
 * by the caller with ctx), or false when it stays as it came (the library refuses it: said under
 * SPVCOND_LAYER_DEBUG). */
static bool
specialize_for(const struct device *d, spvcond_context *ctx, const uint32_t *code, size_t size, uint32_t **words,
               size_t *count)
{
    spvcond_module *m = NULL;
    spvcond_spec_value *values = NULL;
    size_t nv = 0;
    bool done = false;
    if (spvcond_module_parse(ctx, code, size / 4, 0, &m) != SPVCOND_OK) {
        vk_debug("a shader module the library cannot read goes to the driver as it came: %s",
              spvcond_context_first_error(ctx) ? spvcond_context_first_error(ctx)->message : "?");
        return false;
    }
    spvcond_fnvar_device fnvar = SPVCOND_SIZED(spvcond_fnvar_device);
    spvcond_specialize_options options = SPVCOND_SIZED(spvcond_specialize_options);
    if (spvcond_device_spec_values(m, d->info, &values, &nv) == SPVCOND_OK) {
        spvcond_device_info_facts(d->info, SPVCOND_UNSPECIFIED_UNKNOWN, &fnvar);
        options.values = values;
        options.value_count = nv;
        options.device = &fnvar;
        done = spvcond_specialize(m, &options, NULL) == SPVCOND_OK &&
               spvcond_module_emit(m, words, count) == SPVCOND_OK;
    }
    if (!done)
        vk_debug("an annotated shader module the library cannot specialize goes to the driver as it came: %s",
              spvcond_context_first_error(ctx) ? spvcond_context_first_error(ctx)->message : "?");
    spvcond_free(ctx, values);
    spvcond_module_destroy(m);
    return done;
}

bool
vk_code_specialized(const struct device *d, const void *code, size_t size, struct specialized_code *out)
{
    size_t count = 0;
    *out = (struct specialized_code){0};
    if (!d->info || !code || size < 20 || size % 4 != 0 || (uintptr_t)code % 4 != 0 ||
        !declares_conditions(code, size / 4))
        return false;
    if (spvcond_context_create(NULL, NULL, NULL, &out->ctx) != SPVCOND_OK ||
        !specialize_for(d, out->ctx, code, size, &out->words, &count)) {
        spvcond_context_destroy(out->ctx);
        out->ctx = NULL;
        return false;
    }
    out->size = count * 4;
    vk_debug("device %s: a shader module of %zu words specialized to %zu", d->info->name ? d->info->name : "?",
             size / 4, count);
    vk_dump(out->words, count);
    return true;
}

void
vk_code_release(struct specialized_code *c)
{
    if (c->ctx) {
        spvcond_free(c->ctx, c->words);
        spvcond_context_destroy(c->ctx);
    }
    *c = (struct specialized_code){0};
}

/* A module create info as the driver is to receive it: `info` a copy of the application's, its code the module
 * specialized for the device (module_release frees it). */
struct specialized_module {
    VkShaderModuleCreateInfo info;
    struct specialized_code code;
};

/* Whether `info` carries an annotated module that the library specialized for `d` into `out` (false: a plain
 * module, or one the library cannot read or specialize, which goes to the driver as it came). */
static bool
module_specialized(const struct device *d, const VkShaderModuleCreateInfo *info, struct specialized_module *out)
{
    *out = (struct specialized_module){0};
    if (!info || !vk_code_specialized(d, info->pCode, info->codeSize, &out->code))
        return false;
    out->info = *info;
    out->info.pCode = out->code.words;
    out->info.codeSize = out->code.size;
    return true;
}

static void
module_release(struct specialized_module *m)
{
    vk_code_release(&m->code);
    *m = (struct specialized_module){0};
}

VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                         const VkAllocationCallbacks *allocator, VkShaderModule *out)
{
    struct device *d = vk_find_device(vk_key_of(device));
    if (!d)
        return VK_ERROR_INITIALIZATION_FAILED;
    struct specialized_module m;
    if (!module_specialized(d, info, &m))
        return d->create_shader_module(device, info, allocator, out);
    VkResult r = d->create_shader_module(device, &m.info, allocator, out);
    module_release(&m);
    return r;
}

/* ---- modules chained into a pipeline's stage ---- */

/* A stage may carry its module as a VkShaderModuleCreateInfo in its pNext chain, its `module` null
 * (VK_EXT_graphics_pipeline_library, Vulkan 1.3's maintenance5). The chain is the application's and read-only:
 * the driver is given a new one, the structures before the module's copied (their types must be among these,
 * whose sizes the layer knows), the module's replaced, the rest shared. */
static size_t
stage_struct_size(VkStructureType type)
{
    switch (type) {
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO:
        return sizeof(VkPipelineShaderStageRequiredSubgroupSizeCreateInfo);
    case VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT:
        return sizeof(VkDebugUtilsObjectNameInfoEXT);
    case VK_STRUCTURE_TYPE_SHADER_MODULE_VALIDATION_CACHE_CREATE_INFO_EXT:
        return sizeof(VkShaderModuleValidationCacheCreateInfoEXT);
    default:
        return 0;
    }
}

enum { CHAIN_COPIES = 8 };

/* One stage's new chain: the copies of the structures before the module's, and the module's. */
struct stage_chain {
    struct specialized_module module;
    void *copies[CHAIN_COPIES];
};

static void
chain_release(struct stage_chain *c)
{
    module_release(&c->module);
    for (size_t k = 0; k < CHAIN_COPIES; k++)
        free(c->copies[k]);
    *c = (struct stage_chain){0};
}

/* The stage's chain with its module specialized for `d`, in `stage->pNext` (true), or false where the stage
 * stays as it came (no module chained, a plain one, or a structure before it that the layer cannot copy). */
static bool
chain_specialized(const struct device *d, VkPipelineShaderStageCreateInfo *stage, struct stage_chain *c)
{
    *c = (struct stage_chain){0};
    if (stage->module != VK_NULL_HANDLE)
        return false;
    size_t before = 0;
    const VkBaseInStructure *node = stage->pNext;
    while (node && node->sType != VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
        node = node->pNext;
        before++;
    }
    if (!node || !module_specialized(d, (const VkShaderModuleCreateInfo *)node, &c->module))
        return false;
    /* The copies, newest last: each points at the next copy, the last at the module's copy. */
    const VkBaseInStructure *from = stage->pNext;
    for (size_t k = 0; k < before; k++, from = from->pNext) {
        size_t size = stage_struct_size(from->sType);
        if (k >= CHAIN_COPIES || size == 0 || (c->copies[k] = malloc(size)) == NULL) {
            vk_debug("a shader module chained into a pipeline goes to the driver as it came: a structure of type %d "
                  "comes before it in the stage's chain", (int)from->sType);
            chain_release(c);
            return false;
        }
        memcpy(c->copies[k], from, size);
    }
    c->module.info.pNext = node->pNext;
    const void *next = &c->module.info;
    for (size_t k = before; k-- > 0;) {
        ((VkBaseOutStructure *)c->copies[k])->pNext = (VkBaseOutStructure *)next;
        next = c->copies[k];
    }
    stage->pNext = next;
    return true;
}

VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                             const VkComputePipelineCreateInfo *infos, const VkAllocationCallbacks *allocator,
                             VkPipeline *pipelines)
{
    struct device *d = vk_find_device(vk_key_of(device));
    if (!d)
        return VK_ERROR_INITIALIZATION_FAILED;
    bool any = false;
    for (uint32_t k = 0; infos && k < count && !any; k++)
        any = infos[k].stage.module == VK_NULL_HANDLE && infos[k].stage.pNext;
    if (!any)
        return d->create_compute_pipelines(device, cache, count, infos, allocator, pipelines);
    VkComputePipelineCreateInfo *copy = malloc(count * sizeof(*copy));
    struct stage_chain *chains = calloc(count, sizeof(*chains));
    if (!copy || !chains) {
        free(copy);
        free(chains);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(copy, infos, count * sizeof(*copy));
    for (uint32_t k = 0; k < count; k++)
        chain_specialized(d, &copy[k].stage, &chains[k]);
    VkResult r = d->create_compute_pipelines(device, cache, count, copy, allocator, pipelines);
    for (uint32_t k = 0; k < count; k++)
        chain_release(&chains[k]);
    free(chains);
    free(copy);
    return r;
}
