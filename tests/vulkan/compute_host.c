/* SPDX-License-Identifier: MIT */
/* A plain Vulkan compute program, as an application would write one (tests/vulkan.py): it knows nothing of the
 * layer. It creates a device with the features named on its command line enabled (those the device has),
 * makes a shader module of MODULE, and for each ENTRY a compute pipeline that runs over 64 floats
 * x = 0.5, 1.5, 2.5, ... in place; it prints each entry's first four results.
 *
 *   vulkan-compute [--enable FEATURE]... [--validation] [--time-modules N]
 *                  [--chained | --chained-behind-subgroup-size] MODULE.spv ENTRY...
 *
 * FEATURE: shaderFloat64, shaderInt64, shaderFloat16, shaderInt8, storageBuffer16BitAccess. --validation enables
 * Khronos' validation layer and prints each message it gives ("validation: ..."). Lines: "device: NAME", "enabled: FEATURE...",
 * "module: created" or "module: VkResult N", then "ENTRY: y0 y1 y2 y3" or "ENTRY: VkResult N". Exit status 1
 * when the module or a pipeline fails, 2 on bad usage or no device. With --time-modules N, the module is also
 * created and destroyed N times more and "vkCreateShaderModule: median MS, fastest MS" printed (the Vulkan
 * layer's cost per module, docs/vulkan-layer.md). --chained makes no shader module: each pipeline's stage carries the
 * module's VkShaderModuleCreateInfo in its pNext chain, its module null (VK_EXT_graphics_pipeline_library, enabled
 * with its feature; "module: chained"); --chained-behind-subgroup-size puts a
 * VkPipelineShaderStageRequiredSubgroupSizeCreateInfo (the device's largest subgroup size) before it in the chain
 * (Vulkan 1.3, subgroupSizeControl enabled). --shader-objects makes no module nor pipeline: each ENTRY is a shader
 * object (VK_EXT_shader_object, Vulkan 1.3, enabled with its feature; "module: shader objects"), bound with
 * vkCmdBindShadersEXT; exit status 3 and "shader objects: not supported" where the device lacks the extension.
 * The extension is newer than Debian's headers: its structures come from layer/vulkan/vk_shader_object.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

#include "vk_shader_object.h" /* layer/vulkan/: VK_EXT_shader_object, which Debian's headers predate */

enum { N = 64 };

/* Whether the physical device has the device extension. */
static bool
has_extension(VkPhysicalDevice physical, const char *name)
{
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL);
    VkExtensionProperties *p = calloc(count ? count : 1, sizeof(*p));
    bool found = false;
    if (p && vkEnumerateDeviceExtensionProperties(physical, NULL, &count, p) >= 0)
        for (uint32_t k = 0; k < count && !found; k++)
            found = strcmp(p[k].extensionName, name) == 0;
    free(p);
    return found;
}

static unsigned validation_messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL
on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
           const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)type;
    (void)user;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        printf("validation: %s\n", data->pMessage);
        validation_messages++;
    }
    return VK_FALSE;
}

static double
now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int
by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *
read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = n > 0 ? malloc((size_t)n) : NULL;
    *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    return buf;
}

static uint32_t
memory_type(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(physical, &props);
    for (uint32_t k = 0; k < props.memoryTypeCount; k++)
        if ((bits & (1u << k)) && (props.memoryTypes[k].propertyFlags & want) == want)
            return k;
    return UINT32_MAX;
}

