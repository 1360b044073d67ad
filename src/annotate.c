/* The producer: give every kernel and exported function a condition built from boolean spec constants
 * (one per requirement), every other function the OR of its callers' conditions, and guard the
 * types, constants, variables and capabilities only conditional code uses (spec/annotate.md). */
#include <stdio.h>
#include <string.h>

#include "aspects.h"
#include "bitset.h"
#include "capabilities.h"
#include "edit.h"
#include "index.h"
#include "infer.h"
#include "operands.h"

#define DEFAULT_SPEC_ID_BASE 0x10000u
#define RESERVED_SPEC_ID 0xFF747469u /* ITT annotations (dpcpp.md 4) */

enum leaf_kind { LEAF_ASPECT, LEAF_WORK_GROUP_SIZE, LEAF_SUB_GROUP_SIZE };

struct leaf {
    uint8_t kind;
    uint32_t v[3];
    uint32_t id, spec_id;
};

/* A requirement set: the leaves one root needs, And-ed. */
struct reqset {
    uint64_t *leaves; /* bitset over leaves */
    uint32_t id;      /* condition node; 0 for the empty set (always true) */
    uint32_t first;   /* its lowest leaf, a cheap first test of "subset of"; UINT32_MAX when empty */
    uint64_t hash;
};

/* An open-addressing table from a 64-bit hash to an index + 1; the caller keeps the hashes (so the table
 * can be rebuilt as it grows) and compares candidates itself. */
struct index_table {
    uint32_t *slots;
    size_t size;
};

struct or_node {
    uint64_t *sets; /* bitset over requirement sets, absorbed */
    uint32_t id;
};

struct annotate {
    struct spvcond_module *m;
    const spvcond_annotate_options *o;
    struct spvcond_callgraph g;
    struct spvcond_inference inf;
    spvcond_annotate_stats stats;

    uint8_t *is_root;             /* per function */
    uint32_t *root_set;           /* per function: requirement set index + 1 */
    spvcond_aspects *declared;    /* per function, with has_declared */
    uint8_t *has_declared;
    uint32_t (*wg)[3];            /* per function: required work-group size */
    uint32_t *sg;                 /* per function: required sub-group size */

    struct leaf *leaves;
    size_t leaf_count, leaf_cap, leaf_words;
    struct reqset *sets;
    size_t set_count, set_cap, set_words;
    struct index_table set_table; /* set hash -> index + 1 */
    uint64_t *set_hashes;
    size_t set_hash_cap;
    struct index_table or_table;  /* Or key hash -> index + 1 */
    uint64_t *or_hashes;
    size_t or_hash_cap;
    uint32_t empty_set;           /* index of the empty requirement set */
    struct or_node *ors;
    size_t or_count, or_cap;

    uint64_t *reach;              /* per function: set_words words */
    uint64_t *global_cond;        /* per module-level item (EXTINST_IMPORT..GLOBAL): set_words words */
    uint32_t *var_set;            /* per module-level item: requirement set + 1 of exported variables */
    size_t global_begin, global_end;
    uint64_t *cap_cond;           /* per capability instruction: set_words words */
    uint8_t *cap_used;
    uint64_t *scratch;
    uint32_t bool_type;
    uint32_t next_spec_id;
    uint32_t *defer;              /* words of new constants, emitted in order */
    char label[2][32];
    size_t defer_len, defer_cap;
};

static bool is_global_item(const struct annotate *a, size_t i);

static spvcond_result
push_words(struct annotate *a, const uint32_t *w, uint32_t n)
{
    spvcond_result r = spvcond_grow(a->m->ctx, (void **)&a->defer, &a->defer_cap, a->defer_len + n, sizeof(uint32_t));
    if (r == SPVCOND_OK) {
        memcpy(a->defer + a->defer_len, w, n * sizeof(uint32_t));
        a->defer_len += n;
    }
    return r;
}

/* ---- naming and requirements from the caller ---------------------------------------------- */

/* Function index for a name: entry-point name, OpName, or Linkage export name. */
static size_t
function_by_name(struct annotate *a, const char *name)
{
    struct spvcond_module *m = a->m;
    for (size_t k = 0; k < m->entry_point_count; k++) {
        size_t i = m->entry_points[k];
        if (strcmp(spvcond_inst_string(m, i, 3), name) == 0)
            return spvcond_callgraph_function(&a->g, m, spvcond_inst_words(m, i)[2]);
    }
    for (size_t f = 0; f < m->function_count; f++) {
        uint32_t id = m->functions[f].id, b, e;
        spvcond_refs_range(&m->names, id, &b, &e);
        for (uint32_t k = b; k < e; k++)
            if (spvcond_inst_opcode(m, m->names.inst[k]) == 5 && strcmp(spvcond_inst_string(m, m->names.inst[k], 2), name) == 0)
                return f;
        spvcond_refs_range(&m->decorations, id, &b, &e);
        for (uint32_t k = b; k < e; k++) {
            const uint32_t *w = spvcond_inst_words(m, m->decorations.inst[k]);
            if ((w[0] & 0xffffu) == 71 && w[2] == 41 /* LinkageAttributes */ &&
                strcmp(spvcond_inst_string(m, m->decorations.inst[k], 3), name) == 0)
                return f;
        }
    }
    return SIZE_MAX;
}

static spvcond_result
check_aspect(struct annotate *a, uint32_t aspect, const char *function)
{
    if (aspect >= SPVCOND_ASPECT_MAX)
        return spvcond_report(a->m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "requirement of '%s': aspect %u is out of range (0..%u)", function, aspect,
                              SPVCOND_ASPECT_MAX - 1);
    return SPVCOND_OK;
}

