/* SPDX-License-Identifier: MIT */
/* The consumer: evaluate conditions, strip what is false, resolve the extension's conditional
 * instructions, freeze and drop the condition trees, and refuse to produce a module that refers to
 * anything removed (extension.md 2.1-2.2, without the translator's bugs listed in 5.4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/capabilities.h"
#include "ir/edit.h"
#include "specialize/specialize_state.h"
#include "ir/index.h"
#include "support/index_table.h"
#include "ir/operands.h"
#include "ir/records.h"
#include "support/sized.h"

static bool
bit(const uint8_t *set, uint32_t v)
{
    return v < CAPABILITY_SET_BITS && (set[v / 8] >> (v % 8)) & 1;
}

static void
set_bit(uint8_t *set, uint32_t v)
{
    if (v < CAPABILITY_SET_BITS)
        set[v / 8] |= (uint8_t)(1u << (v % 8));
}

/* Remove function f: its instructions in one range; its own id is marked removed, the ids defined in it
 * are not (spvcond_spec_removed finds them by their deleted definitions), and their reason is the
 * function's (reason_text finds it). Marking each of them read every removed instruction again (and a
 * table of a reason per id before that): specializing libclc for acm_g10, which removes a third of its
 * functions, spent a sixth of its time there. */
static spvcond_result
remove_function(struct spec *s, const struct spvcond_function *f, size_t deco)
{
    struct spvcond_module *m = s->m;
    s->fn_reason[f - m->functions] = (uint32_t)deco + 1;
    s->functions_removed++;
    s->removed[f->id] = 1;
    size_t newly;
    spvcond_result r = spvcond_edit_delete_range(m, f->begin, f->end + 1, &newly);
    s->stats.instructions_removed += newly;
    return r;
}

static spvcond_result
remove_target(struct spec *s, size_t deco, uint32_t target)
{
    struct spvcond_module *m = s->m;
    size_t d = spvcond_def(m, target);
    uint32_t op = spvcond_inst_opcode(m, d);
    if (!spvcond_may_carry_condition(op))
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, deco, target,
                                 "ConditionalINTEL may not decorate %%%u, defined by %s (allowed: functions, calls, "
                                 "types, constants, global variables, OpExtInstImport, OpExtInst)",
                                 target, spvcond_grammar_opcode_name(op));
    if (op == SPVCOND_OP_VARIABLE && d >= m->section[SPVCOND_SECTION_FUNCTION])
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, deco, target,
                                 "ConditionalINTEL may decorate only module-scope OpVariable, not %%%u", target);
    if (op == SPVCOND_OP_FUNCTION)
        return remove_function(s, spvcond_function_by_id(m, target), deco);
    return spvcond_spec_remove_defining(s, d, (uint32_t)deco + 1);
}

static spvcond_result
condition(struct spec *s, size_t user, uint32_t id, bool *value)
{
    s->cond_tree[id] = 1;
    return spvcond_condition_value(s->m, &s->v, user, id, value);
}

/* ConditionalINTEL decorations: remove every target whose condition is false. */
static spvcond_result
strip_conditional_targets(struct spec *s)
{
    struct spvcond_module *m = s->m;
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (!spvcond_is_condition_decoration(w))
            continue;
        uint32_t target = w[1];
        if (s->has_condition[target])
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, target,
                                     "%%%u carries more than one ConditionalINTEL decoration", target);
        s->has_condition[target] = 1;
        bool keep;
        spvcond_result r = condition(s, i, w[3], &keep);
        if (r == SPVCOND_OK)
            r = spvcond_spec_delete(s, i);
        if (r == SPVCOND_OK && !keep && !spvcond_spec_removed(s, target))
            r = remove_target(s, i, target);
        if (r != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

/* SPIR-V allows one entry point per name and execution model; conditional ones may share them (the
 * extension's rule 3), so long as at most one survives. Two that survive together are refused, naming
 * both: the output would be invalid. */
static spvcond_result
refuse_duplicate_entry_points(struct spec *s, struct spvcond_entry_key *kept, size_t n)
{
    struct spvcond_module *m = s->m;
    if (n > 1)
        qsort(kept, n, sizeof(*kept), spvcond_compare_entry_keys);
    for (size_t k = 1; k < n; k++) {
        if (!spvcond_same_entry_key(&kept[k], &kept[k - 1]))
            continue;
        char model[64];
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(SPVCOND_KIND_ExecutionModel, kept[k].model);
        snprintf(model, sizeof(model), "%s", e ? e->name : "?");
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, kept[k].inst, 0,
                                 "this entry point and instruction %zu's both survive as %s \"%s\": SPIR-V allows "
                                 "one entry point per name and execution model, so their conditions must not both be "
                                 "true", kept[k - 1].inst, model, kept[k].name);
    }
    return SPVCOND_OK;
}

