/* SPDX-License-Identifier: MIT */
/* Guarded code (spec/guards.md): `if (device_has(fp64)) f();` in one module. Marker calls become leaf
 * constants; every block gets the conjunction of the guard branches that dominate it; a call in a
 * guarded block carries its guard (ConditionalINTEL), reaches its callee only under it, and does not
 * make its caller require what the guard implies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/state.h"
#include "registry/architectures.h"
#include "registry/aspects.h"
#include "analysis/cfg.h"

#define MARKER_DEVICE_HAS "__spvcond_device_has"
#define MARKER_ARCHITECTURE_IS "__spvcond_architecture_is"
/* Boolean operations a guard expression is looked through, as deep as this. */
#define GUARD_DEPTH 64

enum { MARKER_NONE, MARKER_DEVICE, MARKER_ARCH };
enum { GVAL_UNSEEN, GVAL_NONE, GVAL_TRUE, GVAL_FALSE, GVAL_EXPR };

/* A boolean value as a guard: a constant, or conditions for it and for its negation. */
struct gval {
    uint32_t pos, neg;
    uint8_t state;
};

struct site {
    uint32_t inst, cond;
};

struct guards {
    uint8_t *marker;          /* per function: MARKER_* */
    size_t marker_functions;
    uint32_t *leaf_of;        /* per id: index + 1 of the leaf the id is */
    struct gval *val;         /* per id */
    uint32_t *calls;          /* marker calls (instruction indices) */
    size_t call_count, call_cap;
    struct site *sites;       /* guarded calls, in module order */
    size_t site_count, site_cap;
    uint32_t *block_of_id;    /* scratch of the CFG builder */
    uint8_t *has_marker_call; /* per function */
    bool function_variants;   /* device constants are used or made: OpCapability FunctionVariantsINTEL */
};

static const char *
marker_name(int kind)
{
    return kind == MARKER_DEVICE ? MARKER_DEVICE_HAS : MARKER_ARCHITECTURE_IS;
}

static int
marker_kind(const char *name)
{
    if (strncmp(name, "__spvcond_", 10) != 0) /* most names stop here */
        return MARKER_NONE;
    return strcmp(name, MARKER_DEVICE_HAS) == 0 ? MARKER_DEVICE
           : strcmp(name, MARKER_ARCHITECTURE_IS) == 0 ? MARKER_ARCH : MARKER_NONE;
}

/* ---- finding markers and leaves ------------------------------------------------------------- */

/* Function f is a marker of kind k (named so at instruction i): a declaration returning bool with
 * one int parameter (device_has) or four (architecture_is: category, family, architecture, comparison). */
static spvcond_result
check_marker(struct annotate *a, size_t f, int kind, size_t i)
{
    struct spvcond_module *m = a->m;
    const struct spvcond_function *fn = &m->functions[f];
    if (fn->first_block != fn->end)
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, fn->begin, fn->id,
                                 "%s is a marker, declared and never defined, but function %%%u has a body",
                                 marker_name(kind), fn->id);
    uint32_t params = (uint32_t)(fn->end - fn->begin - 1), want = kind == MARKER_DEVICE ? 1 : 4;
    bool ok = spvcond_def_opcode(m, spvcond_inst_words(m, fn->begin)[1]) == SPVCOND_OP_TYPE_BOOL && params == want;
    for (uint32_t k = 0; k < params && ok; k++) {
        const uint32_t *p = spvcond_inst_words(m, fn->begin + 1 + k);
        ok = spvcond_opcode_of(p[0]) == SPVCOND_OP_FUNCTION_PARAMETER && spvcond_scalar_width(m, p[1]) == 32 &&
             spvcond_def_opcode(m, p[1]) == SPVCOND_OP_TYPE_INT;
    }
    const char *params_text = kind == MARKER_DEVICE ? "int aspect"
                                                    : "uint category, uint family, uint architecture, uint comparison";
    if (!ok)
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, fn->id, "%s must be declared as bool %s(%s)",
                                 marker_name(kind), marker_name(kind), params_text);
    a->guards->marker[f] = (uint8_t)kind;
    a->guards->marker_functions++;
    return SPVCOND_OK;
}

/* Markers by OpName or LinkageAttributes name. */
static spvcond_result
find_markers(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r = SPVCOND_OK;
    size_t end = m->section[SPVCOND_SECTION_ANNOTATION + 1];
    for (size_t i = m->section[SPVCOND_SECTION_DEBUG_NAME]; i < end && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        const char *name = NULL;
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_NAME && spvcond_word_count_of(w[0]) >= 3)
            name = spvcond_inst_string(m, i, 2);
        else if (i >= m->section[SPVCOND_SECTION_ANNOTATION] && spvcond_is_linkage_decoration(w))
            name = spvcond_inst_string(m, i, 3);
        int kind = name ? marker_kind(name) : MARKER_NONE;
        size_t f = kind ? spvcond_callgraph_function(&a->g, m, w[1]) : SIZE_MAX;
        if (f != SIZE_MAX && a->guards->marker[f] != kind)
            r = check_marker(a, f, kind, i);
    }
    return r;
}

/* "__sp", the first word of a marker's name: most names are told apart by it alone. */
#define MARKER_PREFIX_WORD 0x70735f5fu
/* "spvc", the first word of a guard constant's name, "spvcond_has_" and what it has (a shader's guard, in
 * GLSL `layout(constant_id = N) const bool spvcond_has_Float16 = true;`, spec/guards.md). */
#define HAS_PREFIX "spvcond_has_"
#define HAS_PREFIX_WORD 0x63767073u

/* What a guard constant's name says it has, or NULL if the name is no guard constant's. */
static const char *
has_constant_name(const char *name)
{
    return strncmp(name, HAS_PREFIX, strlen(HAS_PREFIX)) == 0 && name[strlen(HAS_PREFIX)] ? name + strlen(HAS_PREFIX)
                                                                                           : NULL;
}

