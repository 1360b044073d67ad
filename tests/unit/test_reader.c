/* SPDX-License-Identifier: MIT */
/* The reader against malformed and unusual input: every case is rejected with a clear, positioned
 * error, or accepted where SPIR-V allows it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "ir/module.h"

/* A minimal valid module: void f() {} exported. Offsets noted for the tests below. */
static const uint32_t base[] = {
    0x07230203, 0x00010000, 0, 5, 0,
    0x00020011, 6,                   /*  5: OpCapability Kernel */
    0x00020011, 4,                   /*  7: OpCapability Addresses */
    0x00020011, 5,                   /*  9: OpCapability Linkage */
    0x0003000e, 2, 2,                /* 11: OpMemoryModel Physical64 OpenCL */
    0x00030005, 3, 0x00000066,       /* 14: OpName %3 "f" */
    0x00020013, 1,                   /* 17: %1 = OpTypeVoid */
    0x00030021, 2, 1,                /* 19: %2 = OpTypeFunction %1 */
    0x00050036, 1, 3, 0, 2,          /* 22: %3 = OpFunction %1 None %2 */
    0x000200f8, 4,                   /* 27: %4 = OpLabel */
    0x000100fd,                      /* 29: OpReturn */
    0x00010038,                      /* 30: OpFunctionEnd */
};
#define BASE_WORDS (sizeof(base) / sizeof(base[0]))

struct captured {
    spvcond_diag first;
    int count;
};

static void
capture(void *user, const spvcond_diag *d)
{
    struct captured *c = user;
    if (c->count++ == 0)
        c->first = *d;
}

static spvcond_result
parse_words(const uint32_t *w, size_t n, struct captured *c)
{
    spvcond_context *ctx;
    memset(c, 0, sizeof(*c));
    cr_assert(spvcond_context_create(NULL, capture, c, &ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    spvcond_result r = spvcond_module_parse(ctx, w, n, 0, &m);
    if (r == SPVCOND_OK)
        cr_assert(m != NULL);
    else
        cr_assert(m == NULL && c->count > 0, "failure must come with a diagnostic");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    return r;
}

static uint32_t *
copy_base(void)
{
    uint32_t *w = malloc(sizeof(base) + 64);
    memcpy(w, base, sizeof(base));
    return w;
}

static void
expect_reject(const uint32_t *w, size_t n, spvcond_result code, const char *needle, size_t word_offset)
{
    struct captured c;
    spvcond_result r = parse_words(w, n, &c);
    cr_assert_eq(r, code, "expected %s, got %s (%s)", spvcond_result_string(code), spvcond_result_string(r),
                 c.first.message);
    cr_assert(strstr(c.first.message, needle) != NULL, "message '%s' lacks '%s'", c.first.message, needle);
    cr_assert_eq(c.first.severity, SPVCOND_SEVERITY_ERROR);
    cr_assert_eq(c.first.word_offset, word_offset, "word offset %zu, expected %zu (%s)", c.first.word_offset,
                 word_offset, c.first.message);
}

Test(reader, accepts_minimal_module)
{
    struct captured c;
    cr_assert_eq(parse_words(base, BASE_WORDS, &c), SPVCOND_OK, "%s", c.first.message);
}

Test(reader, rejects_empty_file)
{
    spvcond_context *ctx;
    struct captured c = {0};
    cr_assert(spvcond_context_create(NULL, capture, &c, &ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    cr_assert_eq(spvcond_module_parse_bytes(ctx, "", 0, &m), SPVCOND_ERROR_INVALID_BINARY);
    cr_assert(strstr(c.first.message, "fewer than the 5") != NULL, "%s", c.first.message);
    spvcond_context_destroy(ctx);
}

Test(reader, rejects_size_not_multiple_of_4)
{
    spvcond_context *ctx;
    struct captured c = {0};
    cr_assert(spvcond_context_create(NULL, capture, &c, &ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    cr_assert_eq(spvcond_module_parse_bytes(ctx, base, sizeof(base) - 1, &m), SPVCOND_ERROR_INVALID_BINARY);
    cr_assert(strstr(c.first.message, "not a multiple of 4") != NULL, "%s", c.first.message);
    cr_assert(m == NULL);
    spvcond_context_destroy(ctx);
}

Test(reader, rejects_bad_magic)
{
    uint32_t *w = copy_base();
    w[0] = 0x12345678;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "bad magic number 0x12345678", 0);
    free(w);
}

Test(reader, rejects_bad_version_and_schema)
{
    uint32_t *w = copy_base();
    w[1] = 0x00020000;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "bad version word", 1);
    w[1] = 0x00010000;
    w[4] = 1;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "reserved schema word is 1", 4);
    free(w);
}

Test(reader, rejects_bound_zero)
{
    uint32_t *w = copy_base();
    w[3] = 0;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "id bound is 0", 3);
    free(w);
}

Test(reader, rejects_bound_over_the_cap_before_allocating)
{
    uint32_t *w = copy_base();
    w[3] = 0xffffffffu;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_LIMIT, "exceeds the SPIR-V limit", 3);
    w[3] = 0x400001;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_LIMIT, "exceeds the SPIR-V limit", 3);
    w[3] = 0x400000; /* ids up to 0x3fffff: the largest legal bound */
    struct captured c;
    cr_assert_eq(parse_words(w, BASE_WORDS, &c), SPVCOND_OK, "%s", c.first.message);
    free(w);
}

Test(reader, rejects_word_count_zero)
{
    uint32_t *w = copy_base();
    w[17] = 0x00000013;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "word count 0", 17);
    free(w);
}

Test(reader, rejects_instruction_past_end)
{
    uint32_t *w = copy_base();
    w[30] = 0x00020038;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "runs past the end of the module", 30);
    /* A truncated file: the last instruction cut short. */
    expect_reject(base, 25, SPVCOND_ERROR_INVALID_BINARY, "runs past the end of the module", 22);
    free(w);
}

Test(reader, rejects_operand_past_instruction)
{
    uint32_t *w = copy_base();
    w[11] = 0x0002000e; /* OpMemoryModel without its memory model */
    w[13] = 0x00010000; /* OpNop keeps the rest aligned */
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "MemoryModel runs past the end of the instruction",
                  11);
    free(w);
}

Test(reader, rejects_left_over_words)
{
    uint32_t w[BASE_WORDS + 1];
    memcpy(w, base, 17 * 4);
    w[17] = 0x00030013; /* OpTypeVoid with a stray word */
    w[18] = 1;
    w[19] = 7;
    memcpy(w + 20, base + 19, (BASE_WORDS - 19) * 4);
    expect_reject(w, BASE_WORDS + 1, SPVCOND_ERROR_INVALID_BINARY, "1 words left over", 17);
}

