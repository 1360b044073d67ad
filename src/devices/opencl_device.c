/* SPDX-License-Identifier: MIT */
/* An OpenCL device as the library sees it (spec/devices.md, "OpenCL devices"): what clGetDeviceInfo
 * reports, mapped to DPC++'s aspects (as DPC++'s OpenCL backend maps them) and to the facts of
 * SPV_INTEL_function_variants' device constants. The caller queries; the library needs no OpenCL. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "devices/devices.h"
#include "registry/architectures.h"
#include "registry/aspects.h"
#include "spvcond/spvcond.h"
#include "support/context.h"
#include "support/sized.h"

/* OpenCL's values (CL/cl.h), restated: the library does not include OpenCL's headers. */
#define CL_TYPE_CPU (1u << 1)
#define CL_TYPE_GPU (1u << 2)
#define CL_TYPE_ACCELERATOR (1u << 3)
#define CL_TYPE_CUSTOM (1u << 4)

enum { MAX_ASPECTS = 16, MAX_CAPABILITIES = 24, MAX_SUB_GROUP_SIZES = 64 };

/* One block: the device, its arrays and its name, released with spvcond_free(). */
struct opencl_block {
    spvcond_device_info info;
    uint32_t aspects[MAX_ASPECTS];
    uint32_t capabilities[MAX_CAPABILITIES];
    uint32_t sub_group_sizes[MAX_SUB_GROUP_SIZES];
    char name[]; /* a copy of the device's name, when given */
};

/* Whether the blank-separated list `list` has the word of `len` characters at `word` (whole words:
 * cl_khr_fp16 is not cl_khr_fp16_extra). */
static bool
has_word_n(const char *list, const char *word, size_t len)
{
    for (const char *p = list; p && *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == len && memcmp(p, word, len) == 0)
            return true;
        p += n;
    }
    return false;
}

static bool
has_word(const char *list, const char *word)
{
    return has_word_n(list, word, strlen(word));
}

/* The OpenCL major version of "OpenCL M.m vendor text", 0 if it is not of that form. */
static unsigned
opencl_major(const char *version)
{
    static const char prefix[] = "OpenCL ";
    if (!version || strncmp(version, prefix, sizeof(prefix) - 1) != 0)
        return 0;
    unsigned major = 0;
    for (const char *p = version + sizeof(prefix) - 1; *p >= '0' && *p <= '9' && major < 100; p++)
        major = major * 10 + (unsigned)(*p - '0');
    return major;
}

/* The registry target of the machine this library was built for: an OpenCL CPU device runs on its host. */
static bool
host_target(uint32_t *target)
{
#if defined(__x86_64__) || defined(_M_X64)
    return spvcond_registry_target("x86_64", target);
#elif defined(__i386__) || defined(_M_IX86)
    return spvcond_registry_target("x86", target);
#elif defined(__aarch64__) || defined(_M_ARM64)
    return spvcond_registry_target("arm64", target);
#elif defined(__arm__) || defined(_M_ARM)
    return spvcond_registry_target("arm", target);
#elif defined(__riscv) && __riscv_xlen == 64
    return spvcond_registry_target("riscv64", target);
#elif defined(__riscv) && __riscv_xlen == 32
    return spvcond_registry_target("riscv32", target);
#else
    (void)target;
    return false;
#endif
}