/* Is there anything a guard could be made of? Markers by name, stated SpecIds, device constants. */
static bool
may_have_guards(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    if (a->o->guard_spec_id_count || m->first_extension_inst)
        return true;
    size_t end = m->section[SPVCOND_SECTION_ANNOTATION + 1];
    for (size_t i = m->section[SPVCOND_SECTION_DEBUG_NAME]; i < end; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        if (op == SPVCOND_OP_NAME && wc >= 3 && w[2] == MARKER_PREFIX_WORD && spvcond_is_function_id(m, w[1]) &&
            marker_kind(spvcond_inst_string(m, i, 2)))
            return true;
        if (op == SPVCOND_OP_DECORATE && wc >= 5 && w[3] == MARKER_PREFIX_WORD && spvcond_is_linkage_decoration(w) &&
            marker_kind(spvcond_inst_string(m, i, 3)))
            return true;
        if (op == SPVCOND_OP_NAME && wc >= 3 && w[2] == HAS_PREFIX_WORD &&
            has_constant_name(spvcond_inst_string(m, i, 2)))
            return true;
    }
    return false;
}

static spvcond_result
set_leaf(struct annotate *a, uint32_t id, uint8_t kind, const uint32_t v[4])
{
    size_t leaf;
    spvcond_result r = spvcond_store_leaf(&a->store, kind, v, &leaf);
    if (r == SPVCOND_OK)
        a->guards->leaf_of[id] = (uint32_t)leaf + 1;
    a->guards->function_variants |= kind == LEAF_ARCHITECTURE;
    return r;
}

/* Whether `id` is a boolean OpSpecConstantTrue/False, what a front end's guard constant must be. */
static bool
boolean_spec_constant(const struct spvcond_module *m, uint32_t id)
{
    uint32_t op = spvcond_def_opcode(m, id);
    return (op == SPVCOND_OP_SPEC_CONSTANT_TRUE || op == SPVCOND_OP_SPEC_CONSTANT_FALSE) &&
           spvcond_def_opcode(m, spvcond_inst_words(m, spvcond_def(m, id))[1]) == SPVCOND_OP_TYPE_BOOL;
}

/* The aspect table a guard constant is entered in: made once, before any leaf (the store looks it up). */
static spvcond_result
aspect_constants(struct annotate *a)
{
    if (!a->aspect_constant &&
        !(a->aspect_constant = spvcond_alloc_array(a->m->ctx, SPVCOND_ASPECT_MAX, sizeof(uint32_t))))
        return spvcond_oom(a->m->ctx);
    spvcond_store_existing_aspects(&a->store, a->aspect_constant);
    return SPVCOND_OK;
}

/* SpecIds a requirements file says mean aspects. */
static spvcond_result
stated_spec_ids(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    const spvcond_annotate_options *o = a->o;
    if (!o->guard_spec_id_count)
        return SPVCOND_OK;
    spvcond_result ar = aspect_constants(a); /* filled below, before any leaf */
    if (ar != SPVCOND_OK)
        return ar;
    for (size_t k = 0; k < o->guard_spec_id_count; k++) {
        const spvcond_guard_spec_id *g = &o->guard_spec_ids[k];
        const char *origin = g->origin ? g->origin : "guard SpecIds";
        if (g->aspect >= SPVCOND_ASPECT_MAX || !spvcond_aspect_name(g->aspect))
            return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "%s: SpecId %u: aspect %u is unknown", origin, g->spec_id, g->aspect);
        for (size_t j = 0; j < k; j++) {
            const spvcond_guard_spec_id *h = &o->guard_spec_ids[j];
            if ((h->spec_id == g->spec_id) != (h->aspect == g->aspect))
                return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                      "%s: SpecId %u is declared to mean aspect %s, and SpecId %u aspect %s: one "
                                      "SpecId per aspect", origin, h->spec_id, spvcond_aspect_name(h->aspect),
                                      g->spec_id, spvcond_aspect_name(g->aspect));
        }
        bool found = false;
        for (size_t s = 0; s < m->spec_id_count; s++) {
            if (m->spec_ids[s].spec_id != g->spec_id)
                continue;
            uint32_t id = m->spec_ids[s].id;
            size_t d = spvcond_def(m, id);
            if (!boolean_spec_constant(m, id))
                return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, d, id,
                                         "%s: SpecId %u is declared to mean aspect %s, but %%%u is not a boolean "
                                         "OpSpecConstantTrue/False", origin, g->spec_id,
                                         spvcond_aspect_name(g->aspect), id);
            if (found)
                return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, d, id,
                                         "%s: SpecId %u decorates more than one constant", origin, g->spec_id);
            found = true;
            a->aspect_constant[g->aspect] = id;
            uint32_t v[4] = {g->aspect, 0, 0, 0};
            spvcond_result r = set_leaf(a, id, LEAF_ASPECT, v);
            if (r != SPVCOND_OK)
                return r;
        }
        if (!found)
            spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, SPVCOND_NOWHERE,
                           "%s: no spec constant carries SpecId %u (aspect %s)", origin, g->spec_id,
                           spvcond_aspect_name(g->aspect));
    }
    return SPVCOND_OK;
}

/* Spec constants named spvcond_has_<X> (spec/guards.md): X an aspect (fp64) or a SPIR-V capability (Int64;
 * Float64, Float16 and Int64Atomics are the aspects fp64, fp16 and atomic64). The constant becomes that
 * requirement's leaf, the one an inferred use of it gets: one constant per requirement. */
