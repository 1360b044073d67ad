/* SPDX-License-Identifier: MIT */
/* Lowering (spec/lower.md): SPIR-V 1.4's new instructions in SPIR-V 1.2's forms, printf's float arguments as
 * double; the output valid, nothing else touched. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "ir/module.h"

struct lowered {
    spvcond_context *ctx;
    spvcond_result code;
    size_t count_lowered;
    uint32_t *words;
    size_t count;
};

static struct lowered
lower_fixture(const char *name, uint32_t flags)
{
    struct lowered l;
    memset(&l, 0, sizeof(l));
    size_t n;
    uint32_t *in = read_words(fixture(name), &n);
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &l.ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(l.ctx, in, n);
    l.code = spvcond_lower(m, flags, &l.count_lowered);
    if (l.code == SPVCOND_OK)
        cr_assert_eq(spvcond_module_emit(m, &l.words, &l.count), SPVCOND_OK);
    spvcond_module_destroy(m);
    free(in);
    return l;
}

static void
lowered_free(struct lowered *l)
{
    spvcond_free(l->ctx, l->words);
    spvcond_context_destroy(l->ctx);
}

/* Instructions of an opcode in words, and the word count of the last one. */
static size_t
count_words_opcode(const uint32_t *w, size_t n, uint32_t opcode, uint32_t *last_size)
{
    size_t found = 0;
    for (size_t k = 5; k < n && (w[k] >> 16); k += w[k] >> 16)
        if ((w[k] & 0xffff) == opcode) {
            found++;
            if (last_size)
                *last_size = w[k] >> 16;
        }
    return found;
}

Test(lower, spirv14_in_spirv12_forms)
{
    struct lowered l = lower_fixture("lower_spirv14", SPVCOND_LOWER_SPIRV14);
    cr_assert_eq(l.code, SPVCOND_OK);
    /* two string decorations, two comparisons, one difference, one copy, one logical copy */
    cr_assert_eq(l.count_lowered, 7, "lowered %zu", l.count_lowered);
    cr_assert_eq(count_words_opcode(l.words, l.count, 400 /* OpCopyLogical */, NULL), 0);
    /* the array taken apart (2), each struct (2 x 2), each put together again (2 structs, 1 array) */
    cr_assert_eq(count_words_opcode(l.words, l.count, 80 /* OpCompositeConstruct */, NULL), 3);
    for (uint32_t op = 401; op <= 403; op++)
        cr_assert_eq(count_words_opcode(l.words, l.count, op, NULL), 0, "opcode %u left", op);
    cr_assert_eq(count_words_opcode(l.words, l.count, 5632, NULL), 0);
    cr_assert_eq(count_words_opcode(l.words, l.count, 5633, NULL), 0);
    cr_assert_eq(count_words_opcode(l.words, l.count, 117 /* OpConvertPtrToU */, NULL), 6);
    cr_assert_eq(count_words_opcode(l.words, l.count, 170 /* OpIEqual */, NULL), 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 171 /* OpINotEqual */, NULL), 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 135 /* OpSDiv */, NULL), 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 114 /* OpSConvert: 64-bit difference, 32-bit result */, NULL),
                 1);
    uint32_t copy_words = 0;
    cr_assert_eq(count_words_opcode(l.words, l.count, 63, &copy_words), 1);
    cr_assert_eq(copy_words, 5, "OpCopyMemory keeps the target's memory operands alone (%u words)", copy_words);
    /* printf untouched without its flag */
    cr_assert_eq(count_words_opcode(l.words, l.count, 115 /* OpFConvert */, NULL), 0);
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "spv1.4", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
}

Test(lower, printf_floats_as_double)
{
    struct lowered l = lower_fixture("lower_spirv14", SPVCOND_LOWER_PRINTF_DOUBLE);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 115 /* OpFConvert */, NULL), 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 401, NULL), 1, "the 1.4 instructions stay without their flag");
    /* a double type and the Float64 capability were added */
    bool float64 = false, double_type = false;
    for (size_t k = 5; k < l.count && (l.words[k] >> 16); k += l.words[k] >> 16) {
        float64 |= (l.words[k] & 0xffff) == 17 && l.words[k + 1] == 10;
        double_type |= (l.words[k] & 0xffff) == 22 && l.words[k + 2] == 64;
    }
    cr_assert(float64 && double_type);
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "spv1.4", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
}

Test(lower, nothing_to_lower_is_the_module_itself)
{
    size_t n;
    uint32_t *in = read_words(fixture("lower_spirv14"), &n);
    struct lowered l = lower_fixture("lower_spirv14", 0);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 0);
    cr_assert_eq(l.count, n);
    cr_assert_eq(memcmp(l.words, in, n * 4), 0);
    lowered_free(&l);
    l = lower_fixture("kernels_fp64", SPVCOND_LOWER_SPIRV14 | SPVCOND_LOWER_PRINTF_DOUBLE);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 0, "a module without those instructions is left as it is");
    lowered_free(&l);
    free(in);
}

Test(lower, printf_format_as_address_of_first_char)
{
    struct lowered l = lower_fixture("lower_printf_format", SPVCOND_LOWER_PRINTF_FORMAT);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 1, "one cast, used by two printfs, lowered once");
    uint32_t size = 0;
    cr_assert_eq(count_words_opcode(l.words, l.count, 124 /* OpBitcast */, NULL), 0);
    cr_assert_eq(count_words_opcode(l.words, l.count, 70 /* OpInBoundsPtrAccessChain */, &size), 2);
    cr_assert_eq(size, 6);
    cr_assert_eq(count_words_opcode(l.words, l.count, 12 /* OpExtInst */, NULL), 3, "the printfs stay");
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "opencl2.2", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
    l = lower_fixture("lower_printf_format", SPVCOND_LOWER_PRINTF_DOUBLE | SPVCOND_LOWER_COPY_MEMORY);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 0, "without its flag, the cast stays");
    cr_assert_eq(count_words_opcode(l.words, l.count, 124, NULL), 1);
    lowered_free(&l);
}