static spvcond_result
apply_stated_requirements(struct annotate *a)
{
    for (size_t k = 0; k < a->o->requirement_count; k++) {
        const spvcond_function_requirements *q = &a->o->requirements[k];
        if (!q->function)
            return SPVCOND_ERROR_INVALID_ARGUMENT;
        size_t f = function_by_name(a, q->function);
        if (f == SIZE_MAX)
            return spvcond_report(a->m->ctx, SPVCOND_ERROR_NOT_FOUND, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "%s%srequirements name function '%s', but no entry point, OpName or export has that "
                                  "name", q->origin ? q->origin : "", q->origin ? ": " : "", q->function);
        spvcond_result r;
        for (size_t u = 0; u < q->use_count; u++) {
            if ((r = check_aspect(a, q->uses[u], q->function)) != SPVCOND_OK)
                return r;
            spvcond_aspects_add(&a->inf.own[f], q->uses[u]);
        }
        if (q->has_declared) {
            a->has_declared[f] = 1;
            for (size_t u = 0; u < q->declared_count; u++) {
                if ((r = check_aspect(a, q->declared[u], q->function)) != SPVCOND_OK)
                    return r;
                spvcond_aspects_add(&a->declared[f], q->declared[u]);
            }
        }
        if (q->reqd_work_group_size[0] || q->reqd_work_group_size[1] || q->reqd_work_group_size[2])
            memcpy(a->wg[f], q->reqd_work_group_size, sizeof(a->wg[f]));
        if (q->reqd_sub_group_size)
            a->sg[f] = q->reqd_sub_group_size;
    }
    return SPVCOND_OK;
}

/* ---- roots and their requirement sets ------------------------------------------------------ */

static spvcond_result
find_roots(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    for (size_t k = 0; k < m->entry_point_count; k++) {
        const uint32_t *w = spvcond_inst_words(m, m->entry_points[k]);
        size_t f = spvcond_callgraph_function(&a->g, m, w[2]);
        if (f != SIZE_MAX)
            a->is_root[f] = 1;
    }
    for (size_t f = 0; f < m->function_count; f++)
        if (m->functions[f].first_block != m->functions[f].end && spvcond_is_exported(m, m->functions[f].id))
            a->is_root[f] = 1;
    /* Required sizes from execution modes of entry points. */
    for (size_t i = m->section[SPVCOND_SECTION_EXECUTION_MODE]; i < m->section[SPVCOND_SECTION_EXECUTION_MODE + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t wc = w[0] >> 16;
        size_t f = spvcond_callgraph_function(&a->g, m, w[1]);
        if ((w[0] & 0xffffu) != 16 || f == SIZE_MAX)
            continue;
        if (w[2] == 17 /* LocalSize */ && wc == 6 && !(a->wg[f][0] | a->wg[f][1] | a->wg[f][2]))
            memcpy(a->wg[f], w + 3, sizeof(a->wg[f]));
        else if (w[2] == 35 /* SubgroupSize */ && wc == 4 && !a->sg[f])
            a->sg[f] = w[3];
    }
    return SPVCOND_OK;
}

static spvcond_result
leaf_index(struct annotate *a, uint8_t kind, const uint32_t v[3], size_t *out)
{
    for (size_t k = 0; k < a->leaf_count; k++) {
        if (a->leaves[k].kind == kind && memcmp(a->leaves[k].v, v, sizeof(a->leaves[k].v)) == 0) {
            *out = k;
            return SPVCOND_OK;
        }
    }
    spvcond_result r = spvcond_grow(a->m->ctx, (void **)&a->leaves, &a->leaf_cap, a->leaf_count + 1, sizeof(*a->leaves));
    if (r != SPVCOND_OK)
        return r;
    a->leaves[a->leaf_count] = (struct leaf){kind, {v[0], v[1], v[2]}, 0, 0};
    *out = a->leaf_count++;
    return SPVCOND_OK;
}

/* A function's name for messages: its OpName, else its id (two rotating buffers). */
static const char *
function_label(struct annotate *a, size_t f, int slot)
{
    struct spvcond_module *m = a->m;
    uint32_t b, e;
    spvcond_refs_range(&m->names, m->functions[f].id, &b, &e);
    for (uint32_t k = b; k < e; k++)
        if (spvcond_inst_opcode(m, m->names.inst[k]) == 5)
            return spvcond_inst_string(m, m->names.inst[k], 2);
    snprintf(a->label[slot & 1], sizeof(a->label[0]), "%%%u", m->functions[f].id);
    return a->label[slot & 1];
}

/* A shortest call path from `root` to a function that itself uses `aspect`, as "k -> f -> g". */
static spvcond_result
call_path(struct annotate *a, size_t root, uint32_t aspect, char *buf, size_t size)
{
    struct spvcond_module *m = a->m;
    size_t nf = m->function_count;
    uint32_t *parent = spvcond_alloc_array(m->ctx, nf + 1, sizeof(uint32_t)); /* index + 1; root: itself */
    uint32_t *queue = spvcond_alloc_array(m->ctx, nf + 1, sizeof(uint32_t));
    if (!parent || !queue) {
        spvcond_dealloc(m->ctx, parent);
        spvcond_dealloc(m->ctx, queue);
        return spvcond_oom(m->ctx);
    }
    size_t head = 0, tail = 0, found = SIZE_MAX;
    parent[root] = (uint32_t)root + 1;
    queue[tail++] = (uint32_t)root;
    while (head < tail && found == SIZE_MAX) {
        uint32_t f = queue[head++];
        if (spvcond_aspects_has(&a->inf.own[f], aspect)) {
            found = f;
            break;
        }
        for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++) {
            uint32_t c = a->g.callees[e];
            if (!parent[c]) {
                parent[c] = f + 1;
                queue[tail++] = c;
            }
        }
    }
    /* Walk back from the user to the root, then print forwards. */
    size_t len = 0;
    for (size_t f = found; f != SIZE_MAX; f = f == root ? SIZE_MAX : parent[f] - 1)
        queue[len++] = (uint32_t)f;
    buf[0] = 0;
    size_t o = 0;
    for (size_t k = len; k-- > 0 && o < size;)
        o += (size_t)snprintf(buf + o, size - o, "%s%s", k + 1 == len ? "" : " -> ", function_label(a, queue[k], 0));
    spvcond_dealloc(m->ctx, parent);
    spvcond_dealloc(m->ctx, queue);
    return SPVCOND_OK;
}

