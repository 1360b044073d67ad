/* SPDX-License-Identifier: MIT */
/* One pass over the types/constants section in order: SPIR-V requires constants to be defined before
 * use, so every operand is evaluated before its user and no recursion is needed. */
#include "analysis/evaluate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "support/sized.h"

static uint64_t
mask(uint32_t width)
{
    return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

static int64_t
sign_extend(uint64_t v, uint32_t width)
{
    if (width == 0 || width >= 64)
        return (int64_t)v;
    uint64_t sign = UINT64_C(1) << (width - 1);
    return (int64_t)((v ^ sign) - sign);
}

struct eval {
    const struct spvcond_module *m;
    struct spvcond_values *v;
    const spvcond_fnvar_device *device;
};

static void
set_known(struct eval *e, uint32_t id, uint64_t value, uint32_t width)
{
    e->v->state[id] = SPVCOND_VALUE_KNOWN;
    e->v->value[id] = value & mask(width);
}

static void
set_undefined(struct eval *e, uint32_t id, uint64_t reason)
{
    e->v->state[id] = SPVCOND_VALUE_UNDEFINED;
    e->v->value[id] = reason;
}

static bool
contains(const uint32_t *list, size_t n, uint32_t x)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == x)
            return true;
    return false;
}

/* SPV_INTEL_function_variants device constants (extension.md 2.3; spec/devices.md "Facts not given"):
 * each gives FACT_TRUE or FACT_FALSE, or FACT_MISSING when its value needs a fact the device does not
 * give and the device says a fact not given is an error (*missing then names it). */
enum { FACT_FALSE, FACT_TRUE, FACT_MISSING };

static const spvcond_fnvar_device no_device = {.size = sizeof(spvcond_fnvar_device)};

/* A fact not given: FACT_MISSING under ERROR, otherwise `unknown` under UNKNOWN and `any` under ANY. */
static int
not_given(const spvcond_fnvar_device *d, const char *fact, const char **missing, bool unknown, bool any)
{
    switch (d->unspecified) {
    case SPVCOND_UNSPECIFIED_UNKNOWN: return unknown;
    case SPVCOND_UNSPECIFIED_ANY: return any;
    default:
        *missing = fact;
        return FACT_MISSING;
    }
}

static bool
features_given(const spvcond_fnvar_device *d)
{
    return d->has_features || d->feature_count;
}

static int
device_target(const spvcond_fnvar_device *d, const uint32_t *w, uint32_t wc, const char **missing)
{
    if (d->has_target && w[3] != d->target)
        return FACT_FALSE;
    if (!d->has_target) {
        int r = not_given(d, "target", missing, FACT_FALSE, FACT_TRUE);
        if (r != FACT_TRUE)
            return r;
    }
    if (wc == 4)
        return FACT_TRUE;
    if (!features_given(d))
        return not_given(d, "features", missing, FACT_FALSE, FACT_TRUE);
    if (!d->feature_count && d->unspecified == SPVCOND_UNSPECIFIED_ANY)
        return FACT_TRUE; /* the translator: an empty list is every feature */
    for (uint32_t k = 4; k < wc; k++)
        if (!contains(d->features, d->feature_count, w[k]))
            return FACT_FALSE;
    return FACT_TRUE;
}

static bool
compare_architecture(uint32_t opcode, uint32_t a, uint32_t b)
{
    switch (opcode) {
    case SPVCOND_OP_I_EQUAL: return a == b;
    case SPVCOND_OP_I_NOT_EQUAL: return a != b;
    case SPVCOND_OP_U_GREATER_THAN: return a > b;
    case SPVCOND_OP_U_GREATER_THAN_EQUAL: return a >= b;
    case SPVCOND_OP_U_LESS_THAN: return a < b;
    case SPVCOND_OP_U_LESS_THAN_EQUAL: return a <= b;
    default: return false;
    }
}

