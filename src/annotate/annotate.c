/* SPDX-License-Identifier: MIT */
/* The producer: give every kernel and exported function a condition built from boolean spec constants
 * (one per requirement), every other function the OR of its callers' conditions, and guard the
 * types, constants, variables and capabilities only conditional code uses (spec/annotate.md). */
#include <stdio.h>
#include <string.h>

#include "annotate/state.h"
#include "support/sized.h"
#include "ir/reader_items.h"
#include "ir/records.h"

/* ---- module-level items: conditions from their users ---------------------------------------- */

static uint32_t *
global_cond(struct annotate *a, uint32_t id)
{
    size_t d = spvcond_def(a->m, id);
    if (d == SIZE_MAX || !spvcond_is_module_item(a->m, d))
        return NULL;
    return &a->global_cond[d - a->global_begin];
}

struct user {
    struct annotate *a;
    uint32_t cond;
};

static spvcond_result
add_user(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct user *u = user;
    (void)inst;
    (void)word;
    uint32_t *c = global_cond(u->a, id);
    return c ? spvcond_cond_union(&u->a->store, *c, u->cond, c) : SPVCOND_OK;
}

/* A module-level item that may be guarded. Global debug OpExtInst are left unconditional: they describe
 * other items and the consumer drops them with what they describe. So is OpExtInstImport, which rev 0.13
 * allows but the translator's consumer cannot erase (its eraseValue fails on one, and the whole module
 * with it: extension.md 5.4); an import nothing uses costs nothing, and our consumer drops one its
 * stripping left without users (specialize.c). */
static bool
may_carry_condition_row(uint32_t op, const struct spvcond_grammar_instruction *gi)
{
    return gi && gi->has_result && op != SPVCOND_OP_EXT_INST && op != SPVCOND_OP_EXT_INST_IMPORT &&
           spvcond_may_carry_condition_row(op, gi);
}

static bool
may_carry_condition(const struct spvcond_module *m, size_t i)
{
    uint32_t op = spvcond_inst_opcode(m, i);
    return may_carry_condition_row(op, spvcond_grammar_instruction(op));
}

/* The condition under which module-level instruction i (before the functions) is kept; code goes
 * function by function (for_each_code_inst). */
static uint32_t
module_inst_cond(struct annotate *a, size_t i)
{
    struct spvcond_module *m = a->m;
    if (spvcond_is_module_item(a->m, i)) {
        uint32_t c = a->global_cond[i - a->global_begin];
        return c ? c : spvcond_cond_always(&a->store);
    }
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = spvcond_opcode_of(w[0]);
    size_t f = SIZE_MAX;
    if (op == SPVCOND_OP_ENTRY_POINT || op == SPVCOND_OP_EXECUTION_MODE ||
        op == SPVCOND_OP_EXECUTION_MODE_ID) /* entry point, execution modes: their function */
        f = spvcond_callgraph_function(&a->g, m, w[op == SPVCOND_OP_ENTRY_POINT ? 2 : 1]);
    return f != SIZE_MAX ? a->reach[f] : spvcond_cond_always(&a->store);
}

typedef spvcond_result (*code_visit)(struct annotate *a, size_t i, uint32_t cond);
typedef spvcond_result (*function_visit)(struct annotate *a, size_t f);

/* The function section in order: what stands between functions (debug lines) instruction by
 * instruction, kept always (`between`), and each function whole (`visit`), so that passes over code
 * need not ask each instruction's function. Inlined, with the visitors. */
static inline __attribute__((always_inline)) spvcond_result
for_each_function(struct annotate *a, code_visit between, function_visit visit)
{
    const struct spvcond_module *m = a->m;
    spvcond_result r = SPVCOND_OK;
    size_t i = m->section[SPVCOND_SECTION_FUNCTION];
    for (size_t f = 0; f <= m->function_count && r == SPVCOND_OK; f++) {
        size_t gap_end = f < m->function_count ? m->functions[f].begin : m->inst_count;
        for (; i < gap_end && r == SPVCOND_OK; i++)
            r = between(a, i, spvcond_cond_always(&a->store));
        if (f == m->function_count || r != SPVCOND_OK)
            break;
        r = visit(a, f);
        i = m->functions[f].end + 1;
    }
    return r;
}