static spvcond_result
named_constants(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r = SPVCOND_OK;
    size_t end = m->section[SPVCOND_SECTION_DEBUG_NAME + 1];
    for (size_t i = m->section[SPVCOND_SECTION_DEBUG_NAME]; i < end && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        const char *what = spvcond_inst_opcode(m, i) == SPVCOND_OP_NAME && spvcond_inst_word_count(m, i) >= 3 &&
                                   w[2] == HAS_PREFIX_WORD ? has_constant_name(spvcond_inst_string(m, i, 2)) : NULL;
        if (!what)
            continue;
        uint32_t id = w[1], aspect = SPVCOND_ASPECT_MAX, cap = 0;
        if (!boolean_spec_constant(m, id))
            return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, id,
                                     "%s%s: %%%u is not a boolean OpSpecConstantTrue/False (a guard constant is "
                                     "the device's answer, set when the module is specialized)", HAS_PREFIX, what, id);
        if (!spvcond_aspect_by_name(what, &aspect) && spvcond_capability_value(what, &cap))
            aspect = spvcond_aspect_of_capability(cap, false);
        else if (aspect == SPVCOND_ASPECT_MAX || !spvcond_aspect_name(aspect))
            return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, id,
                                     "%s%s: '%s' is neither a DPC++ aspect nor a SPIR-V capability", HAS_PREFIX, what,
                                     what);
        if (aspect < SPVCOND_ASPECT_MAX) {
            if ((r = aspect_constants(a)) != SPVCOND_OK)
                return r;
            if (a->aspect_constant[aspect] && a->aspect_constant[aspect] != id)
                return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, id,
                                         "%s%s: %%%u and %%%u both stand for aspect %s: one constant per requirement",
                                         HAS_PREFIX, what, a->aspect_constant[aspect], id, spvcond_aspect_name(aspect));
            a->aspect_constant[aspect] = id;
            r = set_leaf(a, id, LEAF_ASPECT, (uint32_t[4]){aspect, 0, 0, 0});
            continue;
        }
        /* A capability the module declares is the requirement its users infer (its declared index); one it
         * does not declare, a leaf of the guard alone. */
        size_t k = spvcond_declared_caps_find(&a->caps, cap);
        uint32_t index = spvcond_declared_cap_done(k) ? (uint32_t)k : SPVCOND_NO_DECLARED_CAP; /* a requirement bit */
        if (index != SPVCOND_NO_DECLARED_CAP) {
            uint32_t *slot = &a->store.capability_constant[index];
            if (*slot && *slot != id)
                return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, id,
                                         "%s%s: %%%u and %%%u both stand for capability %s: one constant per "
                                         "requirement", HAS_PREFIX, what, *slot, id, what);
            *slot = id;
        }
        r = set_leaf(a, id, LEAF_CAPABILITY, (uint32_t[4]){cap, index, 0, 0});
    }
    return r;
}

/* The extension's device constants are leaves as they are (an architecture test with a comparison the
 * extension does not allow is refused: its output would not validate). */
static spvcond_result
device_constants(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r = SPVCOND_OK;
    bool declared = a->ext_declared.function_variants && a->ext_declared.extension; /* as they need */
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION] && r == SPVCOND_OK;
         i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL && (spvcond_word_count_of(w[0]) != 7 ||
                                                                  !spvcond_is_architecture_comparison(w[5])))
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, i, w[2],
                                     "OpSpecConstantArchitectureINTEL %%%u: its comparison must be IEqual, "
                                     "INotEqual, UGreaterThan, UGreaterThanEqual, ULessThan or ULessThanEqual", w[2]);
        bool device = op == SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL ||
                      op == SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL ||
                      op == SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL;
        if (device && !declared)
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, i, w[2],
                                     "%s needs OpCapability FunctionVariantsINTEL and OpExtension \"%s\"",
                                     spvcond_grammar_opcode_name(op), SPVCOND_EXTENSION_NAME);
        if (device && spvcond_def_opcode(m, w[1]) == SPVCOND_OP_TYPE_BOOL) {
            uint32_t v[4] = {w[2], 0, 0, 0};
            r = set_leaf(a, w[2], LEAF_CONSTANT, v);
        }
    }
    return r;
}

/* The value of a marker's argument: an OpConstant of a 32-bit integer type. */
static bool
constant_argument(const struct spvcond_module *m, uint32_t id, uint32_t *out)
{
    size_t d = spvcond_def(m, id);
    if (d == SIZE_MAX || spvcond_inst_opcode(m, d) != SPVCOND_OP_CONSTANT)
        return false;
    const uint32_t *w = spvcond_inst_words(m, d);
    if (spvcond_word_count_of(w[0]) != 4 || spvcond_def_opcode(m, w[1]) != SPVCOND_OP_TYPE_INT ||
        spvcond_scalar_width(m, w[1]) != 32)
        return false;
    *out = w[3];
    return true;
}

/* Marker call i of kind `kind`: its result becomes a leaf. */
static spvcond_result
marker_call(struct annotate *a, size_t i, int kind)
{
    struct spvcond_module *m = a->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t wc = spvcond_word_count_of(w[0]), args[4] = {0, 0, 0, 0}, want = kind == MARKER_DEVICE ? 1 : 4;
    for (uint32_t k = 0; k < want; k++)
        if (4 + k >= wc || !constant_argument(m, w[4 + k], &args[k]))
            return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, w[2],
                                     "%s: argument %u is not an integer constant (a guard must be known when the "
                                     "module is specialized)", marker_name(kind), k + 1);
    uint32_t v[4] = {args[0], 0, 0, 0};
    if (kind == MARKER_DEVICE) {
        if (args[0] >= SPVCOND_ASPECT_MAX || !spvcond_aspect_name(args[0]))
            return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, w[2], "%s(%u): no aspect has that number",
                                     MARKER_DEVICE_HAS, args[0]);
        return set_leaf(a, w[2], LEAF_ASPECT, v);
    }
    struct spvcond_architecture arch = {args[0], args[1], args[2]};
    if (!spvcond_is_architecture_comparison(args[3]))
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, w[2],
                                 "%s: comparison %u is not IEqual, INotEqual, UGreaterThan, UGreaterThanEqual, "
                                 "ULessThan or ULessThanEqual", MARKER_ARCHITECTURE_IS, args[3]);
    if (!spvcond_architecture_known(arch))
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, w[2],
                                 "%s(%u, %u, %u): the device registry has no such architecture",
                                 MARKER_ARCHITECTURE_IS, args[0], args[1], args[2]);
    uint32_t av[4] = {args[0], args[1], args[3], args[2]}; /* the operands' order of the constant */
    return set_leaf(a, w[2], LEAF_ARCHITECTURE, av);
}

