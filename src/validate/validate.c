/* SPDX-License-Identifier: MIT */
/* Our checker for SPV_INTEL_function_variants, stricter than spirv-val (spec/validate.md): condition
 * shapes, decoration targets, declarations, conditional-instruction shapes, and that no specialization
 * can leave a use of a removed id. Every violation is reported; the result is the first one's code. */
#include <stdio.h>
#include <string.h>

#include "analysis/evaluate.h"
#include "ir/operands.h"
#include "validate/validate.h"
#include "analysis/versions.h"

static bool
allowed_tree_op(uint32_t op)
{
    switch (op) {
    case SPVCOND_OP_LOGICAL_EQUAL: case SPVCOND_OP_LOGICAL_NOT_EQUAL: case SPVCOND_OP_LOGICAL_OR:
    case SPVCOND_OP_LOGICAL_AND: case SPVCOND_OP_LOGICAL_NOT: case SPVCOND_OP_SELECT: /* logical, Select */
    case SPVCOND_OP_I_EQUAL: case SPVCOND_OP_I_NOT_EQUAL: case SPVCOND_OP_U_GREATER_THAN:
    case SPVCOND_OP_S_GREATER_THAN: case SPVCOND_OP_U_GREATER_THAN_EQUAL:
    case SPVCOND_OP_S_GREATER_THAN_EQUAL: case SPVCOND_OP_U_LESS_THAN: case SPVCOND_OP_S_LESS_THAN:
    case SPVCOND_OP_U_LESS_THAN_EQUAL: case SPVCOND_OP_S_LESS_THAN_EQUAL:
    case SPVCOND_OP_S_NEGATE: case SPVCOND_OP_I_ADD: case SPVCOND_OP_I_SUB: case SPVCOND_OP_I_MUL:
    case SPVCOND_OP_U_DIV: case SPVCOND_OP_S_DIV: case SPVCOND_OP_U_MOD: case SPVCOND_OP_S_REM:
    case SPVCOND_OP_S_MOD:
    case SPVCOND_OP_SHIFT_RIGHT_LOGICAL: case SPVCOND_OP_SHIFT_RIGHT_ARITHMETIC:
    case SPVCOND_OP_SHIFT_LEFT_LOGICAL: case SPVCOND_OP_BITWISE_OR: case SPVCOND_OP_BITWISE_XOR:
    case SPVCOND_OP_BITWISE_AND: case SPVCOND_OP_NOT: case SPVCOND_OP_U_CONVERT: case SPVCOND_OP_S_CONVERT:
        return true;
    default:
        return false;
    }
}

/* A condition must be a boolean scalar specialization constant whose tree uses allowed operations;
 * checked once per id, bottom-up over the constants section (operands precede users). */
static void
check_condition(struct check *c, size_t user, uint32_t id)
{
    struct spvcond_module *m = c->m;
    if (c->cond_ok[id])
        goto report;
    size_t d = spvcond_def(m, id);
    const uint32_t *w = spvcond_inst_words(m, d);
    uint32_t op = spvcond_opcode_of(w[0]);
    bool ok = spvcond_is_spec_constant_opcode(op) && op != SPVCOND_OP_SPEC_CONSTANT_COMPOSITE &&
        spvcond_def_opcode(m, w[1]) == SPVCOND_OP_TYPE_BOOL;
    c->cond_ok[id] = ok ? 1 : 2;
report:
    if (c->cond_ok[id] == 2)
        spvcond_validate_violation(c, user, id, SPVCOND_ERROR_INVALID_ID,
                  "condition %%%u is not a boolean scalar specialization constant (it is defined by %s)", id,
                  spvcond_grammar_opcode_name(spvcond_def_opcode(m, id)));
}