/* Instruction i uses its module-level items under `cond`. */
static inline __attribute__((always_inline)) spvcond_result
users_under(struct annotate *a, size_t i, uint32_t cond)
{
    struct user u = {a, cond};
    return spvcond_for_each_id(a->m, i, add_user, &u);
}

/* Function f's module-level items under its condition, from the list the code walk made
 * (spvcond_infer), which names each item once. */
static spvcond_result
items_of_function(struct annotate *a, size_t f)
{
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = a->inf.item_start[f]; k < a->inf.item_start[f + 1] && r == SPVCOND_OK; k++) {
        uint32_t *c = &a->global_cond[a->inf.item_list[k]];
        r = spvcond_cond_union(&a->store, *c, a->code_cond[f], c);
    }
    return r;
}

static spvcond_result
global_conditions(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    a->global_cond = spvcond_alloc_array(m->ctx, a->global_end - a->global_begin + 1, sizeof(uint32_t));
    if (!a->global_cond)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    /* Users at module level (names and decoration targets are not uses), then in functions. The items
     * themselves (spvcond_item_runs) come last, below; these are the instructions before and between
     * their runs. */
    size_t items[2][2];
    spvcond_item_runs(m, items);
    const size_t users[2][2] = {{0, items[0][0]}, {items[0][1], items[1][0]}};
    for (size_t range = 0; range < 2; range++) {
        for (size_t i = users[range][0]; i < users[range][1] && r == SPVCOND_OK; i++) {
            if (spvcond_annotation_uses_nothing(m, i))
                continue;
            uint32_t op = spvcond_inst_opcode(m, i);
            if (op == SPVCOND_OP_NAME || op == SPVCOND_OP_MEMBER_NAME || op == SPVCOND_OP_GROUP_DECORATE ||
                op == SPVCOND_OP_GROUP_MEMBER_DECORATE)
                continue;
            if (spvcond_is_annotation(m, i)) {
                /* Decoration operands other than the target (OpDecorateId's) are used unconditionally. */
                const uint32_t *w = spvcond_inst_words(m, i);
                struct user u = {a, spvcond_cond_always(&a->store)};
                uint32_t wc = spvcond_word_count_of(w[0]);
                for (uint32_t k = 3; op == SPVCOND_OP_DECORATE_ID && k < wc && r == SPVCOND_OK; k++)
                    r = add_user(&u, i, k, w[k]);
                continue;
            }
            r = users_under(a, i, module_inst_cond(a, i));
        }
    }
    if (r == SPVCOND_OK)
        r = for_each_function(a, users_under, items_of_function);
    /* A virtual function's stub, kept under its own condition, uses its types. */
    for (size_t f = 0; a->code_cond != a->reach && f < m->function_count && r == SPVCOND_OK; f++) {
        const uint32_t *w = spvcond_inst_words(m, m->functions[f].begin);
        for (uint32_t k = 1; k < 5 && a->code_cond[f] != a->reach[f] && r == SPVCOND_OK; k += 3) /* result, type */
            r = add_user(&(struct user){a, a->reach[f]}, m->functions[f].begin, k, w[k]);
    }
    for (size_t i = a->global_begin; i < a->global_end && r == SPVCOND_OK; i++) {
        uint32_t *c = &a->global_cond[i - a->global_begin], set;
        if (a->var_set[i - a->global_begin] &&
            (r = spvcond_cond_of_set(&a->store, a->var_set[i - a->global_begin] - 1, &set)) == SPVCOND_OK)
            r = spvcond_cond_union(&a->store, *c, set, c);
    }
    uint32_t *bool_cond = a->emit.bool_type ? global_cond(a, a->emit.bool_type) : NULL;
    if (bool_cond)
        *bool_cond = spvcond_cond_always(&a->store);
    spvcond_guards_pin(a);
    /* Then module-level items in reverse: users come after what they use. */
    for (size_t i = a->global_end; i-- > a->global_begin && r == SPVCOND_OK;) {
        if (!spvcond_is_module_item(a->m, i))
            continue;
        uint32_t *c = &a->global_cond[i - a->global_begin];
        const uint32_t *w = spvcond_inst_words(m, i);
        if (!*c && spvcond_opcode_of(w[0]) == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL &&
            spvcond_word_count_of(w[0]) >= 4) {
            /* An unused function pointer is kept with its function (found by fuzzing: kept always, it
             * named a function that a specialization removes). */
            size_t f = spvcond_callgraph_function(&a->g, m, w[3]);
            if (f != SIZE_MAX)
                *c = a->reach[f];
        }
        if (*c != spvcond_cond_always(&a->store) && (!*c || !may_carry_condition(m, i)))
            *c = spvcond_cond_always(&a->store); /* unused, or cannot be guarded: keep it, and what it uses */
        struct user u = {a, *c};
        r = spvcond_for_each_id(m, i, add_user, &u);
    }
    return r;
}

