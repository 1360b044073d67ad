/* SPDX-License-Identifier: MIT */
/* Function variants (spec/repair.md, "Explaining a multi-target module"): the functions that share a
 * name, their conditions spelled out, and which of them a specialization keeps. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/evaluate.h"
#include "support/grammar.h"
#include "ir/index.h"
#include "registry/registry.h"
#include "support/sized.h"

#define TEXT_MAX 1024
#define DEPTH_MAX 12

struct text {
    char buf[TEXT_MAX];
    size_t len;
};

static void
put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct text *t, const char *fmt, ...)
{
    if (t->len + 1 >= TEXT_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, TEXT_MAX - t->len, fmt, ap);
    va_end(ap);
    t->len = n < 0 ? t->len : t->len + (size_t)n >= TEXT_MAX ? TEXT_MAX - 1 : t->len + (size_t)n;
}

/* A condition in words: the linker's module conditions by their names ("var.spv"), device constants
 * by what they test, LogicalAnd / Or / Not as and / or / not. */
static void
describe(const struct spvcond_module *m, uint32_t id, int depth, bool top, struct text *t)
{
    size_t d = spvcond_def(m, id);
    const char *name = spvcond_name_of(m, id);
    if (d == SIZE_MAX || depth > DEPTH_MAX) {
        put(t, "%%%u", id);
        return;
    }
    if (name && !top) {
        put(t, "%s", name);
        return;
    }
    const uint32_t *w = spvcond_inst_words(m, d);
    uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
    switch (op) {
    case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL:
    case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL:
    case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL: {
        char text[256];
        put(t, "%s", spvcond_device_constant_text(w, text, sizeof(text)));
        return;
    }
    case SPVCOND_OP_SPEC_CONSTANT_TRUE:
    case SPVCOND_OP_SPEC_CONSTANT_FALSE:
    case SPVCOND_OP_CONSTANT_TRUE:
    case SPVCOND_OP_CONSTANT_FALSE:
        if (name)
            put(t, "%s", name);
        else
            put(t, "%s%%%u", op == SPVCOND_OP_CONSTANT_TRUE ? "true " : op == SPVCOND_OP_CONSTANT_FALSE ? "false " : "",
                id);
        return;
    case SPVCOND_OP_SPEC_CONSTANT_OP:
        if (wc == 5 && w[3] == SPVCOND_OP_LOGICAL_NOT) {
            put(t, "not ");
            describe(m, w[4], depth + 1, false, t);
            return;
        }
        if (wc == 6 && (w[3] == SPVCOND_OP_LOGICAL_AND || w[3] == SPVCOND_OP_LOGICAL_OR)) {
            put(t, "%s", top ? "" : "(");
            describe(m, w[4], depth + 1, false, t);
            put(t, w[3] == SPVCOND_OP_LOGICAL_AND ? " and " : " or ");
            describe(m, w[5], depth + 1, false, t);
            put(t, "%s", top ? "" : ")");
            return;
        }
        break;
    default:
        break;
    }
    put(t, "%%%u", id);
}

/* Each function's name: its entry point's, else its export's, else its OpName. */
static const char *
function_name(const struct spvcond_module *m, size_t f, const char **entry_names, const char **export_names)
{
    if (entry_names[f])
        return entry_names[f];
    if (export_names[f])
        return export_names[f];
    return spvcond_name_of(m, m->functions[f].id);
}

struct entry {
    const char *name;
    size_t function;
    bool entry_point;
};

static int
compare_entries(const void *x, const void *y)
{
    const struct entry *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    if (!c)
        c = (int)b->entry_point - (int)a->entry_point;
    return c ? c : (a->function > b->function) - (a->function < b->function);
}

static bool
same_name(const struct entry *a, const struct entry *b)
{
    return a->entry_point == b->entry_point && strcmp(a->name, b->name) == 0;
}