struct marker_use {
    struct annotate *a;
    bool call; /* the instruction is an OpFunctionCall */
};

/* A marker may only be called (found by fuzzing: one used as a value kept its use once it went). */
static spvcond_result
check_marker_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct marker_use *u = user;
    size_t f = spvcond_callgraph_function(&u->a->g, u->a->m, id);
    if (f == SIZE_MAX || !u->a->guards->marker[f] || (u->call && word == 3))
        return SPVCOND_OK;
    return spvcond_fail_inst(u->a->m, SPVCOND_ERROR_UNSUPPORTED, inst, id, "%s is a marker: it may only be called",
                             marker_name(u->a->guards->marker[f]));
}

/* Entry points, execution modes and function pointers name no marker. */
static spvcond_result
marker_module_uses(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct marker_use u = {a, false};
    spvcond_result r = SPVCOND_OK;
    size_t end = m->section[SPVCOND_SECTION_FUNCTION];
    for (size_t i = m->section[SPVCOND_SECTION_ENTRY_POINT]; i < end && r == SPVCOND_OK; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        if (op == SPVCOND_OP_ENTRY_POINT || op == SPVCOND_OP_EXECUTION_MODE || op == SPVCOND_OP_EXECUTION_MODE_ID ||
            op == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL)
            r = spvcond_walk_ids(m, i, check_marker_use, &u);
    }
    return r;
}

static spvcond_result
marker_calls(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct guards *g = a->guards;
    spvcond_result r = g->marker_functions ? marker_module_uses(a) : SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        bool calls_marker = false;
        for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
            calls_marker |= g->marker[a->g.callees[e]] != MARKER_NONE;
        const struct spvcond_function *fn = &m->functions[f];
        for (size_t i = fn->begin; calls_marker && i < fn->end && r == SPVCOND_OK; i++) {
            const uint32_t *w = spvcond_inst_words(m, i);
            struct marker_use u = {a, spvcond_opcode_of(w[0]) == SPVCOND_OP_FUNCTION_CALL};
            if ((r = spvcond_walk_ids(m, i, check_marker_use, &u)) != SPVCOND_OK || !u.call)
                continue;
            size_t callee = spvcond_callgraph_function(&a->g, m, w[3]);
            if (callee == SIZE_MAX || !g->marker[callee])
                continue;
            if ((r = marker_call(a, i, g->marker[callee])) == SPVCOND_OK &&
                (r = spvcond_grow(m->ctx, (void **)&g->calls, &g->call_cap, g->call_count + 1, sizeof(uint32_t))) ==
                    SPVCOND_OK)
                g->calls[g->call_count++] = (uint32_t)i;
            g->has_marker_call[f] = 1;
        }
    }
    return r;
}

spvcond_result
spvcond_guards_begin(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    if (!may_have_guards(a))
        return SPVCOND_OK;
    struct guards *g = a->guards = spvcond_alloc_array(m->ctx, 1, sizeof(*g));
    if (!g)
        return spvcond_oom(m->ctx);
    g->marker = spvcond_alloc_array(m->ctx, m->function_count + 1, 1);
    g->has_marker_call = spvcond_alloc_array(m->ctx, m->function_count + 1, 1);
    g->leaf_of = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t));
    g->val = spvcond_alloc_array(m->ctx, m->bound, sizeof(*g->val));
    g->block_of_id = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t));
    if (!g->marker || !g->has_marker_call || !g->leaf_of || !g->val || !g->block_of_id)
        return spvcond_oom(m->ctx);
    /* The empty set is set 0, "always", before any guard's set. */
    uint32_t none[1] = {0}, empty;
    spvcond_result r = spvcond_store_set(&a->store, none, 0, &empty);
    if (r == SPVCOND_OK)
        r = spvcond_cond_init(&a->store);
    if (r == SPVCOND_OK)
        r = find_markers(a);
    if (r == SPVCOND_OK)
        r = stated_spec_ids(a);
    if (r == SPVCOND_OK)
        r = named_constants(a);
    if (r == SPVCOND_OK && m->first_extension_inst)
        r = device_constants(a);
    if (r == SPVCOND_OK)
        r = marker_calls(a);
    return r;
}

/* ---- guard values --------------------------------------------------------------------------- */

static spvcond_result
literal(struct annotate *a, uint32_t leaf, bool negated, uint32_t *out)
{
    size_t index = leaf;
    spvcond_result r = SPVCOND_OK;
    if (negated) {
        uint32_t v[4] = {leaf, 0, 0, 0};
        r = spvcond_store_leaf(&a->store, LEAF_NOT, v, &index);
    }
    uint32_t l = (uint32_t)index, set;
    if (r == SPVCOND_OK)
        r = spvcond_store_set(&a->store, &l, 1, &set);
    return r == SPVCOND_OK ? spvcond_cond_of_set(&a->store, set, out) : r;
}

static struct gval
gnot(struct gval x)
{
    if (x.state == GVAL_TRUE || x.state == GVAL_FALSE)
        x.state = x.state == GVAL_TRUE ? GVAL_FALSE : GVAL_TRUE;
    else if (x.state == GVAL_EXPR)
        x = (struct gval){x.neg, x.pos, GVAL_EXPR};
    return x;
}

/* x And y (is_and) or x Or y. */
static spvcond_result
gjoin(struct annotate *a, struct gval x, struct gval y, bool is_and, struct gval *out)
{
    uint8_t absorbing = is_and ? GVAL_FALSE : GVAL_TRUE, neutral = is_and ? GVAL_TRUE : GVAL_FALSE;
    if (x.state == absorbing || y.state == absorbing) {
        *out = (struct gval){0, 0, absorbing};
        return SPVCOND_OK;
    }
    if (x.state == neutral || y.state == neutral) {
        *out = x.state == neutral ? y : x;
        return SPVCOND_OK;
    }
    if (x.state != GVAL_EXPR || y.state != GVAL_EXPR) {
        *out = (struct gval){0, 0, GVAL_NONE};
        return SPVCOND_OK;
    }
    struct gval v = {0, 0, GVAL_EXPR};
    struct condition_store *cs = &a->store;
    spvcond_result r = is_and ? spvcond_cond_and(cs, x.pos, y.pos, &v.pos) : spvcond_cond_union(cs, x.pos, y.pos, &v.pos);
    if (r == SPVCOND_OK)
        r = is_and ? spvcond_cond_union(cs, x.neg, y.neg, &v.neg) : spvcond_cond_and(cs, x.neg, y.neg, &v.neg);
    *out = v;
    return r;
}