/* Entry points: conditional ones become plain or go; plain ones go with their function. */
static spvcond_result
resolve_entry_points(struct spec *s)
{
    struct spvcond_module *m = s->m;
    uint32_t buf[256];
    struct spvcond_entry_key *kept = spvcond_alloc_array(m->ctx, m->entry_point_count + 1, sizeof(*kept));
    size_t kept_count = 0;
    if (!kept)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    for (size_t k = 0; k < m->entry_point_count && r == SPVCOND_OK; k++) {
        size_t i = m->entry_points[k];
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t wc = spvcond_word_count_of(w[0]);
        bool conditional = spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL;
        uint32_t base = conditional ? 2 : 1; /* word of the execution model */
        uint32_t fn = w[base + 1];
        bool keep = !spvcond_spec_removed(s, fn);
        if (conditional && (r = condition(s, i, w[1], &keep)) != SPVCOND_OK)
            break;
        if (!keep) {
            s->stats.entry_points_removed++;
            r = spvcond_spec_delete(s, i);
            continue;
        }
        s->stats.entry_points_kept++;
        s->entry_functions[s->entry_function_count++] = fn;
        kept[kept_count++] = spvcond_entry_key_of(m, i);
        /* Rewrite as a plain OpEntryPoint without interface variables that were removed. */
        bool drops = false;
        uint32_t name_words = spvcond_string_words(m, i, base + 2);
        for (uint32_t x = base + 2 + name_words; x < wc; x++)
            drops |= spvcond_spec_removed(s, w[x]);
        if (!conditional && !drops)
            continue;
        uint32_t *out = wc <= 256 ? buf : spvcond_alloc(m->ctx, wc * sizeof(uint32_t));
        if (!out) {
            r = spvcond_oom(m->ctx);
            break;
        }
        uint32_t n = 1;
        for (uint32_t x = base; x < wc; x++)
            if (x < base + 2 + name_words || !spvcond_spec_removed(s, w[x]))
                out[n++] = w[x];
        out[0] = spvcond_first_word(n, SPVCOND_OP_ENTRY_POINT);
        r = spvcond_edit_replace(m, i, out, n);
        if (out != buf)
            spvcond_dealloc(m->ctx, out);
    }
    if (r == SPVCOND_OK)
        r = refuse_duplicate_entry_points(s, kept, kept_count);
    spvcond_dealloc(m->ctx, kept);
    if (r != SPVCOND_OK)
        return r;
    /* Execution modes of functions left without an entry point. */
    if (s->entry_function_count > 1)
        qsort(s->entry_functions, s->entry_function_count, sizeof(uint32_t), spvcond_compare_u32);
    for (size_t i = m->section[SPVCOND_SECTION_EXECUTION_MODE]; i < m->section[SPVCOND_SECTION_EXECUTION_MODE + 1];
         i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op != SPVCOND_OP_EXECUTION_MODE && op != SPVCOND_OP_EXECUTION_MODE_ID) /* OpNop may stand anywhere */
            continue;
        if (!bsearch(&w[1], s->entry_functions, s->entry_function_count, sizeof(uint32_t), spvcond_compare_u32) &&
            (r = spvcond_spec_delete(s, i)) != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

static bool
is_extension_name(const char *name)
{
    return strcmp(name, SPVCOND_EXTENSION_NAME) == 0 || strcmp(name, "SPV_INTEL_spec_conditional") == 0;
}

/* Extension declarations grouped by name (sorted once), so that finding an earlier declaration of the
 * same name costs O(log n), not a scan per conditional declaration. */
struct ext_name {
    const char *name;
    size_t inst;
};

static int
compare_ext_name(const void *a, const void *b)
{
    const struct ext_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->inst < y->inst ? -1 : x->inst > y->inst;
}

/* NULL for anything else in the section (an instruction we cannot see into may stand there). */
static const char *
extension_name_of(const struct spvcond_module *m, size_t i)
{
    uint32_t op = spvcond_inst_opcode(m, i), wc = spvcond_inst_word_count(m, i);
    if (op == SPVCOND_OP_EXTENSION && wc >= 2)
        return spvcond_inst_string(m, i, 1);
    if (op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL && wc >= 3)
        return spvcond_inst_string(m, i, 2);
    return NULL;
}

/* The extension's own declarations go; a true conditional one becomes OpExtension unless the name is
 * declared already (plainly, or by an earlier true conditional one); a false one goes. */
static spvcond_result
resolve_extensions(struct spec *s)
{
    struct spvcond_module *m = s->m;
    size_t begin = m->section[SPVCOND_SECTION_EXTENSION], n = m->section[SPVCOND_SECTION_EXTENSION + 1] - begin;
    if (n == 0)
        return SPVCOND_OK;
    struct ext_name *sorted = spvcond_alloc_array(m->ctx, n, sizeof(*sorted));
    uint32_t *group = spvcond_alloc_array(m->ctx, n, sizeof(uint32_t));
    uint8_t *plain = spvcond_alloc_array(m->ctx, n, 1), *kept = spvcond_alloc_array(m->ctx, n, 1);
    spvcond_result r = sorted && group && plain && kept ? SPVCOND_OK : spvcond_oom(m->ctx);
    size_t named = 0;
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++)
        if (extension_name_of(m, begin + k))
            sorted[named++] = (struct ext_name){extension_name_of(m, begin + k), begin + k};
    if (r == SPVCOND_OK && named > 1)
        qsort(sorted, named, sizeof(*sorted), compare_ext_name);
    for (size_t k = 0, g = 0; k < named && r == SPVCOND_OK; k++) {
        if (k > 0 && strcmp(sorted[k - 1].name, sorted[k].name) != 0)
            g++;
        group[sorted[k].inst - begin] = (uint32_t)g;
        if (spvcond_inst_opcode(m, sorted[k].inst) == SPVCOND_OP_EXTENSION)
            plain[g] = 1;
    }
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++) {
        size_t i = begin + k;
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        const char *name = extension_name_of(m, i);
        if (!name)
            continue;
        if (op == SPVCOND_OP_EXTENSION && is_extension_name(name)) {
            r = spvcond_spec_delete(s, i);
        } else if (op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL) {
            bool keep;
            if ((r = condition(s, i, w[1], &keep)) != SPVCOND_OK)
                break;
            keep = keep && !plain[group[k]] && !kept[group[k]] && !is_extension_name(name);
            if (keep) {
                uint32_t words = spvcond_string_words(m, i, 2);
                uint32_t ext[64];
                if (words + 1 > 64) {
                    r = spvcond_fail_inst(m, SPVCOND_ERROR_LIMIT, i, 0, "extension name longer than 250 bytes");
                    break;
                }
                kept[group[k]] = 1;
                ext[0] = spvcond_first_word(words + 1, SPVCOND_OP_EXTENSION);
                memcpy(ext + 1, w + 2, words * sizeof(uint32_t));
                r = spvcond_edit_replace(m, i, ext, words + 1);
            } else {
                r = spvcond_spec_delete(s, i);
            }
        }
    }
    spvcond_dealloc(m->ctx, sorted);
    spvcond_dealloc(m->ctx, group);
    spvcond_dealloc(m->ctx, plain);
    spvcond_dealloc(m->ctx, kept);
    return r;
}

/* Conditional capabilities and extensions; the extension's own declarations go (nothing of it remains
 * once every condition is resolved). A false conditional never removes a plain declaration. */
