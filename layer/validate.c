/* SPDX-License-Identifier: MIT */
/* The specialized module judged by SPIRV-Tools' validator before a driver that trusts what it is given gets
 * it (docs/opencl-layer.md, "Validation"): rusticl takes a program binary as its own output, pocl the
 * translator's bitcode, NVIDIA's driver the PTX; a module that is not valid SPIR-V can end the process in
 * any of them (rusticl panics, the translator asserts). The validator's OpenCL environment follows the
 * device's version and profile. */
#include <stdio.h>
#include <string.h>

#include "layer.h"
#include "spirv_tools/validator.h"

bool
layer_validate(const uint32_t *words, size_t count, const struct layer_device *d, char *msg, size_t msg_size)
{
    char env_name[64], message[1024];
    bool embedded = d->profile && strcmp(d->profile, "EMBEDDED_PROFILE") == 0;
    bool valid = spvcond_validate_opencl(words, count, d->version, embedded, env_name, sizeof(env_name), message,
                                         sizeof(message));
    /* The OpenCL environments allow the core specification's capabilities alone; one that a device extension
     * adds (Float16 with cl_khr_fp16, on NVIDIA's route from the compute capability) is refused as "not
     * allowed by OpenCL". Such a module is judged by SPIR-V's universal rules of its version instead (the
     * exception docs/opencl-layer.md states). */
    if (!valid && strstr(message, "Capability ") && strstr(message, "is not allowed by OpenCL")) {
        valid = spvcond_validate_universal(words, count, env_name, sizeof(env_name), message, sizeof(message));
        strncat(env_name, " (a capability of a device extension)", sizeof(env_name) - strlen(env_name) - 1);
    }
    if (!valid) /* the validator's message names the instruction, disassembled */
        snprintf(msg, msg_size, "the module specialized for %s is not valid SPIR-V for %s (SPIRV-Tools' validator: "
                 "%s)", d->name ? d->name : "the device", env_name, message);
    return valid;
}
