/* SPDX-License-Identifier: MIT */
/* SPIRV-Tools' validator as the tool (--validate) and the OpenCL layer use it: one call, a message on one
 * line. Built into each of them where Debian's spirv-tools is found (meson option `validator`); the core
 * library does not use it. SPIRV-Tools' header stays in validator.c (in C it defines a constant, which two
 * files including it would define twice). */
#ifndef SPVCOND_SPIRV_TOOLS_VALIDATOR_H
#define SPVCOND_SPIRV_TOOLS_VALIDATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether the words are valid SPIR-V by the universal rules of the module's version (its header's); when
 * not, the validator's message on one line in msg ("MESSAGE: INSTRUCTION"). *env_name says which rules
 * ("SPIR-V 1.0"). */
bool spvcond_validate_universal(const uint32_t *words, size_t count, char *env_name, size_t env_size, char *msg,
                                size_t msg_size);

/* The same in the OpenCL environment of a device of that CL_DEVICE_VERSION ("OpenCL 3.0 ...": 3.0 takes
 * 2.2's, the newest the validator knows) and profile; a module above SPIR-V 1.2 by the universal rules of
 * its version. *env_name says which ("OpenCL 2.2", "OpenCL 1.2 embedded profile", "SPIR-V 1.4"). */
bool spvcond_validate_opencl(const uint32_t *words, size_t count, const char *device_version, bool embedded,
                             char *env_name, size_t env_size, char *msg, size_t msg_size);

#endif