/* ---- capabilities -------------------------------------------------------------------------- */

static spvcond_result
note_capability(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct user *u = user;
    struct annotate *a = u->a;
    uint32_t cond = u->cond;
    (void)inst;
    spvcond_result r = SPVCOND_OK;
    for (size_t c = 0; c < count && r == SPVCOND_OK; c++) {
        size_t d = spvcond_declared_caps_find(&a->caps, caps[c]);
        if (d != SIZE_MAX)
            r = spvcond_cond_union(&a->store, a->cap_cond[d], cond, &a->cap_cond[d]);
        if (d != SIZE_MAX && a->cap_cond[d] == spvcond_cond_always(&a->store)) /* no user can change it any more */
            a->caps_always |= spvcond_declared_cap_done(d);
    }
    return r;
}

/* The capabilities instruction i needs are needed under `cond`. */
static inline __attribute__((always_inline)) spvcond_result
capabilities_under(struct annotate *a, size_t i, uint32_t cond)
{
    struct user u = {a, cond};
    return spvcond_declared_caps_users(a->m, &a->caps, i, a->caps_always, note_capability, &u);
}

/* Function f's capabilities under its condition, as the code walk found them (spvcond_infer). */
static spvcond_result
capabilities_of_function(struct annotate *a, size_t f)
{
    spvcond_result r = SPVCOND_OK;
    for (uint64_t need = a->inf.cap_need[f] & ~a->caps_always; need && r == SPVCOND_OK; need &= need - 1) {
        size_t d = (size_t)__builtin_ctzll(need);
        r = spvcond_cond_union(&a->store, a->cap_cond[d], a->code_cond[f], &a->cap_cond[d]);
        a->caps_always |= a->cap_cond[d] == spvcond_cond_always(&a->store) ? spvcond_declared_cap_done(d) : 0;
    }
    return r;
}

/* The same found by scanning function f's instructions, when more capabilities are declared than the
 * walk's masks hold. */
static spvcond_result
scan_capabilities_of_function(struct annotate *a, size_t f)
{
    const struct spvcond_function *fn = &a->m->functions[f];
    spvcond_result r = SPVCOND_OK;
    for (size_t i = fn->begin; i <= fn->end && r == SPVCOND_OK; i++) {
        spvcond_prefetch_ahead(a->m, i);
        r = capabilities_under(a, i, a->code_cond[f]);
    }
    return r;
}

