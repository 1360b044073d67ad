/* SPDX-License-Identifier: MIT */
/* VK_LAYER_SPVCOND_specialize (docs/vulkan-layer.md): a Vulkan layer that specializes an annotated shader module
 * for the device it is created on. At vkCreateDevice it notes what the application enabled (features, device
 * extensions, the API version) and the device's subgroup properties, as the library's Vulkan device
 * (spvcond_vulkan_device_info); at vkCreateShaderModule, and for a module chained into a compute pipeline's stage
 * at vkCreateComputePipelines, a module carrying conditions (SpecConditionalINTEL or
 * FunctionVariantsINTEL) is specialized for that device, so that the driver receives a plain module whose
 * entry points and capabilities the device has enabled. A plain module, and one the library cannot read or
 * specialize, goes to the driver unchanged (the driver judges it as it would without the layer). With
 * SPVCOND_LAYER_DEBUG set, standard error says what was done; with SPVCOND_LAYER_DUMP naming a folder, each
 * module specialized is written there as vulkan-PID-N.spv (the process, N counting from 1 in it). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "spvcond/spvcond.h"
#include "vk_features.h"
#include "vk_common.h"

#define LAYER_NAME "VK_LAYER_SPVCOND_specialize"
#define EXPORT __attribute__((visibility("default")))

/* ---- what the layer keeps: instances and devices, by their dispatch key ---- */

struct instance {
    void *key;
    VkInstance handle;
    uint32_t api_version; /* the application's (VkApplicationInfo), 1.0 when it gives none */
    PFN_vkGetInstanceProcAddr next_gipa;
    PFN_vkDestroyInstance destroy;
    PFN_vkGetPhysicalDeviceProperties properties;
    PFN_vkGetPhysicalDeviceProperties2 properties2;
    struct instance *next;
};

/* The layer's state: every instance and device it saw created and not yet destroyed. */
static once_flag layer_once = ONCE_FLAG_INIT;
static struct {
    mtx_t lock;
    struct instance *instances;
    struct device *devices;
    bool debug;
    const char *dump;  /* SPVCOND_LAYER_DUMP */
    unsigned dumped;   /* modules written there so far */
} layer;

static void
init_layer(void)
{
    mtx_init(&layer.lock, mtx_plain);
    const char *debug = getenv("SPVCOND_LAYER_DEBUG");
    layer.debug = debug && *debug && strcmp(debug, "0") != 0;
    const char *dump = getenv("SPVCOND_LAYER_DUMP");
    layer.dump = dump && *dump ? dump : NULL;
}

/* The specialized module, into SPVCOND_LAYER_DUMP's folder. */
void
vk_dump(const uint32_t *words, size_t count)
{
    if (!layer.dump)
        return;
    mtx_lock(&layer.lock);
    unsigned n = ++layer.dumped;
    mtx_unlock(&layer.lock);
    char path[4096];
    if (snprintf(path, sizeof(path), "%s/vulkan-%ld-%u.spv", layer.dump, (long)getpid(), n) >= (int)sizeof(path))
        return;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(words, 4, count, f) != count)
        fprintf(stderr, "spvcond vulkan layer: SPVCOND_LAYER_DUMP: cannot write %s\n", path);
    if (f)
        fclose(f);
}