/* Whether the device reports the row's aspect: by its query, or by every one of its extensions. */
static bool
reports(const spvcond_opencl_device *d, const struct spvcond_aspect_row *row)
{
    bool has = false;
    switch (row->query) {
    case SPVCOND_CL_NONE: break;
    case SPVCOND_CL_TYPE_CPU: has = (d->type & CL_TYPE_CPU) != 0; break;
    case SPVCOND_CL_TYPE_GPU: has = (d->type & CL_TYPE_GPU) != 0; break;
    case SPVCOND_CL_TYPE_ACCELERATOR: has = (d->type & CL_TYPE_ACCELERATOR) != 0; break;
    case SPVCOND_CL_TYPE_CUSTOM: has = (d->type & CL_TYPE_CUSTOM) != 0; break;
    case SPVCOND_CL_HALF_FP_CONFIG: has = d->half_fp_config != 0; break;
    case SPVCOND_CL_DOUBLE_FP_CONFIG: has = d->double_fp_config != 0; break;
    case SPVCOND_CL_IMAGE_SUPPORT: has = d->image_support; break;
    case SPVCOND_CL_COMPILER_AVAILABLE: has = d->compiler_available; break;
    case SPVCOND_CL_LINKER_AVAILABLE: has = d->linker_available; break;
    case SPVCOND_CL_QUEUE_PROFILING: has = d->queue_profiling; break;
    }
    if (has || !row->extensions)
        return has;
    for (const char *p = row->extensions; *p;) {
        size_t n = strcspn(p, " ");
        if (!has_word_n(d->extensions, p, n))
            return false;
        p += n + (p[n] == ' ');
    }
    return true;
}

/* DPC++'s aspects of the device, in number order, as the aspect table says the device reports them. */
static size_t
opencl_aspects(const spvcond_opencl_device *d, uint32_t *out)
{
    size_t rows_count, n = 0;
    const struct spvcond_aspect_row *rows = spvcond_aspect_rows(&rows_count);
    for (size_t k = 0; k < rows_count && n < MAX_ASPECTS; k++)
        if (rows[k].name && reports(d, &rows[k]))
            out[n++] = rows[k].number;
    return n;
}

/* The SPIR-V capabilities of the device (OpenCL's SPIR-V environment): those every device has, Int64 and
 * the 8- and 16-bit types on a full profile (or with cles_khr_int64), then those its facts give. */
static size_t
opencl_capabilities(const spvcond_opencl_device *d, const uint32_t *aspects, size_t aspect_count, uint32_t *out)
{
    const char *ext = d->extensions;
    bool full = !d->profile || strcmp(d->profile, "EMBEDDED_PROFILE") != 0;
    unsigned major = opencl_major(d->version);
    const struct {
        bool has;
        uint32_t capability;
    } facts[] = {
        {true, 4},   /* Addresses */
        {true, 5},   /* Linkage */
        {true, 6},   /* Kernel */
        {true, 7},   /* Vector16 */
        {true, 8},   /* Float16Buffer */
        {full || has_word(ext, "cles_khr_int64"), 11}, /* Int64 */
        {true, 22},  /* Int16 */
        {true, 39},  /* Int8 */
    }, after[] = {
        {major == 2 || d->generic_address_space, 38}, /* GenericPointer */
        {major == 2 || has_word(ext, "cl_khr_subgroups"), 18}, /* Groups */
    };
    size_t n = 0;
    for (size_t k = 0; k < sizeof(facts) / sizeof(facts[0]); k++)
        if (facts[k].has)
            out[n++] = facts[k].capability;
    /* Those the aspects bring (the aspect table's capabilities: Float16, Float64, Int64Atomics, ImageBasic
     * and the image's others), in ascending order. */
    size_t first = n, rows_count;
    const struct spvcond_aspect_row *rows = spvcond_aspect_rows(&rows_count);
    for (size_t k = 0; k < aspect_count; k++) {
        const struct spvcond_aspect_row *row = aspects[k] < rows_count ? &rows[aspects[k]] : NULL;
        for (size_t j = 0; row && row->capability && j <= 3 && n < MAX_CAPABILITIES - 2; j++) {
            uint32_t cap = j ? row->more_capabilities[j - 1] : row->capability;
            size_t at = n;
            while (cap && at > first && out[at - 1] > cap) /* insertion, kept sorted */
                at--;
            if (!cap || (at > first && out[at - 1] == cap))
                continue;
            memmove(out + at + 1, out + at, (n - at) * sizeof(*out));
            out[at] = cap;
            n++;
        }
    }
    for (size_t k = 0; k < sizeof(after) / sizeof(after[0]); k++)
        if (after[k].has)
            out[n++] = after[k].capability;
    return n;
}

/* An NVIDIA device's built-in entry: nvidia_gpu_sm_XY for its compute capability, or the highest the table
 * has below it (a device newer than the table has what the newest known one has). */