/* Mark the trees under conditions, check their operations, and find the leaves. */
static void
collect_trees(struct check *c)
{
    struct spvcond_module *m = c->m;
    c->enumerable = true;
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i-- > m->section[SPVCOND_SECTION_GLOBAL];) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (!spvcond_is_spec_constant_opcode(op) && op != SPVCOND_OP_CONSTANT_TRUE && op != SPVCOND_OP_CONSTANT_FALSE)
            continue;
        if (!c->node[w[2]])
            continue;
        if (op == SPVCOND_OP_SPEC_CONSTANT_OP) {
            if (!allowed_tree_op(w[3])) {
                spvcond_validate_violation(c, i, w[2], SPVCOND_ERROR_UNSUPPORTED,
                          "condition tree node %%%u uses %s, which is not an operation on scalar booleans or integers",
                          w[2], spvcond_grammar_opcode_name(w[3]));
                c->enumerable = false;
                continue;
            }
            bool boolean = w[3] >= SPVCOND_OP_LOGICAL_EQUAL && w[3] <= SPVCOND_OP_SELECT;
            if (!boolean)
                c->enumerable = false;
            for (uint32_t k = 4; k < spvcond_word_count_of(w[0]); k++)
                if (w[k] < m->bound) /* the reader checked these ids; never index by a stray word */
                    c->node[w[k]] = 1;
        }
    }
    /* Number the nodes in definition order. */
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        bool constant = spvcond_is_spec_constant_opcode(op) || op == SPVCOND_OP_CONSTANT_TRUE ||
                        op == SPVCOND_OP_CONSTANT_FALSE || op == SPVCOND_OP_CONSTANT;
        if (!constant || !c->node[w[2]])
            continue;
        c->nodes[c->node_count] = w[2];
        c->node[w[2]] = (uint32_t)++c->node_count;
        if (op != SPVCOND_OP_SPEC_CONSTANT_OP && op != SPVCOND_OP_CONSTANT_TRUE && op != SPVCOND_OP_CONSTANT_FALSE) {
            if (spvcond_def_opcode(m, w[1]) != SPVCOND_OP_TYPE_BOOL)
                c->enumerable = false; /* an integer leaf: no enumeration */
            c->leaves[c->leaf_count++] = c->node[w[2]] - 1;
        }
    }
    if (c->leaf_count > MAX_ENUMERATED_LEAVES)
        c->enumerable = false;
}

struct use_state {
    struct check *c;
    struct guard user;
    size_t inst;
};

/* The guard of the definition of a used id; none (a == 0) without a definition. The reader records a
 * definition only for an instruction's result id, so the definition's result is `id`: reading it from its
 * words was a cache miss per use on large modules. */
static inline __attribute__((always_inline)) struct guard
def_guard(struct check *c, uint32_t id)
{
    size_t d = spvcond_def(c->m, id);
    return d == SIZE_MAX ? (struct guard){0, 0} : spvcond_validate_guard_of(c, d, id);
}

static spvcond_result
note_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct use_state *s = user;
    (void)word;
    struct guard dg = def_guard(s->c, id);
    return dg.a ? spvcond_validate_note_pair(s->c, s->user, dg, inst, id) : SPVCOND_OK;
}

/* The second walk, for repair: a use whose pair failed goes to c->dangling. */
static spvcond_result
report_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct use_state *s = user;
    struct check *c = s->c;
    (void)word;
    struct guard dg = def_guard(c, id);
    if (!dg.a || !spvcond_validate_pair_failed(c, s->user, dg))
        return SPVCOND_OK;
    return c->dangling(c->dangling_user, inst, id, s->user, dg);
}

static void
describe_guard(struct guard g, char *buf, size_t n)
{
    if (!g.a)
        snprintf(buf, n, "always");
    else if (!g.b)
        snprintf(buf, n, "%%%u", g.a);
    else
        snprintf(buf, n, "%%%u and %%%u", g.a, g.b);
}

/* Report the pairs no proof settled. */
static void
report_failed_pairs(struct check *c)
{
    struct spvcond_module *m = c->m;
    for (size_t k = 0; k < c->pair_count; k++) {
        const struct pair *p = &c->pairs[k];
        if (!p->failed)
            continue;
        char u[64], d[64];
        describe_guard(p->user, u, sizeof(u));
        describe_guard(p->def, d, sizeof(d));
        spvcond_validate_violation(c, p->inst, p->id, SPVCOND_ERROR_INVALID_ID,
                  "%s uses %%%u under condition %s, which does not imply %%%u's condition %s: some specialization "
                  "would remove %%%u and keep this use%s",
                  spvcond_grammar_opcode_name(spvcond_inst_opcode(m, p->inst)), p->id, u, p->id, d, p->id,
                  c->enumerable ? "" : " (not provable structurally)");
    }
}