/* x == y: (x And y) Or (Not x And Not y). */
static spvcond_result
gequal(struct annotate *a, struct gval x, struct gval y, struct gval *out)
{
    struct gval both, neither;
    spvcond_result r = gjoin(a, x, y, true, &both);
    if (r == SPVCOND_OK)
        r = gjoin(a, gnot(x), gnot(y), true, &neither);
    return r == SPVCOND_OK ? gjoin(a, both, neither, false, out) : r;
}

/* The guard value of id (memoized); operations are looked through GUARD_DEPTH deep. */
static spvcond_result
guard_value(struct annotate *a, uint32_t id, int depth, struct gval *out)
{
    struct spvcond_module *m = a->m;
    struct guards *g = a->guards;
    *out = (struct gval){0, 0, GVAL_NONE};
    if (id >= m->bound || depth > GUARD_DEPTH)
        return SPVCOND_OK;
    if (g->val[id].state != GVAL_UNSEEN) {
        *out = g->val[id];
        return SPVCOND_OK;
    }
    spvcond_result r = SPVCOND_OK;
    struct gval v = {0, 0, GVAL_NONE}, x, y;
    size_t d = spvcond_def(m, id);
    if (g->leaf_of[id]) {
        v.state = GVAL_EXPR;
        if ((r = literal(a, g->leaf_of[id] - 1, false, &v.pos)) == SPVCOND_OK)
            r = literal(a, g->leaf_of[id] - 1, true, &v.neg);
    } else if (d != SIZE_MAX) {
        const uint32_t *w = spvcond_inst_words(m, d);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]), base = 3;
        if (op == SPVCOND_OP_SPEC_CONSTANT_OP && wc >= 5) { /* the operation's opcode, then its operands */
            op = w[3];
            base = 4;
        } else if (op == SPVCOND_OP_SPEC_CONSTANT_OP) {
            op = 0;
        }
        bool binary = op == SPVCOND_OP_LOGICAL_AND || op == SPVCOND_OP_LOGICAL_OR || op == SPVCOND_OP_LOGICAL_EQUAL ||
                      op == SPVCOND_OP_LOGICAL_NOT_EQUAL;
        bool unary = op == SPVCOND_OP_LOGICAL_NOT || (op == SPVCOND_OP_COPY_OBJECT && base == 3);
        if (op == SPVCOND_OP_CONSTANT_TRUE || op == SPVCOND_OP_CONSTANT_FALSE) {
            v.state = op == SPVCOND_OP_CONSTANT_TRUE ? GVAL_TRUE : GVAL_FALSE;
        } else if ((unary && wc == base + 1) || (binary && wc == base + 2)) {
            r = guard_value(a, w[base], depth + 1, &x);
            if (r == SPVCOND_OK && binary)
                r = guard_value(a, w[base + 1], depth + 1, &y);
            if (r == SPVCOND_OK) {
                if (op == SPVCOND_OP_LOGICAL_NOT)
                    v = gnot(x);
                else if (op == SPVCOND_OP_COPY_OBJECT)
                    v = x;
                else if (op == SPVCOND_OP_LOGICAL_AND || op == SPVCOND_OP_LOGICAL_OR)
                    r = gjoin(a, x, y, op == SPVCOND_OP_LOGICAL_AND, &v);
                else if ((r = gequal(a, x, y, &v)) == SPVCOND_OK && op == SPVCOND_OP_LOGICAL_NOT_EQUAL)
                    v = gnot(v);
            }
        }
    }
    if (r == SPVCOND_OK && depth <= GUARD_DEPTH)
        g->val[id] = v;
    *out = v;
    return r;
}

/* ---- block guards ------------------------------------------------------------------------- */

/* A guard for messages: "device_has(fp64) && !device_has(fp16) || ...". */
static void
describe(struct annotate *a, uint32_t cond, char *buf, size_t size)
{
    const struct condition_store *cs = &a->store;
    const struct cond *c = spvcond_cond_at(cs, cond);
    size_t o = 0;
    buf[0] = 0;
    if (c->kind != COND_LIST) {
        snprintf(buf, size, "a combination of guards");
        return;
    }
    for (uint32_t k = 0; k < c->y && o < size; k++) {
        uint32_t s = spvcond_cond_list_set(cs, cond, k);
        o += (size_t)snprintf(buf + o, size - o, "%s", k ? " || " : "");
        for (uint32_t j = 0; j < spvcond_store_set_size(cs, s) && o < size; j++) {
            const struct leaf *l = spvcond_store_leaf_at(cs, spvcond_store_set_leaf(cs, s, j));
            bool negated = l->kind == LEAF_NOT;
            if (negated)
                l = spvcond_store_leaf_at(cs, l->v[0]);
            o += (size_t)snprintf(buf + o, size - o, "%s%s", j ? " && " : "", negated ? "!" : "");
            if (o >= size)
                break;
            if (l->kind == LEAF_ASPECT) {
                o += (size_t)snprintf(buf + o, size - o, "device_has(%s)", spvcond_aspect_name(l->v[0]));
            } else if (l->kind == LEAF_ARCHITECTURE) {
                const char *an = spvcond_architecture_name((struct spvcond_architecture){l->v[0], l->v[1], l->v[3]});
                o += (size_t)snprintf(buf + o, size - o, "architecture_is(%s, %s)", an ? an : "?",
                                      spvcond_grammar_opcode_name(l->v[2]));
            } else {
                o += (size_t)snprintf(buf + o, size - o, "%%%u", l->v[0]);
            }
        }
    }
}