spvcond_result
spvcond_function_variants(const spvcond_module *module, const spvcond_specialize_options *in, spvcond_variant_fn fn,
                          void *user)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!fn)
        return spvcond_invalid(m->ctx, "spvcond_function_variants", "`fn` is NULL");
    spvcond_specialize_options options;
    const spvcond_specialize_options *o = in ? &options : NULL;
    spvcond_result sized = in ? SPVCOND_SIZED_IN(m->ctx, in, &options, spvcond_specialize_options) : SPVCOND_OK;
    if (sized != SPVCOND_OK)
        return sized;
    if (o && o->value_count && !o->values)
        return spvcond_invalid(m->ctx, "spvcond_function_variants", "`value_count` is not 0 but `values` is NULL");
    spvcond_context *ctx = m->ctx;
    size_t nf = m->function_count;
    const char **entry_names = spvcond_alloc_array(ctx, nf + 1, sizeof(char *));
    const char **export_names = spvcond_alloc_array(ctx, nf + 1, sizeof(char *));
    uint32_t *cond = spvcond_alloc_array(ctx, nf + 1, sizeof(uint32_t));
    struct entry *list = spvcond_alloc_array(ctx, nf + 1, sizeof(*list));
    struct spvcond_values values;
    memset(&values, 0, sizeof(values));
    spvcond_result r = entry_names && export_names && cond && list ? SPVCOND_OK : spvcond_oom(ctx);
    for (size_t k = 0; k < m->entry_point_count && r == SPVCOND_OK; k++) {
        size_t i = m->entry_points[k];
        bool conditional = spvcond_inst_opcode(m, i) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL;
        const struct spvcond_function *f = spvcond_function_by_id(m, spvcond_inst_words(m, i)[conditional ? 3 : 2]);
        if (f && !entry_names[f - m->functions])
            entry_names[f - m->functions] = spvcond_inst_string(m, i, conditional ? 4 : 3);
    }
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1] && r == SPVCOND_OK;
         i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        const struct spvcond_function *f = spvcond_function_by_id(m, w[1]);
        if (!f)
            continue;
        if (spvcond_is_export_decoration(w) && !export_names[f - m->functions])
            export_names[f - m->functions] = spvcond_inst_string(m, i, 3);
        else if (spvcond_is_condition_decoration(w))
            cond[f - m->functions] = w[3];
    }
    /* Functions by name, entry points apart; a name two functions share makes them variants. */
    size_t n = 0;
    for (size_t f = 0; f < nf && r == SPVCOND_OK; f++) {
        const char *name = function_name(m, f, entry_names, export_names);
        if (name)
            list[n++] = (struct entry){name, f, entry_names[f] != NULL};
    }
    if (r == SPVCOND_OK && n > 1)
        qsort(list, n, sizeof(*list), compare_entries);
    bool evaluated = false;
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++) {
        bool shared = (k > 0 && same_name(&list[k - 1], &list[k])) || (k + 1 < n && same_name(&list[k + 1], &list[k]));
        if (!shared)
            continue;
        if (!evaluated) {
            /* Described without options: the defaults and no device, nothing refused. */
            r = o ? spvcond_evaluate_for_device(m, o->values, o->value_count, o->device, &values)
                  : spvcond_evaluate(m, NULL, 0, NULL, &values);
            if (r != SPVCOND_OK)
                break;
            evaluated = true;
        }
        size_t f = list[k].function;
        struct text t = {{0}, 0};
        bool kept = true;
        if (cond[f]) {
            describe(m, cond[f], 0, true, &t);
            const char *cname = spvcond_name_of(m, cond[f]);
            if (cname) { /* "var.spv = target 4 ..." */
                struct text named = {{0}, 0};
                put(&named, "%s = %s", cname, t.buf);
                t = named;
            }
            r = spvcond_condition_value(m, &values, m->functions[f].begin, cond[f], &kept);
        } else {
            put(&t, "always");
        }
        if (r == SPVCOND_OK) {
            spvcond_variant v = {sizeof(v), list[k].name, list[k].entry_point, m->functions[f].id, cond[f], t.buf, kept};
            fn(user, &v);
        }
    }
    if (evaluated)
        spvcond_values_release(m, &values);
    spvcond_dealloc(ctx, (void *)entry_names);
    spvcond_dealloc(ctx, (void *)export_names);
    spvcond_dealloc(ctx, cond);
    spvcond_dealloc(ctx, list);
    return r;
}