/* Keep in *first the earliest instruction seen (SIZE_MAX: none yet). */
static inline void
note_first(size_t *first, size_t i)
{
    *first = i < *first ? i : *first;
}

/* The extension's declarations. first_use: the first instruction that uses the extension, first_fv the
 * first device constant (OpSpecConstant{Target,Architecture,Capabilities}INTEL); SIZE_MAX if none. */
static void
check_declarations(struct check *c, size_t first_use, size_t first_fv)
{
    struct spvcond_module *m = c->m;
    bool cap = false, fv = false, ext = false;
    size_t first_cap = SIZE_MAX;
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CAPABILITY && spvcond_is_extension_capability(w[1]) &&
            first_cap == SIZE_MAX)
            first_cap = i;
    }
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_EXTENSION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_CAPABILITY && spvcond_is_extension_capability(w[1])) {
            cap = true;
            fv |= w[1] == SPVCOND_CAPABILITY_FUNCTION_VARIANTS_INTEL;
        }
        if (op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL && !cap && first_cap != SIZE_MAX)
            spvcond_validate_violation(c, i, 0, SPVCOND_ERROR_INVALID_LAYOUT,
                      "OpConditionalCapabilityINTEL before the OpCapability that declares SpecConditionalINTEL "
                      "(instruction %zu)", first_cap);
        if (op == SPVCOND_OP_EXTENSION && (strcmp(spvcond_inst_string(m, i, 1), SPVCOND_EXTENSION_NAME) == 0 ||
                         strcmp(spvcond_inst_string(m, i, 1), "SPV_INTEL_spec_conditional") == 0))
            ext = true;
    }
    if (first_use != SIZE_MAX && !cap)
        spvcond_validate_violation(c, first_use, 0, SPVCOND_ERROR_INVALID_BINARY,
                  "%s uses SPV_INTEL_function_variants, but the module declares neither OpCapability "
                  "SpecConditionalINTEL nor FunctionVariantsINTEL", spvcond_grammar_opcode_name(spvcond_inst_opcode(m, first_use)));
    if (first_fv != SIZE_MAX && !fv) {
        bool constant = spvcond_inst_opcode(m, first_fv) != SPVCOND_OP_DEVICE_REGISTRY_VERSION;
        uint32_t id = constant ? spvcond_inst_words(m, first_fv)[2] : 0;
        char what[32] = "";
        if (constant)
            snprintf(what, sizeof(what), " %%%u", id);
        spvcond_validate_violation(c, first_fv, id, SPVCOND_ERROR_INVALID_BINARY,
                  "%s%s needs OpCapability FunctionVariantsINTEL, which the module does not declare",
                  spvcond_grammar_opcode_name(spvcond_inst_opcode(m, first_fv)), what);
    }
    size_t user = first_cap != SIZE_MAX ? first_cap : first_use;
    if (user != SIZE_MAX && !ext)
        spvcond_validate_violation(c, user, 0, SPVCOND_ERROR_INVALID_BINARY,
                  "%s of SPV_INTEL_function_variants without OpExtension \"SPV_INTEL_function_variants\"",
                  spvcond_grammar_opcode_name(spvcond_inst_opcode(m, user)));
}

static void
check_copy_object(struct check *c, size_t i)
{
    struct spvcond_module *m = c->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t wc = spvcond_word_count_of(w[0]);
    if (wc < 5 || (wc - 3) % 2)
        spvcond_validate_violation(c, i, w[2], SPVCOND_ERROR_INVALID_BINARY,
                  "OpConditionalCopyObjectINTEL %%%u needs one or more (condition, operand) pairs", w[2]);
    if (spvcond_def_opcode(m, w[1]) == SPVCOND_OP_TYPE_VOID)
        spvcond_validate_violation(c, i, w[2], SPVCOND_ERROR_INVALID_ID, "OpConditionalCopyObjectINTEL %%%u has a void result type",
                  w[2]);
    for (uint32_t k = 3; k + 1 < wc; k += 2) {
        check_condition(c, i, w[k]);
        size_t d = spvcond_def(m, w[k + 1]);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(spvcond_inst_opcode(m, d));
        if (!gi || !gi->has_type || spvcond_inst_words(m, d)[1] != w[1])
            spvcond_validate_violation(c, i, w[k + 1], SPVCOND_ERROR_INVALID_ID,
                      "operand %%%u of OpConditionalCopyObjectINTEL %%%u does not have its result type %%%u",
                      w[k + 1], w[2], w[1]);
    }
}