static spvcond_result
resolve_capabilities_and_extensions(struct spec *s)
{
    struct spvcond_module *m = s->m;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CAPABILITY)
            set_bit(s->cap_declared, w[1]);
    }
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1] && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_CAPABILITY && spvcond_is_extension_capability(w[1])) {
            r = spvcond_spec_delete(s, i);
        } else if (op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL) {
            bool keep;
            if ((r = condition(s, i, w[1], &keep)) != SPVCOND_OK)
                break;
            if (keep && !bit(s->cap_declared, w[2])) {
                uint32_t cap[2] = {spvcond_first_word(2, SPVCOND_OP_CAPABILITY), w[2]};
                set_bit(s->cap_declared, w[2]);
                r = spvcond_edit_replace(m, i, cap, 2);
            } else {
                r = spvcond_spec_delete(s, i);
            }
        }
    }
    return r == SPVCOND_OK ? resolve_extensions(s) : r;
}

/* OpConditionalCopyObjectINTEL in surviving functions becomes OpCopyObject of its one true operand. */
static spvcond_result
resolve_copies(struct spec *s)
{
    struct spvcond_module *m = s->m;
    if (!m->conditional_copy_count) /* the reader counted them: no scan of every instruction */
        return SPVCOND_OK;
    for (size_t f = 0; f < m->function_count; f++) {
        if (s->fn_reason[f])
            continue;
        for (size_t i = m->functions[f].first_block; i < m->functions[f].end; i++) {
            const uint32_t *w = spvcond_inst_words(m, i);
            if (spvcond_opcode_of(w[0]) != SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL || spvcond_edit_is_deleted(m, i))
                continue;
            uint32_t wc = spvcond_word_count_of(w[0]), chosen = 0, trues = 0;
            if (wc < 5 || (wc - 3) % 2 != 0)
                return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, i, w[2],
                                         "OpConditionalCopyObjectINTEL %%%u needs (condition, operand) pairs, has %u "
                                         "operand words", w[2], wc - 3);
            for (uint32_t k = 3; k < wc; k += 2) {
                bool v;
                spvcond_result r = condition(s, i, w[k], &v);
                if (r != SPVCOND_OK)
                    return r;
                if (v && trues++ == 0)
                    chosen = w[k + 1];
            }
            if (trues != 1 && !(trues > 1 && s->first_true_wins))
                return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, w[2],
                                         "OpConditionalCopyObjectINTEL %%%u has %u true conditions; exactly one must be "
                                         "true", w[2], trues);
            uint32_t copy[4] = {spvcond_first_word(4, SPVCOND_OP_COPY_OBJECT), w[1], w[2], chosen};
            spvcond_result r = spvcond_edit_replace(m, i, copy, 4);
            if (r != SPVCOND_OK)
                return r;
        }
    }
    return SPVCOND_OK;
}

struct removed_use {
    const struct spec *s;
    bool found;
};

static spvcond_result
find_removed_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct removed_use *u = user;
    (void)inst;
    (void)word;
    if (spvcond_spec_removed(u->s, id))
        u->found = true;
    return SPVCOND_OK;
}

