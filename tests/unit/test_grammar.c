/* SPDX-License-Identifier: MIT */
/* The generated grammar tables and the operand walker. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "ir/capabilities.h"
#include "helpers.h"
#include "ir/operands.h"

Test(grammar, core_opcodes)
{
    cr_assert_str_eq(spvcond_grammar_opcode_name(54), "OpFunction");
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(57);
    cr_assert(gi && gi->has_type && gi->has_result);
    cr_assert_str_eq(spvcond_grammar_opcode_name(65535), "");
    cr_assert_null(spvcond_grammar_instruction(6999));
}

/* A quick row says what its full row says: `frame` words before the operands the full row describes
 * (0 for a core instruction; 4 for an extended one, whose row counts OpExtInst's type, result, set and
 * number: the result in word 2, the set an id use in word 3). */
static void
check_quick_row(struct spvcond_grammar_quick q, const struct spvcond_grammar_instruction *gi, uint32_t frame,
                const char *what, uint32_t op)
{
    cr_assert(gi->simple, "%s %u", what, op);
    cr_assert_eq(q.min_words, 1u + frame + gi->fixed, "%s %u", what, op);
    bool has_type = frame || gi->has_type;
    uint32_t result_word = frame ? 2u : gi->result_word;
    uint32_t ids = frame ? 1u << 2 | (uint32_t)gi->id_mask << 4 : gi->id_mask & ~(has_type ? 1u : 0u);
    if (result_word)
        ids &= ~(1u << (result_word - 1));
    cr_assert_eq(q.result_word, result_word, "%s %u", what, op);
    cr_assert_eq(q.ids, ids, "%s %u", what, op);
    cr_assert_eq(!!(q.flags & SPVCOND_QUICK_TYPE), has_type, "%s %u", what, op);
    bool id_tail = gi->tail == SPVCOND_TAIL_IDS || gi->tail == SPVCOND_TAIL_OPTIONAL_ID;
    cr_assert_eq(!!(q.flags & SPVCOND_QUICK_ID_TAIL), id_tail, "%s %u", what, op);
    cr_assert_eq(!!(q.flags & SPVCOND_QUICK_MASK_TAIL), gi->tail == SPVCOND_TAIL_OPTIONAL_MASK, "%s %u", what, op);
    if (q.flags & SPVCOND_QUICK_MASK_TAIL) { /* the mask's bits, from the small table */
        struct spvcond_grammar_quick_mask bits = spvcond_grammar_quick_masks[q.flags >> SPVCOND_QUICK_MASK_SHIFT];
        cr_assert_eq(bits.allowed, gi->mask_allowed, "%s %u", what, op);
        cr_assert_eq(bits.one_word, gi->mask_one_word, "%s %u", what, op);
    }
    /* What surely fits is what spvcond_grammar_fits_fast accepts whatever the words hold (a mask of no
     * bits: it takes no literal). */
    uint32_t w[24] = {0};
    for (uint32_t extra = 0; extra < 4; extra++) {
        uint32_t n = 1u + gi->fixed + extra; /* as spvcond_grammar_fits_fast counts: the frame left out */
        if (extra < q.fits_below)
            cr_assert(spvcond_grammar_fits_fast(gi, w, n), "%s %u, %u words", what, op, n + frame);
        else if (!(q.flags & SPVCOND_QUICK_MASK_TAIL))
            cr_assert(!spvcond_grammar_fits_fast(gi, w, n), "%s %u, %u words", what, op, n + frame);
    }
}

/* The quick runs' 8-byte rows say what the full rows say, for every opcode they may take (and OpLabel,
 * which later blocks' runs take) and every extended instruction they may take; the rest take nothing. */
