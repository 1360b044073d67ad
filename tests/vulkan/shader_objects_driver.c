/* SPDX-License-Identifier: MIT */
/* The Vulkan layer's shader objects (VK_EXT_shader_object, layer/vulkan/vk_shader_objects.c) without a driver
 * that has them (lavapipe 22.3 does not): the layer is loaded as the loader loads it (its negotiation entry
 * point, a VkLayerInstanceCreateInfo and VkLayerDeviceCreateInfo naming the next link), and the next link is
 * this program, a driver that records what reaches vkCreateShadersEXT (tests/vulkan.py runs it).
 *
 *   vulkan-shader-objects LAYER.so MODULE.spv ENTRY FEATURE...
 *
 * Creates a device of Vulkan 1.3 with FEATUREs enabled ("shaderFloat64", "shaderFloat16", or "none"), then
 * through the layer's vkGetDeviceProcAddr: three shaders in one vkCreateShadersEXT call (MODULE as SPIR-V for
 * ENTRY, the same bytes as a binary shader, MODULE again), and prints for each what the driver received
 * ("shader K: spirv|binary WORDS words, conditions yes|no, entry points NAME..."), whether the application's
 * array came back untouched, and what the layer answers for vkCreateShadersEXT when the driver lacks it. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "vk_shader_object.h" /* layer/vulkan/ */

/* Dispatchable handles: the layer keys them by their first word, as the loader's dispatch table pointer. */
static void *instance_table[1], *device_table[1];
static struct { void *table; } the_instance = {instance_table}, the_physical = {instance_table},
                                 the_device = {device_table};
static bool driver_has_shader_objects = true;

static VKAPI_ATTR VkResult VKAPI_CALL
driver_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *allocator, VkInstance *out)
{
    (void)info, (void)allocator;
    *out = (VkInstance)&the_instance;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
driver_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *allocator)
{
    (void)instance, (void)allocator;
}

static VKAPI_ATTR void VKAPI_CALL
driver_GetPhysicalDeviceProperties(VkPhysicalDevice physical, VkPhysicalDeviceProperties *props)
{
    (void)physical;
    memset(props, 0, sizeof(*props));
    props->apiVersion = VK_API_VERSION_1_3;
    props->deviceType = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    strcpy(props->deviceName, "a driver with shader objects");
    props->limits.maxComputeWorkGroupInvocations = 1024;
}

static VKAPI_ATTR void VKAPI_CALL
driver_GetPhysicalDeviceProperties2(VkPhysicalDevice physical, VkPhysicalDeviceProperties2 *props)
{
    driver_GetPhysicalDeviceProperties(physical, &props->properties);
    for (VkBaseOutStructure *s = props->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES) {
            VkPhysicalDeviceSubgroupProperties *p = (VkPhysicalDeviceSubgroupProperties *)s;
            p->subgroupSize = 32;
            p->supportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
            p->supportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
        }
}

static VKAPI_ATTR VkResult VKAPI_CALL
driver_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info, const VkAllocationCallbacks *allocator,
                    VkDevice *out)
{
    (void)physical, (void)info, (void)allocator;
    *out = (VkDevice)&the_device;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
driver_DestroyDevice(VkDevice device, const VkAllocationCallbacks *allocator)
{
    (void)device, (void)allocator;
}

/* What the driver received: printed per shader. */
static bool
declares(const uint32_t *w, size_t n, uint32_t capability)
{
    for (size_t at = 5; at + 1 < n && (w[at] & 0xffffu) == 17; at += w[at] >> 16)
        if (w[at + 1] == capability)
            return true;
    return false;
}

static VKAPI_ATTR VkResult VKAPI_CALL
driver_CreateShadersEXT(VkDevice device, uint32_t count, const struct spvcond_vk_shader_create_info *infos,
                        const VkAllocationCallbacks *allocator, spvcond_vk_shader *shaders)
{
    (void)device, (void)allocator;
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t *w = infos[k].pCode;
        size_t n = infos[k].codeSize / 4;
        printf("shader %u: %s %zu words, conditions %s, Float64 %s, entry points", k,
               infos[k].codeType == SPVCOND_VK_SHADER_CODE_TYPE_SPIRV ? "spirv" : "binary", n,
               declares(w, n, 6245) || declares(w, n, 6246) ? "yes" : "no", declares(w, n, 10) ? "yes" : "no");
        for (size_t at = 5; at < n && (w[at] >> 16); at += w[at] >> 16)
            if ((w[at] & 0xffffu) == 15 /* OpEntryPoint */)
                printf(" %s", (const char *)&w[at + 3]);
        printf("\n");
        shaders[k] = k + 1;
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
driver_GetDeviceProcAddr(VkDevice device, const char *name)
{
    (void)device;
    if (strcmp(name, "vkDestroyDevice") == 0)
        return (PFN_vkVoidFunction)driver_DestroyDevice;
    if (strcmp(name, "vkCreateShadersEXT") == 0 && driver_has_shader_objects)
        return (PFN_vkVoidFunction)driver_CreateShadersEXT;
    return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
driver_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    (void)instance;
    static const struct {
        const char *name;
        PFN_vkVoidFunction fn;
    } fns[] = {
        {"vkCreateInstance", (PFN_vkVoidFunction)driver_CreateInstance},
        {"vkDestroyInstance", (PFN_vkVoidFunction)driver_DestroyInstance},
        {"vkGetPhysicalDeviceProperties", (PFN_vkVoidFunction)driver_GetPhysicalDeviceProperties},
        {"vkGetPhysicalDeviceProperties2", (PFN_vkVoidFunction)driver_GetPhysicalDeviceProperties2},
        {"vkCreateDevice", (PFN_vkVoidFunction)driver_CreateDevice},
        {"vkGetDeviceProcAddr", (PFN_vkVoidFunction)driver_GetDeviceProcAddr},
    };
    for (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++)
        if (strcmp(fns[k].name, name) == 0)
            return fns[k].fn;
    return NULL;
}

static uint32_t *
read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = n > 0 ? malloc((size_t)n) : NULL;
    if (words && fread(words, 1, (size_t)n, f) != (size_t)n) {
        free(words);
        words = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return words;
}

/* One device through the layer, with `features` enabled; its vkCreateShadersEXT as the layer answers. */
static spvcond_vk_create_shaders
layer_device(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, char **features, int count, VkDevice *device)
{
    VkPhysicalDeviceVulkan12Features on12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 on = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &on12};
    for (int k = 0; k < count; k++) {
        on.features.shaderFloat64 |= strcmp(features[k], "shaderFloat64") == 0;
        on12.shaderFloat16 |= strcmp(features[k], "shaderFloat16") == 0;
    }
    VkLayerDeviceLink next = {.pfnNextGetInstanceProcAddr = driver_GetInstanceProcAddr,
                              .pfnNextGetDeviceProcAddr = driver_GetDeviceProcAddr};
    VkLayerDeviceCreateInfo link = {.sType = VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, .pNext = &on,
                                    .function = VK_LAYER_LINK_INFO, .u.pLayerInfo = &next};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &link};
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
    if (!create || create((VkPhysicalDevice)&the_physical, &dci, NULL, device) != VK_SUCCESS)
        return NULL;
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(instance, "vkGetDeviceProcAddr");
    return (spvcond_vk_create_shaders)gdpa(*device, "vkCreateShadersEXT");
}

