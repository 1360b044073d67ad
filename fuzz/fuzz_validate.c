/* SPDX-License-Identifier: MIT */
/* validate and the requirement table: never crash on any accepted module. repair (spec/repair.md): its
 * output always validates, or it fails with an error and leaves the module as it was read; a module that
 * validates is not changed. */
#include <string.h>

#include "fuzz_common.h"
#include "structure_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Coverage adds up: each device keeps one variant of a group or none. */
static void
check_coverage(void *user, const spvcond_coverage *c)
{
    (void)user;
    uint64_t sum = c->uncovered;
    for (size_t k = 0; k < c->variant_count; k++)
        sum += c->devices[k];
    FUZZ_ASSERT(c->name != NULL && (c->total == 0 ? sum == 0 : sum <= c->total), "coverage adds up");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    spvcond_context *ctx;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 0;
    spvcond_module *m;
    fuzz_keep_input(data, size);
    if (spvcond_module_parse_bytes(ctx, data, size, &m) == SPVCOND_OK) {
        size_t violations = 0;
        uint32_t registry;
        spvcond_result rv = spvcond_module_registry_version(m, &registry);
        FUZZ_ASSERT(rv == SPVCOND_OK || rv == SPVCOND_ERROR_NOT_FOUND, "the registry version is read or absent");
        spvcond_result valid = spvcond_validate(m, &violations);
        spvcond_variant_coverage(m, check_coverage, NULL);
        spvcond_module *copy;
        if (valid != SPVCOND_ERROR_OUT_OF_MEMORY && valid != SPVCOND_ERROR_LIMIT &&
            spvcond_module_parse_bytes(ctx, data, size, &copy) == SPVCOND_OK) {
            spvcond_result r = spvcond_repair(copy, NULL);
            uint32_t *w, *in;
            size_t n, in_n;
            FUZZ_ASSERT(spvcond_module_emit(copy, &w, &n) == SPVCOND_OK, "emit after repair");
            spvcond_module *plain;
            FUZZ_ASSERT(spvcond_module_parse_bytes(ctx, data, size, &plain) == SPVCOND_OK, "parses again");
            FUZZ_ASSERT(spvcond_module_emit(plain, &in, &in_n) == SPVCOND_OK, "emit as read");
            bool same = n == in_n && !memcmp(w, in, n * 4);
            FUZZ_ASSERT(r == SPVCOND_OK || same, "a failed repair leaves the module as it was read");
            FUZZ_ASSERT(valid != SPVCOND_OK || r != SPVCOND_OK || same, "a module that validates is not changed");
            if (r == SPVCOND_OK) {
                if (!same)
                    fuzz_keep("repaired", w, n);
                spvcond_module *out;
                FUZZ_ASSERT(spvcond_module_parse(ctx, w, n, 0, &out) == SPVCOND_OK, "repaired output parses");
                size_t left = 0;
                spvcond_result v = spvcond_validate(out, &left);
                FUZZ_ASSERT(left == 0 || v == SPVCOND_ERROR_LIMIT, "repaired output validates");
                spvcond_module_destroy(out);
            }
            spvcond_free(ctx, w);
            spvcond_free(ctx, in);
            spvcond_module_destroy(plain);
            spvcond_module_destroy(copy);
        }
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
        spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
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
