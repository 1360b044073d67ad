/* SPDX-License-Identifier: MIT */
/* validate and the requirement table: never crash on any accepted module. */
#include "fuzz_common.h"
#include "structure_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    spvcond_context *ctx;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 0;
    spvcond_module *m;
    if (spvcond_module_parse_bytes(ctx, data, size, &m) == SPVCOND_OK) {
        spvcond_validate(m, NULL);
        spvcond_requirements *r;
        if (spvcond_requirements_from_module(m, &r) == SPVCOND_OK) {
            char *text;
            size_t n;
            if (spvcond_requirements_write_props(r, &text, &n) == SPVCOND_OK) {
                spvcond_requirements *back;
                FUZZ_ASSERT(spvcond_requirements_parse_props(ctx, text, n, "fuzz", &back) == SPVCOND_OK,
                            "written property sets read back");
                spvcond_requirements_destroy(back);
                spvcond_free(ctx, text);
            }
            spvcond_requirements_destroy(r);
        }
        spvcond_device_info d;
        spvcond_builtin_device_find("intel_gpu_acm_g10", &d);
        bool ok;
        char reason[128];
        if (m && spvcond_module_instruction_count(m))
            spvcond_kernel_supported(m, &d, "k", &ok, reason, sizeof(reason));
        spvcond_module_destroy(m);
    }
    spvcond_context_destroy(ctx);
    return 0;
}