/* The aspects an instruction uses by itself (the facts of the ids it names). */
struct facts_walk {
    const uint8_t *facts;
    uint8_t seen;
};

static spvcond_result
note_facts(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct facts_walk *fw = user;
    (void)inst;
    (void)word;
    fw->seen |= fw->facts[id];
    return SPVCOND_OK;
}

/* Guarded block [begin, end] under `cond`: its calls are sites; inline uses of what the guard implies
 * are reported once per function. */
static spvcond_result
guarded_block(struct annotate *a, size_t f, size_t begin, size_t end, uint32_t cond, bool *warned)
{
    struct spvcond_module *m = a->m;
    struct guards *g = a->guards;
    spvcond_aspects implied;
    spvcond_cond_implied_aspects(&a->store, cond, &implied);
    bool look = (implied.bits[0] | implied.bits[1]) && a->inf.type_facts && !*warned;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = begin; i <= end && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_FUNCTION_CALL && !g->leaf_of[w[2]]) {
            r = spvcond_grow(m->ctx, (void **)&g->sites, &g->site_cap, g->site_count + 1, sizeof(*g->sites));
            if (r == SPVCOND_OK)
                g->sites[g->site_count++] = (struct site){(uint32_t)i, cond};
        }
        if (!look || r != SPVCOND_OK)
            continue;
        struct facts_walk fw = {a->inf.type_facts, 0};
        if ((r = spvcond_walk_ids(m, i, note_facts, &fw)) != SPVCOND_OK)
            break;
        spvcond_aspects used = spvcond_aspects_of_facts(fw.seen);
        uint32_t both = spvcond_aspects_next(&used, 0);
        while (both < SPVCOND_ASPECT_MAX && !spvcond_aspects_has(&implied, both))
            both = spvcond_aspects_next(&used, both + 1);
        if (both == SPVCOND_ASPECT_MAX)
            continue;
        char guard[256];
        describe(a, cond, guard, sizeof(guard));
        const char *name = spvcond_name_of(m, m->functions[f].id);
        char label[32];
        snprintf(label, sizeof(label), "%%%u", m->functions[f].id);
        spvcond_warn_inst(m, i, spvcond_result_id(m, i),
                          "%s uses %s inline (%s) under the guard %s: no consumer can remove code inside a function, "
                          "so %s requires %s; move that code into a function called under the guard",
                          name ? name : label, spvcond_aspect_name(both),
                          spvcond_grammar_opcode_name(spvcond_opcode_of(w[0])), guard, name ? name : label,
                          spvcond_aspect_name(both));
        *warned = true;
        look = false;
    }
    return r;
}

/* Function f: its branches on guards, and the guard of each block. */
static spvcond_result
function_guards(struct annotate *a, size_t f)
{
    struct spvcond_module *m = a->m;
    const struct spvcond_function *fn = &m->functions[f];
    struct gval v;
    bool any = false;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = fn->first_block; i < fn->end && !any && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_BRANCH_CONDITIONAL && spvcond_word_count_of(w[0]) >= 4 &&
            w[2] != w[3] && (r = guard_value(a, w[1], 0, &v)) == SPVCOND_OK)
            any = v.state == GVAL_EXPR;
    }
    if (!any || r != SPVCOND_OK)
        return r;
    struct spvcond_cfg cfg;
    if ((r = spvcond_cfg_build(m, fn, a->guards->block_of_id, &cfg)) != SPVCOND_OK)
        return r;
    uint32_t *guard = spvcond_alloc_array(m->ctx, cfg.block_count + 1, sizeof(uint32_t));
    if (!guard)
        r = spvcond_oom(m->ctx);
    if (r == SPVCOND_OK)
        r = spvcond_cfg_dominators(&cfg);
    bool warned = false;
    for (size_t k = 0; k < cfg.reachable && r == SPVCOND_OK; k++) {
        uint32_t b = cfg.rpo[k], from = SPVCOND_CFG_NONE, entries = 0;
        guard[b] = k == 0 ? spvcond_cond_always(&a->store) : guard[cfg.idom[b]];
        for (uint32_t e = cfg.pred_start[b]; e < cfg.pred_start[b + 1] && k; e++) {
            uint32_t p = cfg.pred[e];
            if (cfg.rpo_index[p] == SPVCOND_CFG_NONE || spvcond_cfg_dominates(&cfg, b, p))
                continue; /* unreachable, or a back edge */
            entries++;
            from = p;
        }
        if (entries == 1) { /* entered by one edge only: under that edge's condition */
            const uint32_t *w = spvcond_inst_words(m, cfg.terminator[from]);
            if (spvcond_opcode_of(w[0]) == SPVCOND_OP_BRANCH_CONDITIONAL && (r = guard_value(a, w[1], 0, &v)) ==
                SPVCOND_OK && v.state == GVAL_EXPR) {
                uint32_t label = spvcond_inst_words(m, cfg.label[b])[1];
                r = spvcond_cond_and(&a->store, guard[b], w[2] == label ? v.pos : v.neg, &guard[b]);
            }
        }
        if (r == SPVCOND_OK && guard[b] != spvcond_cond_always(&a->store))
            r = guarded_block(a, f, cfg.label[b], cfg.terminator[b], guard[b], &warned);
    }
    spvcond_dealloc(m->ctx, guard);
    spvcond_cfg_release(&cfg);
    return r;
}

struct naming {
    struct annotate *a;
    const uint32_t *edge_of; /* per function: the edge + 1 from the function walked */
    uint32_t site_cond;      /* the instruction is a guarded call, under this */
};

/* A use of id in the function walked: under the site's guard if it is the callee of a guarded call,
 * else unguarded. */
static spvcond_result
note_naming(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct naming *n = user;
    struct annotate *a = n->a;
    (void)inst;
    uint32_t callee = a->g.function_of_id[id] & ~SPVCOND_CALLGRAPH_POINTER;
    if (!callee || !n->edge_of[callee - 1])
        return SPVCOND_OK;
    uint32_t *eg = &a->edge_guard[n->edge_of[callee - 1] - 1];
    return spvcond_cond_union(&a->store, *eg, n->site_cond && word == 3 ? n->site_cond : spvcond_cond_always(&a->store), eg);
}