Test(grammar, quick_rows_agree_with_the_full_rows)
{
    unsigned quick = 0;
    for (uint32_t op = 0; op <= SPVCOND_GRAMMAR_MAX_OPCODE; op++) {
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
        if (op >= SPVCOND_GRAMMAR_QUICK_OPCODES) {
            cr_assert(!gi || !gi->quick, "opcode %u is quick past the quick rows", op);
            continue;
        }
        struct spvcond_grammar_quick q = spvcond_grammar_quick[op];
        if (!gi || (!gi->quick && op != 248)) {
            cr_assert(q.where == 0 && q.min_words == 0, "opcode %u", op);
            continue;
        }
        quick += gi->quick != 0;
        cr_assert_eq(q.where, gi->quick, "opcode %u", op);
        check_quick_row(q, gi, 0, "opcode", op);
    }
    cr_assert_gt(quick, 200u);
    unsigned extended = 0;
    for (size_t k = 0; k < SPVCOND_GRAMMAR_EXTINST_SET_COUNT; k++) {
        const struct spvcond_grammar_extinst_set *set = &spvcond_grammar_extinst_sets[k];
        for (size_t i = 0; i < set->count; i++) {
            const struct spvcond_grammar_instruction *gi = &set->instructions[i];
            cr_assert_eq(set->quick[i].where, gi->quick & SPVCOND_QUICK_CODE, "%s %u", set->name, gi->opcode);
            if (gi->quick & SPVCOND_QUICK_CODE) {
                check_quick_row(set->quick[i], gi, 4, set->name, gi->opcode);
                extended++;
            }
        }
    }
    cr_assert_gt(extended, 100u);
}

/* The rows the reader's quick run takes as constants are the table's. */
Test(grammar, constant_quick_rows_are_the_tables)
{
    const struct {
        uint32_t op;
        struct spvcond_grammar_quick row;
    } rows[] = {{SPVCOND_OP_LOAD, SPVCOND_QUICK_ROW_LOAD},
                {SPVCOND_OP_STORE, SPVCOND_QUICK_ROW_STORE},
                {SPVCOND_OP_VARIABLE, SPVCOND_QUICK_ROW_VARIABLE}};
    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        struct spvcond_grammar_quick t = spvcond_grammar_quick[rows[k].op], c = rows[k].row;
        cr_assert(c.ids == t.ids && c.fits_below == t.fits_below && c.where == t.where &&
                      c.min_words == t.min_words && c.result_word == t.result_word && c.flags == t.flags,
                  "opcode %u", rows[k].op);
        cr_assert(c.where & SPVCOND_QUICK_CODE, "opcode %u", rows[k].op);
    }
}

/* The word tests of literal strings against byte-by-byte ones: every byte value in every position of
 * a word (0x80 and 0x01 next to a zero are where a borrow could mislead the word-at-a-time test), then
 * strings of every length with their NUL anywhere, and words past the NUL. */
static bool
bytes_have_nul(uint32_t v)
{
    for (unsigned b = 0; b < 4; b++)
        if (((v >> (8 * b)) & 0xffu) == 0)
            return true;
    return false;
}

Test(grammar, literal_string_word_tests)
{
    const uint8_t fill[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff, 'a'};
    for (unsigned pos = 0; pos < 4; pos++)
        for (unsigned v = 0; v < 256; v++)
            for (size_t f = 0; f < sizeof(fill); f++) {
                uint32_t word = 0;
                for (unsigned b = 0; b < 4; b++)
                    word |= (uint32_t)(b == pos ? v : fill[f]) << (8 * b);
                cr_assert_eq(spvcond_word_has_nul(word), bytes_have_nul(word), "word 0x%08x", word);
            }
    /* Strings of 1..12 words whose first zero byte is byte z (or none), in a buffer from word 1. */
    uint32_t w[16];
    for (uint32_t words = 1; words <= 12; words++)
        for (uint32_t z = 0; z <= 4 * words; z++)
            for (size_t f = 1; f < sizeof(fill); f++) {
                uint8_t bytes[4 * 16];
                for (size_t b = 0; b < sizeof(bytes); b++)
                    bytes[b] = b >= 4 && b - 4 == z ? 0 : fill[f];
                memcpy(w, bytes, sizeof(w));
                uint32_t nul_word = z < 4 * words ? 1 + z / 4 : UINT32_MAX; /* the word holding it */
                for (uint32_t last = 0; last < 16; last++)
                    cr_assert_eq(spvcond_string_ends_at(w, 1, 1 + words, last), last == nul_word,
                                 "%u words, NUL at byte %u, fill 0x%02x, last %u", words, z, fill[f], last);
            }
}

