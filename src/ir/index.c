/* SPDX-License-Identifier: MIT */
/* Per-id tables built while reading: which annotation, debug-name and execution-mode instructions
 * target each id, stored as compressed rows so a lookup is two array reads. */
#include "ir/index.h"
#include "ir/operands.h"

#include <stdlib.h>
#include <string.h>

struct pairs {
    uint32_t *data; /* (target id, instruction) */
    size_t len, cap;
};

struct spvcond_index_builder {
    struct spvcond_module *m;
    struct pairs decorations, names, modes;
    size_t entry_cap, spec_cap, import_cap;
};

spvcond_result
spvcond_index_builder_create(struct spvcond_module *m, struct spvcond_index_builder **out)
{
    *out = spvcond_alloc_array(m->ctx, 1, sizeof(**out));
    if (!*out)
        return spvcond_oom(m->ctx);
    (*out)->m = m;
    return SPVCOND_OK;
}

void
spvcond_index_builder_destroy(struct spvcond_index_builder *b)
{
    if (!b)
        return;
    spvcond_context *ctx = b->m->ctx;
    spvcond_dealloc(ctx, b->decorations.data);
    spvcond_dealloc(ctx, b->names.data);
    spvcond_dealloc(ctx, b->modes.data);
    spvcond_dealloc(ctx, b);
}