/* The leaves of each root, as lists first (the leaf count is unknown until all are seen). */
static spvcond_result
collect_leaves(struct annotate *a, size_t f, uint32_t *list, size_t *count)
{
    spvcond_aspects need = a->has_declared[f] ? a->declared[f] : a->inf.used[f];
    spvcond_result r = SPVCOND_OK;
    size_t n = 0, idx;
    if (a->has_declared[f]) {
        for (uint32_t asp = 0; asp < SPVCOND_ASPECT_MAX; asp++) {
            if (spvcond_aspects_has(&a->inf.used[f], asp) && !spvcond_aspects_has(&a->declared[f], asp)) {
                const char *name = spvcond_aspect_name(asp);
                char path[512];
                if ((r = call_path(a, f, asp, path, sizeof(path))) != SPVCOND_OK)
                    return r;
                spvcond_warn_inst(a->m, a->m->functions[f].begin, a->m->functions[f].id,
                                  "%s uses aspect %s (%u), which its declared requirements do not list; call path: %s",
                                  function_label(a, f, 0), name ? name : "?", asp, path);
            }
        }
    }
    for (uint32_t asp = 0; asp < SPVCOND_ASPECT_MAX && r == SPVCOND_OK; asp++) {
        if (!spvcond_aspects_has(&need, asp))
            continue;
        uint32_t v[3] = {asp, 0, 0};
        if ((r = leaf_index(a, LEAF_ASPECT, v, &idx)) == SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    }
    if (r == SPVCOND_OK && (a->wg[f][0] | a->wg[f][1] | a->wg[f][2])) {
        if ((r = leaf_index(a, LEAF_WORK_GROUP_SIZE, a->wg[f], &idx)) == SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    }
    if (r == SPVCOND_OK && a->sg[f]) {
        uint32_t v[3] = {a->sg[f], 0, 0};
        if ((r = leaf_index(a, LEAF_SUB_GROUP_SIZE, v, &idx)) == SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    }
    *count = n;
    return r;
}

/* Exported module-scope variables are roots too: an exported double needs fp64 like a function. */
static bool
is_exported_variable(const struct spvcond_module *m, size_t i)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    return (w[0] & 0xffffu) == 59 && (w[0] >> 16) >= 4 && spvcond_is_exported(m, w[2]);
}

/* The index of the set with exactly these leaves, added if new. */
static uint64_t
hash_words(const uint64_t *w, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t k = 0; k < n; k++)
        h = (h ^ w[k]) * 0x100000001b3u;
    return h;
}

static spvcond_result
table_insert(spvcond_context *ctx, struct index_table *t, const uint64_t *hashes, uint32_t index)
{
    if (2 * ((size_t)index + 1) > t->size) {
        size_t size = t->size ? t->size * 2 : 64;
        uint32_t *slots = spvcond_alloc_array(ctx, size, sizeof(uint32_t));
        if (!slots)
            return spvcond_oom(ctx);
        spvcond_dealloc(ctx, t->slots);
        t->slots = slots;
        t->size = size;
        for (uint32_t k = 0; k < index; k++) {
            size_t h = hashes[k] & (size - 1);
            while (slots[h])
                h = (h + 1) & (size - 1);
            slots[h] = k + 1;
        }
    }
    size_t h = hashes[index] & (t->size - 1);
    while (t->slots[h])
        h = (h + 1) & (t->size - 1);
    t->slots[h] = index + 1;
    return SPVCOND_OK;
}

/* Candidates for `hash`: call with *cursor = SIZE_MAX first; returns index + 1, or 0 when exhausted. */
static uint32_t
table_next(const struct index_table *t, uint64_t hash, size_t *cursor)
{
    if (!t->size)
        return 0;
    *cursor = *cursor == SIZE_MAX ? hash & (t->size - 1) : (*cursor + 1) & (t->size - 1);
    return t->slots[*cursor];
}

static spvcond_result
intern_set(struct annotate *a, const uint64_t *leaves, uint32_t *index)
{
    uint64_t hash = hash_words(leaves, a->leaf_words);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = table_next(&a->set_table, hash, &cursor)) != 0;) {
        const struct reqset *s = &a->sets[e - 1];
        if (s->hash == hash && bitset_equal(s->leaves, leaves, a->leaf_words)) {
            *index = e - 1;
            return SPVCOND_OK;
        }
    }
    spvcond_result r = spvcond_grow(a->m->ctx, (void **)&a->sets, &a->set_cap, a->set_count + 1, sizeof(*a->sets));
    if (r == SPVCOND_OK)
        r = spvcond_grow(a->m->ctx, (void **)&a->set_hashes, &a->set_hash_cap, a->set_count + 1, sizeof(uint64_t));
    uint64_t *copy = r == SPVCOND_OK ? spvcond_alloc_array(a->m->ctx, a->leaf_words, sizeof(uint64_t)) : NULL;
    if (!copy)
        return r == SPVCOND_OK ? spvcond_oom(a->m->ctx) : r;
    memcpy(copy, leaves, a->leaf_words * sizeof(uint64_t));
    uint32_t first = UINT32_MAX;
    for (size_t k = 0; k < a->leaf_count && first == UINT32_MAX; k++)
        if (bitset_test(leaves, k))
            first = (uint32_t)k;
    a->sets[a->set_count] = (struct reqset){copy, 0, first, hash};
    a->set_hashes[a->set_count] = hash;
    if ((r = table_insert(a->m->ctx, &a->set_table, a->set_hashes, (uint32_t)a->set_count)) != SPVCOND_OK) {
        spvcond_dealloc(a->m->ctx, copy);
        return r;
    }
    *index = (uint32_t)a->set_count++;
    return SPVCOND_OK;
}