Test(grammar, function_variants_supplement)
{
    static const struct { uint32_t op; const char *name; int type; } ops[] = {
        {6248, "OpConditionalExtensionINTEL", 0}, {6249, "OpConditionalEntryPointINTEL", 0},
        {6250, "OpConditionalCapabilityINTEL", 0}, {6251, "OpSpecConstantTargetINTEL", 1},
        {6252, "OpSpecConstantArchitectureINTEL", 1}, {6253, "OpSpecConstantCapabilitiesINTEL", 1},
        {6254, "OpConditionalCopyObjectINTEL", 1},
    };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(ops[i].op);
        cr_assert_not_null(gi, "opcode %u missing", ops[i].op);
        cr_assert_str_eq(gi->name, ops[i].name);
        cr_assert_eq(gi->has_type, ops[i].type);
        cr_assert_eq(gi->has_result, ops[i].type);
        cr_assert_eq(gi->cap_count, 1);
        cr_assert_eq(spvcond_grammar_capabilities[gi->first_cap], ops[i].op >= 6251 && ops[i].op <= 6253 ? 6246u : 6245u);
    }
    const struct spvcond_grammar_enumerant *d = spvcond_grammar_enumerant(SPVCOND_KIND_Decoration, 6247);
    cr_assert_not_null(d);
    cr_assert_str_eq(d->name, "ConditionalINTEL");
    cr_assert_eq(d->param_count, 1);
    cr_assert_eq(spvcond_grammar_kinds[spvcond_grammar_operands[d->first_param].kind].operand_class, SPVCOND_OC_ID);
    const struct spvcond_grammar_enumerant *c = spvcond_grammar_enumerant(SPVCOND_KIND_Capability, 6246);
    cr_assert_str_eq(c->name, "FunctionVariantsINTEL");
    cr_assert_eq(c->cap_count, 1, "FunctionVariantsINTEL implicitly declares SpecConditionalINTEL");
    cr_assert_eq(spvcond_grammar_capabilities[c->first_cap], 6245u);
    cr_assert_eq(c->ext_count, 1);
    cr_assert_str_eq(spvcond_grammar_extensions[c->first_ext], "SPV_INTEL_function_variants");
}

Test(grammar, enumerant_capabilities_and_versions)
{
    const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant_by_name(SPVCOND_KIND_Capability, "Float64");
    cr_assert_not_null(e);
    cr_assert_eq(e->value, 10);
    const struct spvcond_grammar_enumerant *sg = spvcond_grammar_enumerant(SPVCOND_KIND_ExecutionMode, 35);
    cr_assert_str_eq(sg->name, "SubgroupSize");
    cr_assert_eq(sg->cap_count, 1);
    cr_assert_eq(spvcond_grammar_capabilities[sg->first_cap], 58u /* SubgroupDispatch */);
    cr_assert_eq(sg->version, 0x0101u);
    cr_assert_eq(sg->last_version, SPVCOND_VERSION_NONE);
    const struct spvcond_grammar_enumerant *bb = spvcond_grammar_enumerant(SPVCOND_KIND_Decoration, 3);
    cr_assert_str_eq(bb->name, "BufferBlock");
    cr_assert(bb->version == 0x0100u && bb->last_version == 0x0103u, "BufferBlock: 1.0 to 1.3");
    const struct spvcond_grammar_enumerant *sc = spvcond_grammar_enumerant(SPVCOND_KIND_Capability, 6245);
    cr_assert_eq(sc->version, SPVCOND_VERSION_NONE, "SpecConditionalINTEL: through its extension only");
    const struct spvcond_grammar_enumerant *a = spvcond_grammar_enumerant(SPVCOND_KIND_Capability, 12);
    cr_assert_str_eq(a->name, "Int64Atomics");
    cr_assert_eq(spvcond_grammar_capabilities[a->first_cap], 11u /* Int64 */);
    cr_assert_null(spvcond_grammar_enumerant(SPVCOND_KIND_Capability, 123456));
}

/* Every enumerant of every kind is found by its value, through whichever of the direct slots, the
 * low-byte slots (where values collide) or the search holds it; values next to them that no enumerant
 * has are not found, however their low byte collides. */
