/* SPDX-License-Identifier: MIT */
/* specialize with values taken from the input: never crashes; a success emits a module that parses and
 * that uses no removed id (re-parsing checks every id is defined). The first 16 bytes give values. */
#include "fuzz_common.h"
#define FUZZ_MODULE_OFFSET 16
#include "structure_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16)
        return 0;
    spvcond_spec_value v[4];
    for (int k = 0; k < 4; k++) {
        v[k].spec_id = data[4 * k] & 7 ? 0x10000u + (data[4 * k] & 7) - 1 : data[4 * k + 1];
        v[k].value = data[4 * k + 2] | (uint64_t)data[4 * k + 3] << 8;
        v[k].found = false;
    }
    spvcond_context *ctx;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 0;
    spvcond_module *m;
    fuzz_keep_input(data + 16, (size - 16) & ~(size_t)3);
    if (spvcond_module_parse_bytes(ctx, data + 16, (size - 16) & ~(size_t)3, &m) == SPVCOND_OK) {
        static const uint32_t features[1] = {1}, caps[2] = {6, 11};
        /* The device's facts from the header bytes: each given or not, and what one not given means. */
        uint8_t facts = data[5];
        spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = facts & 1, .target = data[0] & 15, .features = features,
                                  .feature_count = (facts >> 1) & 1, .has_features = (facts >> 2) & 1,
                                  .has_architecture = (facts >> 3) & 1, .has_family = (facts >> 4) & 1,
                                  .has_category = (facts >> 5) & 1, .category = data[6] & 3, .family = data[7] & 3,
                                  .architecture = data[9] & 31, .has_capabilities = (facts >> 6) & 1,
                                  .capabilities = caps, .capability_count = data[10] % 3,
                                  .unspecified = (spvcond_unspecified)(data[11] % 4)};
        spvcond_specialize_options o = {sizeof(spvcond_specialize_options), v, 4, (data[1] & 1) ? &d : NULL, data[2] & 7};
        if (spvcond_specialize(m, &o, NULL) == SPVCOND_OK) {
            uint32_t *w;
            size_t n;
            FUZZ_ASSERT(spvcond_module_emit(m, &w, &n) == SPVCOND_OK, "emit after specialize");
            fuzz_keep("specialized", w, n);
            fuzz_check_emit_to(m, w, n);
            spvcond_module *s;
            FUZZ_ASSERT(spvcond_module_parse(ctx, w, n, 0, &s) == SPVCOND_OK, "specialized output parses");
            uint32_t registry;
            FUZZ_ASSERT(spvcond_module_registry_version(s, &registry) == SPVCOND_ERROR_NOT_FOUND,
                        "OpDeviceRegistryVersion goes with the extension");
            spvcond_module_destroy(s);
            spvcond_free(ctx, w);
        }
        spvcond_module_destroy(m);
    }
    spvcond_context_destroy(ctx);
    return 0;
}
