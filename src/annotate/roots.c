/* SPDX-License-Identifier: MIT */
/* The producer, part one: requirements stated by the caller, roots (kernels, exported functions and
 * variables), their leaves and the distinct requirement sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/state.h"
#include "registry/aspects.h"
#include "analysis/function_names.h"

/* ---- naming and requirements from the caller ---------------------------------------------- */

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
apply_one(struct annotate *a, const struct spvcond_function_names *names, const spvcond_function_requirements *q)
{
    if (!q->function)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    size_t f = spvcond_function_names_find(names, q->function);
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
    return SPVCOND_OK;
}

spvcond_result
spvcond_roots_stated(struct annotate *a)
{
    if (!a->o->requirement_count)
        return SPVCOND_OK;
    struct spvcond_function_names names;
    spvcond_result r = spvcond_function_names_build(a->m, &a->g, &names);
    for (size_t k = 0; k < a->o->requirement_count && r == SPVCOND_OK; k++)
        r = apply_one(a, &names, &a->o->requirements[k]);
    spvcond_function_names_release(a->m, &names);
    return r;
}

/* ---- roots and their requirement sets ------------------------------------------------------ */

/* The entry point's execution model and function id, for OpEntryPoint and OpConditionalEntryPointINTEL
 * (false for anything else). */
static bool
entry_point_of(const struct spvcond_module *m, size_t i, uint32_t *model, uint32_t *fn)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
    size_t at = op == SPVCOND_OP_ENTRY_POINT ? 1 : op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL ? 2 : 0;
    if (!at || wc <= at + 1)
        return false;
    *model = w[at];
    *fn = w[at + 1];
    return true;
}

/* *out: per function, 1 when an entry point of execution model Kernel names it; NULL when every entry
 * point is a kernel's (OpenCL's modules: nothing to allocate). */
static spvcond_result
kernel_functions(struct annotate *a, uint8_t **out)
{
    struct spvcond_module *m = a->m;
    size_t first = m->section[SPVCOND_SECTION_ENTRY_POINT], end = m->section[SPVCOND_SECTION_ENTRY_POINT + 1];
    uint32_t model, fn;
    bool shaders = false;
    *out = NULL;
    for (size_t i = first; i < end && !shaders; i++)
        shaders = entry_point_of(m, i, &model, &fn) && model != SPVCOND_EXECUTION_MODEL_KERNEL;
    if (!shaders)
        return SPVCOND_OK;
    uint8_t *kernel = spvcond_alloc_array(m->ctx, m->function_count + 1, 1);
    if (!kernel)
        return spvcond_oom(m->ctx);
    for (size_t i = first; i < end; i++) {
        size_t f = entry_point_of(m, i, &model, &fn) && model == SPVCOND_EXECUTION_MODEL_KERNEL
                       ? spvcond_callgraph_function(&a->g, m, fn) : SIZE_MAX;
        if (f != SIZE_MAX)
            kernel[f] = 1;
    }
    *out = kernel;
    return SPVCOND_OK;
}

/* The exported module-scope variables (instruction indices, in module order), and exported function
 * definitions marked as roots: one pass over the decorations, not a look-up per function and per
 * module-level instruction. */
static spvcond_result
find_exports(struct annotate *a, struct root_exports *x)
{
    struct spvcond_module *m = a->m;
    spvcond_result r = SPVCOND_OK;
    size_t end = m->section[SPVCOND_SECTION_ANNOTATION + 1];
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < end && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (!spvcond_is_export_decoration(w))
            continue;
        size_t f = spvcond_callgraph_function(&a->g, m, w[1]), d = spvcond_def(m, w[1]);
        if (f != SIZE_MAX) {
            a->is_root[f] |= m->functions[f].first_block != m->functions[f].end;
            continue;
        }
        if (d == SIZE_MAX || !spvcond_is_module_item(m, d) || spvcond_inst_opcode(m, d) != SPVCOND_OP_VARIABLE)
            continue;
        if ((r = spvcond_grow(m->ctx, (void **)&x->vars, &x->cap, x->count + 1, sizeof(uint32_t))) == SPVCOND_OK)
            x->vars[x->count++] = (uint32_t)d;
    }
    if (r != SPVCOND_OK)
        return r;
    if (x->count > 1)
        qsort(x->vars, x->count, sizeof(uint32_t), spvcond_compare_u32);
    size_t n = 0;
    for (size_t k = 0; k < x->count; k++) /* a variable exported twice is one root */
        if (n == 0 || x->vars[n - 1] != x->vars[k])
            x->vars[n++] = x->vars[k];
    x->count = n;
    return SPVCOND_OK;
}