Test(grammar, every_enumerant_found_by_value)
{
    size_t checked = 0, high = 0;
    for (unsigned kind = 0; kind < SPVCOND_GRAMMAR_KIND_COUNT; kind++) {
        const struct spvcond_grammar_kind *k = &spvcond_grammar_kinds[kind];
        if (k->operand_class != SPVCOND_OC_VALUE_ENUM && k->operand_class != SPVCOND_OC_BIT_ENUM)
            continue;
        for (uint32_t n = k->first_enumerant; n < k->first_enumerant + k->enumerant_count; n++) {
            uint32_t v = spvcond_grammar_enumerants[n].value;
            const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, v);
            cr_assert_not_null(e, "%s value %u not found", k->name, v);
            cr_assert_eq(e->value, v, "%s value %u found as %u", k->name, v, e->value);
            cr_assert_eq(spvcond_grammar_enumerant_values[e - spvcond_grammar_enumerants], v);
            checked++;
            high += v >= SPVCOND_GRAMMAR_ENUMERANT_SLOTS;
            for (uint32_t probe = v + 1; probe <= v + 256; probe += 255) { /* same low byte, or the next value */
                bool exists = false;
                for (uint32_t q = k->first_enumerant; q < k->first_enumerant + k->enumerant_count; q++)
                    exists |= spvcond_grammar_enumerants[q].value == probe;
                if (!exists)
                    cr_assert_null(spvcond_grammar_enumerant(kind, probe), "%s value %u found", k->name, probe);
            }
        }
    }
    cr_log_info("%zu enumerants, %zu of them from 64 up", checked, high);
    cr_assert_gt(checked, 700);
    cr_assert_gt(high, 300); /* vendor values, most through the low-byte slots */
}

Test(grammar, extended_instruction_sets)
{
    const struct spvcond_grammar_extinst_set *s = spvcond_grammar_extinst_set("OpenCL.std");
    cr_assert_not_null(s);
    const struct spvcond_grammar_instruction *fabs = spvcond_grammar_extinst(s, 23);
    cr_assert_str_eq(fabs->name, "fabs");
    cr_assert_not_null(spvcond_grammar_extinst_set("OpenCL.DebugInfo.100"));
    cr_assert_not_null(spvcond_grammar_extinst_set("NonSemantic.Shader.DebugInfo.100"));
    /* A compute shader's math (GLSL's fma, sqrt...): its ids are checked as an OpenCL module's. */
    const struct spvcond_grammar_extinst_set *glsl = spvcond_grammar_extinst_set("GLSL.std.450");
    cr_assert_not_null(glsl);
    cr_assert_str_eq(spvcond_grammar_extinst(glsl, 50)->name, "Fma");
    cr_assert_null(spvcond_grammar_extinst_set("SPV_AMD_shader_ballot"));
}

struct ops {
    uint32_t words[64];
    uint8_t cls[64];
    size_t n;
};

static spvcond_result
record(void *user, const uint32_t *words, const struct spvcond_operand *op)
{
    struct ops *o = user;
    for (uint32_t k = 0; k < op->count && o->n < 64; k++) {
        o->words[o->n] = op->word + k;
        o->cls[o->n++] = op->operand_class;
    }
    (void)words;
    return SPVCOND_OK;
}

static size_t
find(const spvcond_module *m, uint32_t opcode)
{
    for (size_t i = 0; i < m->inst_count; i++)
        if (spvcond_inst_opcode(m, i) == opcode)
            return i;
    cr_assert_fail("opcode %u not found", opcode);
    return 0;
}

Test(walker, switch_case_literals_follow_the_selector_width)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("switch64"), &ctx);
    struct ops o = {0};
    cr_assert_eq(spvcond_walk_operands(m, find(m, 251), record, &o), SPVCOND_OK);
    /* selector, default, (lit lo, lit hi, label) x 2 */
    uint8_t want[] = {SPVCOND_OC_ID, SPVCOND_OC_ID, SPVCOND_OC_CONTEXT_NUMBER, SPVCOND_OC_CONTEXT_NUMBER,
                      SPVCOND_OC_ID, SPVCOND_OC_CONTEXT_NUMBER, SPVCOND_OC_CONTEXT_NUMBER, SPVCOND_OC_ID};
    cr_assert_eq(o.n, sizeof(want));
    for (size_t k = 0; k < sizeof(want); k++)
        cr_assert_eq(o.cls[k], want[k], "operand word %zu", k);
    destroy_module(m, ctx);
}