static spvcond_result walk_uses(struct check *c, spvcond_id_fn visit);

/* spvcond_check_versions: a rule of SPIR-V's versions the module breaks. */
static spvcond_result
version_violation(void *user, size_t inst, const char *message)
{
    spvcond_validate_violation(user, inst, 0, SPVCOND_ERROR_INVALID_BINARY, "%s", message);
    return SPVCOND_OK;
}

/* ConditionalINTEL decorations: targets, at most one per id, conditions. */
static void
check_decorations(struct check *c, size_t *first_use)
{
    struct spvcond_module *m = c->m;
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (!spvcond_is_condition_decoration(w))
            continue;
        note_first(first_use, i);
        if (op == SPVCOND_OP_DECORATE_ID)
            spvcond_validate_violation(c, i, w[1], SPVCOND_ERROR_INVALID_BINARY,
                      "ConditionalINTEL through OpDecorateId: SPIRV-Tools rejects it; use OpDecorate");
        if (c->decorated[w[1]])
            spvcond_validate_violation(c, i, w[1], SPVCOND_ERROR_INVALID_ID, "%%%u carries more than one ConditionalINTEL", w[1]);
        uint32_t target_op = spvcond_def_opcode(m, w[1]);
        if (!spvcond_may_carry_condition(target_op))
            spvcond_validate_violation(c, i, w[1], SPVCOND_ERROR_INVALID_ID, "ConditionalINTEL may not decorate %s %%%u",
                      spvcond_grammar_opcode_name(target_op), w[1]);
        if (target_op == SPVCOND_OP_VARIABLE && spvcond_def(m, w[1]) >= m->section[SPVCOND_SECTION_FUNCTION])
            spvcond_validate_violation(c, i, w[1], SPVCOND_ERROR_INVALID_ID,
                      "ConditionalINTEL may decorate only module-scope variables, not %%%u", w[1]);
        c->decorated[w[1]] = w[3];
        c->node[w[3]] = 1;
        check_condition(c, i, w[3]);
    }
}

/* The extension's conditional instructions and device constants. */
static void
check_instructions(struct check *c, size_t *first_use, size_t *first_fv)
{
    struct spvcond_module *m = c->m;
    /* Of these opcodes only OpConditionalCopyObjectINTEL may stand in functions (the layout the reader
     * checks), and the reader counted those: most modules' code needs no scan. */
    size_t scan_end = m->conditional_copy_count ? m->inst_count : m->section[SPVCOND_SECTION_FUNCTION];
    for (size_t i = 0; i < scan_end; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        switch (op) {
        case SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL:
        case SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL:
        case SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL:
            note_first(first_use, i);
            c->node[w[1]] = 1;
            check_condition(c, i, w[1]);
            break;
        case SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL:
            note_first(first_use, i);
            for (uint32_t k = 3; k < spvcond_word_count_of(w[0]); k += 2)
                c->node[w[k]] = 1;
            check_copy_object(c, i);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL:
        case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL:
            note_first(first_use, i);
            note_first(first_fv, i);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL: {
            note_first(first_use, i);
            note_first(first_fv, i);
            uint32_t cmp = w[5];
            if (!spvcond_is_architecture_comparison(cmp))
                spvcond_validate_violation(c, i, w[2], SPVCOND_ERROR_INVALID_BINARY,
                          "OpSpecConstantArchitectureINTEL %%%u compares with opcode %u; only IEqual, INotEqual, "
                          "UGreaterThan, UGreaterThanEqual, ULessThan and ULessThanEqual are allowed", w[2], cmp);
            break;
        }
        default:
            break;
        }
    }
}