static spvcond_result
build_sets(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    size_t nf = m->function_count, ng = a->global_end - a->global_begin;
    size_t owners = nf + ng + 1, stride = SPVCOND_ASPECT_MAX + 2;
    /* Pass 1: the leaves of every root (at most 128 aspects + 2 sizes), functions then variables. */
    uint32_t *lists = spvcond_alloc_array(m->ctx, owners * stride, sizeof(uint32_t));
    uint32_t *counts = spvcond_alloc_array(m->ctx, owners, sizeof(uint32_t));
    uint8_t *is_owner = spvcond_alloc_array(m->ctx, owners, 1);
    uint64_t *tmp = NULL;
    spvcond_result r = lists && counts && is_owner ? SPVCOND_OK : spvcond_oom(m->ctx);
    for (size_t f = 0; f < nf && r == SPVCOND_OK; f++) {
        if (!a->is_root[f])
            continue;
        size_t n;
        r = collect_leaves(a, f, lists + f * stride, &n);
        counts[f] = (uint32_t)n;
        is_owner[f] = 1;
        a->stats.roots++;
    }
    bool infer = !(a->o->flags & SPVCOND_ANNOTATE_NO_INFERENCE);
    for (size_t g = 0; g < ng && r == SPVCOND_OK; g++) {
        size_t i = a->global_begin + g;
        if (!is_global_item(a, i) || !is_exported_variable(m, i))
            continue;
        spvcond_aspects need = infer ? spvcond_aspects_of_facts(a->inf.type_facts[spvcond_inst_words(m, i)[1]])
                                     : (spvcond_aspects){{0, 0}};
        size_t n = 0, idx;
        for (uint32_t asp = 0; asp < SPVCOND_ASPECT_MAX && r == SPVCOND_OK; asp++) {
            uint32_t v[3] = {asp, 0, 0};
            if (spvcond_aspects_has(&need, asp) && (r = leaf_index(a, LEAF_ASPECT, v, &idx)) == SPVCOND_OK)
                lists[(nf + g) * stride + n++] = (uint32_t)idx;
        }
        counts[nf + g] = (uint32_t)n;
        is_owner[nf + g] = 1;
    }
    /* Pass 2: distinct sets as bitsets over the leaves; the empty set always exists. */
    a->leaf_words = bitset_words(a->leaf_count);
    if (r == SPVCOND_OK && !(tmp = spvcond_alloc_array(m->ctx, a->leaf_words, sizeof(uint64_t))))
        r = spvcond_oom(m->ctx);
    for (size_t k = 0; k < owners && r == SPVCOND_OK; k++) {
        bool empty_pass = k == owners - 1;
        if (!empty_pass && !is_owner[k])
            continue;
        memset(tmp, 0, a->leaf_words * sizeof(uint64_t));
        for (uint32_t x = 0; !empty_pass && x < counts[k]; x++)
            bitset_set(tmp, lists[k * stride + x]);
        uint32_t s;
        if ((r = intern_set(a, tmp, &s)) != SPVCOND_OK)
            break;
        if (empty_pass)
            a->empty_set = s;
        else if (k < nf)
            a->root_set[k] = s + 1;
        else
            a->var_set[k - nf] = s + 1;
    }
    spvcond_dealloc(m->ctx, tmp);
    spvcond_dealloc(m->ctx, lists);
    spvcond_dealloc(m->ctx, counts);
    spvcond_dealloc(m->ctx, is_owner);
    a->set_words = bitset_words(a->set_count);
    return r;
}

/* ---- reach: which requirement sets reach each function ------------------------------------- */

static uint64_t *
reach_of(struct annotate *a, size_t f)
{
    return a->reach + f * a->set_words;
}

static spvcond_result
propagate_reach(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct spvcond_inference *inf = &a->inf;
    a->reach = spvcond_alloc_array(m->ctx, (m->function_count + 1) * a->set_words, sizeof(uint64_t));
    if (!a->reach)
        return spvcond_oom(m->ctx);
    for (size_t f = 0; f < m->function_count; f++)
        if (a->root_set[f])
            bitset_set(reach_of(a, f), a->root_set[f] - 1);
    /* Components callers-first: the reverse of the order they were found in. */
    for (size_t c = inf->scc_count; c-- > 0;) {
        uint64_t *acc = a->scratch;
        memset(acc, 0, a->set_words * sizeof(uint64_t));
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++)
            bitset_or(acc, reach_of(a, inf->scc_members[k]), a->set_words);
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
            uint32_t f = inf->scc_members[k];
            memcpy(reach_of(a, f), acc, a->set_words * sizeof(uint64_t));
            for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
                if (inf->scc_of[a->g.callees[e]] != c)
                    bitset_or(reach_of(a, a->g.callees[e]), acc, a->set_words);
        }
    }
    /* Functions no root reaches are left alone: unconditional. */
    for (size_t f = 0; f < m->function_count; f++)
        if (bitset_empty(reach_of(a, f), a->set_words))
            bitset_set(reach_of(a, f), a->empty_set);
    return SPVCOND_OK;
}