Test(reader, rejects_string_without_nul)
{
    uint32_t *w = copy_base();
    w[16] = 0x66666666;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_BINARY, "not NUL-terminated", 14);
    free(w);
}

Test(reader, rejects_id_zero)
{
    uint32_t *w = copy_base();
    w[21] = 0;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_ID, "is %0, outside the id range 1..4", 19);
    free(w);
}

Test(reader, rejects_id_at_or_above_bound)
{
    uint32_t *w = copy_base();
    w[26] = 5;
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_ID, "is %5, outside the id range 1..4", 22);
    w[26] = 2;
    w[18] = 0x7fffffff; /* a result id far out of range */
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_ID, "outside the id range", 17);
    free(w);
}

Test(reader, rejects_id_defined_twice)
{
    uint32_t *w = copy_base();
    w[28] = 2; /* the label redefines the function type's id */
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_ID, "id %2 is defined twice", 27);
    free(w);
}

Test(reader, rejects_undefined_id)
{
    uint32_t *w = copy_base();
    w[3] = 6;
    w[15] = 5; /* OpName of an id nothing defines */
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_ID, "id %5 is used but never defined", 14);
    free(w);
}

/* Names' and decorations' targets are checked from the index, the other forward uses as recorded: the
 * fault reported is still the first in module order, and a decoration's target before its operands. */
Test(reader, reports_the_first_undefined_id_in_module_order)
{
    uint32_t w[64];
    const uint32_t head[] = {0x07230203, 0x00010000, 0, 10, 0,
                             0x00020011, 6, 0x00020011, 4, 0x00020011, 5, /* Kernel, Addresses, Linkage */
                             0x0003000e, 2, 2};                            /* 11: OpMemoryModel */
    const uint32_t tail[] = {0x00020013, 1,                /* %1 = OpTypeVoid */
                             0x00030021, 2, 1,             /* %2 = OpTypeFunction %1 */
                             0x00050036, 1, 3, 0, 2,       /* %3 = OpFunction %1 None %2 */
                             0x000200f8, 4,                /* %4 = OpLabel */
                             0x0003003e, 6, 6,             /* OpStore %6 %6: nothing defines %6 */
                             0x000100fd, 0x00010038};      /* OpReturn, OpFunctionEnd */
    size_t n = 0;
    memcpy(w, head, sizeof(head));
    n = sizeof(head) / 4;
    const uint32_t entry[] = {0x0005000f, 6, 3, 0x66, 9};  /* 14: OpEntryPoint Kernel %3 "f" %9 (undefined) */
    const uint32_t name[] = {0x00030005, 8, 0x78};          /* OpName %8 "x" (undefined) */
    const uint32_t deco_id[] = {0x0004014c, 8, 46, 9};      /* OpDecorateId %8 AlignmentId %9 (both undefined) */
    memcpy(w + n, entry, sizeof(entry));
    memcpy(w + n + 5, name, sizeof(name));
    memcpy(w + n + 8, tail, sizeof(tail));
    expect_reject(w, n + 8 + sizeof(tail) / 4, SPVCOND_ERROR_INVALID_ID, "id %9 is used but never defined", 14);
    w[n] = 0x0004000f; /* the entry point without its interface: the name is the first fault, not the store */
    memcpy(w + n + 4, name, sizeof(name));
    memcpy(w + n + 7, tail, sizeof(tail));
    expect_reject(w, n + 7 + sizeof(tail) / 4, SPVCOND_ERROR_INVALID_ID, "id %8 is used but never defined", 18);
    w[n + 5] = 3; /* the name's target defined: the store */
    expect_reject(w, n + 7 + sizeof(tail) / 4, SPVCOND_ERROR_INVALID_ID, "id %6 is used but never defined", 33);
    memcpy(w + n + 4, deco_id, sizeof(deco_id)); /* a decoration's target before its operand */
    memcpy(w + n + 8, tail, sizeof(tail));
    expect_reject(w, n + 8 + sizeof(tail) / 4, SPVCOND_ERROR_INVALID_ID, "id %8 is used but never defined", 18);
}

Test(reader, rejects_function_without_end)
{
    uint32_t *w = copy_base();
    w[30] = 0x00010000; /* OpFunctionEnd -> OpNop */
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_LAYOUT, "OpFunction %3 has no OpFunctionEnd", 22);
    free(w);
}

Test(reader, rejects_nested_function)
{
    uint32_t w[BASE_WORDS + 5];
    memcpy(w, base, sizeof(base));
    /* Replace OpReturn + OpFunctionEnd by the start of another function. */
    w[3] = 6;
    w[29] = 0x00050036;
    w[30] = 1;
    memcpy(w + 31, (uint32_t[]){5, 0, 2, 0x00010038}, 16);
    expect_reject(w, BASE_WORDS + 4, SPVCOND_ERROR_INVALID_LAYOUT, "starts inside function %3", 29);
}

Test(reader, rejects_layout_order)
{
    uint32_t *w = copy_base();
    /* Swap OpCapability Linkage and OpMemoryModel: a capability after the memory model. */
    uint32_t tmp[5] = {0x0003000e, 2, 2, 0x00020011, 5};
    memcpy(w + 9, tmp, sizeof(tmp));
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_LAYOUT, "OpCapability is out of the logical layout order",
                  12);
    free(w);
}

Test(reader, rejects_instruction_outside_function)
{
    uint32_t w[BASE_WORDS + 1];
    memcpy(w, base, sizeof(base));
    w[BASE_WORDS] = 0x000100fd; /* OpReturn after the last OpFunctionEnd */
    expect_reject(w, BASE_WORDS + 1, SPVCOND_ERROR_INVALID_LAYOUT, "OpReturn outside a function", 31);
}

Test(reader, accepts_byte_swapped_module)
{
    uint32_t w[BASE_WORDS];
    for (size_t i = 0; i < BASE_WORDS; i++)
        w[i] = __builtin_bswap32(base[i]);
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    cr_assert_eq(spvcond_module_parse(ctx, w, BASE_WORDS, SPVCOND_PARSE_BORROW, &m), SPVCOND_OK);
    cr_assert(spvcond_module_was_byte_swapped(m));
    cr_assert_eq(m->function_count, 1);
    uint32_t *out;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &out, &n), SPVCOND_OK);
    cr_assert_eq(n, BASE_WORDS);
    cr_assert(memcmp(out, base, sizeof(base)) == 0, "byte-swapped input is emitted little-endian");
    spvcond_free(ctx, out);
    spvcond_module_destroy(m);
    /* The same through the byte interface. */
    cr_assert_eq(spvcond_module_parse_bytes(ctx, w, sizeof(w), &m), SPVCOND_OK);
    cr_assert(spvcond_module_was_byte_swapped(m));
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