int
main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: vulkan-shader-objects LAYER.so MODULE.spv ENTRY FEATURE...\n");
        return 2;
    }
    void *layer = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    PFN_vkNegotiateLoaderLayerInterfaceVersion negotiate = NULL;
    if (layer) /* POSIX's way to a function from dlsym */
        *(void **)&negotiate = dlsym(layer, "vkNegotiateLoaderLayerInterfaceVersion");
    VkNegotiateLayerInterface iface = {.sType = LAYER_NEGOTIATE_INTERFACE_STRUCT, .loaderLayerInterfaceVersion = 2};
    if (!negotiate || negotiate(&iface) != VK_SUCCESS) {
        fprintf(stderr, "vulkan-shader-objects: %s: no layer (%s)\n", argv[1], dlerror());
        return 2;
    }
    size_t size;
    uint32_t *code = read_file(argv[2], &size);
    if (!code) {
        fprintf(stderr, "vulkan-shader-objects: cannot read %s\n", argv[2]);
        return 2;
    }
    PFN_vkGetInstanceProcAddr gipa = iface.pfnGetInstanceProcAddr;
    VkLayerInstanceLink next = {.pfnNextGetInstanceProcAddr = driver_GetInstanceProcAddr};
    VkLayerInstanceCreateInfo link = {.sType = VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO,
                                      .function = VK_LAYER_LINK_INFO, .u.pLayerInfo = &next};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = &link,
                                .pApplicationInfo = &app};
    VkInstance instance;
    PFN_vkCreateInstance create_instance = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
    if (!create_instance || create_instance(&ici, NULL, &instance) != VK_SUCCESS) {
        fprintf(stderr, "vulkan-shader-objects: the layer's vkCreateInstance failed\n");
        return 2;
    }
    int status = 0;
    VkDevice device;
    spvcond_vk_create_shaders create = layer_device(gipa, instance, argv + 4, argc - 4, &device);
    if (!create) {
        printf("vkCreateShadersEXT: not given\n");
        status = 1;
    } else {
        struct spvcond_vk_shader_create_info infos[3];
        for (int k = 0; k < 3; k++)
            infos[k] = (struct spvcond_vk_shader_create_info){
                .sType = (VkStructureType)SPVCOND_VK_SHADER_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .codeType = k == 1 ? SPVCOND_VK_SHADER_CODE_TYPE_BINARY : SPVCOND_VK_SHADER_CODE_TYPE_SPIRV,
                .codeSize = size, .pCode = code, .pName = argv[3]};
        struct spvcond_vk_shader_create_info before[3];
        memcpy(before, infos, sizeof(infos));
        spvcond_vk_shader shaders[3] = {0};
        VkResult r = create(device, 3, infos, NULL, shaders);
        printf("vkCreateShadersEXT: VkResult %d; the application's array %s\n", r,
               memcmp(before, infos, sizeof(infos)) == 0 ? "untouched" : "changed");
        status = r != VK_SUCCESS || shaders[2] != 3;
    }
    PFN_vkDestroyDevice destroy_device = (PFN_vkDestroyDevice)gipa(instance, "vkDestroyDevice");
    if (create && destroy_device)
        destroy_device(device, NULL);
    /* A driver without shader objects: the application sees none through the layer either. */
    driver_has_shader_objects = false;
    create = layer_device(gipa, instance, NULL, 0, &device);
    printf("without the driver's: vkCreateShadersEXT %s\n", create ? "given" : "not given");
    if (destroy_device)
        destroy_device(device, NULL);
    PFN_vkDestroyInstance destroy_instance = (PFN_vkDestroyInstance)gipa(instance, "vkDestroyInstance");
    if (destroy_instance)
        destroy_instance(instance, NULL);
    free(code);
    dlclose(layer);
    return status;
}