static spvcond_result
conditional_capabilities(struct annotate *a, bool *any)
{
    struct spvcond_module *m = a->m;
    size_t ncap = m->section[SPVCOND_SECTION_CAPABILITY + 1];
    spvcond_result r = SPVCOND_OK;
    if (!(a->cap_cond = spvcond_alloc_array(m->ctx, a->caps.count + 1, sizeof(uint32_t))))
        return spvcond_oom(m->ctx);
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_FUNCTION] && r == SPVCOND_OK; i++)
        if (spvcond_declared_caps_may(&a->caps, spvcond_inst_opcode(m, i)) & ~a->caps_always) /* else nothing new */
            r = capabilities_under(a, i, module_inst_cond(a, i));
    if (r == SPVCOND_OK)
        r = a->inf.cap_need ? for_each_function(a, capabilities_under, capabilities_of_function)
                            : for_each_function(a, capabilities_under, scan_capabilities_of_function);
    if (r == SPVCOND_OK)
        r = spvcond_shader_capabilities(a);
    for (size_t i = 0; i < ncap && r == SPVCOND_OK; i++) {
        uint32_t cap = spvcond_declared_cap_of(m, i, false);
        uint32_t users = cap == UINT32_MAX ? 0 : a->cap_cond[spvcond_declared_caps_find(&a->caps, cap)];
        if (!users)
            continue; /* a capability we see no user of stays as it is */
        uint32_t cond;
        if ((r = spvcond_emit_condition(&a->emit, users, &cond)) != SPVCOND_OK || !cond)
            continue;
        uint32_t cc[3] = {spvcond_first_word(3, SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL), cond, cap};
        r = spvcond_edit_replace(m, i, cc, 3);
        a->stats.conditional_capabilities++;
        *any = true;
    }
    return r;
}

/* ---- the pass ------------------------------------------------------------------------------- */

static void
read_declared_extension(const struct spvcond_module *m, struct extension_declared *out)
{
    *out = (struct extension_declared){SIZE_MAX, false, false, false};
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_EXTENSION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_CAPABILITY && spvcond_is_extension_capability(w[1])) {
            out->first_capability = out->first_capability == SIZE_MAX ? i : out->first_capability;
            out->spec_conditional |= w[1] == SPVCOND_CAPABILITY_SPEC_CONDITIONAL_INTEL;
            out->function_variants |= w[1] == SPVCOND_CAPABILITY_FUNCTION_VARIANTS_INTEL;
        }
        out->extension |=
            op == SPVCOND_OP_EXTENSION && strcmp(spvcond_inst_string(m, i, 1), SPVCOND_EXTENSION_NAME) == 0;
    }
}

/* What only a producer of conditions writes counts, wherever it stands (found by fuzzing: a lone
 * OpConditionalCopyObjectINTEL in a function passed through into "annotated" output): ConditionalINTEL,
 * the conditional instructions. The extension's capabilities and device constants alone are a guard's
 * input (spec/guards.md). Conditional capabilities, extensions and entry points stand before the
 * types, ConditionalINTEL among the annotations; the reader counted the conditional copies. */
static spvcond_result
refuse_annotated(struct spvcond_module *m, const struct extension_declared *declared)
{
    size_t first = SIZE_MAX;
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_GLOBAL] && first == SIZE_MAX; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL || op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL ||
            op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL || spvcond_is_condition_decoration(w))
            first = i;
    }
    if (first == SIZE_MAX && declared->first_capability != SIZE_MAX && !declared->extension)
        /* found by fuzzing: passed through as it was */
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, declared->first_capability, 0,
                                 "a capability of SPV_INTEL_function_variants without OpExtension \"%s\"",
                                 SPVCOND_EXTENSION_NAME);
    size_t code_end = m->conditional_copy_count ? m->inst_count : 0;
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i < code_end && first == SIZE_MAX; i++)
        if (spvcond_inst_opcode(m, i) == SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL)
            first = i;
    if (first == SIZE_MAX)
        return SPVCOND_OK;
    return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, first, 0,
                             "the module already uses SPV_INTEL_function_variants; annotating it again is "
                             "refused (specialize it first, or annotate the original)");
}

/* What specialize needs to give the module back as it was when every condition is true
 * (spec/annotate.md): the bound before annotate's ids, and the OpTypeBool annotate added, if it did.
 * From SPIR-V 1.1 an OpModuleProcessed made after the names and before the decorations, so that
 * insertions stay in place order (else the writer sorts them all: libclc annotate +5% when it came
 * before the names); before 1.1 an OpString, made before the names it precedes (records.h). */
static spvcond_result
record(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    uint32_t bool_type = a->added_bool ? a->emit.bool_type : 0;
    char text[96];
    if (bool_type)
        snprintf(text, sizeof(text), "%s bound %u, bool %%%u", SPVCOND_ANNOTATE_RECORD, m->header_bound, bool_type);
    else
        snprintf(text, sizeof(text), "%s bound %u", SPVCOND_ANNOTATE_RECORD, m->header_bound);
    return spvcond_record_append(m, text);
}