/* ---- condition nodes ------------------------------------------------------------------------ */

static spvcond_result
new_node(struct annotate *a, uint32_t opcode, uint32_t lhs, uint32_t rhs, uint32_t *id)
{
    spvcond_result r = spvcond_edit_new_id(a->m, id);
    if (r != SPVCOND_OK)
        return r;
    a->stats.spec_constants++;
    uint32_t w[6] = {(6u << 16) | 52u, a->bool_type, *id, opcode, lhs, rhs};
    return push_words(a, w, 6);
}

/* The And of each set's leaves (a one-leaf set is its leaf). */
static spvcond_result
emit_leaves_and_sets(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r;
    for (size_t k = 0; k < a->leaf_count; k++) {
        struct leaf *l = &a->leaves[k];
        if ((r = spvcond_edit_new_id(m, &l->id)) != SPVCOND_OK)
            return r;
        /* SpecIds above the base, skipping any the module uses and the reserved one. */
        for (;;) {
            uint32_t candidate = a->next_spec_id++;
            bool taken = candidate == RESERVED_SPEC_ID;
            for (size_t s = 0; s < m->spec_id_count && !taken; s++)
                taken = m->spec_ids[s].spec_id == candidate;
            if (!taken) {
                l->spec_id = candidate;
                break;
            }
        }
        uint32_t c[3] = {(3u << 16) | 48u, a->bool_type, l->id};
        uint32_t d[4] = {(4u << 16) | 71u, l->id, 1 /* SpecId */, l->spec_id};
        char name[96];
        if (l->kind == LEAF_ASPECT) {
            const char *an = spvcond_aspect_name(l->v[0]);
            if (an)
                snprintf(name, sizeof(name), "spvcond.aspect.%s", an);
            else
                snprintf(name, sizeof(name), "spvcond.aspect.%u", l->v[0]);
        } else if (l->kind == LEAF_WORK_GROUP_SIZE) {
            snprintf(name, sizeof(name), "spvcond.reqd_work_group_size.%u.%u.%u", l->v[0], l->v[1], l->v[2]);
        } else {
            snprintf(name, sizeof(name), "spvcond.reqd_sub_group_size.%u", l->v[0]);
        }
        uint32_t nw[2 + 24] = {0, l->id};
        uint32_t sw = spvcond_encode_string(name, nw + 2, 24);
        nw[0] = ((2 + sw) << 16) | 5u;
        if ((r = push_words(a, c, 3)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_ANNOTATION, d, 4)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, nw, 2 + sw)) != SPVCOND_OK)
            return r;
        a->stats.spec_constants++;
        a->stats.requirements++;
    }
    for (size_t s = 0; s < a->set_count; s++) {
        uint32_t acc = 0;
        for (size_t k = 0; k < a->leaf_count; k++) {
            if (!bitset_test(a->sets[s].leaves, k))
                continue;
            if (!acc)
                acc = a->leaves[k].id;
            else if ((r = new_node(a, 167 /* LogicalAnd */, acc, a->leaves[k].id, &acc)) != SPVCOND_OK)
                return r;
        }
        a->sets[s].id = acc;
    }
    return SPVCOND_OK;
}

/* The condition of a reach set: 0 when always true, else the id of the Or of its sets after
 * absorption (a set whose leaves include another present set's leaves adds nothing). */
/* The next set bit at or after i, or SIZE_MAX. */
static size_t
next_bit(const uint64_t *b, size_t words, size_t i)
{
    for (size_t w = i / 64; w < words; w++) {
        uint64_t v = b[w] & (w == i / 64 ? ~UINT64_C(0) << (i % 64) : ~UINT64_C(0));
        if (v)
            return w * 64 + (size_t)__builtin_ctzll(v);
    }
    return SIZE_MAX;
}

static spvcond_result
condition_of(struct annotate *a, const uint64_t *reach, uint32_t *out)
{
    *out = 0;
    size_t sw = a->set_words;
    if (bitset_empty(reach, sw) || bitset_test(reach, a->empty_set))
        return SPVCOND_OK;
    size_t only = next_bit(reach, sw, 0);
    if (next_bit(reach, sw, only + 1) == SIZE_MAX) {
        *out = a->sets[only].id; /* one set: its own And node, no Or needed */
        return SPVCOND_OK;
    }
    uint64_t *key = a->scratch + sw;
    memcpy(key, reach, sw * sizeof(uint64_t));
    for (size_t s = next_bit(reach, sw, 0); s != SIZE_MAX; s = next_bit(reach, sw, s + 1)) {
        for (size_t t = next_bit(key, sw, 0); t != SIZE_MAX; t = next_bit(key, sw, t + 1)) {
            /* Distinct sets are never equal (they are interned), so t absorbs s iff t's leaves are in s. */
            const struct reqset *st = &a->sets[t], *ss = &a->sets[s];
            if (t == s || (st->first != UINT32_MAX && !bitset_test(ss->leaves, st->first)))
                continue;
            if (bitset_subset(st->leaves, ss->leaves, a->leaf_words)) {
                key[s / 64] &= ~(UINT64_C(1) << (s % 64));
                break;
            }
        }
    }
    uint64_t hash = hash_words(key, sw);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = table_next(&a->or_table, hash, &cursor)) != 0;) {
        if (a->or_hashes[e - 1] == hash && bitset_equal(a->ors[e - 1].sets, key, sw)) {
            *out = a->ors[e - 1].id;
            return SPVCOND_OK;
        }
    }
    uint32_t acc = 0;
    spvcond_result r = SPVCOND_OK;
    for (size_t s = next_bit(key, sw, 0); s != SIZE_MAX && r == SPVCOND_OK; s = next_bit(key, sw, s + 1)) {
        if (!acc)
            acc = a->sets[s].id;
        else
            r = new_node(a, 166 /* LogicalOr */, acc, a->sets[s].id, &acc);
    }
    if (r == SPVCOND_OK)
        r = spvcond_grow(a->m->ctx, (void **)&a->ors, &a->or_cap, a->or_count + 1, sizeof(*a->ors));
    if (r == SPVCOND_OK)
        r = spvcond_grow(a->m->ctx, (void **)&a->or_hashes, &a->or_hash_cap, a->or_count + 1, sizeof(uint64_t));
    uint64_t *copy = r == SPVCOND_OK ? spvcond_alloc_array(a->m->ctx, sw, sizeof(uint64_t)) : NULL;
    if (r == SPVCOND_OK && !copy)
        r = spvcond_oom(a->m->ctx);
    if (r != SPVCOND_OK)
        return r;
    memcpy(copy, key, sw * sizeof(uint64_t));
    a->ors[a->or_count] = (struct or_node){copy, acc};
    a->or_hashes[a->or_count] = hash;
    if ((r = table_insert(a->m->ctx, &a->or_table, a->or_hashes, (uint32_t)a->or_count)) != SPVCOND_OK) {
        spvcond_dealloc(a->m->ctx, copy);
        return r;
    }
    a->or_count++;
    *out = acc;
    return SPVCOND_OK;
}