/* OpDeviceRegistryVersion (revision 0.13): at most one, beside OpModuleProcessed; it needs
 * FunctionVariantsINTEL as the device constants do. */
static void
check_registry_version(struct check *c, size_t *first_use, size_t *first_fv)
{
    struct spvcond_module *m = c->m;
    size_t registry = spvcond_registry_version_inst(m, 0);
    for (size_t i = registry, seen = 0; i != SIZE_MAX; i = spvcond_registry_version_inst(m, i + 1), seen++) {
        note_first(first_use, i);
        if (seen)
            spvcond_validate_violation(c, i, 0, SPVCOND_ERROR_INVALID_BINARY,
                      "a second OpDeviceRegistryVersion (the first is instruction %zu); a module states one", registry);
        if (i >= m->section[SPVCOND_SECTION_DEBUG_PROCESSED + 1])
            spvcond_validate_violation(c, i, 0, SPVCOND_ERROR_INVALID_LAYOUT,
                      "OpDeviceRegistryVersion belongs beside OpModuleProcessed (layout section 7c), before the "
                      "annotations, types, constants and global variables");
    }
    note_first(first_fv, registry);
}

/* No use dangles under any assignment: condition trees themselves unguarded, every use guarded at least
 * as strongly as its definition (proved, else the failing pairs reported). */
static spvcond_result
check_uses(struct check *c)
{
    struct spvcond_module *m = c->m;
    collect_trees(c);
    for (size_t n = 0; n < c->node_count; n++)
        if (c->decorated[c->nodes[n]])
            spvcond_validate_violation(c, spvcond_def(m, c->nodes[n]), c->nodes[n], SPVCOND_ERROR_INVALID_ID,
                      "condition node %%%u carries a ConditionalINTEL itself", c->nodes[n]);
    spvcond_result r = walk_uses(c, note_use);
    if (r == SPVCOND_OK && (r = spvcond_validate_prove(c)) == SPVCOND_OK) {
        if (c->dangling)
            r = walk_uses(c, report_use);
        else
            report_failed_pairs(c);
    }
    return r;
}

static spvcond_result
run(struct check *c)
{
    size_t first_use = SIZE_MAX, first_fv = SIZE_MAX;
    check_decorations(c, &first_use);
    check_instructions(c, &first_use, &first_fv);
    check_registry_version(c, &first_use, &first_fv);
    check_declarations(c, first_use, first_fv);
    spvcond_result r = spvcond_check_versions(c->m, version_violation, c);
    if (r == SPVCOND_OK)
        r = check_uses(c);
    /* Over every device: entry points that share a name stay one, copies keep exactly one operand. */
    return r == SPVCOND_OK ? spvcond_validate_devices(c) : r;
}

/* Every use and the guards it is under, to `visit` (note_use, report_use). */
static spvcond_result
walk_uses(struct check *c, spvcond_id_fn visit)
{
    struct spvcond_module *m = c->m;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = 0; i < m->inst_count && r == SPVCOND_OK; i++) {
        spvcond_prefetch_ahead(m, i);
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_NAME || op == SPVCOND_OP_MEMBER_NAME || op == SPVCOND_OP_EXECUTION_MODE ||
            op == SPVCOND_OP_EXECUTION_MODE_ID || op == SPVCOND_OP_GROUP_DECORATE ||
            op == SPVCOND_OP_GROUP_MEMBER_DECORATE || op == SPVCOND_OP_CAPABILITY ||
            op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL || op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL ||
            spvcond_is_annotation(m, i))
            continue; /* they go with their targets, or name no ids that can go */
        uint32_t own = spvcond_result_id(m, i);
        struct use_state s = {c, spvcond_validate_guard_of(c, i, own), i};
        if (op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL) {
            s.user = (struct guard){w[1], 0};
            r = visit(&s, i, 3, w[3]);
            continue;
        }
        if (op == SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL) {
            for (uint32_t k = 3; k + 1 < spvcond_word_count_of(w[0]) && r == SPVCOND_OK; k += 2) {
                struct use_state t = s;
                t.user = s.user.b ? s.user : (struct guard){s.user.a ? s.user.a : w[k], s.user.a ? w[k] : 0};
                r = visit(&t, i, k + 1, w[k + 1]);
            }
            continue;
        }
        if (c->node[own])
            continue; /* condition trees are checked above */
        if (spvcond_is_debug_info(m, i))
            continue; /* debug information follows what it describes: consumers drop it with its subject */
        r = spvcond_walk_ids(m, i, visit, &s);
    }
    return r;
}