static spvcond_result
add_pair(spvcond_context *ctx, struct pairs *p, uint32_t target, size_t inst)
{
    spvcond_result r = spvcond_grow(ctx, (void **)&p->data, &p->cap, p->len + 2, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    p->data[p->len++] = target;
    p->data[p->len++] = (uint32_t)inst;
    return SPVCOND_OK;
}

spvcond_result
spvcond_index_note(struct spvcond_index_builder *b, size_t inst, uint32_t opcode)
{
    struct spvcond_module *m = b->m;
    const uint32_t *w = spvcond_inst_words(m, inst);
    uint32_t wc = spvcond_inst_word_count(m, inst);
    spvcond_result r = SPVCOND_OK;
    switch (opcode) {
    case SPVCOND_OP_NAME: case SPVCOND_OP_MEMBER_NAME:
        return add_pair(m->ctx, &b->names, w[1], inst);
    case SPVCOND_OP_DECORATE:
        if (w[2] == SPVCOND_DECORATION_SPEC_ID) {
            r = spvcond_grow(m->ctx, (void **)&m->spec_ids, &b->spec_cap, m->spec_id_count + 1,
                             sizeof(*m->spec_ids));
            if (r != SPVCOND_OK)
                return r;
            m->spec_ids[m->spec_id_count++] = (struct spvcond_spec_id){w[3], w[1]};
        }
        __attribute__((fallthrough));
    case SPVCOND_OP_MEMBER_DECORATE: case SPVCOND_OP_DECORATE_ID: case SPVCOND_OP_DECORATE_STRING:
    case SPVCOND_OP_MEMBER_DECORATE_STRING:
        return add_pair(m->ctx, &b->decorations, w[1], inst);
    case SPVCOND_OP_GROUP_DECORATE: /* OpGroupDecorate: group, targets... */
        for (uint32_t k = 2; k < wc && r == SPVCOND_OK; k++)
            r = add_pair(m->ctx, &b->decorations, w[k], inst);
        return r;
    case SPVCOND_OP_GROUP_MEMBER_DECORATE: /* OpGroupMemberDecorate: group, (target, member)... */
        for (uint32_t k = 2; k < wc && r == SPVCOND_OK; k += 2)
            r = add_pair(m->ctx, &b->decorations, w[k], inst);
        return r;
    case SPVCOND_OP_EXECUTION_MODE: case SPVCOND_OP_EXECUTION_MODE_ID:
        return add_pair(m->ctx, &b->modes, w[1], inst);
    case SPVCOND_OP_EXT_INST_IMPORT: { /* OpExtInstImport: the reader has checked the name is terminated */
        r = spvcond_grow(m->ctx, (void **)&m->imports, &b->import_cap, m->import_count + 1, sizeof(*m->imports));
        if (r != SPVCOND_OK)
            return r;
        const char *name = spvcond_inst_string(m, inst, 2);
        bool non_semantic = strncmp(name, "NonSemantic.", 12) == 0;
        m->imports[m->import_count++] = (struct spvcond_import){w[1], spvcond_grammar_extinst_set(name), non_semantic,
                                                                non_semantic || strstr(name, "DebugInfo") != NULL};
        return SPVCOND_OK;
    }
    case SPVCOND_OP_ENTRY_POINT: case SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL:
        r = spvcond_grow(m->ctx, (void **)&m->entry_points, &b->entry_cap, m->entry_point_count + 1,
                         sizeof(uint32_t));
        if (r == SPVCOND_OK)
            m->entry_points[m->entry_point_count++] = (uint32_t)inst;
        return r;
    default:
        return SPVCOND_OK;
    }
}

spvcond_result
spvcond_index_note_run(struct spvcond_index_builder *b, size_t from, size_t to, bool names)
{
    struct spvcond_module *m = b->m;
    struct pairs *p = names ? &b->names : &b->decorations;
    spvcond_result r = spvcond_grow(m->ctx, (void **)&p->data, &p->cap, p->len + 2 * (to - from), sizeof(uint32_t));
    for (size_t i = from; i < to && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (!names && w[2] == SPVCOND_DECORATION_SPEC_ID) {
            r = spvcond_index_note(b, i, SPVCOND_OP_DECORATE); /* the SpecId too */
            continue;
        }
        p->data[p->len++] = w[1];
        p->data[p->len++] = (uint32_t)i;
    }
    return r;
}

_Static_assert(SPVCOND_MAX_BOUND < (1u << 22), "refs sort ids as two 11-bit digits");

/* Input made of more sorted runs than this is radix-sorted; fewer are merged. */
#define REFS_MERGED_RUNS 32

/* Stable LSD radix sort of the n pairs (t, i) by t (ids are below 2^22: two 11-bit digits), with
 * scratch arrays of n. */
static void
radix_sort_refs(uint32_t *t, uint32_t *i, uint32_t *t2, uint32_t *i2, size_t n)
{
    uint32_t *src_t = t, *src_i = i, *dst_t = t2, *dst_i = i2;
    for (unsigned shift = 0; shift < 22; shift += 11) {
        size_t cursor[2048] = {0};
        for (size_t k = 0; k < n; k++)
            cursor[(src_t[k] >> shift) & 2047u]++;
        size_t sum = 0;
        for (size_t d = 0; d < 2048; d++) {
            size_t c = cursor[d];
            cursor[d] = sum;
            sum += c;
        }
        for (size_t k = 0; k < n; k++) {
            size_t at = cursor[(src_t[k] >> shift) & 2047u]++;
            dst_t[at] = src_t[k];
            dst_i[at] = src_i[k];
        }
        uint32_t *swap_t = src_t, *swap_i = src_i;
        src_t = dst_t, src_i = dst_i, dst_t = swap_t, dst_i = swap_i;
    }
    /* Two passes: the sorted pairs are back in t and i. */
}

/* The first of the sorted targets t[lo, hi) above `key`, or hi. */
static size_t
first_above(const uint32_t *t, size_t lo, size_t hi, uint32_t key)
{
    while (lo < hi) {
        size_t half = lo + (hi - lo) / 2;
        if (t[half] <= key)
            lo = half + 1;
        else
            hi = half;
    }
    return lo;
}

/* The sorted runs [lo, mid) and [mid, hi) of pairs (t, i) merged in place, stably (the left run's
 * pairs first among equal targets), with scratch arrays of mid - lo at least. Only where the runs
 * overlap moves: the left run's pairs up to the right run's first target, and the right run's from its
 * first target not below the left run's last, stay. */
static void
merge_refs(uint32_t *t, uint32_t *i, uint32_t *t2, uint32_t *i2, size_t lo, size_t mid, size_t hi)
{
    if (lo == mid || mid == hi || t[mid - 1] <= t[mid])
        return;
    /* a: the first left pair above t[mid]; b: the first right pair not below t[mid - 1] (which is above
     * t[mid], so at least 1) */
    size_t a = first_above(t, lo, mid, t[mid]), b = first_above(t, mid, hi, t[mid - 1] - 1);
    size_t left = mid - a;
    memcpy(t2, t + a, left * sizeof(uint32_t));
    memcpy(i2, i + a, left * sizeof(uint32_t));
    size_t x = 0, y = mid, o = a; /* o never passes y: it trails it by what is left of the copy */
    while (x < left && y < b) {
        if (t[y] < t2[x]) {
            t[o] = t[y];
            i[o++] = i[y++];
        } else {
            t[o] = t2[x];
            i[o++] = i2[x++];
        }
    }
    memcpy(t + o, t2 + x, (left - x) * sizeof(uint32_t));
    memcpy(i + o, i2 + x, (left - x) * sizeof(uint32_t));
}

/* The (target, inst) pairs sorted by target, stably: instructions stay in module order within a
 * target. Producers write annotations nearly in target order (libclc's decorations are nine sorted
 * runs, whose neighbours overlap by a few targets) and annotate appends its own as a few runs more, so
 * the runs are merged where they overlap; sorted input is copied, and input of many runs radix-sorted. */
static spvcond_result
build_refs(struct spvcond_module *m, const struct pairs *p, struct spvcond_refs *out)
{
    size_t n = p->len / 2, bytes = (n ? n : 1) * sizeof(uint32_t); /* n: at most the module's words */
    out->count = n;
    /* Every array below is written before it is read: none is cleared (an annotated libclc's 17,000
     * decorations cleared 270 KB). */
    out->target = spvcond_alloc(m->ctx, bytes);
    out->inst = spvcond_alloc(m->ctx, bytes);
    if (!out->target || !out->inst)
        return spvcond_oom(m->ctx);
    size_t run[REFS_MERGED_RUNS + 1], runs = 1; /* where each run begins, while they are few */
    run[0] = 0;
    uint32_t last = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t t = p->data[2 * k];
        out->target[k] = t;
        out->inst[k] = p->data[2 * k + 1];
        if (t < last && runs++ < REFS_MERGED_RUNS)
            run[runs - 1] = k;
        last = t;
    }
    if (runs == 1)
        return SPVCOND_OK;
    uint32_t *t2 = spvcond_alloc(m->ctx, bytes);
    uint32_t *i2 = spvcond_alloc(m->ctx, bytes);
    if (!t2 || !i2) {
        spvcond_dealloc(m->ctx, t2);
        spvcond_dealloc(m->ctx, i2);
        return spvcond_oom(m->ctx);
    }
    if (runs > REFS_MERGED_RUNS) {
        radix_sort_refs(out->target, out->inst, t2, i2, n);
    } else {
        /* Neighbouring runs merged pairwise, until one is left. */
        run[runs] = n;
        while (runs > 1) {
            size_t kept = 0;
            for (size_t r = 0; r < runs; r += 2) {
                if (r + 1 < runs)
                    merge_refs(out->target, out->inst, t2, i2, run[r], run[r + 1], run[r + 2]);
                run[kept++] = run[r];
            }
            run[kept] = n;
            runs = kept;
        }
    }
    spvcond_dealloc(m->ctx, t2);
    spvcond_dealloc(m->ctx, i2);
    return SPVCOND_OK;
}

