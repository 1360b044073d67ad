/* SPDX-License-Identifier: MIT */
/* SPIRV-Tools' validator for the tool and the layer (validator.h). */
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <string.h>

#include "validator.h"

static unsigned
spirv_minor(const uint32_t *words, size_t count)
{
    return count > 1 ? (words[1] >> 8) & 0xff : 0;
}

static spv_target_env
universal(const uint32_t *words, size_t count)
{
    static const spv_target_env envs[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2,
                                          SPV_ENV_UNIVERSAL_1_3, SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
                                          SPV_ENV_UNIVERSAL_1_6};
    unsigned minor = spirv_minor(words, count);
    return envs[minor < sizeof(envs) / sizeof(envs[0]) ? minor : 0];
}

/* "MESSAGE\n  INSTRUCTION\n" -> "MESSAGE: INSTRUCTION". */
static void
one_line(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 3 < size; p++) {
        if (*p == '\n') {
            while (p[1] == ' ')
                p++;
            if (p[1]) {
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

static bool
validate(const uint32_t *words, size_t count, spv_target_env env, char *msg, size_t msg_size)
{
    spv_context context = spvContextCreate(env);
    if (!context) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    spv_const_binary_t binary = {words, count};
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvValidate(context, &binary, &diagnostic);
    if (result != SPV_SUCCESS)
        one_line(diagnostic && diagnostic->error ? diagnostic->error : "no message", msg, msg_size);
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return result == SPV_SUCCESS;
}

bool
spvcond_validate_universal(const uint32_t *words, size_t count, char *env_name, size_t env_size, char *msg,
                           size_t msg_size)
{
    snprintf(env_name, env_size, "SPIR-V 1.%u", spirv_minor(words, count));
    return validate(words, count, universal(words, count), msg, msg_size);
}

bool
spvcond_validate_opencl(const uint32_t *words, size_t count, const char *device_version, bool embedded,
                        char *env_name, size_t env_size, char *msg, size_t msg_size)
{
    unsigned major = 0, minor = 0;
    if (!device_version || sscanf(device_version, "OpenCL %u.%u", &major, &minor) != 2)
        major = minor = 0;
    unsigned version = major * 10 + minor;
    if (spirv_minor(words, count) > 2)
        return spvcond_validate_universal(words, count, env_name, env_size, msg, msg_size);
    static const struct {
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
    while (envs[k].version > version)
        k++;
    snprintf(env_name, env_size, "%s%s", envs[k].name, embedded ? " embedded profile" : "");
    return validate(words, count, embedded ? envs[k].embedded : envs[k].full, msg, msg_size);
}