/* Stated requirements, roots and their requirement sets, around the virtual functions' steps: used
 * aspects go through the call graph less what a call's guard implies and what naming a function through
 * a pointer would add; kernels get their virtual sets' requirements before the sets are made. */
static spvcond_result
roots(struct annotate *a)
{
    spvcond_result r = spvcond_roots_stated(a);
    if (r == SPVCOND_OK)
        r = spvcond_virtual_begin(a);
    if (r != SPVCOND_OK)
        return r;
    spvcond_aspects *hidden = NULL;
    if (a->guards || a->virt) {
        size_t edges = a->g.callee_start[a->m->function_count];
        if (!(hidden = spvcond_alloc_array(a->m->ctx, edges + 1, sizeof(*hidden))))
            return spvcond_oom(a->m->ctx);
        if (a->guards)
            spvcond_guards_hide(a, hidden);
        spvcond_virtual_hide(a, hidden);
    }
    spvcond_infer_propagate(a->m, &a->g, &a->inf, hidden);
    spvcond_dealloc(a->m->ctx, hidden);
    struct root_exports x = {NULL, 0, 0};
    if ((r = spvcond_roots_find(a, &x)) == SPVCOND_OK && (r = spvcond_virtual_requirements(a)) == SPVCOND_OK)
        r = spvcond_roots_sets(a, &x);
    spvcond_dealloc(a->m->ctx, x.vars);
    return r;
}

/* The leaves' constants, names and SpecIds; the record stands between names and decorations, or before
 * SPIR-V 1.1 before the names. */
static spvcond_result
emit_leaves(struct annotate *a)
{
    spvcond_result r = SPVCOND_OK;
    if (spvcond_record_section(a->m) == SPVCOND_SECTION_DEBUG_SOURCE)
        r = record(a);
    if (r == SPVCOND_OK)
        r = spvcond_emit_leaf_constants(&a->emit);
    if (r == SPVCOND_OK && spvcond_record_section(a->m) == SPVCOND_SECTION_DEBUG_PROCESSED)
        r = record(a);
    return r == SPVCOND_OK ? spvcond_emit_leaf_decorations(&a->emit) : r;
}

/* What the phases need: the call graph and inferred uses, per-function and per-item arrays. */
static spvcond_result
analyse(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_context *ctx = m->ctx;
    size_t nf = m->function_count;
    spvcond_result r;
    bool infer = !(a->o->flags & SPVCOND_ANNOTATE_NO_INFERENCE);
    read_declared_extension(m, &a->ext_declared);
    if ((r = refuse_annotated(m, &a->ext_declared)) != SPVCOND_OK ||
        (r = spvcond_declared_caps_build(m, false, &a->caps)) != SPVCOND_OK ||
        (r = spvcond_infer(m, infer, &a->caps, &a->g, &a->inf)) != SPVCOND_OK ||
        (infer && (r = spvcond_shader_requirements(a)) != SPVCOND_OK))
        return r;
    spvcond_module_release_reads(m); /* the walk read them; their space serves what follows */
    a->is_root = spvcond_alloc_array(ctx, nf + 1, 1);
    a->root_set = spvcond_alloc_array(ctx, nf + 1, sizeof(uint32_t));
    a->declared = spvcond_alloc_array(ctx, nf + 1, sizeof(*a->declared));
    a->has_declared = spvcond_alloc_array(ctx, nf + 1, 1);
    a->wg = spvcond_alloc_array(ctx, nf + 1, sizeof(*a->wg));
    a->sg = spvcond_alloc_array(ctx, nf + 1, sizeof(uint32_t));
    if (!a->is_root || !a->root_set || !a->declared || !a->has_declared || !a->wg || !a->sg)
        return spvcond_oom(ctx);
    a->global_begin = m->section[SPVCOND_SECTION_EXTINST_IMPORT];
    a->global_end = m->section[SPVCOND_SECTION_FUNCTION];
    a->var_set = spvcond_alloc_array(ctx, a->global_end - a->global_begin + 1, sizeof(uint32_t));
    return a->var_set ? SPVCOND_OK : spvcond_oom(ctx);
}