void
vk_debug(const char *format, ...)
{
    if (!layer.debug)
        return;
    va_list args;
    va_start(args, format);
    fputs("spvcond vulkan layer: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

/* A dispatchable handle's key: the loader's dispatch table pointer, which its children share. */
void *
vk_key_of(const void *handle)
{
    return *(void *const *)handle;
}

static struct instance *
find_instance(void *key)
{
    mtx_lock(&layer.lock);
    struct instance *i = layer.instances;
    while (i && i->key != key)
        i = i->next;
    mtx_unlock(&layer.lock);
    return i;
}

struct device *
vk_find_device(void *key)
{
    mtx_lock(&layer.lock);
    struct device *d = layer.devices;
    while (d && d->key != key)
        d = d->next;
    mtx_unlock(&layer.lock);
    return d;
}

/* ---- the instance ---- */

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *allocator, VkInstance *out)
{
    call_once(&layer_once, init_layer);
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)info->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerInstanceCreateInfo *)link->pNext;
    if (!link || !link->u.pLayerInfo)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the next layer's link, for the call below */
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    struct instance *i = calloc(1, sizeof(*i));
    if (!create || !i) {
        free(i);
        return create ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_ERROR_INITIALIZATION_FAILED;
    }
    VkResult r = create(info, allocator, out);
    if (r != VK_SUCCESS) {
        free(i);
        return r;
    }
    i->key = vk_key_of(*out);
    i->handle = *out;
    i->api_version = info->pApplicationInfo && info->pApplicationInfo->apiVersion ? info->pApplicationInfo->apiVersion
                                                                                   : VK_API_VERSION_1_0;
    i->next_gipa = gipa;
    i->destroy = (PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
    i->properties = (PFN_vkGetPhysicalDeviceProperties)gipa(*out, "vkGetPhysicalDeviceProperties");
    i->properties2 = (PFN_vkGetPhysicalDeviceProperties2)gipa(*out, "vkGetPhysicalDeviceProperties2");
    if (!i->properties2)
        i->properties2 = (PFN_vkGetPhysicalDeviceProperties2)gipa(*out, "vkGetPhysicalDeviceProperties2KHR");
    mtx_lock(&layer.lock);
    i->next = layer.instances;
    layer.instances = i;
    mtx_unlock(&layer.lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *allocator)
{
    if (!instance)
        return;
    void *key = vk_key_of(instance);
    mtx_lock(&layer.lock);
    struct instance **at = &layer.instances;
    while (*at && (*at)->key != key)
        at = &(*at)->next;
    struct instance *i = *at;
    if (i)
        *at = i->next;
    mtx_unlock(&layer.lock);
    if (i) {
        i->destroy(instance, allocator);
        free(i);
    }
}

/* ---- the device: what the application enabled ---- */

/* The names of the features a VkDeviceCreateInfo enables (features.h's rows), each once. */
struct names {
    const char *list[128];
    size_t count;
};

static void
add_name(struct names *n, const char *name)
{
    for (size_t k = 0; k < n->count; k++)
        if (strcmp(n->list[k], name) == 0)
            return;
    if (n->count < sizeof(n->list) / sizeof(n->list[0]))
        n->list[n->count++] = name;
}

static void
enabled_features(const VkDeviceCreateInfo *info, struct names *n)
{
    const VkPhysicalDeviceFeatures *core = info->pEnabledFeatures;
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
            core = &((const VkPhysicalDeviceFeatures2 *)s)->features;
#define CORE(member)                                                                                                 \
    if (core && core->member)                                                                                        \
        add_name(n, #member);
    VK_CORE_FEATURES(CORE)
#undef CORE
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
#define CHAINED(type, structure, member)                                                                             \
    if (s->sType == type && ((const structure *)s)->member)                                                         \
        add_name(n, #member);
        VK_CHAINED_FEATURES(CHAINED)
#undef CHAINED
    }
}

/* The library's description of the device the application creates. */
static spvcond_device_info *
describe(struct instance *inst, VkPhysicalDevice physical, const VkDeviceCreateInfo *info, spvcond_context *ctx)
{
    VkPhysicalDeviceProperties props;
    inst->properties(physical, &props);
    uint32_t version = props.apiVersion < inst->api_version ? props.apiVersion : inst->api_version;
    VkPhysicalDeviceSubgroupSizeControlProperties size_control = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &subgroup};
    if (props.apiVersion >= VK_API_VERSION_1_3)
        subgroup.pNext = &size_control;
    if (inst->properties2 && props.apiVersion >= VK_API_VERSION_1_1 && inst->api_version >= VK_API_VERSION_1_1)
        inst->properties2(physical, &props2);
    struct names features = {.count = 0};
    enabled_features(info, &features);
    spvcond_vulkan_device d = {
        .size = sizeof(spvcond_vulkan_device),
        .name = props.deviceName,
        .api_version = version,
        .device_type = (uint32_t)props.deviceType,
        .features = features.list,
        .feature_count = features.count,
        .extensions = (const char *const *)info->ppEnabledExtensionNames,
        .extension_count = info->enabledExtensionCount,
        .subgroup_size = subgroup.subgroupSize,
        .subgroup_stages = subgroup.supportedStages,
        .subgroup_operations = subgroup.supportedOperations,
        .min_subgroup_size = size_control.minSubgroupSize,
        .max_subgroup_size = size_control.maxSubgroupSize,
        .max_compute_work_group_invocations = props.limits.maxComputeWorkGroupInvocations,
    };
    spvcond_device_info *out = NULL;
    if (spvcond_vulkan_device_info(ctx, &d, &out) != SPVCOND_OK) {
        vk_debug("device %s: not described (%s); its shader modules go to the driver unchanged", props.deviceName,
              spvcond_context_first_error(ctx) ? spvcond_context_first_error(ctx)->message : "?");
        return NULL;
    }
    if (layer.debug) {
        char caps[2048] = "";
        size_t at = 0;
        for (size_t k = 0; k < out->capability_count && at < sizeof(caps) - 1; k++)
            at += (size_t)snprintf(caps + at, sizeof(caps) - at, "%s%" PRIu32, k ? "," : "", out->capabilities[k]);
        vk_debug("device %s: Vulkan %u.%u, %zu features enabled, capabilities %s", props.deviceName,
              VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version), features.count, caps);
    }
    return out;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info, const VkAllocationCallbacks *allocator,
                   VkDevice *out)
{
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)info->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerDeviceCreateInfo *)link->pNext;
    struct instance *inst = find_instance(vk_key_of(physical));
    if (!link || !link->u.pLayerInfo || !inst)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->handle, "vkCreateDevice");
    struct device *d = calloc(1, sizeof(*d));
    if (!create || !d) {
        free(d);
        return create ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_ERROR_INITIALIZATION_FAILED;
    }
    VkResult r = create(physical, info, allocator, out);
    if (r != VK_SUCCESS) {
        free(d);
        return r;
    }
    d->key = vk_key_of(*out);
    d->handle = *out;
    d->next_gdpa = gdpa;
    d->destroy = (PFN_vkDestroyDevice)gdpa(*out, "vkDestroyDevice");
    d->create_shader_module = (PFN_vkCreateShaderModule)gdpa(*out, "vkCreateShaderModule");
    d->create_compute_pipelines = (PFN_vkCreateComputePipelines)gdpa(*out, "vkCreateComputePipelines");
    d->create_shaders = gdpa(*out, "vkCreateShadersEXT");
    if (spvcond_context_create(NULL, NULL, NULL, &d->ctx) == SPVCOND_OK)
        d->info = describe(inst, physical, info, d->ctx);
    mtx_lock(&layer.lock);
    d->next = layer.devices;
    layer.devices = d;
    mtx_unlock(&layer.lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *allocator)
{
    if (!device)
        return;
    void *key = vk_key_of(device);
    mtx_lock(&layer.lock);
    struct device **at = &layer.devices;
    while (*at && (*at)->key != key)
        at = &(*at)->next;
    struct device *d = *at;
    if (d)
        *at = d->next;
    mtx_unlock(&layer.lock);
    if (d) {
        d->destroy(device, allocator);
        if (d->info)
            spvcond_free(d->ctx, d->info);
        spvcond_context_destroy(d->ctx);
        free(d);
    }
}