int
main(int argc, char **argv)
{
    bool validation = false, want64 = false, want_i64 = false, want16 = false, want_i8 = false, want_s16 = false;
    bool chained = false, behind = false, objects = false;
    int a = 1, time_modules = 0;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--validation") == 0)
            validation = true;
        else if (strcmp(argv[a], "--chained") == 0)
            chained = true;
        else if (strcmp(argv[a], "--chained-behind-subgroup-size") == 0)
            chained = behind = true;
        else if (strcmp(argv[a], "--shader-objects") == 0)
            objects = true;
        else if (strcmp(argv[a], "--time-modules") == 0 && a + 1 < argc)
            time_modules = atoi(argv[++a]);
        else if (strcmp(argv[a], "--enable") == 0 && a + 1 < argc) {
            const char *f = argv[++a];
            want64 |= strcmp(f, "shaderFloat64") == 0;
            want_i64 |= strcmp(f, "shaderInt64") == 0;
            want16 |= strcmp(f, "shaderFloat16") == 0;
            want_i8 |= strcmp(f, "shaderInt8") == 0;
            want_s16 |= strcmp(f, "storageBuffer16BitAccess") == 0;
        } else
            break;
    }
    if (argc - a < 2) {
        fprintf(stderr, "usage: vulkan-compute [--enable FEATURE]... [--validation] [--time-modules N] [--chained | "
                        "--chained-behind-subgroup-size | --shader-objects] MODULE.spv ENTRY...\n");
        return 2;
    }
    size_t code_size;
    uint32_t *code = read_file(argv[a], &code_size);
    if (!code) {
        fprintf(stderr, "vulkan-compute: cannot read %s\n", argv[a]);
        return 2;
    }

    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .apiVersion = behind || objects ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2};
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *instance_ext[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = on_message};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pNext = validation ? &messenger_info : NULL,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = validation ? 1 : 0,
                                .ppEnabledLayerNames = layers,
                                .enabledExtensionCount = validation ? 1 : 0,
                                .ppEnabledExtensionNames = instance_ext};
    VkInstance instance;
    VkResult r = vkCreateInstance(&ici, NULL, &instance);
    if (r != VK_SUCCESS) {
        printf("instance: VkResult %d\n", r);
        return 2;
    }
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
    if (validation && create_messenger)
        create_messenger(instance, &messenger_info, NULL, &messenger);
    uint32_t count = 1;
    VkPhysicalDevice physical;
    if (vkEnumeratePhysicalDevices(instance, &count, &physical) < 0 || count == 0) {
        printf("no Vulkan device\n");
        return 2;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical, &props);
    printf("device: %s\n", props.deviceName);
    if (objects && (props.apiVersion < VK_API_VERSION_1_3 || !has_extension(physical, "VK_EXT_shader_object"))) {
        printf("shader objects: not supported\n");
        return 3;
    }

    /* The features asked for, where the device has them. */
    VkPhysicalDeviceVulkan12Features has12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features has11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                              .pNext = &has12};
    VkPhysicalDeviceFeatures2 has = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &has11};
    vkGetPhysicalDeviceFeatures2(physical, &has);
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT library = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT, .graphicsPipelineLibrary = VK_TRUE};
    VkPhysicalDeviceVulkan13Features on13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pNext = &library, .subgroupSizeControl = VK_TRUE};
    struct spvcond_vk_shader_object_features object_features = {
        .sType = (VkStructureType)SPVCOND_VK_SHADER_OBJECT_FEATURES, .shaderObject = VK_TRUE};
    VkPhysicalDeviceVulkan12Features on12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = behind    ? (void *)&on13
                                                      : chained ? (void *)&library
                                                      : objects ? (void *)&object_features
                                                                : NULL};
    VkPhysicalDeviceVulkan11Features on11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                             .pNext = &on12};
    VkPhysicalDeviceFeatures2 on = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &on11};
    on.features.shaderFloat64 = want64 && has.features.shaderFloat64;
    on.features.shaderInt64 = want_i64 && has.features.shaderInt64;
    on12.shaderFloat16 = want16 && has12.shaderFloat16;
    on12.shaderInt8 = want_i8 && has12.shaderInt8;
    on11.storageBuffer16BitAccess = want_s16 && has11.storageBuffer16BitAccess;
    printf("enabled:%s%s%s%s%s\n", on.features.shaderFloat64 ? " shaderFloat64" : "",
           on.features.shaderInt64 ? " shaderInt64" : "", on12.shaderFloat16 ? " shaderFloat16" : "",
           on12.shaderInt8 ? " shaderInt8" : "", on11.storageBuffer16BitAccess ? " storageBuffer16BitAccess" : "");

    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, NULL);
    VkQueueFamilyProperties *fp = calloc(families, sizeof(*fp));
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, fp);
    uint32_t family = 0;
    while (family < families && !(fp[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        family++;
    free(fp);
    float priority = 1;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = family, .queueCount = 1, .pQueuePriorities = &priority};
    const char *device_ext[] = {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};
    const char *object_ext[] = {"VK_EXT_shader_object"};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &on,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                              .enabledExtensionCount = chained ? 2 : objects ? 1 : 0,
                              .ppEnabledExtensionNames = objects ? object_ext : device_ext};
    VkPhysicalDeviceVulkan13Properties props13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &props13};
    if (behind)
        vkGetPhysicalDeviceProperties2(physical, &props2);
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_size = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = props13.maxSubgroupSize};
    VkDevice device;
    if ((r = vkCreateDevice(physical, &dci, NULL, &device)) != VK_SUCCESS) {
        printf("device: VkResult %d\n", r);
        return 2;
    }
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = code_size,
                                     .pCode = code};
    subgroup_size.pNext = &smci;
    VkShaderModule module = VK_NULL_HANDLE;
    if (time_modules > 0 && time_modules <= 100000) {
        double *ms = calloc((size_t)time_modules, sizeof(double));
        for (int k = 0; ms && k < time_modules; k++) {
            double t0 = now_ms();
            if (vkCreateShaderModule(device, &smci, NULL, &module) != VK_SUCCESS)
                break;
            ms[k] = now_ms() - t0;
            vkDestroyShaderModule(device, module, NULL);
        }
        if (ms) {
            qsort(ms, (size_t)time_modules, sizeof(double), by_value);
            printf("vkCreateShaderModule: median %.4f ms, fastest %.4f ms\n", ms[time_modules / 2], ms[0]);
        }
        free(ms);
    }
    r = chained || objects ? VK_SUCCESS : vkCreateShaderModule(device, &smci, NULL, &module);
    if (r != VK_SUCCESS) {
        printf("module: VkResult %d\n", r);
        return 1;
    }
    printf("module: %s\n", objects ? "shader objects" : chained ? "chained" : "created");
    spvcond_vk_create_shaders create_shaders =
        (spvcond_vk_create_shaders)vkGetDeviceProcAddr(device, "vkCreateShadersEXT");
    spvcond_vk_destroy_shader destroy_shader =
        (spvcond_vk_destroy_shader)vkGetDeviceProcAddr(device, "vkDestroyShaderEXT");
    spvcond_vk_bind_shaders bind_shaders = (spvcond_vk_bind_shaders)vkGetDeviceProcAddr(device, "vkCmdBindShadersEXT");
    if (objects && (!create_shaders || !destroy_shader || !bind_shaders)) {
        printf("shader objects: not supported\n");
        return 3;
    }

    /* One host-visible buffer, one descriptor set, one command buffer, reused by every entry. */
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = N * sizeof(float),
                              .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VkBuffer buffer;
    vkCreateBuffer(device, &bci, NULL, &buffer);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = memory_type(physical, req.memoryTypeBits,
                                                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VkDeviceMemory memory;
    vkAllocateMemory(device, &mai, NULL, &memory);
    vkBindBufferMemory(device, buffer, memory, 0);
    float *mapped;
    vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&mapped);
    VkDescriptorSetLayoutBinding binding = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .bindingCount = 1, .pBindings = &binding};
    VkDescriptorSetLayout set_layout;
    vkCreateDescriptorSetLayout(device, &dslci, NULL, &set_layout);
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &set_layout};
    VkPipelineLayout pipeline_layout;
    vkCreatePipelineLayout(device, &plci, NULL, &pipeline_layout);
    VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = 1, .pPoolSizes = &pool_size};
    VkDescriptorPool pool;
    vkCreateDescriptorPool(device, &dpci, NULL, &pool);
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &set_layout};
    VkDescriptorSet set;
    vkAllocateDescriptorSets(device, &dsai, &set);
    VkDescriptorBufferInfo dbi = {buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi};
    vkUpdateDescriptorSets(device, 1, &write, 0, NULL);
    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = family};
    VkCommandPool command_pool;
    vkCreateCommandPool(device, &cpci, NULL, &command_pool);
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = command_pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
    VkCommandBuffer cb;
    vkAllocateCommandBuffers(device, &cbai, &cb);

    int failed = 0;
    for (int k = a + 1; k < argc; k++) {
        VkComputePipelineCreateInfo cpi = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .pNext = behind ? (const void *)&subgroup_size : chained ? (const void *)&smci : NULL,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module, .pName = argv[k]},
            .layout = pipeline_layout};
        VkPipeline pipeline = VK_NULL_HANDLE;
        spvcond_vk_shader shader = 0;
        const VkShaderStageFlagBits compute = VK_SHADER_STAGE_COMPUTE_BIT;
        struct spvcond_vk_shader_create_info sci = {
            .sType = (VkStructureType)SPVCOND_VK_SHADER_CREATE_INFO, .stage = compute,
            .codeType = SPVCOND_VK_SHADER_CODE_TYPE_SPIRV, .codeSize = code_size, .pCode = code, .pName = argv[k],
            .setLayoutCount = 1, .pSetLayouts = &set_layout};
        r = objects ? create_shaders(device, 1, &sci, NULL, &shader)
                    : vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline);
        if (r != VK_SUCCESS) {
            printf("%s: VkResult %d\n", argv[k], r);
            failed = 1;
            continue;
        }
        for (int i = 0; i < N; i++)
            mapped[i] = (float)i + 0.5f;
        VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cb, &begin);
        if (objects)
            bind_shaders(cb, 1, &compute, &shader);
        else
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, NULL);
        vkCmdDispatch(cb, 1, 1, 1);
        vkEndCommandBuffer(cb);
        VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
        vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
        vkQueueWaitIdle(queue);
        printf("%s: %g %g %g %g\n", argv[k], mapped[0], mapped[1], mapped[2], mapped[N - 1]);
        if (objects)
            destroy_shader(device, shader, NULL);
        else
            vkDestroyPipeline(device, pipeline, NULL);
    }
    vkDestroyCommandPool(device, command_pool, NULL);
    vkDestroyDescriptorPool(device, pool, NULL);
    vkDestroyPipelineLayout(device, pipeline_layout, NULL);
    vkDestroyDescriptorSetLayout(device, set_layout, NULL);
    vkUnmapMemory(device, memory);
    vkDestroyBuffer(device, buffer, NULL);
    vkFreeMemory(device, memory, NULL);
    vkDestroyShaderModule(device, module, NULL);
    free(code);
    vkDestroyDevice(device, NULL);
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
    if (messenger && destroy_messenger)
        destroy_messenger(instance, messenger, NULL);
    vkDestroyInstance(instance, NULL);
    if (validation)
        printf("validation messages: %u\n", validation_messages);
    return failed;
}
