/* SPDX-License-Identifier: MIT */
/* Reader, index and writer: anything accepted is emitted word for word (byte-swapped input swapped back). */
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
        uint32_t *w;
        size_t n;
        FUZZ_ASSERT(spvcond_module_emit(m, &w, &n) == SPVCOND_OK, "emit of an accepted module succeeds");
        FUZZ_ASSERT(n * 4 == size, "round trip keeps the size");
        fuzz_check_emit_to(m, w, n);
        bool swapped = spvcond_module_was_byte_swapped(m);
        for (size_t k = 0; k < n; k++) {
            uint32_t in;
            memcpy(&in, data + 4 * k, 4);
            FUZZ_ASSERT((swapped ? __builtin_bswap32(in) : in) == w[k], "round trip is word-identical");
        }
        spvcond_free(ctx, w);
        spvcond_module_destroy(m);
    } else {
        FUZZ_ASSERT(spvcond_context_first_error(ctx) != NULL, "a rejection comes with a diagnostic");
    }
    spvcond_context_destroy(ctx);
    return 0;
}