static int
device_architecture(const spvcond_fnvar_device *d, const uint32_t *w, const char **missing)
{
    bool category = d->has_architecture || d->has_family || d->has_category;
    bool family = d->has_architecture || d->has_family;
    if ((category && w[3] != d->category) || (family && w[4] != d->family))
        return FACT_FALSE;
    if (!spvcond_is_architecture_comparison(w[5]))
        return FACT_FALSE; /* validate reports it */
    if (d->has_architecture)
        return compare_architecture(w[5], d->architecture, w[6]) ? FACT_TRUE : FACT_FALSE;
    if (family) { /* the number alone not given: under UNKNOWN, the extension's table for an unrecognised value */
        bool device_older = w[5] == SPVCOND_OP_I_NOT_EQUAL || w[5] == SPVCOND_OP_U_LESS_THAN ||
                     w[5] == SPVCOND_OP_U_LESS_THAN_EQUAL;
        return not_given(d, "architecture", missing, device_older ? FACT_TRUE : FACT_FALSE, FACT_TRUE);
    }
    return not_given(d, category ? "architecture family" : "architecture", missing, FACT_FALSE, FACT_TRUE);
}

static int
device_capabilities(const spvcond_fnvar_device *d, const uint32_t *w, uint32_t wc, const char **missing)
{
    if (wc <= 3)
        return FACT_TRUE;
    if (!d->has_capabilities)
        return not_given(d, "capabilities", missing, FACT_FALSE, FACT_TRUE);
    if (!d->capability_count && d->unspecified == SPVCOND_UNSPECIFIED_ANY)
        return FACT_TRUE; /* the translator: an empty list is every capability */
    for (uint32_t k = 3; k < wc; k++)
        if (!contains(d->capabilities, d->capability_count, w[k]))
            return FACT_FALSE;
    return FACT_TRUE;
}

static int
device_constant(const spvcond_fnvar_device *d, const uint32_t *w, const char **missing)
{
    uint32_t wc = spvcond_word_count_of(w[0]);
    if (!d)
        d = &no_device;
    switch (spvcond_opcode_of(w[0])) {
    case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL: return wc >= 4 ? device_target(d, w, wc, missing) : FACT_FALSE;
    case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL: return wc >= 7 ? device_architecture(d, w, missing) : FACT_FALSE;
    case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL: return device_capabilities(d, w, wc, missing);
    default: return FACT_FALSE;
    }
}

bool
spvcond_device_constant_value(const spvcond_fnvar_device *d, const uint32_t *w)
{
    const char *missing = NULL;
    return device_constant(d, w, &missing) == FACT_TRUE;
}

bool
spvcond_fnvar_device_check(const spvcond_fnvar_device *d, char *why, size_t why_size)
{
    const char *problem = NULL;
    spvcond_fnvar_device device;
    if (!d)
        return true;
    if (SPVCOND_SIZED_IN(NULL, d, &device, spvcond_fnvar_device) != SPVCOND_OK) {
        if (why && why_size)
            snprintf(why, why_size, "`size` is %zu, not sizeof(spvcond_fnvar_device) (%zu)", d->size, sizeof(device));
        return false;
    }
    d = &device;
    if (d->unspecified != SPVCOND_UNSPECIFIED_ERROR && d->unspecified != SPVCOND_UNSPECIFIED_UNKNOWN &&
        d->unspecified != SPVCOND_UNSPECIFIED_ANY)
        problem = "`unspecified` is none of ERROR, UNKNOWN and ANY";
    else if ((d->feature_count && !d->features) || (d->capability_count && !d->capabilities))
        problem = "a list has a count but no items";
    if (problem && why && why_size)
        snprintf(why, why_size, "%s", problem);
    return !problem;
}

