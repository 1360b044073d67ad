/* SPDX-License-Identifier: MIT */
/* Reader, index and writer: anything accepted is emitted word for word (byte-swapped input swapped back);
 * then lowered (spvcond_lower, every flag), which succeeds or says why, and whose output is read again. */
#include "fuzz_common.h"
#include "structure_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The inspection calls over an accepted module: every item of every kind, each within the module. */
static void
inspect(const spvcond_module *m)
{
    spvcond_module_info info = SPVCOND_SIZED(spvcond_module_info);
    FUZZ_ASSERT(spvcond_module_info_get(m, &info) == SPVCOND_OK, "an accepted module can be described");
    FUZZ_ASSERT(info.function_declaration_count <= info.function_count, "declarations are functions");
    size_t instructions = spvcond_module_instruction_count(m);
    for (int kind = SPVCOND_ITEM_CAPABILITY; kind <= SPVCOND_ITEM_CONDITIONAL_COPY; kind++) {
        spvcond_item it = SPVCOND_SIZED(spvcond_item);
        size_t cursor = 0, items = 0;
        while (spvcond_module_next_item(m, (spvcond_item_kind)kind, &cursor, &it)) {
            FUZZ_ASSERT(it.instruction < instructions && ++items <= instructions, "an item is an instruction");
            spvcond_item mode = SPVCOND_SIZED(spvcond_item);
            for (size_t c = 0;
                 kind == SPVCOND_ITEM_ENTRY_POINT && spvcond_module_next_execution_mode(m, it.target, &c, &mode);)
                FUZZ_ASSERT(mode.target == it.target && mode.instruction < instructions, "an entry point's own mode");
            if (it.name)
                FUZZ_ASSERT(strlen(it.name) < 4 * info.word_count, "an item's name lies in the module");
            for (size_t k = 0; k < it.operand_count; k++)
                (void)*(volatile const uint32_t *)&it.operands[k]; /* readable: ASan would say otherwise */
        }
    }
}

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
        inspect(m);
        bool swapped = spvcond_module_was_byte_swapped(m);
        for (size_t k = 0; k < n; k++) {
            uint32_t in;
            memcpy(&in, data + 4 * k, 4);
            FUZZ_ASSERT((swapped ? __builtin_bswap32(in) : in) == w[k], "round trip is word-identical");
        }
        spvcond_free(ctx, w);
        spvcond_module_destroy(m);
        if (spvcond_module_parse_bytes(ctx, data, size, &m) == SPVCOND_OK) {
            size_t lowered = 0;
            uint32_t every = SPVCOND_LOWER_SPIRV14 | SPVCOND_LOWER_PRINTF_DOUBLE | SPVCOND_LOWER_COPY_MEMORY |
                             SPVCOND_LOWER_FUNCTION_INITIALIZERS | SPVCOND_LOWER_PRINTF_FORMAT |
                             SPVCOND_LOWER_PRINTF_SMALL_VECTORS;
            spvcond_result r = spvcond_lower(m, every, &lowered);
            FUZZ_ASSERT(r == SPVCOND_OK || spvcond_context_first_error(ctx) != NULL || r == SPVCOND_ERROR_OUT_OF_MEMORY,
                        "a lowering refused says why");
            if (r == SPVCOND_OK && lowered && spvcond_module_emit(m, &w, &n) == SPVCOND_OK) {
                spvcond_module *again = NULL;
                (void)spvcond_module_parse(ctx, w, n, 0, &again); /* read again: no crash, whatever it says */
                spvcond_module_destroy(again);
                spvcond_free(ctx, w);
            }
            spvcond_module_destroy(m);
        }
    } else {
        FUZZ_ASSERT(spvcond_context_first_error(ctx) != NULL, "a rejection comes with a diagnostic");
    }
    spvcond_context_destroy(ctx);
    return 0;
}