static bool
nvidia_builtin(uint32_t major, uint32_t minor, spvcond_device_info *out)
{
    char name[32];
    uint32_t want = major > 99 ? 999 : major * 10 + (minor > 9 ? 9 : minor);
    for (uint32_t v = want; v >= 10; v--) {
        snprintf(name, sizeof(name), "nvidia_gpu_sm_%u", (unsigned)v);
        if (spvcond_builtin_device_find(name, out))
            return true;
    }
    return false;
}

/* What an NVIDIA device's hardware has and its OpenCL driver does not report (fp16), and the facts of
 * SPV_INTEL_function_variants its built-in entry gives: target nvptx64, its architecture. */
static void
nvidia_facts(const spvcond_opencl_device *d, spvcond_device_info *info, uint32_t *aspects)
{
    spvcond_device_info builtin = SPVCOND_SIZED(spvcond_device_info);
    if (!d->compute_capability_major || !nvidia_builtin(d->compute_capability_major, d->compute_capability_minor,
                                                        &builtin))
        return;
    bool fp16 = false, listed = false;
    for (size_t k = 0; k < builtin.aspect_count; k++)
        fp16 |= builtin.aspects[k] == SPVCOND_ASPECT_FP16;
    for (size_t k = 0; k < info->aspect_count; k++)
        listed |= aspects[k] == SPVCOND_ASPECT_FP16;
    if (fp16 && !listed && info->aspect_count < MAX_ASPECTS)
        aspects[info->aspect_count++] = SPVCOND_ASPECT_FP16;
    info->has_target = builtin.has_target;
    info->target = builtin.target;
    info->has_architecture = builtin.has_architecture;
    info->category = builtin.has_architecture ? builtin.category : info->category;
    info->family = builtin.family;
    info->architecture = builtin.architecture;
}

spvcond_result
spvcond_opencl_device_info(spvcond_context *ctx, const spvcond_opencl_device *device, spvcond_device_info **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!device || !out)
        return spvcond_invalid(ctx, "spvcond_opencl_device_info", "`device` and `out` must not be NULL");
    *out = NULL;
    spvcond_opencl_device d;
    spvcond_result r = SPVCOND_SIZED_IN(ctx, device, &d, spvcond_opencl_device);
    if (r != SPVCOND_OK)
        return r;
    if (d.sub_group_size_count > MAX_SUB_GROUP_SIZES || (d.sub_group_size_count && !d.sub_group_sizes))
        return spvcond_invalid(ctx, "spvcond_opencl_device_info",
                               "`sub_group_sizes` must hold `sub_group_size_count` (at most 64) sizes");
    spvcond_device_info *info = spvcond_device_block(ctx, sizeof(struct opencl_block), offsetof(struct opencl_block, name), d.name);
    if (!info)
        return SPVCOND_ERROR_OUT_OF_MEMORY;
    struct opencl_block *b = (struct opencl_block *)info;
    info->aspects = b->aspects;
    info->aspect_count = opencl_aspects(&d, b->aspects);
    if (d.type & CL_TYPE_GPU) {
        info->has_category = true;
        info->category = SPVCOND_ARCH_CATEGORY_GPU;
        nvidia_facts(&d, info, b->aspects);
    }
    for (size_t k = 0; k < d.sub_group_size_count; k++)
        b->sub_group_sizes[k] = d.sub_group_sizes[k] > UINT32_MAX ? UINT32_MAX : (uint32_t)d.sub_group_sizes[k];
    info->sub_group_sizes = b->sub_group_sizes;
    info->sub_group_size_count = d.sub_group_size_count;
    info->max_work_group_size = d.max_work_group_size;
    info->has_capabilities = true;
    info->capabilities = b->capabilities;
    info->capability_count = opencl_capabilities(&d, b->aspects, info->aspect_count, b->capabilities);
    if (d.type & CL_TYPE_CPU) {
        info->has_category = true;
        info->category = SPVCOND_ARCH_CATEGORY_CPU;
        info->has_target = host_target(&info->target);
    }
    *out = info;
    return SPVCOND_OK;
}