Test(reader, passes_unknown_instructions_through)
{
    uint32_t w[BASE_WORDS + 3];
    memcpy(w, base, 19 * 4);
    w[19] = 0x00037fff; /* an opcode from a future SPIR-V, in the types section */
    w[20] = 1;
    w[21] = 0xdeadbeef;
    memcpy(w + 22, base + 19, (BASE_WORDS - 19) * 4);
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    cr_assert_eq(spvcond_module_parse(ctx, w, BASE_WORDS + 3, 0, &m), SPVCOND_OK);
    cr_assert_eq(m->opaque_count, 1);
    cr_assert_eq(m->first_opaque, 6);
    uint32_t *out;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &out, &n), SPVCOND_OK);
    cr_assert(n == BASE_WORDS + 3 && memcmp(out, w, sizeof(w)) == 0);
    spvcond_free(ctx, out);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

Test(reader, passes_unknown_enumerants_through)
{
    uint32_t w[BASE_WORDS + 4];
    memcpy(w, base, 17 * 4);
    uint32_t deco[4] = {0x00040047, 3, 99999, 42}; /* OpDecorate %3 <unknown decoration> 42 */
    memcpy(w + 17, deco, sizeof(deco));
    memcpy(w + 21, base + 17, (BASE_WORDS - 17) * 4);
    struct captured c;
    cr_assert_eq(parse_words(w, BASE_WORDS + 4, &c), SPVCOND_OK, "%s", c.first.message);
}

Test(reader, rejects_bad_arguments)
{
    spvcond_context *ctx;
    spvcond_module *m = (spvcond_module *)1;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    cr_assert_eq(spvcond_module_parse(NULL, base, BASE_WORDS, 0, &m), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_module_parse(ctx, NULL, 3, 0, &m), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "spvcond_module_parse: `out` is NULL, or `words`"),
              "an invalid argument is named: %s", spvcond_context_first_error(ctx)->message);
    spvcond_context_clear_diag(ctx);
    cr_assert_eq(spvcond_module_parse(ctx, base, BASE_WORDS, 0x80, &m), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(m == NULL);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "unknown parse flags") != NULL);
    spvcond_context_destroy(ctx);
}

static int allocations;

static void *
counting_alloc(void *user, size_t n)
{
    (void)user;
    allocations++;
    return malloc(n);
}

static void *
counting_realloc(void *user, void *p, size_t n)
{
    (void)user;
    return realloc(p, n);
}

static void
counting_free(void *user, void *p)
{
    (void)user;
    free(p);
}