spvcond_result
spvcond_roots_find(struct annotate *a, struct root_exports *x)
{
    struct spvcond_module *m = a->m;
    for (size_t k = 0; k < m->entry_point_count; k++) {
        const uint32_t *w = spvcond_inst_words(m, m->entry_points[k]);
        size_t f = spvcond_callgraph_function(&a->g, m, w[2]);
        if (f != SIZE_MAX)
            a->is_root[f] = 1;
    }
    spvcond_result r = find_exports(a, x);
    if (r != SPVCOND_OK)
        return r;
    /* A function no kernel or export reaches is a root of its own: were it unconditional, a conditional
     * callee of it would dangle once stripped. */
    uint32_t *queue = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    uint8_t *reached = spvcond_alloc_array(m->ctx, m->function_count + 1, 1);
    if (!queue || !reached) {
        spvcond_dealloc(m->ctx, queue);
        spvcond_dealloc(m->ctx, reached);
        return spvcond_oom(m->ctx);
    }
    size_t tail = 0;
    for (size_t f = 0; f < m->function_count; f++)
        if (a->is_root[f]) {
            reached[f] = 1;
            queue[tail++] = (uint32_t)f;
        }
    for (size_t head = 0; head < tail; head++)
        for (uint32_t e = a->g.callee_start[queue[head]]; e < a->g.callee_start[queue[head] + 1]; e++)
            if (!reached[a->g.callees[e]]) {
                reached[a->g.callees[e]] = 1;
                queue[tail++] = a->g.callees[e];
            }
    for (size_t f = 0; f < m->function_count; f++)
        if (!reached[f] && m->functions[f].first_block != m->functions[f].end)
            a->is_root[f] = 1;
    spvcond_dealloc(m->ctx, queue);
    spvcond_dealloc(m->ctx, reached);
    /* Required sizes from execution modes of kernels. A compute shader's LocalSize is no requirement: it
     * must have one (Vulkan), and it is the shape of its dispatch, not something a device may lack. */
    uint8_t *kernel;
    r = kernel_functions(a, &kernel);
    for (size_t i = m->section[SPVCOND_SECTION_EXECUTION_MODE];
         r == SPVCOND_OK && i < m->section[SPVCOND_SECTION_EXECUTION_MODE + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t wc = spvcond_word_count_of(w[0]);
        size_t f = spvcond_callgraph_function(&a->g, m, w[1]);
        if (spvcond_opcode_of(w[0]) != SPVCOND_OP_EXECUTION_MODE || f == SIZE_MAX)
            continue;
        if (w[2] == SPVCOND_EXECUTION_MODE_LOCAL_SIZE && wc == 6 && (!w[3] || !w[4] || !w[5]))
            /* found by fuzzing: a size of 0 is no work-group, and DPC++'s property readers refuse it */
            r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, i, w[1],
                                  "LocalSize %u %u %u: a work-group size cannot be 0", w[3], w[4], w[5]);
        else if (kernel && !kernel[f])
            continue;
        else if (w[2] == SPVCOND_EXECUTION_MODE_LOCAL_SIZE && wc == 6 && !(a->wg[f][0] | a->wg[f][1] | a->wg[f][2]))
            memcpy(a->wg[f], w + 3, sizeof(a->wg[f]));
        else if (w[2] == SPVCOND_EXECUTION_MODE_SUBGROUP_SIZE && wc == 4 && !a->sg[f])
            a->sg[f] = w[3];
    }
    spvcond_dealloc(m->ctx, kernel);
    return r;
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
    for (size_t k = len; k-- > 0 && o < size;) {
        char label[SPVCOND_LABEL_SIZE];
        o += (size_t)snprintf(buf + o, size - o, "%s%s", k + 1 == len ? "" : " -> ",
                              spvcond_function_label(m, queue[k], label));
    }
    spvcond_dealloc(m->ctx, parent);
    spvcond_dealloc(m->ctx, queue);
    return SPVCOND_OK;
}