/* The phases that give every function its condition: guards first (their leaves and sets come before the
 * roots', and conditions before both), roots, virtual functions' bodies, reach. */
static spvcond_result
conditions(struct annotate *a)
{
    spvcond_result r = spvcond_guards_begin(a);
    if (r != SPVCOND_OK)
        return r;
    a->emit.share_nodes = a->guards != NULL;
    if ((r = spvcond_guards_analyze(a)) != SPVCOND_OK || (r = roots(a)) != SPVCOND_OK)
        return r;
    if ((!spvcond_cond_started(&a->store) && (r = spvcond_cond_init(&a->store)) != SPVCOND_OK) ||
        (r = spvcond_virtual_guard_bodies(a)) != SPVCOND_OK || (r = spvcond_annotate_reach(a)) != SPVCOND_OK)
        return r;
    return spvcond_virtual_code_conditions(a);
}

/* Whether anything is conditional at all (else the module is left untouched). */
static bool
anything_conditional(const struct annotate *a)
{
    bool any = spvcond_guards_rewrite_needed(a) || a->stats.virtual_stubs;
    for (size_t f = 0; f < a->m->function_count && !any; f++)
        any = a->reach[f] != spvcond_cond_always(&a->store);
    for (size_t g = 0; g < a->global_end - a->global_begin && !any; g++)
        any = a->var_set[g] > 1; /* a set other than the empty set 0 */
    return any;
}

/* The extension's declarations and the bool type the constants need. The declarations come first: every
 * insertion below goes after them, and the writer sorts insertions only when they were not made in place
 * order. At the start of the capability section, even an empty one (found by fuzzing: inserted before
 * instruction 0, it took that instruction's section and landed after the extension). */
static spvcond_result
declare(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r;
    uint32_t cap[2] = {spvcond_first_word(2, SPVCOND_OP_CAPABILITY), SPVCOND_CAPABILITY_SPEC_CONDITIONAL_INTEL};
    uint32_t ext[16];
    uint32_t ext_words = 1 + spvcond_encode_string(SPVCOND_EXTENSION_NAME, ext + 1, 15);
    ext[0] = spvcond_first_word(ext_words, SPVCOND_OP_EXTENSION);
    if (!a->ext_declared.spec_conditional &&
        (r = spvcond_edit_prepend_to_section(m, SPVCOND_SECTION_CAPABILITY, cap, 2)) != SPVCOND_OK)
        return r;
    if (!a->ext_declared.extension &&
        (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_EXTENSION, ext, ext_words)) != SPVCOND_OK)
        return r;
    size_t end = m->section[SPVCOND_SECTION_FUNCTION];
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < end && !a->emit.bool_type; i++)
        if (spvcond_inst_opcode(m, i) == SPVCOND_OP_TYPE_BOOL)
            a->emit.bool_type = spvcond_inst_words(m, i)[1];
    a->added_bool = !a->emit.bool_type;
    if (!a->added_bool)
        return SPVCOND_OK;
    if ((r = spvcond_edit_new_id(m, &a->emit.bool_type)) != SPVCOND_OK)
        return r;
    uint32_t type[2] = {spvcond_first_word(2, SPVCOND_OP_TYPE_BOOL), a->emit.bool_type};
    return spvcond_emit_push(&a->emit, type, 2);
}