Test(lower, printf_small_vectors_as_integers)
{
    struct lowered l = lower_fixture("lower_printf_vectors", SPVCOND_LOWER_PRINTF_SMALL_VECTORS);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 2, "both printfs");
    size_t n;
    uint32_t *in = read_words(fixture("lower_printf_vectors"), &n);
    /* char2, uchar3, short2 and the second char2 as a 32-bit integer; the two char vectors under four
     * components widened first; short4 and float2 (eight bytes) as they were. */
    cr_assert_eq(count_words_opcode(l.words, l.count, 124 /* OpBitcast */, NULL),
                 count_words_opcode(in, n, 124, NULL) + 4);
    cr_assert_eq(count_words_opcode(l.words, l.count, 79 /* OpVectorShuffle */, NULL),
                 count_words_opcode(in, n, 79, NULL) + 3);
    cr_assert_eq(count_words_opcode(l.words, l.count, 23 /* OpTypeVector */, NULL),
                 count_words_opcode(in, n, 23, NULL), "the module's char4 is used, none added");
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "opencl2.2", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
    l = lower_fixture("lower_printf_vectors", SPVCOND_LOWER_PRINTF_DOUBLE);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(count_words_opcode(l.words, l.count, 124, NULL), count_words_opcode(in, n, 124, NULL),
                 "without its flag, the vectors stay");
    lowered_free(&l);
    free(in);
}

Test(lower, every_lowering_at_once)
{
    /* The pointer lowering makes the pointer's 64-bit integer, the small-vector lowering a 32-bit one and a
     * uchar4: each its own type, the output valid. */
    struct lowered l = lower_fixture("lower_spirv14", SPVCOND_LOWER_SPIRV14 | SPVCOND_LOWER_PRINTF_DOUBLE |
                                                          SPVCOND_LOWER_PRINTF_SMALL_VECTORS | SPVCOND_LOWER_COPY_MEMORY);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(count_words_opcode(l.words, l.count, 79 /* OpVectorShuffle */, NULL), 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 23 /* OpTypeVector */, NULL), 2, "uchar2, and uchar4 made");
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "spv1.4", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
}

Test(lower, refusals)
{
    struct lowered l = lower_fixture("lower_spirv14", 0x80);
    cr_assert_eq(l.code, SPVCOND_ERROR_INVALID_ARGUMENT, "an unknown flag");
    lowered_free(&l);
    cr_assert_eq(spvcond_lower(NULL, 0, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    spvcond_context *ctx;
    size_t n;
    uint32_t *in = read_words(fixture("lower_spirv14"), &n);
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, in, n);
    cr_assert_eq(spvcond_lower(m, SPVCOND_LOWER_SPIRV14, NULL), SPVCOND_OK);
    cr_assert_neq(spvcond_lower(m, SPVCOND_LOWER_SPIRV14, NULL), SPVCOND_OK, "a module with edits is refused");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(in);
}

Test(lower, copy_memory_as_load_and_store)
{
    struct lowered l = lower_fixture("lower_spirv14", SPVCOND_LOWER_COPY_MEMORY);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 63, NULL), 0, "no OpCopyMemory left");
    uint32_t load_words = 0, store_words = 0;
    cr_assert_eq(count_words_opcode(l.words, l.count, 61 /* OpLoad */, &load_words), 1);
    cr_assert_eq(count_words_opcode(l.words, l.count, 62 /* OpStore: the four of the kernel, the copy's */, &store_words), 5);
    size_t aligned_stores = 0; /* the copy's store, with the target's memory operands (Aligned 4) */
    for (size_t k = 5; k < l.count && (l.words[k] >> 16); k += l.words[k] >> 16)
        aligned_stores += (l.words[k] & 0xffff) == 62 && (l.words[k] >> 16) == 5 && l.words[k + 3] == 2;
    cr_assert_eq(aligned_stores, 1);
    cr_assert_eq(load_words, 6, "the load takes the source's memory operands (Aligned 4): %u words", load_words);
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "spv1.4", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
}

Test(lower, function_initializers_as_stores)
{
    struct lowered l = lower_fixture("lower_initializers", SPVCOND_LOWER_FUNCTION_INITIALIZERS);
    cr_assert_eq(l.code, SPVCOND_OK);
    cr_assert_eq(l.count_lowered, 2, "two variables with initializers: %zu", l.count_lowered);
    /* no variable keeps an initializer; the two stores come before the first load, after the variables */
    size_t first_load = 0, stores_before = 0, variables_after_store = 0, seen_store = 0;
    for (size_t k = 5; k < l.count && (l.words[k] >> 16); k += l.words[k] >> 16) {
        uint32_t op = l.words[k] & 0xffff, n = l.words[k] >> 16;
        if (op == 59 /* OpVariable */) {
            cr_assert(n == 4 || l.words[k + 3] != 7, "a Function variable without its initializer");
            variables_after_store += seen_store;
        }
        if (op == 62 && !first_load) {
            stores_before++;
            seen_store = 1;
        }
        if (op == 61 && !first_load)
            first_load = k;
    }
    cr_assert_eq(stores_before, 2);
    cr_assert_eq(variables_after_store, 0);
    char *val = NULL;
    cr_assert_eq(spirv_val(l.words, l.count, "spv1.4", &val), 0, "spirv-val: %s", val);
    free(val);
    lowered_free(&l);
}