static spvcond_result
strip_debug_info(struct spec *s)
{
    struct spvcond_module *m = s->m;
    size_t k = 0;
    while (k < m->import_count && !m->imports[k].debug_info)
        k++;
    if (k == m->import_count) /* no debug information to look at */
        return SPVCOND_OK;
    /* Debug instructions may refer forward; repeat until nothing changes (a handful of rounds). */
    for (int round = 0; round < 16; round++) {
        bool changed = false;
        for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->inst_count; i++) {
            if (spvcond_edit_is_deleted(m, i) || !spvcond_is_debug_info(m, i))
                continue;
            struct removed_use u = {s, false};
            spvcond_result r = spvcond_walk_ids(m, i, find_removed_use, &u);
            if (r != SPVCOND_OK)
                return r;
            if (u.found) {
                if ((r = spvcond_spec_remove_defining(s, i, 0)) != SPVCOND_OK)
                    return r;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    return SPVCOND_OK;
}

/* Names and decorations of removed ids go; group decorations lose removed targets. */
static spvcond_result
strip_names_and_decorations(struct spec *s, size_t begin, size_t end)
{
    struct spvcond_module *m = s->m;
    uint32_t buf[256];
    for (size_t i = begin; i < end; i++) {
        if (spvcond_edit_is_deleted(m, i))
            continue;
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        spvcond_result r = SPVCOND_OK;
        if (op == SPVCOND_OP_GROUP_DECORATE || op == SPVCOND_OP_GROUP_MEMBER_DECORATE) {
            uint32_t step = op == SPVCOND_OP_GROUP_DECORATE ? 1 : 2, n = 2, kept = 0;
            uint32_t *out = wc <= 256 ? buf : spvcond_alloc(m->ctx, wc * sizeof(uint32_t));
            if (!out)
                return spvcond_oom(m->ctx);
            out[1] = w[1];
            for (uint32_t k = 2; k + step <= wc; k += step) {
                if (spvcond_spec_removed(s, w[k]))
                    continue;
                memcpy(out + n, w + k, step * sizeof(uint32_t));
                n += step;
                kept++;
            }
            out[0] = spvcond_first_word(n, op);
            if (kept == 0)
                r = spvcond_spec_delete(s, i);
            else if (n != wc)
                r = spvcond_edit_replace(m, i, out, n);
            if (out != buf)
                spvcond_dealloc(m->ctx, out);
        } else if ((op == SPVCOND_OP_NAME || op == SPVCOND_OP_MEMBER_NAME ||
                   i >= m->section[SPVCOND_SECTION_ANNOTATION]) &&
                   wc >= 2 && spvcond_spec_removed(s, w[1])) {
            r = spvcond_spec_delete(s, i);
        }
        if (r != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

/* Replace a spec constant by the plain constant of its value; drop its SpecId. */
static spvcond_result
freeze(struct spec *s, size_t i)
{
    struct spvcond_module *m = s->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t id = w[2], type = w[1], width = spvcond_scalar_width(m, type);
    uint32_t out[5];
    uint32_t n;
    if (spvcond_def_opcode(m, type) == SPVCOND_OP_TYPE_BOOL) {
        out[0] = spvcond_first_word(3, s->v.value[id] ? SPVCOND_OP_CONSTANT_TRUE : SPVCOND_OP_CONSTANT_FALSE);
        n = 3;
    } else {
        n = width > 32 ? 5 : 4;
        out[0] = spvcond_first_word(n, SPVCOND_OP_CONSTANT);
        out[3] = (uint32_t)s->v.value[id];
        out[4] = (uint32_t)(s->v.value[id] >> 32);
    }
    out[1] = type;
    out[2] = id;
    spvcond_result r = spvcond_edit_replace(m, i, out, n);
    if (r == SPVCOND_OK && n == 3) /* a boolean: branches on it may fold */
        r = spvcond_grow(m->ctx, (void **)&s->frozen_bools, &s->frozen_bool_cap, s->frozen_bool_count + 1,
                         2 * sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    if (n == 3)
        s->frozen_bools[2 * s->frozen_bool_count++] = id;
    s->frozen[id] = 1;
    uint32_t b, e;
    spvcond_refs_range(&m->decorations, id, &b, &e);
    for (uint32_t k = b; k < e && r == SPVCOND_OK; k++) {
        const uint32_t *d = spvcond_inst_words(m, m->decorations.inst[k]);
        if (spvcond_opcode_of(d[0]) == SPVCOND_OP_DECORATE && d[2] == SPVCOND_DECORATION_SPEC_ID)
            r = spvcond_spec_delete(s, m->decorations.inst[k]);
    }
    return r;
}

/* An operation on constants this specialization froze is known too (partial specialization, extension.md
 * 6.1): a guard's tree of device constants, say, which a branch may test. */
static bool
operands_frozen(const struct spec *s, const uint32_t *w)
{
    uint32_t wc = spvcond_word_count_of(w[0]);
    for (uint32_t k = 4; k < wc; k++)
        if (w[k] >= s->m->bound || !s->frozen[w[k]])
            return false;
    return wc > 4;
}

static spvcond_result
freeze_constants(struct spec *s)
{
    struct spvcond_module *m = s->m;
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (!spvcond_is_spec_constant_opcode(op) || op == SPVCOND_OP_SPEC_CONSTANT_COMPOSITE ||
            spvcond_edit_is_deleted(m, i))
            continue;
        uint32_t id = w[2];
        bool intel = op >= SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL;
        bool wanted = intel || s->cond_tree[id] || (s->flags & SPVCOND_SPECIALIZE_FREEZE_ALL) ||
                      (op == SPVCOND_OP_SPEC_CONSTANT_OP && operands_frozen(s, w));
        if (!wanted || s->v.state[id] != SPVCOND_VALUE_KNOWN)
            continue;
        spvcond_result r = freeze(s, i);
        if (r != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

/* The fields of annotate's record (spec/annotate.md) in `text`: how many of its bound and its OpTypeBool it
 * gives (0 to 2; those it does not give are 0), or -1 if it is not annotate's record. */
static int
annotate_record_fields(const char *text, unsigned *bound, unsigned *bool_type)
{
    size_t len = strlen(SPVCOND_ANNOTATE_RECORD);
    *bound = *bool_type = 0;
    if (strncmp(text, SPVCOND_ANNOTATE_RECORD, len) != 0)
        return -1;
    int got = sscanf(text + len, " bound %u, bool %%%u", bound, bool_type);
    return got < 0 ? 0 : got;
}

/* Walk every surviving instruction: refuse any use of a removed id, and count the uses a later step reads. */
struct use_walk {
    struct spec *s;
    size_t inst;
    spvcond_result r;
};

/* The target of a name or decoration is not a use: they go with their target. */
static bool
names_target(const struct spvcond_module *m, size_t inst, uint32_t word)
{
    if (word != 1 || inst >= m->section[SPVCOND_SECTION_GLOBAL])
        return false;
    uint32_t op = spvcond_inst_opcode(m, inst);
    return op == SPVCOND_OP_NAME || op == SPVCOND_OP_MEMBER_NAME || inst >= m->section[SPVCOND_SECTION_ANNOTATION];
}

/* A use of `id` by kept instruction inst, as the walk's table says: refused if the id is removed, counted
 * if a later step reads its count, else nothing. */
static inline __attribute__((always_inline)) spvcond_result
note_use(struct spec *s, const uint8_t *watch, uint32_t *uses, size_t inst, uint32_t id)
{
    uint8_t x = watch[id];
    if (__builtin_expect(x == 0, 1))
        return SPVCOND_OK;
    if (x & WATCH_REMOVED)
        return spvcond_spec_use_of_removed(s, inst, id);
    uses[id]++;
    return SPVCOND_OK;
}

static spvcond_result
count_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct use_walk *u = user;
    struct spec *s = u->s;
    if (names_target(s->m, inst, word))
        return SPVCOND_OK;
    return note_use(s, s->watch, s->uses, inst, id);
}

/* Undo a use counted by the walk. */
static void
uncount(struct spec *s, uint32_t id)
{
    if (s->watch[id] & WATCH_COUNTED)
        s->uses[id]--;
}

/* The words an instruction will be emitted as: its replacement if it has one. */
static const uint32_t *
emitted_words(const struct spvcond_module *m, size_t i)
{
    const uint32_t *record = spvcond_edit_replacement(m, i);
    return record ? record + 1 : spvcond_inst_words(m, i);
}

/* The ids at the words the reader recorded (no bit 0: none past word 31), counted, none removed. */
static inline __attribute__((always_inline)) spvcond_result
count_recorded_uses(struct spec *s, size_t i, const uint32_t *w, uint32_t ids)
{
    /* By hand rather than through spvcond_for_each_id: the tables in locals (stores into `uses` would
     * otherwise reload them per id). */
    const uint8_t *watch = s->watch;
    uint32_t *uses = s->uses;
    uint8_t any = 0; /* first whether any id is watched at all: nearly never */
    for (uint32_t rest = ids; rest; rest &= rest - 1)
        any |= watch[w[__builtin_ctz(rest)]];
    spvcond_result r = SPVCOND_OK;
    for (; any && ids && r == SPVCOND_OK; ids &= ids - 1)
        r = note_use(s, watch, uses, i, w[__builtin_ctz(ids)]);
    return r;
}

/* The uses of kept instruction i as it will be emitted. */
static spvcond_result
check_inst_uses(struct spec *s, struct use_walk *u, size_t i)
{
    struct spvcond_module *m = s->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = spvcond_opcode_of(w[0]);
    if (i >= m->section[SPVCOND_SECTION_GLOBAL] && i < m->section[SPVCOND_SECTION_FUNCTION] &&
        spvcond_is_spec_constant_opcode(op) && s->frozen[w[2]]) {
        /* A frozen constant uses only its type, which must survive too (found by fuzzing: a device
         * constant typed by a conditional pointer type was emitted naming the removed type). */
        return count_use(u, i, 1, w[1]);
    }
    const uint32_t *e = emitted_words(m, i);
    uint32_t ewc = spvcond_word_count_of(e[0]);
    spvcond_result r;
    if (op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL || (op == SPVCOND_OP_ENTRY_POINT && e != w)) {
        /* Rewritten entry point: function and the interface ids it kept. */
        uint32_t name_words = (uint32_t)(strlen((const char *)(e + 3)) / 4 + 1);
        r = count_use(u, i, 2, e[2]);
        for (uint32_t x = 3 + name_words; x < ewc && r == SPVCOND_OK; x++)
            r = count_use(u, i, x, e[x]);
        return r;
    }
    if ((op == SPVCOND_OP_BRANCH_CONDITIONAL || op == SPVCOND_OP_PHI) && e != w) {
        /* Folded into OpBranch %target; an OpPhi without the operands of blocks that went (every word
         * an id but the result). */
        r = SPVCOND_OK;
        for (uint32_t x = 1; x < ewc && r == SPVCOND_OK; x++)
            r = op == SPVCOND_OP_PHI && x == 2 ? SPVCOND_OK : count_use(u, i, x, e[x]);
        return r;
    }
    if (op == SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL) { /* now OpCopyObject type result operand */
        r = count_use(u, i, 1, e[1]);
        return r == SPVCOND_OK ? count_use(u, i, 3, e[3]) : r;
    }
    if (op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL || op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL ||
        ((op == SPVCOND_OP_GROUP_DECORATE || op == SPVCOND_OP_GROUP_MEMBER_DECORATE) && e != w))
        return SPVCOND_OK; /* capabilities and extensions name no ids once resolved; rewritten group
                              decorations keep only live targets */
    u->inst = i;
    uint32_t ids = m->id_words[i];
    if (ids & 1u)
        return spvcond_walk_ids_decoded(m, i, count_use, u);
    if (names_target(m, i, 1))
        ids &= ~2u;
    return count_recorded_uses(s, i, w, ids);
}

/* Annotate's record names the OpTypeBool it added: its uses are counted (give_back_record). */
static spvcond_result
watch_record_bool(void *user, size_t i, const char *text)
{
    struct spec *s = user;
    unsigned bound, bool_type;
    (void)i;
    if (annotate_record_fields(text, &bound, &bool_type) == 2 && bool_type < s->m->bound)
        s->watch[bool_type] |= WATCH_COUNTED;
    return SPVCOND_OK;
}

/* The walk's table (s->watch): the removed ids, whose use is refused, and the ids whose count a later step
 * reads: condition trees, frozen booleans, imports and annotate's OpTypeBool. A use of any other id (nearly
 * every use) is looked at and left: counting them all was a read and a write per use into a table of the
 * bound. Nothing is removed or frozen while the walk runs. */
static spvcond_result
watch_ids(struct spec *s)
{
    struct spvcond_module *m = s->m;
    uint8_t *restrict watch = s->watch = spvcond_alloc(m->ctx, m->bound);
    if (!watch)
        return spvcond_oom(m->ctx);
    const uint8_t *restrict removed = s->removed, *restrict cond_tree = s->cond_tree;
    for (uint32_t id = 0, bound = m->bound; id < bound; id++)
        watch[id] = (uint8_t)((removed[id] != 0) * WATCH_REMOVED | (cond_tree[id] != 0) * WATCH_COUNTED);
    for (size_t k = 0; k < s->frozen_bool_count; k++)
        watch[s->frozen_bools[2 * k]] |= WATCH_COUNTED;
    for (size_t k = 0; k < m->import_count; k++)
        watch[m->imports[k].id] |= WATCH_COUNTED;
    return spvcond_records_each(m, watch_record_bool, s);
}

static spvcond_result
check_and_count_uses(struct spec *s)
{
    struct spvcond_module *m = s->m;
    struct use_walk u = {s, 0, SPVCOND_OK};
    spvcond_result r = watch_ids(s);
    if (r != SPVCOND_OK)
        return r;
    size_t i = 0;
    const uint8_t *state = m->edits.state;
    for (; i < m->section[SPVCOND_SECTION_FUNCTION] && r == SPVCOND_OK; i++) {
        if (spvcond_annotation_uses_nothing(m, i) && !(state && state[i])) /* unless an edit rewrote it */
            continue;
        spvcond_prefetch_ahead(m, i);
        if (!spvcond_edit_is_deleted(m, i))
            r = check_inst_uses(s, &u, i);
    }
    /* The frozen booleans' uses so far are the module's: more after the code means a branch may fold. */
    for (size_t k = 0; k < s->frozen_bool_count; k++)
        s->frozen_bools[2 * k + 1] = s->uses[s->frozen_bools[2 * k]];
    /* Code, function by function: a function removed whole is one deleted range, and in the others an
     * instruction no edit touched (nearly all) is none of the cases above but a conditional copy. */
    for (size_t f = 0; f <= m->function_count && r == SPVCOND_OK; f++) {
        size_t gap_end = f < m->function_count ? m->functions[f].begin : m->inst_count;
        for (; i < gap_end && r == SPVCOND_OK; i++) /* between functions: debug lines */
            if (!spvcond_edit_is_deleted(m, i))
                r = check_inst_uses(s, &u, i);
        if (f == m->function_count)
            break;
        size_t end = m->functions[f].end;
        if (s->fn_reason[f]) {
            i = end + 1;
            continue;
        }
        for (; i <= end && r == SPVCOND_OK; i++) {
            spvcond_prefetch_ahead(m, i);
            const uint32_t *w = spvcond_inst_words(m, i);
            uint32_t ids = m->id_words[i];
            if ((state && state[i]) || (ids & 1u) ||
                spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL) {
                if (!spvcond_edit_is_deleted(m, i))
                    r = check_inst_uses(s, &u, i);
                continue;
            }
            r = count_recorded_uses(s, i, w, ids);
        }
    }
    return r;
}

static spvcond_result
uncount_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    (void)inst;
    (void)word;
    uncount(user, id);
    return SPVCOND_OK;
}

/* Imports whose every user was stripped go too, as they went when annotate guarded them (it no longer
 * does: spec/extension.md, the translator's consumer). Imports the input itself did not use stay: only
 * one with no use left is looked for among the removed code (functions removed whole, blocks a fold
 * removed), which is most often none. */
static spvcond_result
drop_orphaned_imports(struct spec *s)
{
    struct spvcond_module *m = s->m;
    uint32_t candidates[8];
    size_t n = 0;
    for (size_t k = 0; k < m->import_count && n < 8; k++)
        if (!s->removed[m->imports[k].id] && s->uses[m->imports[k].id] == 0 && !m->imports[k].debug_info)
            candidates[n++] = m->imports[k].id;
    for (size_t f = 0; f < m->function_count && n; f++) {
        if (!s->fn_reason[f] && !s->stats.branches_folded)
            continue;
        for (size_t i = m->functions[f].first_block; i < m->functions[f].end; i++) {
            const uint32_t *w = spvcond_inst_words(m, i);
            if (spvcond_opcode_of(w[0]) != SPVCOND_OP_EXT_INST || spvcond_word_count_of(w[0]) < 5 ||
                !spvcond_edit_is_deleted(m, i))
                continue;
            for (size_t c = 0; c < n; c++) {
                if (candidates[c] != w[3])
                    continue;
                spvcond_result r = spvcond_spec_remove_defining(s, spvcond_def(m, w[3]), 0);
                if (r != SPVCOND_OK)
                    return r;
                candidates[c] = candidates[--n]; /* found: no need to look for it again */
                break;
            }
        }
    }
    return SPVCOND_OK;
}

/* What the records say to give back, as they are read. */
struct give_back {
    struct spec *s;
    uint32_t bound; /* the bound annotate found, 0 if no record says */
};

/* Annotate's records (spec/annotate.md, records.h) go; so does the OpTypeBool annotate added once
 * nothing uses it, and the bound comes back when none of annotate's ids is left, so that a module
 * specialized with every condition true is the module annotated, byte for byte. spirv-link's record of
 * the device registry's version ("SPV_INTEL_function_variants registry version 0") goes too: it
 * describes the extension, which is gone; so does any OpModuleProcessed of a SPIR-V 1.0 module, which
 * that version does not have (the output must be valid for its version). */
static spvcond_result
give_back_record(void *user, size_t i, const char *text)
{
    struct give_back *g = user;
    struct spec *s = g->s;
    struct spvcond_module *m = s->m;
    size_t registry = strlen(SPVCOND_EXTENSION_NAME " registry version");
    unsigned bound, bool_type;
    if (spvcond_edit_is_deleted(m, i))
        return SPVCOND_OK;
    if (strncmp(text, SPVCOND_EXTENSION_NAME " registry version", registry) == 0 ||
        spvcond_record_unversioned(m, i))
        return spvcond_spec_delete(s, i);
    int got = annotate_record_fields(text, &bound, &bool_type);
    if (got < 0)
        return SPVCOND_OK;
    spvcond_result r = spvcond_spec_delete(s, i);
    size_t d = got == 2 && bool_type < m->bound ? spvcond_def(m, bool_type) : SIZE_MAX;
    if (r == SPVCOND_OK && d != SIZE_MAX && spvcond_inst_opcode(m, d) == SPVCOND_OP_TYPE_BOOL && !s->uses[bool_type] &&
        !s->removed[bool_type])
        r = spvcond_spec_remove_defining(s, d, 0);
    if (r != SPVCOND_OK || got < 1 || bound == 0 || bound >= m->header_bound)
        return r;
    g->bound = bound; /* given back once every record is gone: give_back_annotation */
    return SPVCOND_OK;
}

/* OpDeviceRegistryVersion describes the extension's constants, which are gone: it goes with them. */
static spvcond_result
drop_registry_version(struct spec *s)
{
    spvcond_result r = SPVCOND_OK;
    for (size_t i = spvcond_registry_version_inst(s->m, 0); i != SIZE_MAX && r == SPVCOND_OK;
         i = spvcond_registry_version_inst(s->m, i + 1))
        r = spvcond_spec_delete(s, i);
    return r;
}

static spvcond_result
give_back_annotation(struct spec *s)
{
    struct spvcond_module *m = s->m;
    struct give_back g = {s, 0};
    spvcond_result r = spvcond_records_each(m, give_back_record, &g);
    if (r != SPVCOND_OK || !g.bound)
        return r;
    bool left = false;
    for (uint32_t id = g.bound; id < m->bound && !left; id++) {
        size_t def = spvcond_def(m, id);
        left = def != SIZE_MAX && !spvcond_edit_is_deleted(m, def);
    }
    if (!left)
        m->edits.restored_bound = g.bound;
    return SPVCOND_OK;
}

/* Condition-tree constants nobody uses any more go, operands after users. */
static spvcond_result
drop_unused_trees(struct spec *s)
{
    struct spvcond_module *m = s->m;
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i-- > m->section[SPVCOND_SECTION_GLOBAL];) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (spvcond_edit_is_deleted(m, i) || (!spvcond_is_spec_constant_opcode(op) &&
            op != SPVCOND_OP_CONSTANT_TRUE && op != SPVCOND_OP_CONSTANT_FALSE))
            continue;
        uint32_t id = w[2];
        if (!s->cond_tree[id] || s->uses[id] != 0)
            continue;
        /* Undo what check_and_count_uses counted: the type of a frozen constant, every id of a node (its
         * literal operands, a CompositeExtract index say, are no uses). */
        spvcond_result r = SPVCOND_OK;
        if (op == SPVCOND_OP_SPEC_CONSTANT_OP && !s->frozen[id])
            r = spvcond_walk_ids(m, i, uncount_use, s);
        else
            uncount(s, w[1]);
        if (r == SPVCOND_OK)
            r = spvcond_spec_remove_defining(s, i, 0);
        if (r != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

/* Capabilities that some instruction of the input needed but no surviving one does: their only users
 * were stripped, so they go (a module stripped of its fp64 code stops declaring Float64). Survivors are
 * scanned until every declared capability has a user, then removed instructions only for the capabilities
 * left without one: most specializations stop early in both scans. State is per capability, not per
 * declaration, so that repeated declarations cost nothing per user. */
enum { CAP_UNDECLARED, CAP_UNSEEN, CAP_USED, CAP_ORPHANED };

struct cap_users {
    struct spvcond_module *m;
    struct spvcond_declared_caps caps;
    uint8_t *state; /* per distinct capability */
    size_t open;    /* capabilities the current scan still looks for */
    uint64_t done;  /* those it does not (spvcond_declared_cap_done bits) */
    uint8_t to;     /* the current scan moves capabilities from CAP_UNSEEN to this */
};

static spvcond_result
note_cap_user(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    (void)inst;
    struct cap_users *u = user;
    for (size_t c = 0; c < count; c++) {
        size_t d = spvcond_declared_caps_find(&u->caps, caps[c]);
        if (d != SIZE_MAX && u->state[d] == CAP_UNSEEN) {
            u->state[d] = u->to;
            u->open--;
            u->done |= spvcond_declared_cap_done(d);
        }
    }
    return SPVCOND_OK;
}

/* Scan the surviving or the removed instructions until no capability is left unseen. */
static spvcond_result
scan_cap_users(struct cap_users *u, bool removed, uint8_t to)
{
    struct spvcond_module *m = u->m;
    u->to = to;
    u->open = 0;
    u->done = 0;
    for (size_t d = 0; d < u->caps.count; d++) {
        u->open += u->state[d] == CAP_UNSEEN;
        u->done |= u->state[d] == CAP_UNSEEN ? 0 : spvcond_declared_cap_done(d);
    }
    spvcond_result r = SPVCOND_OK;
    /* Capability declarations themselves are not users. */
    for (size_t i = m->section[SPVCOND_SECTION_CAPABILITY + 1]; i < m->inst_count && r == SPVCOND_OK && u->open; i++) {
        spvcond_prefetch_ahead(m, i);
        if (spvcond_edit_is_deleted(m, i) == removed)
            r = spvcond_declared_caps_users(m, &u->caps, i, u->done, note_cap_user, u);
    }
    return r;
}

static spvcond_result
trim_capabilities(struct spec *s)
{
    struct spvcond_module *m = s->m;
    size_t ncap = m->section[SPVCOND_SECTION_CAPABILITY + 1];
    struct cap_users u = {m, {NULL, 0, NULL, NULL}, NULL, 0, 0, 0};
    spvcond_result r = spvcond_declared_caps_build(m, true, &u.caps);
    if (r == SPVCOND_OK && !(u.state = spvcond_alloc_array(m->ctx, u.caps.count + 1, 1)))
        r = spvcond_oom(m->ctx);
    /* Only capabilities with a surviving declaration are looked for. A module without entry points
     * must declare Linkage even when nothing names it. */
    for (size_t i = 0; i < ncap && r == SPVCOND_OK; i++) {
        uint32_t cap = spvcond_declared_cap_of(m, i, true);
        bool linkage = cap == 5 && spvcond_inst_opcode(m, i) == SPVCOND_OP_CAPABILITY &&
            s->stats.entry_points_kept == 0;
        if (cap != UINT32_MAX && !spvcond_edit_is_deleted(m, i) && !linkage)
            u.state[spvcond_declared_caps_find(&u.caps, cap)] = CAP_UNSEEN;
    }
    if (r == SPVCOND_OK)
        r = scan_cap_users(&u, false, CAP_USED);
    if (r == SPVCOND_OK)
        r = scan_cap_users(&u, true, CAP_ORPHANED);
    for (size_t i = 0; i < ncap && r == SPVCOND_OK; i++) {
        uint32_t cap = spvcond_declared_cap_of(m, i, true);
        if (cap == UINT32_MAX || spvcond_edit_is_deleted(m, i) ||
            u.state[spvcond_declared_caps_find(&u.caps, cap)] != CAP_ORPHANED)
            continue;
        if (cap == 5 && spvcond_inst_opcode(m, i) == SPVCOND_OP_CAPABILITY && s->stats.entry_points_kept == 0)
            continue;
        r = spvcond_spec_delete(s, i);
        s->stats.capabilities_removed++;
    }
    spvcond_dealloc(m->ctx, u.state);
    spvcond_declared_caps_release(m, &u.caps);
    return r;
}

/* A module whose every kernel was removed is a library now, and SPIR-V requires a module without entry
 * points to declare Linkage (found by the synthetic-module test: spirv-val refused such an output). */
static spvcond_result
declare_library(struct spec *s)
{
    struct spvcond_module *m = s->m;
    if (s->stats.entry_points_kept != 0 || s->stats.entry_points_removed == 0)
        return SPVCOND_OK;
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        uint32_t cap = op == SPVCOND_OP_CAPABILITY ? w[1] : op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL ? w[2]
            : UINT32_MAX;
        if (cap == SPVCOND_CAPABILITY_LINKAGE && !spvcond_edit_is_deleted(m, i))
            return SPVCOND_OK;
    }
    spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, SPVCOND_NOWHERE,
                   "no entry point is left for these values; OpCapability Linkage is added so that the module "
                   "stays valid as a library");
    const uint32_t linkage[2] = {spvcond_first_word(2, SPVCOND_OP_CAPABILITY), SPVCOND_CAPABILITY_LINKAGE};
    return spvcond_edit_append_to_section(m, SPVCOND_SECTION_CAPABILITY, linkage, 2);
}

static void
release(struct spec *s)
{
    spvcond_context *ctx = s->m->ctx;
    spvcond_values_release(s->m, &s->v);
    spvcond_dealloc(ctx, s->removed);
    spvcond_dealloc(ctx, s->reasons);
    spvcond_dealloc(ctx, s->cond_tree);
    spvcond_dealloc(ctx, s->frozen);
    spvcond_dealloc(ctx, s->uses);
    spvcond_dealloc(ctx, s->watch);
    spvcond_dealloc(ctx, s->has_condition);
    spvcond_dealloc(ctx, s->fn_reason);
    spvcond_dealloc(ctx, s->entry_functions);
    spvcond_dealloc(ctx, s->frozen_bools);
}

/* The conditions' values for the caller's values and device, refused where the device does not give a
 * fact a constant needs (spec/devices.md). */
static __attribute__((noinline)) spvcond_result
evaluate_conditions(struct spec *s, const spvcond_specialize_options *o)
{
    spvcond_result r = spvcond_evaluate_for_device(s->m, o->values, o->value_count, o->device, &s->v);
    s->first_true_wins = o->device && o->device->unspecified == SPVCOND_UNSPECIFIED_ANY;
    return r;
}

/* The caller's options and stats as this library's (support/sized.h); kept out of line so that the
 * pass below compiles as it did before structs were sized (callgrind: +3.5% on libclc when inlined). */
static __attribute__((noinline)) spvcond_result
sized_arguments(spvcond_module *m, const spvcond_specialize_options *in, spvcond_specialize_options *o,
                spvcond_specialize_stats *stats)
{
    if (!in)
        return spvcond_invalid(m->ctx, "spvcond_specialize", "`options` is NULL");
    spvcond_result r = SPVCOND_SIZED_IN(m->ctx, in, o, spvcond_specialize_options);
    if (r == SPVCOND_OK)
        r = SPVCOND_SIZED_OUT_CHECK(m->ctx, stats, spvcond_specialize_stats);
    if (r == SPVCOND_OK && o->value_count && !o->values)
        r = spvcond_invalid(m->ctx, "spvcond_specialize", "`value_count` is not 0 but `values` is NULL");
    return r;
}

static spvcond_result specialize(spvcond_module *m, const spvcond_specialize_options *o,
                                 spvcond_specialize_stats *stats);

spvcond_result
spvcond_specialize(spvcond_module *m, const spvcond_specialize_options *in, spvcond_specialize_stats *stats)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    spvcond_specialize_options options;
    spvcond_result r = sized_arguments(m, in, &options, stats);
    return r == SPVCOND_OK ? specialize(m, &options, stats) : r;
}

static spvcond_result
specialize(spvcond_module *m, const spvcond_specialize_options *o, spvcond_specialize_stats *stats)
{
    uint32_t known = SPVCOND_SPECIALIZE_FREEZE_ALL | SPVCOND_SPECIALIZE_STRICT | SPVCOND_SPECIALIZE_NO_TRIM |
                     SPVCOND_SPECIALIZE_NO_FOLD;
    if (o->flags & ~known)
        return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "unknown specialize flags 0x%x", o->flags & ~known);
    spvcond_result r = spvcond_edit_begin_pass(m, "specializing");
    if (r != SPVCOND_OK)
        return r;
    struct spec s;
    memset(&s, 0, sizeof(s));
    s.m = m;
    s.flags = o->flags;
    s.stats.size = sizeof(s.stats);
    spvcond_context *ctx = m->ctx;
    s.removed = spvcond_alloc_array(ctx, m->bound, 1);
    s.cond_tree = spvcond_alloc_array(ctx, m->bound, 1);
    s.frozen = spvcond_alloc_array(ctx, m->bound, 1);
    s.uses = spvcond_alloc_array(ctx, m->bound, sizeof(uint32_t));
    s.has_condition = spvcond_alloc_array(ctx, m->bound, 1);
    s.fn_reason = spvcond_alloc_array(ctx, m->function_count + 1, sizeof(uint32_t));
    s.entry_functions = spvcond_alloc_array(ctx, m->entry_point_count + 1, sizeof(uint32_t));
    if (!s.removed || !s.cond_tree || !s.frozen || !s.uses || !s.has_condition || !s.fn_reason ||
        !s.entry_functions)
        r = spvcond_oom(ctx);
    if (r == SPVCOND_OK)
        r = evaluate_conditions(&s, o);
    for (size_t k = 0; r == SPVCOND_OK && k < o->value_count; k++) {
        if (o->values[k].found)
            continue;
        if (o->flags & SPVCOND_SPECIALIZE_STRICT)
            r = spvcond_report(ctx, SPVCOND_ERROR_NOT_FOUND, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                               "no spec constant carries SpecId %u", o->values[k].spec_id);
        else
            spvcond_report(ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, SPVCOND_NOWHERE,
                           "no spec constant carries SpecId %u; its value is ignored", o->values[k].spec_id);
    }
    if (r == SPVCOND_OK)
        r = strip_conditional_targets(&s);
    if (r == SPVCOND_OK)
        r = resolve_entry_points(&s);
    if (r == SPVCOND_OK)
        r = resolve_capabilities_and_extensions(&s);
    if (r == SPVCOND_OK)
        r = resolve_copies(&s);
    if (r == SPVCOND_OK)
        r = strip_debug_info(&s);
    if (r == SPVCOND_OK)
        r = strip_names_and_decorations(&s, m->section[SPVCOND_SECTION_DEBUG_NAME],
                                        m->section[SPVCOND_SECTION_GLOBAL]);
    if (r == SPVCOND_OK) {
        spvcond_close_condition_trees(m, s.cond_tree);
        r = freeze_constants(&s);
    }
    if (r == SPVCOND_OK)
        r = check_and_count_uses(&s);
    for (size_t k = 0; k < s.frozen_bool_count && r == SPVCOND_OK && !(o->flags & SPVCOND_SPECIALIZE_NO_FOLD); k++) {
        if (s.uses[s.frozen_bools[2 * k]] != s.frozen_bools[2 * k + 1]) { /* used in code */
            r = spvcond_spec_fold_branches(&s);
            break;
        }
    }
    if (r == SPVCOND_OK)
        r = drop_unused_trees(&s);
    if (r == SPVCOND_OK)
        r = drop_orphaned_imports(&s);
    if (r == SPVCOND_OK)
        r = give_back_annotation(&s);
    if (r == SPVCOND_OK)
        r = drop_registry_version(&s);
    if (r == SPVCOND_OK)
        r = strip_names_and_decorations(&s, m->section[SPVCOND_SECTION_DEBUG_NAME],
                                        m->section[SPVCOND_SECTION_GLOBAL]);
    if (r == SPVCOND_OK && !(o->flags & SPVCOND_SPECIALIZE_NO_TRIM))
        r = trim_capabilities(&s);
    if (r == SPVCOND_OK)
        r = declare_library(&s);
    if (r == SPVCOND_OK) {
        s.stats.functions_removed = s.functions_removed;
        s.stats.functions_kept = m->function_count - s.functions_removed;
        if (stats)
            SPVCOND_SIZED_OUT(stats, &s.stats, spvcond_specialize_stats);
    } else {
        spvcond_edit_abandon(m);
    }
    release(&s);
    return r;
}
