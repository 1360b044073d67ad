// SPDX-License-Identifier: MIT
// clLinkProgram of the layer's programs (docs/opencl-layer.md, "Compile and link"): their SPIR-V modules
// linked by SPIRV-Tools' linker (Debian's spirv-tools), before the result is specialized and lowered once per
// device. A library keeps its exports and may leave imports open; an executable resolves every import.
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

extern "C" {
#include "spirv_link.h"
}

extern "C" bool
layer_link_spirv(const uint32_t *const *modules, const size_t *counts, size_t n, bool library, uint32_t **out,
                 size_t *out_count, char *msg, size_t msg_size)
{
    try {
        spvtools::Context context(SPV_ENV_UNIVERSAL_1_6);
        std::string first;
        context.SetMessageConsumer([&first](spv_message_level_t level, const char *, const spv_position_t &,
                                            const char *message) {
            if (level <= SPV_MSG_ERROR && first.empty())
                first = message ? message : "";
        });
        spvtools::LinkerOptions options;
        options.SetCreateLibrary(library);
        options.SetAllowPartialLinkage(true); /* the built-ins are the driver's to resolve */
        options.SetVerifyIds(true);
        std::vector<uint32_t> linked;
        if (spvtools::Link(context, modules, counts, n, &linked, options) != SPV_SUCCESS) {
            snprintf(msg, msg_size, "SPIRV-Tools' linker: %s", first.empty() ? "the modules do not link" : first.c_str());
            return false;
        }
        *out = static_cast<uint32_t *>(malloc(linked.size() * sizeof(uint32_t) + 1));
        if (!*out) {
            snprintf(msg, msg_size, "out of memory");
            return false;
        }
        memcpy(*out, linked.data(), linked.size() * sizeof(uint32_t));
        *out_count = linked.size();
        return true;
    } catch (const std::bad_alloc &) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    } catch (...) {
        snprintf(msg, msg_size, "SPIRV-Tools' linker failed");
        return false;
    }
}