spvcond_result
spvcond_validate(const spvcond_module *module, size_t *violations)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    return spvcond_validate_dangling(m, NULL, NULL, violations);
}

/* Validation set up for `fn` (dangling uses) or `coverage`; the rest as spvcond_validate_dangling. */
static spvcond_result validate_with(struct spvcond_module *m, spvcond_dangling_fn fn, void *user,
                                    spvcond_coverage_fn coverage, size_t *violations);

spvcond_result
spvcond_variant_coverage(const spvcond_module *module, spvcond_coverage_fn fn, void *user)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!fn)
        return spvcond_invalid(m->ctx, "spvcond_variant_coverage", "`fn` is NULL");
    return validate_with(m, NULL, user, fn, NULL);
}

spvcond_result
spvcond_validate_dangling(struct spvcond_module *m, spvcond_dangling_fn fn, void *user, size_t *violations)
{
    return validate_with(m, fn, user, NULL, violations);
}

static spvcond_result
validate_with(struct spvcond_module *m, spvcond_dangling_fn fn, void *user, spvcond_coverage_fn coverage,
              size_t *violations)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (m->opaque_count)
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, m->first_opaque, 0,
                                 "cannot validate: this instruction is unknown to our grammar");
    struct check c;
    memset(&c, 0, sizeof(c));
    c.m = m;
    c.dangling = fn;
    c.dangling_user = user;
    c.coverage = coverage;
    c.coverage_user = user;
    c.quiet = coverage != NULL;
    spvcond_context *ctx = m->ctx;
    c.decorated = spvcond_alloc_array(ctx, m->bound, sizeof(uint32_t));
    c.cond_ok = spvcond_alloc_array(ctx, m->bound, 1);
    /* The tables only condition trees touch, in one block: from a few MB up a block is pages given back
     * zero, of which a validation touches the trees' few; apart, each came from the slab, cleared whole
     * (a validation of an annotated 10 MB module peaked at 3.1 times it, beyond the constant). */
    uint32_t *per_tree = spvcond_alloc_array(ctx, 5 * (size_t)m->bound, sizeof(uint32_t));
    if (per_tree) {
        c.node = per_tree;
        c.mark = per_tree + m->bound;
        c.eval = per_tree + 2 * (size_t)m->bound;
        c.closure = per_tree + 3 * (size_t)m->bound;
        c.visit = per_tree + 4 * (size_t)m->bound;
    }
    /* The lists and the stack are written before they are read: not cleared, so that what a module
     * does not need of them is not touched. */
    c.nodes = spvcond_alloc(ctx, (size_t)m->bound * sizeof(uint32_t));
    c.leaves = spvcond_alloc(ctx, (size_t)m->bound * sizeof(uint32_t));
    c.stack = spvcond_alloc(ctx, (2 * (size_t)m->bound + 4) * sizeof(uint32_t));
    c.proofs = spvcond_alloc_array(ctx, PROOF_CACHE, sizeof(struct proof));
    c.budget = PROOF_BUDGET;
    spvcond_result r = c.decorated && c.cond_ok && per_tree && c.nodes && c.leaves && c.stack && c.proofs
                           ? run(&c)
                           : spvcond_oom(ctx);
    spvcond_dealloc(ctx, c.decorated);
    spvcond_dealloc(ctx, c.cond_ok);
    spvcond_dealloc(ctx, per_tree);
    spvcond_dealloc(ctx, c.nodes);
    spvcond_dealloc(ctx, c.leaves);
    spvcond_dealloc(ctx, c.stack);
    spvcond_dealloc(ctx, c.proofs);
    spvcond_validate_release_proofs(&c);
    if (violations)
        *violations = c.violations;
    if (r != SPVCOND_OK)
        return r;
    return c.violations && !c.quiet ? c.first : SPVCOND_OK;
}