/* Evaluate OpSpecConstantOp on scalar integers and booleans. */
static void
eval_op(struct eval *e, const uint32_t *w, uint32_t wc, uint32_t width)
{
    uint32_t id = w[2], op = w[3];
    uint64_t a = 0, b = 0, c = 0;
    uint32_t wa = 0;
    uint32_t nargs = wc - 4;
    for (uint32_t k = 0; k < nargs && k < 3; k++) {
        uint32_t arg = w[4 + k];
        /* Only opcodes whose operands are ids are evaluated below, and the reader checked those; a literal
         * operand (CompositeExtract's index, say) may be anything, so stop at anything out of range. */
        if (arg >= e->m->bound)
            return;
        uint8_t st = e->v->state[arg];
        if (st == SPVCOND_VALUE_UNDEFINED) {
            set_undefined(e, id, e->v->value[arg]); /* keep the original reason */
            return;
        }
        if (st != SPVCOND_VALUE_KNOWN)
            return;
        uint64_t x = e->v->value[arg];
        if (k == 0) {
            a = x;
            size_t d = spvcond_def(e->m, arg);
            wa = spvcond_inst_word_count(e->m, d) > 1 ? spvcond_scalar_width(e->m, spvcond_inst_words(e->m, d)[1]) : 0;
        } else if (k == 1) {
            b = x;
        } else {
            c = x;
        }
    }
    if (width == 0 || width > 64 || wa > 64)
        return; /* no integer wider than 64 bits is evaluated */
    int64_t sa = sign_extend(a, wa), sb = sign_extend(b, wa);
    uint64_t r;
    switch (op) {
    case SPVCOND_OP_LOGICAL_OR: r = a || b; break;
    case SPVCOND_OP_LOGICAL_AND: r = a && b; break;
    case SPVCOND_OP_LOGICAL_NOT: r = !a; break;
    case SPVCOND_OP_LOGICAL_EQUAL: r = a == b; break;
    case SPVCOND_OP_LOGICAL_NOT_EQUAL: r = a != b; break;
    case SPVCOND_OP_SELECT: r = a ? b : c; break;
    case SPVCOND_OP_I_EQUAL: r = a == b; break;
    case SPVCOND_OP_I_NOT_EQUAL: r = a != b; break;
    case SPVCOND_OP_U_GREATER_THAN: r = a > b; break;
    case SPVCOND_OP_S_GREATER_THAN: r = sa > sb; break;
    case SPVCOND_OP_U_GREATER_THAN_EQUAL: r = a >= b; break;
    case SPVCOND_OP_S_GREATER_THAN_EQUAL: r = sa >= sb; break;
    case SPVCOND_OP_U_LESS_THAN: r = a < b; break;
    case SPVCOND_OP_S_LESS_THAN: r = sa < sb; break;
    case SPVCOND_OP_U_LESS_THAN_EQUAL: r = a <= b; break;
    case SPVCOND_OP_S_LESS_THAN_EQUAL: r = sa <= sb; break;
    case SPVCOND_OP_S_NEGATE: r = (uint64_t)0 - a; break;
    case SPVCOND_OP_NOT: r = ~a; break;
    case SPVCOND_OP_I_ADD: r = a + b; break;
    case SPVCOND_OP_I_SUB: r = a - b; break;
    case SPVCOND_OP_I_MUL: r = a * b; break;
    case SPVCOND_OP_U_DIV:
    case SPVCOND_OP_U_MOD:
        if (b == 0) {
            set_undefined(e, id, SPVCOND_UNDEF_DIVISION_BY_ZERO);
            return;
        }
        r = op == SPVCOND_OP_U_DIV ? a / b : a % b;
        break;
    case SPVCOND_OP_S_DIV: case SPVCOND_OP_S_REM: case SPVCOND_OP_S_MOD: {
        if (sb == 0) {
            set_undefined(e, id, SPVCOND_UNDEF_DIVISION_BY_ZERO);
            return;
        }
        if (sb == -1 && sa == sign_extend(UINT64_C(1) << (wa ? wa - 1 : 63), wa)) {
            set_undefined(e, id, SPVCOND_UNDEF_OVERFLOW);
            return;
        }
        int64_t q = sa / sb, rem = sa % sb;
        if (op == SPVCOND_OP_S_DIV)
            r = (uint64_t)q;
        else if (op == SPVCOND_OP_S_REM)
            r = (uint64_t)rem;
        else /* SMod: the sign of the divisor */
            r = (uint64_t)(rem != 0 && ((rem < 0) != (sb < 0)) ? rem + sb : rem);
        break;
    }
    case SPVCOND_OP_SHIFT_RIGHT_LOGICAL: case SPVCOND_OP_SHIFT_RIGHT_ARITHMETIC:
    case SPVCOND_OP_SHIFT_LEFT_LOGICAL:
        if (b >= wa || wa == 0) {
            set_undefined(e, id, SPVCOND_UNDEF_SHIFT_TOO_WIDE);
            return;
        }
        r = op == SPVCOND_OP_SHIFT_RIGHT_LOGICAL ? a >> b
            : op == SPVCOND_OP_SHIFT_LEFT_LOGICAL ? a << b
            : (uint64_t)(sa >> b);
        break;
    case SPVCOND_OP_BITWISE_OR: r = a | b; break;
    case SPVCOND_OP_BITWISE_XOR: r = a ^ b; break;
    case SPVCOND_OP_BITWISE_AND: r = a & b; break;
    case SPVCOND_OP_U_CONVERT: r = a; break;            /* zero-extend or truncate */
    case SPVCOND_OP_S_CONVERT: r = (uint64_t)sa; break; /* sign-extend or truncate */
    default:
        return; /* not a scalar integer operation we evaluate: stays unknown */
    }
    set_known(e, id, r, width);
}