Test(reader, uses_the_callers_allocator)
{
    spvcond_allocator a = {counting_alloc, counting_realloc, counting_free, NULL};
    spvcond_allocator partial = {counting_alloc, NULL, counting_free, NULL};
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(&partial, NULL, NULL, &ctx), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_context_create(&a, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m;
    cr_assert_eq(spvcond_module_parse(ctx, base, BASE_WORDS, 0, &m), SPVCOND_OK);
    cr_assert_gt(allocations, 3);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

Test(reader, diagnostic_names_instruction)
{
    uint32_t *w = copy_base();
    w[21] = 0;
    struct captured c;
    parse_words(w, BASE_WORDS, &c);
    cr_assert_eq(c.first.instruction_index, 6);
    cr_assert_eq(c.first.opcode, 33);
    cr_assert_str_eq(c.first.opcode_name, "OpTypeFunction");
    cr_assert_eq(c.first.code, SPVCOND_ERROR_INVALID_ID);
    free(w);
}

Test(reader, rejects_a_result_type_that_is_not_a_type)
{
    /* %5 = OpUndef %1 in the types section, then OpFunction %5 ...: a value is not a type. */
    uint32_t w[BASE_WORDS + 3];
    memcpy(w, base, 22 * 4);
    w[3] = 6;
    w[22] = 0x00030001;
    w[23] = 1;
    w[24] = 5;
    memcpy(w + 25, base + 22, (BASE_WORDS - 22) * 4);
    w[26] = 5; /* OpFunction's result type */
    expect_reject(w, BASE_WORDS + 3, SPVCOND_ERROR_INVALID_ID, "result type %5 is not a type (it is defined by OpUndef)",
                  25);
}

Test(reader, rejects_ids_local_to_another_function)
{
    /* Two functions; the second returns through a branch to the first one's label. */
    static const uint32_t w[] = {
        0x07230203, 0x00010000, 0, 8, 0,
        0x00020011, 6, 0x00020011, 4, 0x00020011, 5,
        0x0003000e, 2, 2,
        0x00020013, 1,                   /* %1 = OpTypeVoid */
        0x00030021, 2, 1,                /* %2 = OpTypeFunction %1 */
        0x00050036, 1, 3, 0, 2,          /* %3 = OpFunction */
        0x000200f8, 4,                   /* %4 = OpLabel */
        0x000100fd, 0x00010038,
        0x00050036, 1, 5, 0, 2,          /* %5 = OpFunction */
        0x000200f8, 6,                   /* %6 = OpLabel */
        0x000200f9, 4,                   /* OpBranch %4: another function's block */
        0x00010038,
    };
    expect_reject(w, sizeof(w) / 4, SPVCOND_ERROR_INVALID_ID, "%4 is local to another function", 35);
}

/* Before the types, a function's own id (here a parameter) may be only a name's or decoration's
 * target: an entry point's interface naming it is refused (found by fuzzing: annotate's condition on the
 * function removed the parameter and left the entry point naming it); a name and a decoration of it are
 * fine. */
Test(reader, rejects_function_local_ids_before_the_types)
{
    uint32_t w[] = {
        0x07230203, 0x00010000, 0, 8, 0,
        0x00020011, 4, 0x00020011, 6,    /* OpCapability Addresses, Kernel */
        0x0003000e, 2, 2,                /* 9: OpMemoryModel Physical64 OpenCL */
        0x0005000f, 6, 3, 0x6b, 6,       /* 12: OpEntryPoint Kernel %3 "k" %6 */
        0x00030005, 6, 0x70,             /* 17: OpName %6 "p" */
        0x00030047, 6, 0x13,             /* 20: OpDecorate %6 Restrict */
        0x00020013, 1,                   /* %1 = OpTypeVoid */
        0x00040015, 7, 32, 0,            /* %7 = OpTypeInt 32 0 */
        0x00040021, 2, 1, 7,             /* %2 = OpTypeFunction %1 %7 */
        0x00050036, 1, 3, 0, 2,          /* %3 = OpFunction %1 None %2 */
        0x00030037, 7, 6,                /* %6 = OpFunctionParameter %7 */
        0x000200f8, 4,                   /* %4 = OpLabel */
        0x000100fd, 0x00010038,
    };
    expect_reject(w, sizeof(w) / 4, SPVCOND_ERROR_INVALID_ID, "%6 at word 4, which is local to a function", 12);
    w[12] = 0x0004000f; /* the same entry point without the interface id (the rest shifts into place) */
    uint32_t *without = malloc(sizeof(w));
    memcpy(without, w, 16 * 4);
    memcpy(without + 16, w + 17, sizeof(w) - 17 * 4);
    struct captured c;
    cr_assert_eq(parse_words(without, sizeof(w) / 4 - 1, &c), SPVCOND_OK, "%s", c.first.message);
    free(without);
}

Test(reader, rejects_use_before_definition_among_types)
{
    /* %2 = OpTypeFunction %5 where %5 = OpTypeVoid comes after it. */
    uint32_t w[BASE_WORDS];
    memcpy(w, base, sizeof(base));
    w[3] = 6;
    w[18] = 5;            /* OpTypeVoid defines %5 ... */
    w[21] = 5;            /* ... but moved: make the function type name it first */
    memcpy(w + 17, (uint32_t[]){0x00030021, 2, 5, 0x00020013, 5}, 20);
    w[23] = 5;            /* OpFunction %5 None %2 */
    expect_reject(w, BASE_WORDS, SPVCOND_ERROR_INVALID_ID, "%5 is used before its definition", 17);
}

Test(reader, rejects_a_group_decoration_of_something_not_a_group)
{
    /* OpGroupDecorate %1 %3: the void type named as the decoration group (found by fuzzing: a condition
     * constant named so was no use of it, and specialize left the group decoration dangling). */
    uint32_t w[BASE_WORDS + 3];
    memcpy(w, base, 17 * 4);
    memcpy(w + 17, (uint32_t[]){0x0003004a, 1, 3}, 12);
    memcpy(w + 20, base + 17, (BASE_WORDS - 17) * 4);
    expect_reject(w, BASE_WORDS + 3, SPVCOND_ERROR_INVALID_ID,
                  "OpGroupDecorate names %1 as its group, which is not an OpDecorationGroup (it is OpTypeVoid)", 17);
}

Test(reader, rejects_a_function_named_where_a_variable_stands)
{
    /* OpEntryPoint Kernel %3 "k" %3: the kernel's own function in its interface list (found by
     * fuzzing: annotate keeps functions by their callers, so this use escaped its conditions). */
    static const uint32_t w[] = {
        0x07230203, 0x00010000, 0, 5, 0,
        0x00020011, 6, 0x00020011, 4,
        0x0003000e, 2, 2,
        0x0005000f, 6, 3, 0x0000006b, 3, /* OpEntryPoint Kernel %3 "k" %3 */
        0x00020013, 1,                   /* %1 = OpTypeVoid */
        0x00030021, 2, 1,                /* %2 = OpTypeFunction %1 */
        0x00050036, 1, 3, 0, 2,          /* %3 = OpFunction */
        0x000200f8, 4,                   /* %4 = OpLabel */
        0x000100fd, 0x00010038,
    };
    expect_reject(w, sizeof(w) / 4, SPVCOND_ERROR_INVALID_ID, "OpEntryPoint names function %3 at word 4", 12);
}

Test(reader, rejects_an_execution_mode_of_something_not_a_function)
{
    /* OpExecutionMode %1 LocalSize 1 1 1, %1 the void type: its one id, at word 1, where names and
     * decorations stand with theirs (which check_names_before_types passes over), must be a function. */
    static const uint32_t w[] = {
        0x07230203, 0x00010000, 0, 5, 0,
        0x00020011, 6, 0x00020011, 4,
        0x0003000e, 2, 2,
        0x0004000f, 6, 3, 0x0000006b,    /* OpEntryPoint Kernel %3 "k" */
        0x00060010, 1, 17, 1, 1, 1,      /* OpExecutionMode %1 LocalSize 1 1 1 */
        0x00020013, 1,                   /* %1 = OpTypeVoid */
        0x00030021, 2, 1,                /* %2 = OpTypeFunction %1 */
        0x00050036, 1, 3, 0, 2,          /* %3 = OpFunction */
        0x000200f8, 4,                   /* %4 = OpLabel */
        0x000100fd, 0x00010038,
    };
    expect_reject(w, sizeof(w) / 4, SPVCOND_ERROR_INVALID_ID, "%1 is not an OpFunction (it is OpTypeVoid)", 16);
}

Test(reader, rejects_a_line_whose_file_is_not_a_string)
{
    /* OpLine %3 1 1 among the types, %3 a function: the file of a line is an OpString. */
    static const uint32_t w[] = {
        0x07230203, 0x00010000, 0, 5, 0,
        0x00020011, 6, 0x00020011, 4, 0x00020011, 5,
        0x0003000e, 2, 2,
        0x00020013, 1,                   /* %1 = OpTypeVoid */
        0x00040008, 3, 1, 1,             /* OpLine %3 1 1 */
        0x00030021, 2, 1,                /* %2 = OpTypeFunction %1 */
        0x00050036, 1, 3, 0, 2,          /* %3 = OpFunction */
        0x000200f8, 4,                   /* %4 = OpLabel */
        0x000100fd, 0x00010038,
    };
    expect_reject(w, sizeof(w) / 4, SPVCOND_ERROR_INVALID_ID, "OpLine's file %3 is not an OpString", 16);
}

/* base with OpDecorate %3 LinkageAttributes <4 string/type words> inserted among the annotations. */
static size_t
with_linkage_decoration(uint32_t *w, uint32_t target, const uint32_t *tail, uint32_t tail_words)
{
    memcpy(w, base, 17 * sizeof(uint32_t));
    size_t n = 17;
    w[n++] = ((3 + tail_words) << 16) | 71;
    w[n++] = target;
    w[n++] = 41;
    for (uint32_t k = 0; k < tail_words; k++)
        w[n++] = tail[k];
    memcpy(w + n, base + 17, (BASE_WORDS - 17) * sizeof(uint32_t));
    return n + BASE_WORDS - 17;
}

/* The reader reads OpDecorate LinkageAttributes without the general walker when its string fills it
 * exactly; anything else goes to the walker, which reports it. */
Test(reader, reads_linkage_decorations_in_place_and_checks_them)
{
    uint32_t w[64];
    const uint32_t exact[2] = {0x66 /* "f" */, 0 /* Export */};
    size_t n = with_linkage_decoration(w, 3, exact, 2);
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    cr_assert_eq(m->id_words[5], 1u << 1, "the target is its one id use");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);

    n = with_linkage_decoration(w, 5, exact, 2);
    w[3] = 6;
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "id %5 is used but never defined", 17);
    const uint32_t unterminated[2] = {0x66666666, 0x66666666};
    n = with_linkage_decoration(w, 3, unterminated, 2);
    expect_reject(w, n, SPVCOND_ERROR_INVALID_BINARY, "not NUL-terminated", 17);
    const uint32_t extra[3] = {0x66, 0, 0};
    n = with_linkage_decoration(w, 3, extra, 3);
    expect_reject(w, n, SPVCOND_ERROR_INVALID_BINARY, "1 words left over", 17);
    struct captured c;
    const uint32_t long_name[3] = {0x66666666, 0x66, 1 /* Import */};
    n = with_linkage_decoration(w, 3, long_name, 3);
    cr_assert_eq(parse_words(w, n, &c), SPVCOND_OK, "%s", c.first.message);
}