static int
compare_spec_id(const void *a, const void *b)
{
    const struct spvcond_spec_id *x = a, *y = b;
    if (x->spec_id != y->spec_id)
        return x->spec_id < y->spec_id ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

spvcond_result
spvcond_index_builder_finish(struct spvcond_index_builder *b)
{
    struct spvcond_module *m = b->m;
    spvcond_result r;
    if ((r = build_refs(m, &b->decorations, &m->decorations)) != SPVCOND_OK ||
        (r = build_refs(m, &b->names, &m->names)) != SPVCOND_OK ||
        (r = build_refs(m, &b->modes, &m->modes)) != SPVCOND_OK)
        return r;
    if (m->spec_id_count)
        qsort(m->spec_ids, m->spec_id_count, sizeof(*m->spec_ids), compare_spec_id);
    return SPVCOND_OK;
}

static void
release_refs(spvcond_context *ctx, struct spvcond_refs *r)
{
    spvcond_dealloc(ctx, r->target);
    spvcond_dealloc(ctx, r->inst);
    r->target = r->inst = NULL;
    r->count = 0;
}

void
spvcond_index_release(struct spvcond_module *m)
{
    release_refs(m->ctx, &m->decorations);
    release_refs(m->ctx, &m->names);
    release_refs(m->ctx, &m->modes);
    spvcond_dealloc(m->ctx, m->entry_points);
    spvcond_dealloc(m->ctx, m->imports);
    spvcond_dealloc(m->ctx, m->spec_ids);
}

const char *
spvcond_section_name(int section)
{
    static const char *const names[SPVCOND_SECTION_COUNT + 1] = {
        "capabilities", "extensions", "extended instruction set imports", "memory model", "entry points",
        "execution modes", "debug source instructions", "debug names", "OpModuleProcessed instructions",
        "annotations", "types, constants and global variables", "functions", "end of module"};
    return section >= 0 && section <= SPVCOND_SECTION_COUNT ? names[section] : "?";
}

const char *
spvcond_name_of(const struct spvcond_module *m, uint32_t id)
{
    uint32_t b, e;
    spvcond_refs_range(&m->names, id, &b, &e);
    for (uint32_t k = b; k < e; k++)
        if (spvcond_inst_opcode(m, m->names.inst[k]) == SPVCOND_OP_NAME)
            return spvcond_inst_string(m, m->names.inst[k], 2);
    return NULL;
}

bool
spvcond_is_debug_info(const struct spvcond_module *m, size_t i)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_EXT_INST || spvcond_word_count_of(w[0]) < 5)
        return false;
    const struct spvcond_import *imp = spvcond_import_of(m, w[3]);
    return imp && imp->debug_info;
}