static spvcond_result
decorate(struct annotate *a, uint32_t target, uint32_t cond)
{
    uint32_t d[4] = {(4u << 16) | 71u, target, SPVCOND_DECORATION_CONDITIONAL, cond};
    a->stats.decorations++;
    return spvcond_edit_append_to_section(a->m, SPVCOND_SECTION_ANNOTATION, d, 4);
}

/* ---- module-level items: conditions from their users ---------------------------------------- */

/* Items that may be guarded: OpExtInstImport and the types/constants/variables section. The sections
 * between them (memory model .. annotations) only use items. */
static bool
is_global_item(const struct annotate *a, size_t i)
{
    const struct spvcond_module *m = a->m;
    return (i >= m->section[SPVCOND_SECTION_EXTINST_IMPORT] && i < m->section[SPVCOND_SECTION_EXTINST_IMPORT + 1]) ||
           (i >= m->section[SPVCOND_SECTION_GLOBAL] && i < m->section[SPVCOND_SECTION_FUNCTION]);
}

static uint64_t *
global_cond(struct annotate *a, uint32_t id)
{
    size_t d = spvcond_def(a->m, id);
    if (d == SIZE_MAX || !is_global_item(a, d))
        return NULL;
    return a->global_cond + (d - a->global_begin) * a->set_words;
}

struct user {
    struct annotate *a;
    const uint64_t *cond;
};

static spvcond_result
add_user(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct user *u = user;
    (void)inst;
    (void)word;
    uint64_t *c = global_cond(u->a, id);
    if (c)
        bitset_or(c, u->cond, u->a->set_words);
    return SPVCOND_OK;
}

/* A module-level item that may be guarded. Global debug OpExtInst are left unconditional: they describe
 * other items and the consumer drops them with what they describe. */
static bool
may_carry_condition(const struct spvcond_module *m, size_t i)
{
    uint32_t op = spvcond_inst_opcode(m, i);
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
    return gi && gi->has_result && op != 12 && spvcond_may_carry_condition(op);
}

/* The condition under which instruction i is kept, as a reach set. */
static const uint64_t *
inst_cond(struct annotate *a, size_t i, const uint64_t *always)
{
    struct spvcond_module *m = a->m;
    if (i >= m->section[SPVCOND_SECTION_FUNCTION]) {
        const struct spvcond_function *f = spvcond_function_of_inst(m, i);
        return f ? reach_of(a, (size_t)(f - m->functions)) : always;
    }
    if (is_global_item(a, i)) {
        const uint64_t *c = a->global_cond + (i - a->global_begin) * a->set_words;
        return bitset_empty(c, a->set_words) ? always : c;
    }
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = w[0] & 0xffffu;
    size_t f = SIZE_MAX;
    if (op == 15 || op == 16 || op == 331) /* entry point, execution modes: their function */
        f = spvcond_callgraph_function(&a->g, m, w[op == 15 ? 2 : 1]);
    if (f != SIZE_MAX)
        return reach_of(a, f);
    return always;
}