Test(walker, spec_constant_op_operands_are_ids)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("spec_constant_op"), &ctx);
    struct ops o = {0};
    cr_assert_eq(spvcond_walk_operands(m, find(m, 52), record, &o), SPVCOND_OK);
    uint8_t want[] = {SPVCOND_OC_RESULT_TYPE, SPVCOND_OC_RESULT_ID, SPVCOND_OC_SPECOP_NUMBER, SPVCOND_OC_ID,
                      SPVCOND_OC_ID};
    cr_assert_eq(o.n, sizeof(want));
    for (size_t k = 0; k < sizeof(want); k++)
        cr_assert_eq(o.cls[k], want[k]);
    destroy_module(m, ctx);
}

Test(walker, conditional_decoration_and_copy_object)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("conditional_capability"), &ctx);
    /* Find the OpDecorate carrying ConditionalINTEL: its 4th word is an id use. */
    for (size_t i = 0; i < m->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if ((w[0] & 0xffff) == 71 && w[2] == 6247) {
            struct ops o = {0};
            cr_assert_eq(spvcond_walk_operands(m, i, record, &o), SPVCOND_OK);
            cr_assert_eq(o.n, 3);
            cr_assert_eq(o.cls[0], SPVCOND_OC_ID);
            cr_assert_eq(o.cls[1], SPVCOND_OC_VALUE_ENUM);
            cr_assert_eq(o.cls[2], SPVCOND_OC_ID);
        }
    }
    struct ops o = {0};
    cr_assert_eq(spvcond_walk_operands(m, find(m, 6254), record, &o), SPVCOND_OK);
    cr_assert_eq(o.n, 6);
    for (size_t k = 2; k < 6; k++)
        cr_assert_eq(o.cls[k], SPVCOND_OC_ID);
    struct ops e = {0};
    cr_assert_eq(spvcond_walk_operands(m, find(m, 6249), record, &e), SPVCOND_OK);
    uint8_t want[] = {SPVCOND_OC_ID, SPVCOND_OC_VALUE_ENUM, SPVCOND_OC_ID, SPVCOND_OC_LITERAL_STRING,
                      SPVCOND_OC_LITERAL_STRING};
    cr_assert_eq(e.n, sizeof(want));
    for (size_t k = 0; k < sizeof(want); k++)
        cr_assert_eq(e.cls[k], want[k]);
    cr_assert_eq(m->opaque_count, 0, "every extension instruction is known to the grammar");
    destroy_module(m, ctx);
}

Test(walker, ext_inst_and_memory_operands)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("kernels_fp64"), &ctx);
    struct ops o = {0};
    cr_assert_eq(spvcond_walk_operands(m, find(m, 12), record, &o), SPVCOND_OK);
    uint8_t want[] = {SPVCOND_OC_RESULT_TYPE, SPVCOND_OC_RESULT_ID, SPVCOND_OC_ID, SPVCOND_OC_EXTINST_NUMBER,
                      SPVCOND_OC_ID};
    cr_assert_eq(o.n, sizeof(want));
    for (size_t k = 0; k < sizeof(want); k++)
        cr_assert_eq(o.cls[k], want[k]);
    /* OpLoad ... Aligned 32: the mask's parameter is a literal. */
    struct ops l = {0};
    cr_assert_eq(spvcond_walk_operands(m, find(m, 61), record, &l), SPVCOND_OK);
    uint8_t lw[] = {SPVCOND_OC_RESULT_TYPE, SPVCOND_OC_RESULT_ID, SPVCOND_OC_ID, SPVCOND_OC_BIT_ENUM,
                    SPVCOND_OC_LITERAL_INT};
    cr_assert_eq(l.n, sizeof(lw));
    for (size_t k = 0; k < sizeof(lw); k++)
        cr_assert_eq(l.cls[k], lw[k]);
    destroy_module(m, ctx);
}

/* The walkers' fast layout must find exactly the ids the general walker finds. */
struct id_list {
    uint32_t words[4096];
    size_t n;
};