/* Functions, and kernels' entry points (an OpConditionalEntryPointINTEL in place of each conditional one). */
static spvcond_result
decorate_functions(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r;
    for (size_t f = 0; f < m->function_count; f++) {
        uint32_t cond;
        if ((r = spvcond_emit_condition(&a->emit, a->reach[f], &cond)) != SPVCOND_OK)
            return r;
        if (a->is_root[f] && cond)
            a->stats.conditional_roots++;
        if (!cond || spvcond_guards_is_marker(a, f))
            continue;
        a->stats.conditional_functions++;
        if ((r = spvcond_emit_decorate(&a->emit, m->functions[f].id, cond)) != SPVCOND_OK)
            return r;
    }
    for (size_t k = 0; k < m->entry_point_count; k++) {
        size_t i = m->entry_points[k];
        const uint32_t *w = spvcond_inst_words(m, i);
        size_t f = spvcond_callgraph_function(&a->g, m, w[2]);
        uint32_t cond, wc = spvcond_word_count_of(w[0]);
        if (f == SIZE_MAX || (r = spvcond_emit_condition(&a->emit, a->reach[f], &cond)) != SPVCOND_OK || !cond) {
            if (r != SPVCOND_OK)
                return r;
            continue;
        }
        uint32_t *cw = spvcond_alloc(m->ctx, (wc + 1) * sizeof(uint32_t));
        if (!cw)
            return spvcond_oom(m->ctx);
        cw[0] = spvcond_first_word(wc + 1, SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL);
        cw[1] = cond;
        memcpy(cw + 2, w + 1, (wc - 1) * sizeof(uint32_t));
        r = spvcond_edit_replace(m, i, cw, wc + 1);
        spvcond_dealloc(m->ctx, cw);
        if (r != SPVCOND_OK)
            return r;
        a->stats.conditional_entry_points++;
    }
    return SPVCOND_OK;
}

/* Types, constants, variables and imports that only conditional code uses. */
static spvcond_result
decorate_globals(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r;
    uint32_t always = spvcond_cond_always(&a->store);
    for (size_t i = a->global_begin; i < a->global_end; i++) {
        /* Kept always (most items), or no condition: no decoration (spvcond_emit_condition would make
         * none), and no grammar look-up to say so. */
        uint32_t c = a->global_cond[i - a->global_begin];
        if (c == 0 || c == always || !spvcond_is_module_item(m, i))
            continue;
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
        if (!may_carry_condition_row(op, gi))
            continue;
        uint32_t cond;
        if ((r = spvcond_emit_condition(&a->emit, c, &cond)) != SPVCOND_OK)
            return r;
        if (!cond)
            continue;
        if ((r = spvcond_emit_decorate(&a->emit, spvcond_result_id_row(gi, w), cond)) != SPVCOND_OK)
            return r;
        a->stats.conditional_globals++;
    }
    return SPVCOND_OK;
}

static spvcond_result
run(struct annotate *a)
{
    spvcond_result r;
    if ((r = analyse(a)) != SPVCOND_OK || (r = conditions(a)) != SPVCOND_OK || !anything_conditional(a) ||
        (r = declare(a)) != SPVCOND_OK)
        return r;
    if ((r = global_conditions(a)) == SPVCOND_OK && a->inf.items_borrowed) {
        /* The reader's item lists served the items' conditions, their last use. */
        spvcond_module_release_items(a->m);
        a->inf.item_start = a->inf.item_list = NULL;
    }
    bool caps = false;
    if (r != SPVCOND_OK || (r = emit_leaves(a)) != SPVCOND_OK || (r = spvcond_guards_rewrite(a)) != SPVCOND_OK ||
        (r = spvcond_virtual_rewrite(a)) != SPVCOND_OK || (r = decorate_functions(a)) != SPVCOND_OK ||
        (r = decorate_globals(a)) != SPVCOND_OK || (r = spvcond_emit_decorations_flush(&a->emit)) != SPVCOND_OK ||
        (r = conditional_capabilities(a, &caps)) != SPVCOND_OK)
        return r;
    /* The condition constants, at the end of the constants. */
    return spvcond_emit_flush(&a->emit);
}

static void
release(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_context *ctx = m->ctx;
    spvcond_callgraph_release(m, &a->g);
    spvcond_inference_release(m, &a->inf);
    spvcond_dealloc(ctx, a->is_root);
    spvcond_dealloc(ctx, a->root_set);
    spvcond_dealloc(ctx, a->declared);
    spvcond_dealloc(ctx, a->has_declared);
    spvcond_dealloc(ctx, a->wg);
    spvcond_dealloc(ctx, a->sg);
    spvcond_store_release(&a->store);
    spvcond_emit_release(&a->emit);
    spvcond_dealloc(ctx, a->reach);
    spvcond_dealloc(ctx, a->global_cond);
    spvcond_dealloc(ctx, a->var_set);
    spvcond_dealloc(ctx, a->cap_cond);
    spvcond_dealloc(ctx, a->narrow_computes);
    spvcond_declared_caps_release(a->m, &a->caps);
    spvcond_guards_release(a);
    spvcond_virtual_release(a);
    spvcond_dealloc(ctx, a->split_set);
}