static spvcond_result
global_conditions(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    a->global_cond = spvcond_alloc_array(m->ctx, (a->global_end - a->global_begin + 1) * a->set_words,
                                         sizeof(uint64_t));
    uint64_t *always = a->scratch + 2 * a->set_words;
    if (!a->global_cond)
        return spvcond_oom(m->ctx);
    memset(always, 0, a->set_words * sizeof(uint64_t));
    bitset_set(always, a->empty_set);
    spvcond_result r = SPVCOND_OK;
    /* Users in functions and at module level (names and decoration targets are not uses). */
    for (size_t i = 0; i < m->inst_count && r == SPVCOND_OK; i++) {
        if (is_global_item(a, i))
            continue;
        uint32_t op = spvcond_inst_opcode(m, i);
        if (op == 5 || op == 6 || op == 74 || op == 75)
            continue;
        struct user u = {a, inst_cond(a, i, always)};
        if (i >= m->section[SPVCOND_SECTION_ANNOTATION] && i < m->section[SPVCOND_SECTION_ANNOTATION + 1]) {
            /* Decoration operands other than the target are used unconditionally. */
            const uint32_t *w = spvcond_inst_words(m, i);
            for (uint32_t k = 3; k < (w[0] >> 16) && op == 332; k++)
                r = add_user(&u, i, k, w[k]);
            continue;
        }
        r = spvcond_walk_ids(m, i, add_user, &u);
    }
    for (size_t i = a->global_begin; i < a->global_end; i++)
        if (a->var_set[i - a->global_begin])
            bitset_set(a->global_cond + (i - a->global_begin) * a->set_words, a->var_set[i - a->global_begin] - 1);
    if (a->bool_type) {
        uint64_t *c = global_cond(a, a->bool_type);
        if (c)
            bitset_or(c, always, a->set_words);
    }
    /* Then module-level items in reverse: users come after what they use. */
    for (size_t i = a->global_end; i-- > a->global_begin && r == SPVCOND_OK;) {
        if (!is_global_item(a, i))
            continue;
        uint64_t *c = a->global_cond + (i - a->global_begin) * a->set_words;
        if (bitset_empty(c, a->set_words) || !may_carry_condition(m, i))
            bitset_or(c, always, a->set_words); /* unused, or cannot be guarded: keep it, and what it uses */
        struct user u = {a, c};
        r = spvcond_walk_ids(m, i, add_user, &u);
    }
    return r;
}

/* ---- capabilities -------------------------------------------------------------------------- */

struct cap_user {
    struct annotate *a;
    const uint64_t *always;
};

static spvcond_result
note_capability(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct cap_user *u = user;
    struct annotate *a = u->a;
    struct spvcond_module *m = a->m;
    const uint64_t *cond = inst_cond(a, inst, u->always);
    for (size_t c = 0; c < count; c++) {
        for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
            const uint32_t *w = spvcond_inst_words(m, i);
            if ((w[0] & 0xffffu) == 17 && w[1] == caps[c]) {
                a->cap_used[i] = 1;
                bitset_or(a->cap_cond + i * a->set_words, cond, a->set_words);
            }
        }
    }
    return SPVCOND_OK;
}

static spvcond_result
conditional_capabilities(struct annotate *a, bool *any)
{
    struct spvcond_module *m = a->m;
    size_t ncap = m->section[SPVCOND_SECTION_CAPABILITY + 1];
    a->cap_cond = spvcond_alloc_array(m->ctx, (ncap + 1) * a->set_words, sizeof(uint64_t));
    a->cap_used = spvcond_alloc_array(m->ctx, ncap + 1, 1);
    if (!a->cap_cond || !a->cap_used)
        return spvcond_oom(m->ctx);
    uint64_t *always = a->scratch + 2 * a->set_words;
    struct cap_user u = {a, always};
    spvcond_result r = SPVCOND_OK;
    for (size_t i = 0; i < m->inst_count && r == SPVCOND_OK; i++)
        r = spvcond_instruction_capabilities(m, i, note_capability, &u);
    for (size_t i = 0; i < ncap && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if ((w[0] & 0xffffu) != 17 || !a->cap_used[i])
            continue; /* a capability we see no user of stays as it is */
        uint32_t cond;
        if ((r = condition_of(a, a->cap_cond + i * a->set_words, &cond)) != SPVCOND_OK || !cond)
            continue;
        uint32_t cc[3] = {(3u << 16) | SPVCOND_OP_CONDITIONAL_CAPABILITY, cond, w[1]};
        r = spvcond_edit_replace(m, i, cc, 3);
        a->stats.conditional_capabilities++;
        *any = true;
    }
    return r;
}

/* ---- the pass ------------------------------------------------------------------------------- */

static spvcond_result
refuse_annotated(struct spvcond_module *m)
{
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = w[0] & 0xffffu;
        bool uses = op == SPVCOND_OP_CONDITIONAL_CAPABILITY || op == SPVCOND_OP_CONDITIONAL_EXTENSION ||
                    op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT ||
                    (op == 17 && (w[1] == SPVCOND_CAP_SPEC_CONDITIONAL || w[1] == SPVCOND_CAP_FUNCTION_VARIANTS)) ||
                    ((op == 71 || op == 332) && w[2] == SPVCOND_DECORATION_CONDITIONAL);
        if (uses)
            return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, 0,
                                     "the module already uses SPV_INTEL_function_variants; annotating it again is "
                                     "refused (specialize it first, or annotate the original)");
    }
    return SPVCOND_OK;
}