/* Each call-graph edge's guard: the Or of its call sites' guards, none if the callee is named anywhere
 * else (an unguarded call, a function pointer...). */
static spvcond_result
edge_guards(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct guards *g = a->guards;
    size_t edges = a->g.callee_start[m->function_count];
    a->edge_guard = spvcond_alloc_array(m->ctx, edges + 1, sizeof(uint32_t));
    uint32_t *edge_of = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    spvcond_result r = a->edge_guard && edge_of ? SPVCOND_OK : spvcond_oom(m->ctx);
    size_t s = 0;
    while (s < g->site_count && r == SPVCOND_OK) {
        const struct spvcond_function *fn = spvcond_function_of_inst(m, g->sites[s].inst);
        size_t f = (size_t)(fn - m->functions), first = s;
        while (s < g->site_count && g->sites[s].inst <= fn->end)
            s++;
        for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
            edge_of[a->g.callees[e]] = e + 1;
        struct naming n = {a, edge_of, 0};
        for (size_t i = fn->begin, next = first; i <= fn->end && r == SPVCOND_OK; i++) {
            n.site_cond = next < s && g->sites[next].inst == i ? g->sites[next++].cond : 0;
            r = spvcond_walk_ids(m, i, note_naming, &n);
        }
        for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
            edge_of[a->g.callees[e]] = 0;
    }
    for (size_t e = 0; e < edges && r == SPVCOND_OK; e++)
        if (a->edge_guard[e] == spvcond_cond_always(&a->store))
            a->edge_guard[e] = 0;
    spvcond_dealloc(m->ctx, edge_of);
    return r;
}

static int
compare_sites(const void *x, const void *y)
{
    uint32_t a = ((const struct site *)x)->inst, b = ((const struct site *)y)->inst;
    return a < b ? -1 : a > b;
}

spvcond_result
spvcond_guards_analyze(struct annotate *a)
{
    if (!a->guards)
        return SPVCOND_OK;
    struct spvcond_module *m = a->m;
    struct guards *g = a->guards;
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++)
        if (m->functions[f].first_block != m->functions[f].end)
            r = function_guards(a, f);
    if (g->site_count > 1) /* blocks were visited in dominance order: module order from here on */
        qsort(g->sites, g->site_count, sizeof(*g->sites), compare_sites);
    return r == SPVCOND_OK ? edge_guards(a) : r;
}

void
spvcond_guards_hide(struct annotate *a, spvcond_aspects *hidden)
{
    const struct spvcond_inference *inf = &a->inf;
    const struct spvcond_callgraph *g = &a->g;
    for (size_t f = 0; f < a->m->function_count; f++) /* within a recursive cycle, nothing is hidden */
        for (uint32_t e = g->callee_start[f]; e < g->callee_start[f + 1]; e++)
            if (a->edge_guard[e] && inf->scc_of[g->callees[e]] != inf->scc_of[f])
                spvcond_cond_implied_aspects(&a->store, a->edge_guard[e], &hidden[e]);
}

void
spvcond_guards_pin(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    for (size_t i = a->global_begin; a->guards && i < a->global_end; i++) {
        uint32_t id = spvcond_is_module_item(m, i) ? spvcond_result_id(m, i) : 0;
        if (id && a->guards->leaf_of[id])
            a->global_cond[i - a->global_begin] = spvcond_cond_always(&a->store);
    }
}

bool
spvcond_guards_is_marker(const struct annotate *a, size_t f)
{
    return a->guards && a->guards->marker[f] != MARKER_NONE;
}

bool
spvcond_guards_rewrite_needed(const struct annotate *a)
{
    return a->guards && (a->guards->call_count || a->guards->site_count);
}

/* ---- rewriting ------------------------------------------------------------------------------ */

struct rewrite {
    struct annotate *a;
    uint32_t *subst;  /* per id: the id that replaces it (marker results: their leaf), else 0 */
    uint8_t *used;    /* per id: some instruction of a function with guarded calls uses it */
};

static spvcond_result
note_used(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct rewrite *w = user;
    (void)inst;
    (void)word;
    w->used[id] = 1;
    return SPVCOND_OK;
}

struct substitution {
    struct rewrite *rw;
    uint32_t *words;
    bool changed;
};

static spvcond_result
substitute(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct substitution *s = user;
    (void)inst;
    if (s->rw->subst[id]) {
        s->words[word] = s->rw->subst[id];
        s->changed = true;
    }
    return SPVCOND_OK;
}

/* Instruction i, its marker results replaced by their leaves; a guarded call (cond: its node) also gets
 * its ConditionalINTEL, and when its result is used, a merge: the call defines a new id, and
 *   %result = OpConditionalCopyObjectINTEL %type %cond %new %not_cond %undef
 * so that a consumer that removes the call and keeps the block (it does not fold branches) still has a
 * definition of %result. */