/* ---- the quick path for code against the general path (reader.c) -------------------------------- */

struct parse_outcome {
    spvcond_context *ctx;
    spvcond_module *m;
    spvcond_result r;
    struct captured c;
};

static void
parse_with(const uint32_t *w, size_t n, bool general_only, struct parse_outcome *o)
{
    memset(o, 0, sizeof(*o));
    cr_assert(spvcond_context_create(NULL, capture, &o->c, &o->ctx) == SPVCOND_OK);
    o->ctx->reader_general_only = general_only;
    o->r = spvcond_module_parse(o->ctx, w, n, SPVCOND_PARSE_BORROW, &o->m);
}

/* The quick path takes an instruction only when the general path would accept it, and records the
 * same: the same verdict and message, or the same tables. */
static void
assert_same_parse(const uint32_t *w, size_t n, const char *what)
{
    struct parse_outcome q, g;
    parse_with(w, n, false, &q);
    parse_with(w, n, true, &g);
    cr_assert_eq(q.r, g.r, "%s: %d with the quick path, %d without (%s)", what, q.r, g.r,
                 q.r ? q.c.first.message : g.c.first.message);
    if (q.r != SPVCOND_OK) {
        cr_assert_str_eq(q.c.first.message, g.c.first.message, "%s", what);
        cr_assert_eq(q.c.first.instruction_index, g.c.first.instruction_index, "%s", what);
    } else {
        const struct spvcond_module *a = q.m, *b = g.m;
        cr_assert(a->inst_count == b->inst_count && a->bound == b->bound, "%s", what);
        cr_assert(!memcmp(a->inst, b->inst, (a->inst_count + 1) * sizeof(uint32_t)), "%s: offsets", what);
        cr_assert(!memcmp(a->id_words, b->id_words, (a->inst_count + 1) * sizeof(uint32_t)), "%s: id words", what);
        cr_assert(!memcmp(a->def, b->def, a->bound * sizeof(uint32_t)), "%s: definitions", what);
        cr_assert(!memcmp(a->section, b->section, sizeof(a->section)), "%s: sections", what);
        cr_assert(a->function_count == b->function_count &&
                      (!a->function_count ||
                       !memcmp(a->functions, b->functions, a->function_count * sizeof(*a->functions))),
                  "%s: functions", what);
        cr_assert(a->opaque_count == b->opaque_count, "%s", what);
    }
    spvcond_module_destroy(q.m);
    spvcond_module_destroy(g.m);
    spvcond_context_destroy(q.ctx);
    spvcond_context_destroy(g.ctx);
}

/* Constants are read by their fast layout among the globals (quick_run): what the general path refuses
 * there, the quick path leaves to it, with the same verdict. */
Test(reader, constants_read_quickly_keep_the_general_rules)
{
    uint32_t w[] = {0x07230203, 0x00010000, 0, 10, 0,
                    0x00020011, 6, 0x00020011, 4, 0x00020011, 5, /* Kernel, Addresses, Linkage */
                    0x0003000e, 2, 2,                            /* OpMemoryModel */
                    0x00040015, 1, 32, 0,                        /* 14: %1 = OpTypeInt 32 0 */
                    0x00040017, 2, 1, 2,                         /* 18: %2 = OpTypeVector %1 2 */
                    0x0004002b, 1, 3, 7,                         /* 22: %3 = OpConstant %1 7 */
                    0x0005002c, 2, 4, 3, 3,                      /* 26: %4 = OpConstantComposite %2 %3 %3 */
                    0x0004002b, 1, 5, 8};                        /* 31: %5 = OpConstant %1 8 */
    size_t n = sizeof(w) / sizeof(w[0]);
    struct captured c;
    cr_assert_eq(parse_words(w, n, &c), SPVCOND_OK, "%s", c.first.message);
    assert_same_parse(w, n, "constants");
    w[30] = 4; /* the composite names itself */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "%4 uses itself", 26);
    assert_same_parse(w, n, "a constant naming itself");
    w[30] = 5; /* a later constant */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "%5 is used before its definition among types, constants", 26);
    assert_same_parse(w, n, "a constant naming a later one");
    w[30] = 3;
    w[23] = 9; /* a type nothing defines */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "result type %9 is used before its definition", 22);
    assert_same_parse(w, n, "a constant of an undefined type");
    w[23] = 1;
    w[32] = 3; /* a constant as a type */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "result type %3 is not a type", 31);
    assert_same_parse(w, n, "a constant as a type");
    w[32] = 1;
    w[33] = 1; /* a constant defining the type's id again */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "id %1 is defined twice", 31);
    assert_same_parse(w, n, "a constant defined twice");
}

/* Extended instructions in code are read quickly by their set's layout (ext_inst_layout): the ids of
 * a printf's tail, and every operand of a non-semantic set's instruction, as the general path finds
 * them. */
Test(reader, extended_instructions_in_code)
{
    size_t n;
    uint32_t *w = read_words(fixture("ext_inst_code"), &n);
    assert_same_parse(w, n, "extended instructions");
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    size_t seen = 0;
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i < m->inst_count; i++) {
        const uint32_t *iw = spvcond_inst_words(m, i);
        if ((iw[0] & 0xffffu) != 12)
            continue;
        uint32_t wc = iw[0] >> 16, expect = 1u << 1 | 1u << 3; /* type, set */
        for (uint32_t k = 5; k < wc; k++)                          /* fabs x; printf fmt a x a; ns x a 1 */
            expect |= 1u << k;
        cr_assert_eq(m->id_words[i], expect, "OpExtInst %u: id words 0x%x, expected 0x%x", iw[4], m->id_words[i],
                     expect);
        seen++;
    }
    cr_assert_eq(seen, 3);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
}