/* ---- the loader's entry points ---- */

static PFN_vkVoidFunction
intercepted(const char *name)
{
    static const struct {
        const char *name;
        PFN_vkVoidFunction fn;
    } functions[] = {
        {"vkCreateInstance", (PFN_vkVoidFunction)layer_CreateInstance},
        {"vkDestroyInstance", (PFN_vkVoidFunction)layer_DestroyInstance},
        {"vkCreateDevice", (PFN_vkVoidFunction)layer_CreateDevice},
        {"vkDestroyDevice", (PFN_vkVoidFunction)layer_DestroyDevice},
        {"vkCreateShaderModule", (PFN_vkVoidFunction)layer_CreateShaderModule},
        {"vkCreateComputePipelines", (PFN_vkVoidFunction)layer_CreateComputePipelines},
    };
    for (size_t k = 0; k < sizeof(functions) / sizeof(functions[0]); k++)
        if (strcmp(functions[k].name, name) == 0)
            return functions[k].fn;
    return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
layer_GetDeviceProcAddr(VkDevice device, const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
    if (strcmp(name, "vkDestroyDevice") == 0 || strcmp(name, "vkCreateShaderModule") == 0 ||
        strcmp(name, "vkCreateComputePipelines") == 0)
        return intercepted(name);
    struct device *d = device ? vk_find_device(vk_key_of(device)) : NULL;
    /* Shader objects: intercepted where the driver has them (NULL stays NULL, as the application expects). */
    if (d && strcmp(name, "vkCreateShadersEXT") == 0)
        return d->create_shaders ? (PFN_vkVoidFunction)layer_CreateShadersEXT : NULL;
    return d ? d->next_gdpa(device, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
layer_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "vkGetInstanceProcAddr") == 0)
        return (PFN_vkVoidFunction)layer_GetInstanceProcAddr;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
    PFN_vkVoidFunction fn = intercepted(name);
    if (fn)
        return fn;
    struct instance *i = instance ? find_instance(vk_key_of(instance)) : NULL;
    return i ? i->next_gipa(instance, name) : NULL;
}

/* The exported names, for loaders older than the interface below. The layer hands out the static functions
 * above, never these: in a process that links the Vulkan loader, a reference to an exported
 * vkGetInstanceProcAddr binds to the loader's own (ELF interposition), and a layer that handed the loader's
 * entry point down the chain would call the loader back while it holds its lock. */
EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name);
EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name);

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetDeviceProcAddr(VkDevice device, const char *name)
{
    return layer_GetDeviceProcAddr(device, name);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance instance, const char *name)
{
    return layer_GetInstanceProcAddr(instance, name);
}

/* The loader-layer interface, version 2: the loader asks for the two functions above by this. */
EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version);

EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version)
{
    if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (version->loaderLayerInterfaceVersion > 2)
        version->loaderLayerInterfaceVersion = 2;
    version->pfnGetInstanceProcAddr = layer_GetInstanceProcAddr;
    version->pfnGetDeviceProcAddr = layer_GetDeviceProcAddr;
    version->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