static spvcond_result
collect_fast(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct id_list *l = user;
    (void)inst;
    (void)id;
    if (l->n < 4096)
        l->words[l->n++] = word;
    return SPVCOND_OK;
}

static spvcond_result
collect_slow(void *user, const uint32_t *words, const struct spvcond_operand *op)
{
    struct id_list *l = user;
    (void)words;
    if ((op->operand_class == SPVCOND_OC_ID || op->operand_class == SPVCOND_OC_RESULT_TYPE) && l->n < 4096)
        l->words[l->n++] = op->word;
    return SPVCOND_OK;
}

Test(walker, fast_layout_agrees_with_the_general_walker)
{
    const char *paths[] = {"/usr/lib/clc/spirv64-mesa3d-.spv", NULL, NULL};
    paths[1] = corpus("hashcat__m13711-pure.spv");
    paths[2] = corpus("darktable__extended.spv");
    for (size_t p = 0; p < 3; p++) {
        spvcond_context *ctx;
        spvcond_module *m = load_module(paths[p], &ctx);
        size_t fast = 0;
        for (size_t i = 0; i < m->inst_count; i++) {
            static struct id_list a, b;
            a.n = b.n = 0;
            cr_assert_eq(spvcond_walk_ids(m, i, collect_fast, &a), SPVCOND_OK);
            cr_assert_eq(spvcond_walk_operands(m, i, collect_slow, &b), SPVCOND_OK);
            cr_assert_eq(a.n, b.n, "%s: instruction %zu (%s)", paths[p], i,
                         spvcond_grammar_opcode_name(spvcond_inst_opcode(m, i)));
            cr_assert(memcmp(a.words, b.words, a.n * sizeof(uint32_t)) == 0, "instruction %zu", i);
            fast += spvcond_fast_shape(m, spvcond_inst_words(m, i),
                                       spvcond_grammar_instruction(spvcond_inst_opcode(m, i))).kind != SPVCOND_FAST_NONE;
        }
        cr_assert_gt(fast, m->inst_count * 9 / 10, "the fast layout covers most instructions (%zu of %zu in %s)", fast, m->inst_count, paths[p]);
        destroy_module(m, ctx);
    }
}

/* ---- the capability scan restricted to declared capabilities ---- */

struct cap_hits {
    const struct spvcond_declared_caps *caps;
    uint64_t found; /* bit d: declared capability d reported */
};

static spvcond_result
collect_declared(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct cap_hits *h = user;
    (void)inst;
    for (size_t c = 0; c < count; c++) {
        size_t d = spvcond_declared_caps_find(h->caps, caps[c]);
        if (d != SIZE_MAX)
            h->found |= spvcond_declared_cap_done(d);
    }
    return SPVCOND_OK;
}

/* Passing over an opcode is only right when the full scan finds no declared capability in any of its
 * instructions that is not settled yet: compared instruction by instruction on libclc and every corpus
 * module, with nothing settled, and with what each scan has found so far settled (as specialize's
 * search for users does: both must find every capability the module uses). */
static void
check_declared_scan(const char *path, size_t *skipped, size_t *total)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(path, &ctx);
    struct spvcond_declared_caps caps;
    cr_assert_eq(spvcond_declared_caps_build(m, true, &caps), SPVCOND_OK);
    uint64_t seen_full = 0, seen_filtered = 0;
    for (size_t i = 0; i < m->inst_count; i++) {
        struct cap_hits full = {&caps, 0}, filtered = {&caps, 0}, settled = {&caps, 0};
        cr_assert_eq(spvcond_instruction_capabilities(m, i, collect_declared, &full), SPVCOND_OK);
        cr_assert_eq(spvcond_declared_caps_users(m, &caps, i, 0, collect_declared, &filtered), SPVCOND_OK);
        cr_assert_eq(full.found, filtered.found, "%s: instruction %zu (%s): declared capabilities 0x%lx, filtered 0x%lx",
                     path, i, spvcond_grammar_opcode_name(spvcond_inst_opcode(m, i)), (unsigned long)full.found,
                     (unsigned long)filtered.found);
        cr_assert_eq(spvcond_declared_caps_users(m, &caps, i, seen_filtered, collect_declared, &settled), SPVCOND_OK);
        seen_full |= full.found;
        seen_filtered |= settled.found;
        uint32_t op = spvcond_inst_opcode(m, i);
        *skipped += op <= SPVCOND_GRAMMAR_MAX_OPCODE && caps.opcode_caps[spvcond_grammar_opcode_index[op]] == SPVCOND_CAPS_KNOWN;
    }
    cr_assert_eq(seen_full, seen_filtered, "%s: the scan with settled capabilities found 0x%lx, the full one 0x%lx",
                 path, (unsigned long)seen_filtered, (unsigned long)seen_full);
    *total += m->inst_count;
    spvcond_declared_caps_release(m, &caps);
    destroy_module(m, ctx);
}