bool
spvcond_may_carry_condition(uint32_t op)
{
    return spvcond_may_carry_condition_row(op, spvcond_grammar_instruction(op));
}

uint32_t
spvcond_module_version(const spvcond_module *m)
{
    return m ? m->version : 0;
}

spvcond_result
spvcond_module_registry_version(const spvcond_module *m, uint32_t *version)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!version)
        return spvcond_invalid(m->ctx, "spvcond_module_registry_version", "`version` is NULL");
    size_t i = spvcond_registry_version_inst(m, 0);
    if (i == SIZE_MAX)
        return SPVCOND_ERROR_NOT_FOUND;
    *version = spvcond_inst_words(m, i)[1];
    return SPVCOND_OK;
}

struct spvcond_entry_key
spvcond_entry_key_of(const struct spvcond_module *m, size_t inst)
{
    const uint32_t *w = spvcond_inst_words(m, inst);
    uint32_t base = spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL ? 2 : 1;
    return (struct spvcond_entry_key){w[base], spvcond_inst_string(m, inst, base + 2), inst};
}

int
spvcond_compare_entry_keys(const void *a, const void *b)
{
    const struct spvcond_entry_key *x = a, *y = b;
    if (x->model != y->model)
        return x->model < y->model ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : x->inst < y->inst ? -1 : x->inst > y->inst;
}

size_t
spvcond_registry_version_inst(const struct spvcond_module *m, size_t from)
{
    /* Where the reader takes it: beside OpModuleProcessed, or up to the globals (spec/extension.md). */
    size_t begin = m->section[SPVCOND_SECTION_DEBUG_PROCESSED], end = m->section[SPVCOND_SECTION_FUNCTION];
    for (size_t i = from > begin ? from : begin; i < end; i++)
        if (spvcond_inst_opcode(m, i) == SPVCOND_OP_DEVICE_REGISTRY_VERSION)
            return i;
    return SIZE_MAX;
}

uint32_t
spvcond_module_bound(const spvcond_module *m)
{
    if (!m)
        return 0;
    if (m->edits.restored_bound)
        return m->edits.restored_bound;
    return m->edits.bound > m->header_bound ? m->edits.bound : m->header_bound;
}

size_t
spvcond_module_instruction_count(const spvcond_module *m)
{
    return m ? m->inst_count : 0;
}

bool
spvcond_module_was_byte_swapped(const spvcond_module *m)
{
    return m && m->swapped;
}