/* The leaves of each root, as lists first (the leaf count is unknown until all are seen). */
static spvcond_result
collect_leaves(struct annotate *a, size_t f, uint32_t *list, size_t *count)
{
    spvcond_aspects need = a->has_declared[f] ? a->declared[f] : a->inf.used[f], signature;
    bool member = spvcond_virtual_member(a, f, &signature);
    if (member) /* called through its set, which requires what it uses */
        need = signature;
    spvcond_result r = SPVCOND_OK;
    size_t n = 0, idx;
    if (a->has_declared[f] && !member) {
        for (uint32_t asp = 0; asp < SPVCOND_ASPECT_MAX; asp++) {
            if (spvcond_aspects_has(&a->inf.used[f], asp) && !spvcond_aspects_has(&a->declared[f], asp)) {
                const char *name = spvcond_aspect_name(asp);
                char path[512], label[SPVCOND_LABEL_SIZE];
                if ((r = call_path(a, f, asp, path, sizeof(path))) != SPVCOND_OK)
                    return r;
                spvcond_warn_inst(a->m, a->m->functions[f].begin, a->m->functions[f].id,
                                  "%s uses aspect %s (%u), which its declared requirements do not list; call path: %s",
                                  spvcond_function_label(a->m, f, label), name ? name : "?", asp, path);
            }
        }
    }
    for (uint32_t asp = spvcond_aspects_next(&need, 0); asp < SPVCOND_ASPECT_MAX && r == SPVCOND_OK;
         asp = spvcond_aspects_next(&need, asp + 1))
        if ((r = spvcond_store_leaf(&a->store, LEAF_ASPECT, (uint32_t[4]){asp, 0, 0, 0}, &idx)) == SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    for (uint64_t caps = need.bits[2]; caps && r == SPVCOND_OK; caps &= caps - 1) {
        uint32_t d = (uint32_t)__builtin_ctzll(caps);
        if ((r = spvcond_store_leaf(&a->store, LEAF_CAPABILITY, (uint32_t[4]){a->caps.values[d], d, 0, 0}, &idx)) ==
            SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    }
    if (r == SPVCOND_OK && (a->wg[f][0] | a->wg[f][1] | a->wg[f][2])) {
        uint32_t v[4] = {a->wg[f][0], a->wg[f][1], a->wg[f][2], 0};
        if ((r = spvcond_store_leaf(&a->store, LEAF_WORK_GROUP_SIZE, v, &idx)) == SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    }
    if (r == SPVCOND_OK && a->sg[f]) {
        uint32_t v[4] = {a->sg[f], 0, 0, 0};
        if ((r = spvcond_store_leaf(&a->store, LEAF_SUB_GROUP_SIZE, v, &idx)) == SPVCOND_OK)
            list[n++] = (uint32_t)idx;
    }
    *count = n;
    return r;
}

/* A root has at most 192 leaves (128 aspects, 62 capabilities, 2 sizes), each once: insertion sort. */
static void
sort_leaves(uint32_t *list, uint32_t n)
{
    for (uint32_t k = 1; k < n; k++) {
        uint32_t v = list[k], j = k;
        for (; j > 0 && list[j - 1] > v; j--)
            list[j] = list[j - 1];
        list[j] = v;
    }
}

/* Exported module-scope variables are roots too: an exported double needs fp64 like a function. */
spvcond_result
spvcond_roots_sets(struct annotate *a, const struct root_exports *x)
{
    struct spvcond_module *m = a->m;
    size_t nf = m->function_count, owners = nf + x->count + 1;
    /* Pass 1: the leaves of every root (at most 128 aspects, 62 capabilities and 2 sizes), functions then
     * variables, packed: owner k's leaves are flat[first[k] .. first[k + 1]) (most functions are not roots). */
    uint32_t scratch[SPVCOND_ASPECT_MAX + 64 + 2];
    uint32_t *flat = NULL, *first = spvcond_alloc_array(m->ctx, owners + 1, sizeof(uint32_t));
    size_t flat_len = 0, flat_cap = 0;
    uint8_t *is_owner = spvcond_alloc_array(m->ctx, owners, 1);
    spvcond_result r = first && is_owner ? SPVCOND_OK : spvcond_oom(m->ctx);
    bool infer = !(a->o->flags & SPVCOND_ANNOTATE_NO_INFERENCE);
    for (size_t k = 0; k + 1 < owners && r == SPVCOND_OK; k++) {
        size_t n = 0;
        first[k] = (uint32_t)flat_len;
        if (k < nf) {
            if (!a->is_root[k])
                continue;
            r = collect_leaves(a, k, scratch, &n);
            a->stats.roots++;
        } else {
            size_t i = x->vars[k - nf], idx;
            spvcond_aspects need = infer ? spvcond_aspects_of_facts(a->inf.type_facts[spvcond_inst_words(m, i)[1]])
                                         : (spvcond_aspects){{0, 0}};
            for (uint32_t asp = spvcond_aspects_next(&need, 0); asp < SPVCOND_ASPECT_MAX && r == SPVCOND_OK;
                 asp = spvcond_aspects_next(&need, asp + 1))
                if ((r = spvcond_store_leaf(&a->store, LEAF_ASPECT, (uint32_t[4]){asp, 0, 0, 0}, &idx)) == SPVCOND_OK)
                    scratch[n++] = (uint32_t)idx;
        }
        is_owner[k] = 1;
        if (r == SPVCOND_OK && n &&
            (r = spvcond_grow(m->ctx, (void **)&flat, &flat_cap, flat_len + n, sizeof(uint32_t))) == SPVCOND_OK) {
            memcpy(flat + flat_len, scratch, n * sizeof(uint32_t));
            flat_len += n;
        }
    }
    if (first)
        first[owners - 1] = first[owners] = (uint32_t)flat_len;
    /* Pass 2: the distinct sets, each a sorted list of leaves; the empty set is set 0. */
    uint32_t s = 0, none[1] = {0};
    if (r == SPVCOND_OK)
        r = spvcond_store_set(&a->store, none, 0, &s);
    /* The last list stored and its set: neighbours often have the same (a library's overloads). */
    const uint32_t *last = none;
    uint32_t last_n = 0, last_set = s;
    for (size_t k = 0; k + 1 < owners && r == SPVCOND_OK; k++) {
        if (!is_owner[k])
            continue;
        uint32_t n = first[k + 1] - first[k], *list = n ? flat + first[k] : none;
        sort_leaves(list, n);
        if (n == last_n && !memcmp(list, last, n * sizeof(uint32_t)))
            s = last_set;
        else if ((r = spvcond_store_set(&a->store, list, n, &s)) != SPVCOND_OK)
            break;
        last = list;
        last_n = n;
        last_set = s;
        if (k < nf && a->split_set) { /* splitting: the root's own leaf stands for its requirements */
            uint32_t v[4] = {(uint32_t)k, 0, 0, 0}, own;
            size_t leaf;
            a->split_set[k] = s + 1;
            if ((r = spvcond_store_leaf(&a->store, LEAF_ROOT, v, &leaf)) != SPVCOND_OK ||
                (r = spvcond_store_set(&a->store, (uint32_t[]){(uint32_t)leaf}, 1, &own)) != SPVCOND_OK)
                break;
            s = own;
        }
        if (k < nf)
            a->root_set[k] = s + 1;
        else if (!a->split_set) /* splitting: exported variables go to every image */
            a->var_set[x->vars[k - nf] - a->global_begin] = s + 1;
    }
    spvcond_dealloc(m->ctx, flat);
    spvcond_dealloc(m->ctx, first);
    spvcond_dealloc(m->ctx, is_owner);
    return r;
}