/* The instruction tables are sized for an instruction every 4 words and grown by the general path: a
 * function of two-word instructions (labels and branches, 0.5 a word) fills them inside quick runs,
 * which must stop where the tables end and let them grow, more than once, with the same tables the
 * general path makes. */
Test(reader, quick_runs_stop_where_the_tables_end)
{
    enum { blocks = 1500 };
    uint32_t head[] = {
        0x07230203, 0x00010000, 0, 5 + 2 * blocks, 0,
        0x00020011, 6, 0x00020011, 4, 0x00020011, 5,
        0x0003000e, 2, 2,
        0x00020013, 1,          /* %1 = OpTypeVoid */
        0x00030021, 2, 1,       /* %2 = OpTypeFunction %1 */
        0x00050036, 1, 3, 0, 2, /* %3 = OpFunction */
    };
    size_t nh = sizeof(head) / 4, n = nh + 4 * blocks + 2;
    uint32_t *w = calloc(n, sizeof(uint32_t));
    cr_assert_not_null(w);
    memcpy(w, head, sizeof(head));
    size_t p = nh;
    for (uint32_t b = 0; b < blocks; b++) { /* %(5 + 2b) = OpLabel, then OpBranch to the next (the last: back) */
        w[p++] = 0x000200f8;
        w[p++] = 5 + 2 * b;
        w[p++] = 0x000200f9;
        w[p++] = b + 1 < blocks ? 7 + 2 * b : 5;
    }
    w[p++] = 0x000100fd; /* OpReturn */
    w[p++] = 0x00010038; /* OpFunctionEnd */
    assert_same_parse(w, n, "two-word code");
    struct parse_outcome o;
    parse_with(w, n, false, &o);
    cr_assert_eq(o.r, SPVCOND_OK, "%s", o.c.first.message);
    cr_assert_eq(o.m->inst_count, 7 + 2 * blocks + 2);
    cr_assert_gt(o.m->inst_count, (n - 5) / 4 + 16, "the tables grew");
    cr_assert_eq(o.m->functions[0].end, o.m->inst_count - 1);
    spvcond_module_destroy(o.m);
    spvcond_context_destroy(o.ctx);
    free(w);
}

/* Small functions (two or four instructions of code, none to two parameters) fill the instruction
 * tables, sized for an instruction every 4 words, so that quick runs stop and the tables grow at every
 * point of a function's boundary over the counts of functions tried, where boundary_step and the
 * parameters' run read: the tables must be what the general path makes. */
Test(reader, function_boundaries_where_the_tables_end)
{
    for (uint32_t count = 700; count < 720; count++) {
        uint32_t head[] = {
            0x07230203, 0x00010000, 0, 0, 0,
            0x00020011, 6, 0x00020011, 4, 0x00020011, 5,
            0x0003000e, 2, 2,
            0x00020013, 1,          /* %1 = OpTypeVoid */
            0x00040015, 2, 32, 0,   /* %2 = OpTypeInt 32 0 */
            0x00030021, 3, 1,       /* %3 = OpTypeFunction %1 */
            0x00040021, 4, 1, 2,    /* %4 = OpTypeFunction %1 %2 */
            0x00050021, 5, 1, 2, 2, /* %5 = OpTypeFunction %1 %2 %2 */
        };
        size_t nh = sizeof(head) / 4, n = nh + 16 * (size_t)count;
        uint32_t *w = calloc(n, sizeof(uint32_t));
        cr_assert_not_null(w);
        memcpy(w, head, sizeof(head));
        size_t p = nh;
        uint32_t id = 6;
        for (uint32_t f = 0; f < count; f++) {
            uint32_t params = f % 3;
            w[p++] = 0x00050036, w[p++] = 1, w[p++] = id++, w[p++] = 0, w[p++] = 3 + params; /* OpFunction */
            for (uint32_t k = 0; k < params; k++)
                w[p++] = 0x00030037, w[p++] = 2, w[p++] = id++; /* OpFunctionParameter %2 */
            w[p++] = 0x000200f8, w[p++] = id++;                 /* OpLabel */
            if (f % 2)
                w[p++] = 0x000200f9, w[p++] = id, w[p++] = 0x000200f8, w[p++] = id++; /* OpBranch, OpLabel */
            w[p++] = 0x000100fd, w[p++] = 0x00010038; /* OpReturn, OpFunctionEnd */
        }
        w[3] = id;
        char what[48];
        snprintf(what, sizeof(what), "%u small functions", count);
        assert_same_parse(w, p, what);
        struct parse_outcome o;
        parse_with(w, p, false, &o);
        cr_assert_eq(o.r, SPVCOND_OK, "%s", o.c.first.message);
        cr_assert_eq(o.m->function_count, count);
        spvcond_module_destroy(o.m);
        spvcond_context_destroy(o.ctx);
        free(w);
    }
}

/* Calls are read by the quick path, which lets a callee be a function defined earlier, the function
 * itself or a later one; another function's value as the callee is the same fault it is anywhere, with
 * the general path's message (and the same tables otherwise). */
Test(reader, calls_read_quickly_keep_the_general_rules)
{
    uint32_t w[] = {
        0x07230203, 0x00010000, 0, 10, 0,
        0x00020011, 6, 0x00020011, 4, 0x00020011, 5,
        0x0003000e, 2, 2,
        0x00020013, 1,                   /* %1 = OpTypeVoid */
        0x00030021, 2, 1,                /* %2 = OpTypeFunction %1 */
        0x00050036, 1, 3, 0, 2,          /* 19: %3 = OpFunction */
        0x000200f8, 4,                   /* %4 = OpLabel */
        0x000100fd, 0x00010038,
        0x00050036, 1, 5, 0, 2,          /* 28: %5 = OpFunction */
        0x000200f8, 6,                   /* %6 = OpLabel */
        0x00040039, 1, 7, 3,             /* 35: %7 = OpFunctionCall %1 %3 (earlier) */
        0x00040039, 1, 8, 5,             /* 39: %8 = OpFunctionCall %1 %5 (itself) */
        0x00040039, 1, 9, 3,             /* 43: %9 = OpFunctionCall %1 %3, made a later one below */
        0x000100fd, 0x00010038,
    };
    size_t n = sizeof(w) / 4;
    assert_same_parse(w, n, "calls");
    struct parse_outcome o;
    parse_with(w, n, false, &o);
    cr_assert_eq(o.r, SPVCOND_OK, "%s", o.c.first.message);
    spvcond_module_info info = {.size = sizeof(info)};
    cr_assert_eq(spvcond_module_info_get(o.m, &info), SPVCOND_OK);
    cr_assert_eq(info.call_edge_count, 3);
    spvcond_module_destroy(o.m);
    spvcond_context_destroy(o.ctx);
    w[38] = 4; /* another function's label */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "%4 is local to another function", 35);
    assert_same_parse(w, n, "another function's label as the callee");
    w[38] = 3;
    w[46] = 11, w[3] = 12; /* nothing defines %11 */
    expect_reject(w, n, SPVCOND_ERROR_INVALID_ID, "id %11 is used but never defined", 43);
    assert_same_parse(w, n, "a callee nothing defines");
}

