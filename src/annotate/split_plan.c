/* SPDX-License-Identifier: MIT */
/* The split plan (split_plan.h), taken from annotate's state before it goes: roots, their images and
 * their requirements, in the condition store's words. */
#include <stdlib.h>
#include <string.h>

#include "annotate/state.h"

spvcond_result
spvcond_split_plan_take(struct annotate *a, struct spvcond_split_plan *plan)
{
    struct spvcond_module *m = a->m;
    if (a->guards)
        return spvcond_report(m->ctx, SPVCOND_ERROR_UNSUPPORTED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "split does not take guarded code (spec/guards.md): specialize it per device instead");
    uint8_t *role = spvcond_alloc_array(m->ctx, m->function_count + 1, 1);
    plan->roots = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(*plan->roots));
    if (!role || !plan->roots) {
        spvcond_dealloc(m->ctx, role);
        return spvcond_oom(m->ctx);
    }
    for (size_t k = 0; k < m->entry_point_count; k++) {
        size_t f = spvcond_callgraph_function(&a->g, m, spvcond_inst_words(m, m->entry_points[k])[2]);
        if (f != SIZE_MAX)
            role[f] = ROLE_ROOT;
    }
    /* Exported functions, but not the translator's twin of a kernel (the function its entry-point wrapper
     * calls, exported under the kernel's name): that goes with its kernel. */
    const char **kernels = spvcond_alloc_array(m->ctx, m->entry_point_count + 1, sizeof(char *));
    if (!kernels) {
        spvcond_dealloc(m->ctx, role);
        return spvcond_oom(m->ctx);
    }
    for (size_t k = 0; k < m->entry_point_count; k++)
        kernels[k] = spvcond_inst_string(m, m->entry_points[k], 3);
    qsort(kernels, m->entry_point_count, sizeof(char *), spvcond_compare_strings);
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        size_t f = spvcond_is_export_decoration(w) ? spvcond_callgraph_function(&a->g, m, w[1]) : SIZE_MAX;
        const char *name = f != SIZE_MAX ? spvcond_inst_string(m, i, 3) : NULL;
        if (name && !bsearch(&name, kernels, m->entry_point_count, sizeof(char *), spvcond_compare_strings))
            role[f] = ROLE_ROOT;
    }
    spvcond_dealloc(m->ctx, (void *)kernels);
    for (size_t f = 0; f < m->function_count; f++) {
        if (!a->split_set[f])
            continue;
        spvcond_aspects signature;
        struct split_root *r = &plan->roots[plan->count++];
        const struct condition_store *cs = &a->store;
        uint32_t own = a->root_set[f] - 1, set = a->split_set[f] - 1;
        *r = (struct split_root){(uint32_t)f, set, spvcond_store_leaf_at(cs, spvcond_store_set_leaf(cs, own, 0))->spec_id,
                                 spvcond_virtual_member(a, f, &signature) ? ROLE_ALWAYS : role[f], {{0, 0}}, {0, 0, 0},
                                 0};
        for (uint32_t k = 0; k < spvcond_store_set_size(cs, set); k++) {
            const struct leaf *l = spvcond_store_leaf_at(cs, spvcond_store_set_leaf(cs, set, k));
            if (l->kind == LEAF_ASPECT)
                spvcond_aspects_add(&r->aspects, l->v[0]);
            else if (l->kind == LEAF_WORK_GROUP_SIZE)
                memcpy(r->wg, l->v, sizeof(r->wg));
            else if (l->kind == LEAF_SUB_GROUP_SIZE)
                r->sg = l->v[0];
        }
    }
    spvcond_dealloc(m->ctx, role);
    size_t leaves = spvcond_store_leaf_count(&a->store);
    if (!(plan->aspects = spvcond_alloc_array(m->ctx, leaves + 1, sizeof(*plan->aspects))))
        return spvcond_oom(m->ctx);
    for (size_t k = 0; k < leaves; k++) {
        const struct leaf *l = spvcond_store_leaf_at(&a->store, k);
        if (l->needed && l->kind == LEAF_ASPECT)
            plan->aspects[plan->aspect_count++] = (struct split_aspect){l->spec_id, l->v[0]};
    }
    return SPVCOND_OK;
}


void
spvcond_split_plan_release(spvcond_context *ctx, struct spvcond_split_plan *plan)
{
    spvcond_dealloc(ctx, plan->roots);
    spvcond_dealloc(ctx, plan->aspects);
    plan->roots = NULL;
    plan->aspects = NULL;
}