static spvcond_result
rewrite_inst(struct rewrite *rw, size_t i, uint32_t site_cond)
{
    struct annotate *a = rw->a;
    struct spvcond_module *m = a->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t wc = spvcond_word_count_of(w[0]), extra = 0;
    bool merge = site_cond && rw->used[w[2]];
    uint32_t cond = 0, not_cond = 0;
    spvcond_result r = SPVCOND_OK;
    if (merge && spvcond_def_opcode(m, w[1]) == SPVCOND_OP_TYPE_VOID) /* found by fuzzing */
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, w[2],
                                 "the result %%%u of a call of type void is used: it cannot be merged under its "
                                 "guard", w[2]);
    if (site_cond) {
        uint32_t negated;
        if ((r = spvcond_emit_condition(&a->emit, site_cond, &cond)) == SPVCOND_OK && merge &&
            (r = spvcond_cond_not(&a->store, site_cond, &negated)) == SPVCOND_OK)
            r = spvcond_emit_condition(&a->emit, negated, &not_cond);
        if (r != SPVCOND_OK)
            return r;
        extra = merge ? 3 + 7 : 0;
    }
    uint32_t *out = spvcond_alloc_array(m->ctx, wc + extra, sizeof(uint32_t));
    if (!out)
        return spvcond_oom(m->ctx);
    memcpy(out, w, wc * sizeof(uint32_t));
    struct substitution s = {rw, out, false};
    r = spvcond_walk_ids(m, i, substitute, &s);
    uint32_t target = site_cond ? w[2] : 0;
    if (r == SPVCOND_OK && merge && (r = spvcond_edit_new_id(m, &out[2])) == SPVCOND_OK) {
        uint32_t undef;
        target = out[2];
        if ((r = spvcond_edit_new_id(m, &undef)) == SPVCOND_OK) {
            uint32_t *u = out + wc, *c = u + 3;
            u[0] = spvcond_first_word(3, SPVCOND_OP_UNDEF), u[1] = w[1], u[2] = undef;
            c[0] = spvcond_first_word(7, SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL), c[1] = w[1], c[2] = w[2];
            c[3] = cond, c[4] = out[2], c[5] = not_cond, c[6] = undef;
        }
    }
    if (r == SPVCOND_OK && (s.changed || merge))
        r = spvcond_edit_replace(m, i, out, wc + extra);
    spvcond_dealloc(m->ctx, out);
    if (r == SPVCOND_OK && cond)
        r = spvcond_emit_decorate(&a->emit, target, cond);
    return r;
}

/* The names and decorations of an id that goes. */
static spvcond_result
remove_references(struct spvcond_module *m, uint32_t id)
{
    const struct spvcond_refs *refs[2] = {&m->names, &m->decorations};
    spvcond_result r = SPVCOND_OK;
    for (int t = 0; t < 2 && id && r == SPVCOND_OK; t++) {
        uint32_t b, e;
        spvcond_refs_range(refs[t], id, &b, &e);
        for (uint32_t k = b; k < e && r == SPVCOND_OK; k++)
            if (!spvcond_edit_is_deleted(m, refs[t]->inst[k]))
                r = spvcond_edit_delete(m, refs[t]->inst[k]);
    }
    return r;
}

/* A marker declaration goes, with its names and decorations and those of its parameters. */
static spvcond_result
remove_marker(struct annotate *a, const struct spvcond_function *fn)
{
    struct spvcond_module *m = a->m;
    size_t newly;
    spvcond_result r = spvcond_edit_delete_range(m, fn->begin, fn->end + 1, &newly);
    for (size_t i = fn->begin; i < fn->end && r == SPVCOND_OK; i++)
        r = remove_references(m, spvcond_result_id(m, i));
    return r;
}

spvcond_result
spvcond_guards_rewrite(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct guards *g = a->guards;
    if (!g)
        return SPVCOND_OK;
    struct rewrite rw = {a, spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t)),
                         spvcond_alloc_array(m->ctx, m->bound, 1)};
    spvcond_result r = rw.subst && rw.used ? SPVCOND_OK : spvcond_oom(m->ctx);
    for (size_t k = 0; k < g->call_count && r == SPVCOND_OK; k++) {
        size_t i = g->calls[k];
        uint32_t result = spvcond_inst_words(m, i)[2];
        rw.subst[result] = spvcond_store_leaf_at(&a->store, g->leaf_of[result] - 1)->id;
        if ((r = spvcond_edit_delete(m, i)) == SPVCOND_OK)
            r = remove_references(m, result);
    }
    /* What the guarded calls' functions use. */
    for (size_t s = 0; s < g->site_count && r == SPVCOND_OK;) {
        const struct spvcond_function *fn = spvcond_function_of_inst(m, g->sites[s].inst);
        for (size_t i = fn->first_block; i < fn->end && r == SPVCOND_OK; i++)
            r = spvcond_walk_ids(m, i, note_used, &rw);
        while (s < g->site_count && g->sites[s].inst <= fn->end)
            s++;
    }
    /* Functions with marker calls or guarded calls, instruction by instruction. */
    size_t s = 0;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        const struct spvcond_function *fn = &m->functions[f];
        if (g->marker[f]) {
            r = remove_marker(a, fn);
            continue;
        }
        bool sites = s < g->site_count && g->sites[s].inst <= fn->end;
        for (size_t i = fn->first_block; (sites || g->has_marker_call[f]) && i < fn->end && r == SPVCOND_OK; i++) {
            if (spvcond_edit_is_deleted(m, i))
                continue;
            uint32_t cond = s < g->site_count && g->sites[s].inst == i ? g->sites[s++].cond : 0;
            if (cond || g->has_marker_call[f])
                r = rewrite_inst(&rw, i, cond);
        }
    }
    if (r == SPVCOND_OK && g->function_variants && !a->ext_declared.function_variants) {
        uint32_t cap[2] = {spvcond_first_word(2, SPVCOND_OP_CAPABILITY), SPVCOND_CAPABILITY_FUNCTION_VARIANTS_INTEL};
        r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_CAPABILITY, cap, 2);
    }
    spvcond_dealloc(m->ctx, rw.subst);
    spvcond_dealloc(m->ctx, rw.used);
    return r;
}

void
spvcond_guards_release(struct annotate *a)
{
    struct guards *g = a->guards;
    spvcond_context *ctx = a->m->ctx;
    spvcond_dealloc(ctx, a->aspect_constant);
    spvcond_dealloc(ctx, a->edge_guard);
    if (!g)
        return;
    spvcond_dealloc(ctx, g->marker);
    spvcond_dealloc(ctx, g->has_marker_call);
    spvcond_dealloc(ctx, g->leaf_of);
    spvcond_dealloc(ctx, g->val);
    spvcond_dealloc(ctx, g->calls);
    spvcond_dealloc(ctx, g->sites);
    spvcond_dealloc(ctx, g->block_of_id);
    spvcond_dealloc(ctx, g);
}