/* The boundaries between functions are read quickly (boundary_step): the OpFunctionEnd of a function
 * read in its blocks, the next OpFunction, and its first OpLabel after the parameters. Whatever the
 * general path refuses there, the quick path leaves to it, with the same verdict; accepted, the same
 * tables (functions, definitions, id words). */
Test(reader, function_boundaries_read_quickly_keep_the_general_rules)
{
    uint32_t w[] = {0x07230203, 0x00010000, 0, 14, 0,
                    0x00020011, 6, 0x00020011, 4, 0x00020011, 5, /* Kernel, Addresses, Linkage */
                    0x0003000e, 2, 2,                            /* OpMemoryModel */
                    0x00020013, 1,                               /* 14: %1 = OpTypeVoid */
                    0x00030021, 2, 1,                            /* 16: %2 = OpTypeFunction %1 */
                    0x00040015, 3, 32, 0,                        /* 19: %3 = OpTypeInt 32 0 */
                    0x0004002b, 3, 4, 7,                         /* 23: %4 = OpConstant %3 7 */
                    0x00040021, 11, 1, 3,                        /* 27: %11 = OpTypeFunction %1 %3 */
                    0x00050036, 1, 5, 0, 2,                      /* 31: %5 = OpFunction %1 None %2 */
                    0x000200f8, 6,                               /* 36: %6 = OpLabel */
                    0x000100fd, 0x00010038,                      /* 38: OpReturn, OpFunctionEnd */
                    0x00050036, 1, 7, 0, 2,                      /* 40: %7 = OpFunction %1 None %2 */
                    0x000200f8, 8,                               /* 45: %8 = OpLabel */
                    0x00040039, 1, 9, 10,                        /* 47: %9 = OpFunctionCall %1 %10 */
                    0x000100fd, 0x00010038,                      /* 51: OpReturn, OpFunctionEnd */
                    0x00050036, 1, 10, 0, 11,                    /* 53: %10 = OpFunction %1 None %11 */
                    0x00030037, 3, 12,                           /* 58: %12 = OpFunctionParameter %3 */
                    0x000200f8, 13,                              /* 61: %13 = OpLabel */
                    0x000100fd, 0x00010038};                     /* 63: OpReturn, OpFunctionEnd */
    size_t n = sizeof(w) / sizeof(w[0]);
    struct captured c;
    cr_assert_eq(parse_words(w, n, &c), SPVCOND_OK, "%s", c.first.message);
    assert_same_parse(w, n, "three functions");
    struct parse_outcome o;
    parse_with(w, n, false, &o);
    cr_assert_eq(o.m->function_count, 3);
    cr_assert(o.m->functions[1].begin == 13 && o.m->functions[1].first_block == 14 && o.m->functions[1].end == 17);
    cr_assert(o.m->functions[2].begin == 18 && o.m->functions[2].first_block == 20 && o.m->functions[2].end == 22);
    cr_assert_eq(o.m->id_words[18], 1u << 1 | 1u << 4, "OpFunction: its result type and its type");
    cr_assert(spvcond_is_function_id(o.m, 7) && spvcond_is_function_id(o.m, 10));
    spvcond_module_destroy(o.m);
    spvcond_context_destroy(o.ctx);
    struct {
        size_t word;
        uint32_t value;
        spvcond_result code;
        const char *needle; /* NULL: accepted */
        size_t at;
    } faults[] = {
        {44, 4, SPVCOND_ERROR_INVALID_ID, "the type of OpFunction %7 is %4, which is not an OpTypeFunction", 40},
        {44, 1, SPVCOND_ERROR_INVALID_ID, "the type of OpFunction %7 is %1, which is not an OpTypeFunction", 40},
        {44, 13, SPVCOND_ERROR_INVALID_ID, "which is not an OpTypeFunction", 40}, /* a later label */
        {44, 99, SPVCOND_ERROR_INVALID_ID, "outside the id range", 40},
        {41, 4, SPVCOND_ERROR_INVALID_ID, "result type %4 is not a type", 40},
        {41, 12, SPVCOND_ERROR_INVALID_ID, "result type %12 is used before its definition", 40},
        {42, 6, SPVCOND_ERROR_INVALID_ID, "id %6 is defined twice", 40},
        {42, 0, SPVCOND_ERROR_INVALID_ID, "outside the id range", 40},
        {46, 5, SPVCOND_ERROR_INVALID_ID, "id %5 is defined twice", 45},
        {62, 12, SPVCOND_ERROR_INVALID_ID, "id %12 is defined twice", 61},
        {62, 14, SPVCOND_ERROR_INVALID_ID, "outside the id range", 61},
        {43, 1, 0, NULL, 0},        /* Inline */
        {43, 0x10000, 0, NULL, 0},  /* a function control bit the grammar does not know: either path's verdict */
        {52, 0x000100fd, SPVCOND_ERROR_INVALID_LAYOUT, "OpFunction %10 starts inside function %7", 53},
    };
    for (size_t k = 0; k < sizeof(faults) / sizeof(faults[0]); k++) {
        uint32_t was = w[faults[k].word];
        w[faults[k].word] = faults[k].value;
        char what[64];
        snprintf(what, sizeof(what), "word %zu = %u", faults[k].word, faults[k].value);
        if (faults[k].needle)
            expect_reject(w, n, faults[k].code, faults[k].needle, faults[k].at);
        assert_same_parse(w, n, what);
        w[faults[k].word] = was;
    }
}

/* An annotated module's decorations carry their conditions as ids (ConditionalINTEL), read by the
 * quick path for decorations: a condition nothing defines, one out of range, and one that is a
 * function's local, get the general path's verdicts and messages. */
