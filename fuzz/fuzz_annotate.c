/* annotate: never crashes; its output parses and passes our own validate (the producer's promise). */
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
        spvcond_annotate_options o = {0};
        if (spvcond_annotate(m, &o, NULL) == SPVCOND_OK) {
            uint32_t *w;
            size_t n;
            FUZZ_ASSERT(spvcond_module_emit(m, &w, &n) == SPVCOND_OK, "emit after annotate");
            spvcond_module *a;
            FUZZ_ASSERT(spvcond_module_parse(ctx, w, n, 0, &a) == SPVCOND_OK, "annotated output parses");
            size_t violations = 0;
            spvcond_validate(a, &violations);
            FUZZ_ASSERT(violations == 0, "annotated output passes spvcond validate");
            spvcond_module_destroy(a);
            spvcond_free(ctx, w);
        }
        spvcond_module_destroy(m);
    }
    spvcond_context_destroy(ctx);
    return 0;
}