Test(capabilities, declared_scan_agrees_with_the_full_scan)
{
    size_t skipped = 0, total = 0;
    check_declared_scan("/usr/lib/clc/spirv64-mesa3d-.spv", &skipped, &total);
    check_declared_scan("/usr/lib/clc/spirv-mesa3d-.spv", &skipped, &total);
    const char *dir = getenv("SPVCOND_CORPUS");
    cr_assert(dir != NULL);
    DIR *d = opendir(dir);
    cr_assert(d != NULL, "corpus directory %s is missing", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len >= 4 && strcmp(e->d_name + len - 4, ".spv") == 0)
            check_declared_scan(corpus(e->d_name), &skipped, &total);
    }
    closedir(d);
    cr_assert_gt(skipped, total / 4, "most loads and stores are passed over (%zu of %zu instructions)", skipped, total);
}

/* Versions of instructions: missing is 1.0, "None" only through capabilities or extensions, and the
 * last version where the grammar has one. */
Test(grammar, instruction_versions)
{
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_I_ADD)->version, 0x0100u);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_I_ADD)->last_version, SPVCOND_VERSION_NONE);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_MODULE_PROCESSED)->version, 0x0101u);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_DECORATE_ID)->version, 0x0102u);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_DECORATE_ID)->ext_count, 1);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_COPY_LOGICAL)->version, 0x0104u);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_ATOMIC_COMPARE_EXCHANGE_WEAK)->last_version, 0x0103u);
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL)->version, SPVCOND_VERSION_NONE);
    cr_assert_eq(spvcond_version_of(0x00010300), 0x0103u);
}

/* spec/grammar/corrections.grammar.json: today's operands where bookworm's grammar has others, and
 * revision 0.13's OpDeviceRegistryVersion from our supplement. */
Test(grammar, corrections_and_revision_0_13)
{
    const struct spvcond_grammar_instruction *t = spvcond_grammar_instruction(SPVCOND_OP_ASM_TARGET_INTEL);
    cr_assert(t && !t->has_type && t->has_result && t->operand_count == 2, "OpAsmTargetINTEL: a result, no type");
    const struct spvcond_grammar_instruction *f = spvcond_grammar_instruction(SPVCOND_OP_TYPE_FLOAT);
    cr_assert_eq(f->operand_count, 3);
    const struct spvcond_grammar_operand *enc = &spvcond_grammar_operands[f->first_operand + 2];
    cr_assert(enc->kind == SPVCOND_KIND_FPEncoding && enc->quantifier == SPVCOND_Q_OPTIONAL);
    cr_assert_str_eq(spvcond_grammar_enumerant(SPVCOND_KIND_FPEncoding, 4214)->name, "Float8E4M3EXT");
    cr_assert_str_eq(spvcond_grammar_enumerant(SPVCOND_KIND_Capability, 5116)->name, "BFloat16TypeKHR");
    cr_assert_eq(spvcond_grammar_instruction(SPVCOND_OP_ARBITRARY_FLOAT_POW_NINTEL)->operand_count, 10);
    const struct spvcond_grammar_instruction *r = spvcond_grammar_instruction(SPVCOND_OP_DEVICE_REGISTRY_VERSION);
    cr_assert(r && strcmp(r->name, "OpDeviceRegistryVersion") == 0 && r->operand_count == 1 && r->cap_count == 1);
    cr_assert_eq(spvcond_grammar_capabilities[r->first_cap], SPVCOND_CAPABILITY_FUNCTION_VARIANTS_INTEL);
}