Test(reader, decoration_ids_read_quickly_keep_the_general_rules)
{
    size_t n, an;
    uint32_t *w = read_words(corpus("qgis__resources__opencl_programs__hillshade.spv"), &n);
    uint32_t *a = annotated_words(w, n, &an);
    free(w);
    /* The first ConditionalINTEL decoration, and a value of some function. */
    size_t at = 5, local = 0;
    while (at < an && !((a[at] & 0xffffu) == 71 && a[at] >> 16 == 4 && a[at + 2] == 6247))
        at += a[at] >> 16;
    cr_assert_lt(at, an, "the annotated module has a conditional decoration");
    for (size_t p = at; p < an && !local; p += a[p] >> 16)
        if ((a[p] & 0xffffu) == 129 /* OpFAdd */ || (a[p] & 0xffffu) == 128 /* OpIAdd */)
            local = p;
    cr_assert(local, "some code to name");
    uint32_t keep = a[at + 3], bound = a[3];
    assert_same_parse(a, an, "annotated");
    a[3] = bound + 1; /* an id in range that nothing defines */
    a[at + 3] = bound;
    assert_same_parse(a, an, "a condition nothing defines");
    expect_reject(a, an, SPVCOND_ERROR_INVALID_ID, "is used but never defined", at);
    a[3] = bound;
    assert_same_parse(a, an, "a condition out of range");
    a[at + 3] = a[local + 2];
    assert_same_parse(a, an, "a function's value as a condition");
    a[at + 3] = keep;
    assert_same_parse(a, an, "restored");
    free(a);
}

Test(reader, quick_path_agrees_on_real_modules)
{
    const char *names[] = {"ufo__complex.spv", "qgis__resources__opencl_programs__hillshade.spv",
                           "python3-pyfai__pyFAI__resources__openCL__preprocess.spv",
                           "hashcat__m13711-pure.spv"};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        size_t n;
        uint32_t *w = read_words(corpus(names[k]), &n);
        assert_same_parse(w, n, names[k]);
        free(w);
    }
    size_t n;
    uint32_t *w = read_words("/usr/lib/clc/spirv64-mesa3d-.spv", &n);
    assert_same_parse(w, n, "libclc");
    /* Annotated: conditions on thousands of decorations (ConditionalINTEL's id), spec constants. */
    size_t an;
    uint32_t *a = annotated_words(w, n, &an);
    assert_same_parse(a, an, "libclc annotated");
    free(a);
    free(w);
}

/* Words of functions' code, in every fourth round of names and decorations (annotation_run), in
 * another of types, constants and variables (quick_run among the globals), replaced at random (by ids
 * defined, undefined and out of range, by another function's ids, by zero, by another opcode of the
 * same length): whatever the general path says of each module, the quick path says too. A name
 * starting with '+' is the module annotated (decorations with an id: its ConditionalINTEL conditions). */
Test(reader, quick_path_agrees_on_mutated_code, .timeout = 300)
{
    const char *names[] = {"ufo__complex.spv", "qgis__resources__opencl_programs__hillshade.spv",
                           "python3-pyfai__pyFAI__resources__openCL__preprocess.spv",
                           "+piglit__gen__vstore__vstore_half-double-local.spv"};
    uint64_t seed = 0x9e3779b97f4a7c15u;
    size_t failures = 0, runs = 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        size_t n;
        uint32_t *w = read_words(corpus(names[k] + (names[k][0] == '+')), &n);
        if (names[k][0] == '+') {
            size_t an;
            uint32_t *a = annotated_words(w, n, &an);
            free(w);
            w = a, n = an;
        }
        struct parse_outcome o;
        parse_with(w, n, true, &o);
        cr_assert_eq(o.r, SPVCOND_OK);
        size_t code = o.m->section[SPVCOND_SECTION_FUNCTION], count = o.m->inst_count;
        size_t annotations = o.m->section[SPVCOND_SECTION_DEBUG_NAME], globals = o.m->section[SPVCOND_SECTION_GLOBAL];
        cr_assert_gt(globals - annotations, 10, "%s has names and decorations", names[k]);
        uint32_t bound = o.m->bound;
        uint32_t *offsets = malloc((count + 1) * sizeof(uint32_t));
        memcpy(offsets, o.m->inst, (count + 1) * sizeof(uint32_t));
        spvcond_module_destroy(o.m);
        spvcond_context_destroy(o.ctx);
        uint32_t *mutant = malloc(n * sizeof(uint32_t));
        for (int round = 0; round < 3000; round++) {
            memcpy(mutant, w, n * sizeof(uint32_t));
            for (int edits = 1 + round % 2; edits > 0; edits--) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                uint32_t r = (uint32_t)(seed >> 33);
                size_t i = round % 4 == 2   ? annotations + r % (globals - annotations)
                           : round % 4 == 3 ? globals + r % (code - globals)
                                            : code + r % (count - code);
                mutate_word(mutant, w, offsets, i, code, count, bound, r);
            }
            assert_same_parse(mutant, n, names[k]);
            struct parse_outcome g;
            parse_with(mutant, n, true, &g);
            failures += g.r != SPVCOND_OK;
            runs++;
            spvcond_module_destroy(g.m);
            spvcond_context_destroy(g.ctx);
        }
        free(mutant);
        free(offsets);
        free(w);
    }
    /* Both verdicts must occur, or the test would compare nothing of interest. */
    cr_assert(failures > runs / 10 && failures < runs - runs / 10, "%zu of %zu mutants rejected", failures, runs);
}

/* The library's version as a number, and the lookups the CLI and callers share. */
Test(reader, version_number_and_names)
{
    cr_assert_eq(spvcond_version(), SPVCOND_VERSION_NUMBER);
    cr_assert_eq(spvcond_version(), SPVCOND_VERSION_MAJOR * 10000u + SPVCOND_VERSION_MINOR * 100u + SPVCOND_VERSION_PATCH);
    char text[32];
    snprintf(text, sizeof(text), "%u.%u.%u", spvcond_version() / 10000, spvcond_version() / 100 % 100,
             spvcond_version() % 100);
    cr_assert_str_eq(text, spvcond_version_string());
    cr_assert_str_eq(spvcond_aspect_name(6), "fp64");
    cr_assert_str_eq(spvcond_aspect_name(5), "fp16");
    cr_assert_null(spvcond_aspect_name(100000));
    uint32_t value = 0;
    cr_assert(spvcond_capability_value("Float64", &value));
    cr_assert_eq(value, 10);
    cr_assert(spvcond_capability_value("SpecConditionalINTEL", &value));
    cr_assert_eq(value, 6245);
    cr_assert_not(spvcond_capability_value("NoSuchCapability", &value));
    cr_assert_not(spvcond_capability_value(NULL, &value));
}

/* A module gives back the context it was parsed in, which frees what it emits. */
Test(reader, module_gives_its_context)
{
    spvcond_context *ctx = NULL;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m = NULL;
    cr_assert_eq(spvcond_module_parse(ctx, base, BASE_WORDS, 0, &m), SPVCOND_OK);
    cr_assert_eq(spvcond_module_context(m), ctx);
    cr_assert_null(spvcond_module_context(NULL));
    uint32_t *out = NULL;
    size_t count = 0;
    cr_assert_eq(spvcond_module_emit(m, &out, &count), SPVCOND_OK);
    spvcond_free(spvcond_module_context(m), out);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}