/* A device constant's value, the first one that needs a fact not given noted (out of line: rare, and the
 * loop over every constant stays small). */
static __attribute__((noinline)) void
eval_device_constant(struct eval *e, size_t i, const uint32_t *w)
{
    const char *missing = NULL;
    int fact = device_constant(e->device, w, &missing);
    if (fact == FACT_MISSING && e->v->missing_inst == SIZE_MAX) {
        e->v->missing_inst = i;
        e->v->missing_fact = missing;
    }
    set_known(e, w[2], fact == FACT_TRUE, 1);
}

static int
compare_spec_value(const void *a, const void *b)
{
    const spvcond_spec_value *const *x = a, *const *y = b;
    if ((*x)->spec_id != (*y)->spec_id)
        return (*x)->spec_id < (*y)->spec_id ? -1 : 1;
    return *x < *y ? -1 : *x > *y; /* the caller's order: the first of duplicates wins */
}

/* The first entry for spec_id; marks it and its duplicates found. */
static spvcond_spec_value *
find_value(spvcond_spec_value **sorted, size_t n, uint32_t spec_id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid]->spec_id < spec_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < n && sorted[k]->spec_id == spec_id; k++)
        sorted[k]->found = true;
    return lo < n && sorted[lo]->spec_id == spec_id ? sorted[lo] : NULL;
}

spvcond_result
spvcond_evaluate(const struct spvcond_module *m, spvcond_spec_value *values, size_t value_count,
                 const spvcond_fnvar_device *device, struct spvcond_values *out)
{
    out->state = spvcond_alloc_array(m->ctx, m->bound, 1);
    /* Values are read where their state says one was set: not cleared (8 bytes an id, on every call). */
    out->value = spvcond_alloc(m->ctx, (size_t)m->bound * sizeof(uint64_t));
    spvcond_spec_value **sorted = spvcond_alloc_array(m->ctx, value_count, sizeof(*sorted));
    if (!out->state || !out->value || !sorted) {
        spvcond_dealloc(m->ctx, sorted);
        spvcond_values_release(m, out);
        return spvcond_oom(m->ctx);
    }
    for (size_t k = 0; k < value_count; k++) {
        sorted[k] = &values[k];
        values[k].found = false;
    }
    qsort(sorted, value_count, sizeof(*sorted), compare_spec_value);

    out->missing_inst = SIZE_MAX;
    struct eval e = {m, out, device};
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        if (!(op >= SPVCOND_OP_CONSTANT_TRUE && op <= SPVCOND_OP_CONSTANT) && !spvcond_is_spec_constant_opcode(op))
            continue;
        uint32_t id = w[2], width = spvcond_scalar_width(m, w[1]);
        uint32_t spec_id;
        spvcond_spec_value *given = NULL;
        if ((op == SPVCOND_OP_SPEC_CONSTANT_TRUE || op == SPVCOND_OP_SPEC_CONSTANT_FALSE ||
            op == SPVCOND_OP_SPEC_CONSTANT) && spvcond_spec_id_of(m, id, &spec_id)) {
            given = find_value(sorted, value_count, spec_id);
        }
        switch (op) {
        case SPVCOND_OP_CONSTANT_TRUE:
        case SPVCOND_OP_SPEC_CONSTANT_TRUE:
            set_known(&e, id, given ? given->value != 0 : 1, 1);
            break;
        case SPVCOND_OP_CONSTANT_FALSE:
        case SPVCOND_OP_SPEC_CONSTANT_FALSE:
            set_known(&e, id, given ? given->value != 0 : 0, 1);
            break;
        case SPVCOND_OP_CONSTANT: case SPVCOND_OP_SPEC_CONSTANT:
            /* integers, and floats as their bits (no operation below computes on a float: a select moves
             * its bits, anything else of floats stays unknown) */
            if (width == 0 || width > 64 || wc < 4 ||
                (spvcond_def_opcode(m, w[1]) != SPVCOND_OP_TYPE_INT && spvcond_def_opcode(m, w[1]) != SPVCOND_OP_TYPE_FLOAT))
                break;
            if (given)
                set_known(&e, id, given->value, width);
            else
                set_known(&e, id, (uint64_t)w[3] | (wc >= 5 ? (uint64_t)w[4] << 32 : 0), width);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_OP:
            eval_op(&e, w, wc, width);
            break;
        case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL:
        case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL:
        case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL:
            eval_device_constant(&e, i, w);
            break;
        default: break;
        }
    }
    spvcond_dealloc(m->ctx, sorted);
    return SPVCOND_OK;
}