static spvcond_result
run(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_context *ctx = m->ctx;
    size_t nf = m->function_count;
    spvcond_result r;
    if ((r = refuse_annotated(m)) != SPVCOND_OK || (r = spvcond_callgraph_build(m, &a->g)) != SPVCOND_OK ||
        (r = spvcond_infer(m, &a->g, !(a->o->flags & SPVCOND_ANNOTATE_NO_INFERENCE), &a->inf)) != SPVCOND_OK)
        return r;
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
    if (!a->var_set)
        return spvcond_oom(ctx);
    if ((r = apply_stated_requirements(a)) != SPVCOND_OK)
        return r;
    spvcond_infer_propagate(m, &a->g, &a->inf);
    if ((r = find_roots(a)) != SPVCOND_OK || (r = build_sets(a)) != SPVCOND_OK)
        return r;
    a->scratch = spvcond_alloc_array(ctx, 3 * a->set_words, sizeof(uint64_t));
    if (!a->scratch)
        return spvcond_oom(ctx);
    if ((r = propagate_reach(a)) != SPVCOND_OK)
        return r;

    /* Nothing conditional at all: leave the module untouched. */
    bool any = false;
    for (size_t f = 0; f < nf && !any; f++)
        any = !bitset_test(reach_of(a, f), a->empty_set);
    for (size_t g = 0; g < a->global_end - a->global_begin && !any; g++)
        any = a->var_set[g] && a->var_set[g] != a->empty_set + 1;
    if (!any)
        return SPVCOND_OK;

    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION] && !a->bool_type; i++)
        if (spvcond_inst_opcode(m, i) == 20)
            a->bool_type = spvcond_inst_words(m, i)[1];
    if (!a->bool_type) {
        if ((r = spvcond_edit_new_id(m, &a->bool_type)) != SPVCOND_OK)
            return r;
        uint32_t t[2] = {(2u << 16) | 20u, a->bool_type};
        if ((r = push_words(a, t, 2)) != SPVCOND_OK)
            return r;
    }
    if ((r = global_conditions(a)) != SPVCOND_OK || (r = emit_leaves_and_sets(a)) != SPVCOND_OK)
        return r;

    /* Functions, and kernels' entry points. */
    for (size_t f = 0; f < nf; f++) {
        uint32_t cond;
        if ((r = condition_of(a, reach_of(a, f), &cond)) != SPVCOND_OK)
            return r;
        if (a->is_root[f] && cond)
            a->stats.conditional_roots++;
        if (!cond)
            continue;
        a->stats.conditional_functions++;
        if ((r = decorate(a, m->functions[f].id, cond)) != SPVCOND_OK)
            return r;
    }
    for (size_t k = 0; k < m->entry_point_count; k++) {
        size_t i = m->entry_points[k];
        const uint32_t *w = spvcond_inst_words(m, i);
        size_t f = spvcond_callgraph_function(&a->g, m, w[2]);
        uint32_t cond, wc = w[0] >> 16;
        if (f == SIZE_MAX || (r = condition_of(a, reach_of(a, f), &cond)) != SPVCOND_OK || !cond) {
            if (r != SPVCOND_OK)
                return r;
            continue;
        }
        uint32_t *cw = spvcond_alloc(ctx, (wc + 1) * sizeof(uint32_t));
        if (!cw)
            return spvcond_oom(ctx);
        cw[0] = ((wc + 1) << 16) | SPVCOND_OP_CONDITIONAL_ENTRY_POINT;
        cw[1] = cond;
        memcpy(cw + 2, w + 1, (wc - 1) * sizeof(uint32_t));
        r = spvcond_edit_replace(m, i, cw, wc + 1);
        spvcond_dealloc(ctx, cw);
        if (r != SPVCOND_OK)
            return r;
        a->stats.conditional_entry_points++;
    }
    /* Types, constants, variables and imports that only conditional code uses. */
    for (size_t i = a->global_begin; i < a->global_end; i++) {
        if (!is_global_item(a, i) || !may_carry_condition(m, i))
            continue;
        uint32_t cond;
        if ((r = condition_of(a, a->global_cond + (i - a->global_begin) * a->set_words, &cond)) != SPVCOND_OK)
            return r;
        if (!cond)
            continue;
        const uint32_t *w = spvcond_inst_words(m, i);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(w[0] & 0xffffu);
        if ((r = decorate(a, w[gi->has_type ? 2 : 1], cond)) != SPVCOND_OK)
            return r;
        a->stats.conditional_globals++;
    }
    bool caps = false;
    if ((r = conditional_capabilities(a, &caps)) != SPVCOND_OK)
        return r;

    /* The extension's declarations, then the condition constants at the end of the constants. */
    uint32_t cap[2] = {(2u << 16) | 17u, SPVCOND_CAP_SPEC_CONDITIONAL};
    uint32_t ext[16];
    uint32_t ext_words = 1 + spvcond_encode_string(SPVCOND_EXTENSION_NAME, ext + 1, 15);
    ext[0] = (ext_words << 16) | 10u;
    if ((r = spvcond_edit_insert(m, 0, cap, 2)) != SPVCOND_OK ||
        (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_EXTENSION, ext, ext_words)) != SPVCOND_OK ||
        (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_GLOBAL, a->defer, (uint32_t)a->defer_len)) != SPVCOND_OK)
        return r;
    return SPVCOND_OK;
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
    spvcond_dealloc(ctx, a->leaves);
    for (size_t s = 0; s < a->set_count; s++)
        spvcond_dealloc(ctx, a->sets[s].leaves);
    spvcond_dealloc(ctx, a->sets);
    spvcond_dealloc(ctx, a->set_table.slots);
    spvcond_dealloc(ctx, a->set_hashes);
    spvcond_dealloc(ctx, a->or_table.slots);
    spvcond_dealloc(ctx, a->or_hashes);
    for (size_t k = 0; k < a->or_count; k++)
        spvcond_dealloc(ctx, a->ors[k].sets);
    spvcond_dealloc(ctx, a->ors);
    spvcond_dealloc(ctx, a->reach);
    spvcond_dealloc(ctx, a->global_cond);
    spvcond_dealloc(ctx, a->var_set);
    spvcond_dealloc(ctx, a->cap_cond);
    spvcond_dealloc(ctx, a->cap_used);
    spvcond_dealloc(ctx, a->scratch);
    spvcond_dealloc(ctx, a->defer);
}

spvcond_result
spvcond_annotate(spvcond_module *m, const spvcond_annotate_options *o, spvcond_annotate_stats *stats)
{
    if (!m || !o || (o->requirement_count && !o->requirements))
        return SPVCOND_ERROR_INVALID_ARGUMENT;
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
    a.next_spec_id = o->spec_id_base ? o->spec_id_base : DEFAULT_SPEC_ID_BASE;
    r = run(&a);
    if (r == SPVCOND_OK && stats)
        *stats = a.stats;
    if (r != SPVCOND_OK)
        spvcond_edit_abandon(m);
    release(&a);
    return r;
}