static spvcond_result
annotate(spvcond_module *m, const spvcond_annotate_options *o, spvcond_annotate_stats *stats,
         struct spvcond_split_plan *plan)
{
    if (o->guard_spec_id_count && !o->guard_spec_ids)
        return spvcond_invalid(m->ctx, "spvcond_annotate", "`guard_spec_id_count` is not 0 but `guard_spec_ids` is NULL");
    if (o->flags & ~SPVCOND_ANNOTATE_NO_INFERENCE)
        return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "unknown annotate flags 0x%x", o->flags & ~SPVCOND_ANNOTATE_NO_INFERENCE);
    spvcond_result r = spvcond_edit_begin_pass(m, "annotating");
    if (r != SPVCOND_OK)
        return r;
    struct annotate a;
    memset(&a, 0, sizeof(a));
    a.m = m;
    a.o = o;
    spvcond_store_init(&a.store, m);
    spvcond_emit_init(&a.emit, m, &a.store, &a.stats, o->spec_id_base ? o->spec_id_base : DEFAULT_SPEC_ID_BASE);
    a.stats.size = sizeof(a.stats);
    a.emit.splitting = plan != NULL;
    if (plan && !(a.split_set = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t))))
        r = spvcond_oom(m->ctx);
    if (r == SPVCOND_OK)
        r = run(&a);
    if (r == SPVCOND_OK && plan)
        r = spvcond_split_plan_take(&a, plan);
    if (r == SPVCOND_OK && stats)
        spvcond_sized_out(stats, &a.stats, sizeof(a.stats), SPVCOND_SIZE_0_2(spvcond_annotate_stats));
    if (r != SPVCOND_OK)
        spvcond_edit_abandon(m);
    release(&a);
    return r;
}

/* The caller's options (and their requirements) as this library's structs (support/sized.h). */
static spvcond_result
sized_annotate(spvcond_module *m, const spvcond_annotate_options *in, spvcond_annotate_stats *stats,
               struct spvcond_split_plan *plan)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!in)
        return spvcond_invalid(m->ctx, "spvcond_annotate", "`options` is NULL");
    spvcond_annotate_options o;
    spvcond_function_requirements *requirements = NULL;
    spvcond_result r = spvcond_sized_in(m->ctx, in, sizeof(o), SPVCOND_SIZE_0_2(spvcond_annotate_options), &o,
                                        "spvcond_annotate_options");
    if (r == SPVCOND_OK)
        r = spvcond_sized_out_check(m->ctx, stats, SPVCOND_SIZE_0_2(spvcond_annotate_stats), "spvcond_annotate_stats");
    if (r == SPVCOND_OK && o.requirement_count && !o.requirements)
        r = spvcond_invalid(m->ctx, "spvcond_annotate", "`requirement_count` is not 0 but `requirements` is NULL");
    if (r == SPVCOND_OK)
        r = spvcond_sized_array_in(m->ctx, o.requirements, o.requirement_count, sizeof(*requirements),
                                   SPVCOND_SIZE_0_2(spvcond_function_requirements), (void **)&requirements,
                                   "spvcond_function_requirements");
    if (r != SPVCOND_OK)
        return r;
    o.requirements = requirements;
    r = annotate(m, &o, stats, plan);
    spvcond_dealloc(m->ctx, requirements);
    return r;
}

spvcond_result
spvcond_annotate(spvcond_module *m, const spvcond_annotate_options *o, spvcond_annotate_stats *stats)
{
    return sized_annotate(m, o, stats, NULL);
}

spvcond_result
spvcond_annotate_for_split(spvcond_module *m, const spvcond_annotate_options *o, struct spvcond_split_plan *plan)
{
    return sized_annotate(m, o, NULL, plan);
}
