/* SPDX-License-Identifier: MIT */
/* The specialized module judged by SPIRV-Tools' validator before a driver that trusts what it is given gets
 * it (docs/opencl-layer.md, "Validation"): rusticl takes a program binary as its own output, pocl the
 * translator's bitcode, NVIDIA's driver the PTX; a module that is not valid SPIR-V can end the process in
 * any of them (rusticl panics, the translator asserts). The validator's OpenCL environment follows the
 * device's version and profile. */
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <string.h>

#include "layer.h"

/* The validator's message on one line: "MESSAGE\n  INSTRUCTION\n" -> "MESSAGE: INSTRUCTION". */
static void
one_line(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 3 < size; p++) {
        if (*p == '\n') {
            while (p[1] == ' ')
                p++;
            if (p[1] && n + 3 < size) {
                if (n && out[n - 1] == '.')
                    n--;
                out[n++] = ':';
                out[n++] = ' ';
            }
            continue;
        }
        out[n++] = *p;
    }
    out[n] = 0;
}

/* The OpenCL major.minor of "OpenCL M.m ...", 0 when it is not of that form. */
static unsigned
opencl_version(const char *version)
{
    unsigned major = 0, minor = 0;
    if (!version || sscanf(version, "OpenCL %u.%u", &major, &minor) != 2)
        return 0;
    return major * 10 + minor;
}

/* The environment of the device's OpenCL version (the newest the validator knows for 3.0, whose SPIR-V
 * environment is 2.2's), of SPIR-V above 1.2 a universal one of the module's version. */
static spv_target_env
environment(const struct layer_device *d, const uint32_t *words, size_t count, char *name, size_t name_size)
{
    bool embedded = d->profile && strcmp(d->profile, "EMBEDDED_PROFILE") == 0;
    unsigned v = opencl_version(d->version);
    unsigned spirv_minor = count > 1 ? (words[1] >> 8) & 0xff : 0;
    if (spirv_minor > 2) {
        snprintf(name, name_size, "SPIR-V 1.%u", spirv_minor);
        return spirv_minor >= 6 ? SPV_ENV_UNIVERSAL_1_6 : spirv_minor == 5 ? SPV_ENV_UNIVERSAL_1_5
               : spirv_minor == 4                     ? SPV_ENV_UNIVERSAL_1_4
                                                      : SPV_ENV_UNIVERSAL_1_3;
    }
    const struct {
        unsigned version;
        spv_target_env full, embedded;
        const char *name;
    } envs[] = {
        {22, SPV_ENV_OPENCL_2_2, SPV_ENV_OPENCL_EMBEDDED_2_2, "OpenCL 2.2"},
        {21, SPV_ENV_OPENCL_2_1, SPV_ENV_OPENCL_EMBEDDED_2_1, "OpenCL 2.1"},
        {20, SPV_ENV_OPENCL_2_0, SPV_ENV_OPENCL_EMBEDDED_2_0, "OpenCL 2.0"},
        {0, SPV_ENV_OPENCL_1_2, SPV_ENV_OPENCL_EMBEDDED_1_2, "OpenCL 1.2"},
    };
    size_t k = 0;
    while (envs[k].version > v)
        k++;
    snprintf(name, name_size, "%s%s", envs[k].name, embedded ? " embedded profile" : "");
    return embedded ? envs[k].embedded : envs[k].full;
}

bool
layer_validate(const uint32_t *words, size_t count, const struct layer_device *d, char *msg, size_t msg_size)
{
    char env_name[64];
    spv_target_env env = environment(d, words, count, env_name, sizeof(env_name));
    spv_context context = spvContextCreate(env);
    if (!context) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    spv_const_binary_t binary = {words, count};
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvValidate(context, &binary, &diagnostic);
    /* The OpenCL environments allow the core specification's capabilities alone; one that a device extension
     * adds (Float16 with cl_khr_fp16, on NVIDIA's route from the compute capability) is refused as "not
     * allowed by OpenCL". Such a module is judged by SPIR-V's universal rules of its version instead (the
     * exception docs/opencl-layer.md states). */
    if (result != SPV_SUCCESS && diagnostic && diagnostic->error && strstr(diagnostic->error, "Capability ") &&
        strstr(diagnostic->error, "is not allowed by OpenCL")) {
        unsigned minor = count > 1 ? (words[1] >> 8) & 0xff : 0;
        spv_target_env universal = minor >= 6 ? SPV_ENV_UNIVERSAL_1_6 : minor == 5 ? SPV_ENV_UNIVERSAL_1_5
                                   : minor == 4 ? SPV_ENV_UNIVERSAL_1_4 : minor == 3 ? SPV_ENV_UNIVERSAL_1_3
                                   : minor == 2 ? SPV_ENV_UNIVERSAL_1_2 : minor == 1 ? SPV_ENV_UNIVERSAL_1_1
                                                                                   : SPV_ENV_UNIVERSAL_1_0;
        spvDiagnosticDestroy(diagnostic);
        diagnostic = NULL;
        spvContextDestroy(context);
        context = spvContextCreate(universal);
        if (!context) {
            snprintf(msg, msg_size, "out of memory");
            return false;
        }
        snprintf(env_name, sizeof(env_name), "SPIR-V 1.%u (a capability of a device extension)", minor);
        result = spvValidate(context, &binary, &diagnostic);
    }
    if (result != SPV_SUCCESS) { /* the validator's message names the instruction, disassembled */
        char message[1024];
        one_line(diagnostic && diagnostic->error ? diagnostic->error : "no message", message, sizeof(message));
        snprintf(msg, msg_size, "the module specialized for %s is not valid SPIR-V for %s (SPIRV-Tools' validator: "
                 "%s)", d->name ? d->name : "the device", env_name, message);
    }
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return result == SPV_SUCCESS;
}