spvcond_result
spvcond_evaluate_for_device(const struct spvcond_module *m, spvcond_spec_value *values, size_t value_count,
                            const spvcond_fnvar_device *device, struct spvcond_values *out)
{
    char why[160];
    if (!spvcond_fnvar_device_check(device, why, sizeof(why)))
        return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "the device description is not well formed: %s", why);
    spvcond_fnvar_device sized;
    if (device && SPVCOND_SIZED_IN(m->ctx, device, &sized, spvcond_fnvar_device) == SPVCOND_OK)
        device = &sized;
    spvcond_result r = spvcond_evaluate(m, values, value_count, device, out);
    if (r != SPVCOND_OK || out->missing_inst == SIZE_MAX)
        return r;
    const uint32_t *w = spvcond_inst_words(m, out->missing_inst);
    char text[256];
    r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ARGUMENT, out->missing_inst, w[2],
                          "%%%u (%s) needs the device's %s, which nobody gave; give it, or say what a fact not given "
                          "means (--unspecified unknown or any)",
                          w[2], spvcond_device_constant_text(w, text, sizeof(text)), out->missing_fact);
    spvcond_values_release(m, out);
    return r;
}

void
spvcond_close_condition_trees(const struct spvcond_module *m, uint8_t *mark)
{
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i-- > m->section[SPVCOND_SECTION_GLOBAL];) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) != SPVCOND_OP_SPEC_CONSTANT_OP || !mark[w[2]])
            continue;
        for (uint32_t k = 4; k < spvcond_word_count_of(w[0]); k++)
            if (w[k] < m->bound)
                mark[w[k]] = 1;
    }
}

void
spvcond_values_release(const struct spvcond_module *m, struct spvcond_values *v)
{
    spvcond_dealloc(m->ctx, v->state);
    spvcond_dealloc(m->ctx, v->value);
    v->state = NULL;
    v->value = NULL;
}

spvcond_result
spvcond_condition_value(const struct spvcond_module *m, const struct spvcond_values *v, size_t user, uint32_t id,
                        bool *out)
{
    size_t d = spvcond_def(m, id);
    if (d == SIZE_MAX)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, user, id, "condition %%%u is not defined", id);
    const uint32_t *w = spvcond_inst_words(m, d);
    uint32_t op = spvcond_opcode_of(w[0]);
    if (!spvcond_is_spec_constant_opcode(op) && op != SPVCOND_OP_CONSTANT_TRUE && op != SPVCOND_OP_CONSTANT_FALSE)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, user, id,
                                 "condition %%%u must be a boolean specialization constant, but it is defined by %s",
                                 id, spvcond_grammar_opcode_name(op));
    if (spvcond_def_opcode(m, w[1]) != SPVCOND_OP_TYPE_BOOL)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, user, id,
                                 "condition %%%u must have type OpTypeBool, but its type %%%u is %s", id, w[1],
                                 spvcond_grammar_opcode_name(spvcond_def_opcode(m, w[1])));
    switch (v->state[id]) {
    case SPVCOND_VALUE_KNOWN:
        *out = v->value[id] != 0;
        return SPVCOND_OK;
    case SPVCOND_VALUE_UNDEFINED: {
        static const char *const why[] = {"?", "a division by zero", "a shift by at least the operand width",
                                          "a signed division overflow"};
        uint64_t r = v->value[id];
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, user, id,
                                 "condition %%%u is undefined: its tree contains %s", id,
                                 why[r < sizeof(why) / sizeof(why[0]) ? r : 0]);
    }
    default:
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, user, id,
                                 "condition %%%u cannot be evaluated: %s on non-scalar or floating-point operands is "
                                 "not supported",
                                 id, spvcond_grammar_opcode_name(op == SPVCOND_OP_SPEC_CONSTANT_OP ? w[3] : op));
    }
}
