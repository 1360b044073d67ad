/* SPDX-License-Identifier: MIT */
/* Splitting a module into device images the way DPC++ does (spec/split.md): kernels and exported
 * functions with the same requirements (used aspects, required work-group size, required sub-group size)
 * share an image, which holds them, what they call and what they use, and nothing of the extension.
 * Annotate in split mode gives every root a spec constant of its own; an image is the annotated module
 * specialized with its roots' constants true and the others' false. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/split_plan.h"
#include "ir/index.h"
#include "registry/aspects.h"
#include "devices/props_text.h"

/* "[SYCL/device requirements]" of an image, as DPC++'s SYCLDeviceRequirements::asMap writes it. */
static spvcond_result
properties(struct props_text *t, const struct split_root *r)
{
    uint8_t buf[4 * SPVCOND_ASPECT_MAX + 24];
    size_t n = 0;
    for (uint32_t a = spvcond_aspects_next(&r->aspects, 0); a < SPVCOND_ASPECT_MAX;
         a = spvcond_aspects_next(&r->aspects, a + 1), n += 4)
        for (int b = 0; b < 4; b++)
            buf[n + (size_t)b] = (uint8_t)(a >> (8 * b));
    spvcond_result res = spvcond_props_put_str(t, "[SYCL/device requirements]\naspects=2|");
    if (res == SPVCOND_OK)
        res = spvcond_props_put_bytes(t, buf, n);
    if (res == SPVCOND_OK && (r->wg[0] | r->wg[1] | r->wg[2])) {
        for (size_t d = 0; d < 3; d++)
            for (int b = 0; b < 8; b++)
                buf[8 * d + (size_t)b] = (uint8_t)((uint64_t)r->wg[d] >> (8 * b));
        if ((res = spvcond_props_put_str(t, "\nreqd_work_group_size_uint64_t=2|")) == SPVCOND_OK &&
            (res = spvcond_props_put_bytes(t, buf, 24)) == SPVCOND_OK)
            res = spvcond_props_put_str(t, "\nwork_group_num_dim=1|3");
    }
    char line[48];
    snprintf(line, sizeof(line), "\nreqd_sub_group_size=1|%u", r->sg);
    if (res == SPVCOND_OK && r->sg)
        res = spvcond_props_put_str(t, line);
    return res == SPVCOND_OK ? spvcond_props_put_str(t, "\n") : res;
}

/* A name for the symbol file, once (a kernel's wrapper and the function it calls share the name). */
static spvcond_result
symbol(struct props_text *t, const char *name, size_t *roots)
{
    size_t n = strlen(name);
    for (const char *p = t->data; p && *p; p = strchr(p, '\n') + 1)
        if (strncmp(p, name, n) == 0 && p[n] == '\n')
            return SPVCOND_OK;
    spvcond_result res = spvcond_props_put(t, name, n);
    ++*roots;
    return res == SPVCOND_OK ? spvcond_props_put_str(t, "\n") : res;
}

/* The names of an image's roots, one a line: entry-point names, then export names. */
static spvcond_result
symbols(const struct spvcond_module *m, const uint8_t *in, struct props_text *t, size_t *roots)
{
    spvcond_result res = SPVCOND_OK;
    *roots = 0;
    for (size_t k = 0; k < m->entry_point_count && res == SPVCOND_OK; k++) {
        size_t i = m->entry_points[k];
        const struct spvcond_function *f = spvcond_function_by_id(m, spvcond_inst_words(m, i)[2]);
        if (f && in[f - m->functions])
            res = symbol(t, spvcond_inst_string(m, i, 3), roots);
    }
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1] &&
                                                            res == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        const struct spvcond_function *f = spvcond_is_export_decoration(w) ? spvcond_function_by_id(m, w[1]) : NULL;
        if (f && in[f - m->functions])
            res = symbol(t, spvcond_inst_string(m, i, 3), roots);
    }
    return res;
}

/* One image: the annotated words specialized with the roots of `group` kept. */
static spvcond_result
image(spvcond_context *ctx, const spvcond_module *original, const uint32_t *annotated, size_t count,
      const struct spvcond_split_plan *p, size_t first, bool per_kernel, size_t index, spvcond_split_fn fn, void *user)
{
    spvcond_spec_value *values = spvcond_alloc_array(ctx, p->count + p->aspect_count + 1, sizeof(*values));
    uint8_t *in = spvcond_alloc_array(ctx, original->function_count + 1, 1);
    struct props_text props = {ctx, NULL, 0, 0}, syms = {ctx, NULL, 0, 0};
    spvcond_module *m = NULL;
    uint32_t *words = NULL;
    size_t n = 0, roots = 0;
    spvcond_result r = values && in ? SPVCOND_OK : spvcond_oom(ctx);
    for (size_t k = 0; k < p->count && r == SPVCOND_OK; k++) {
        const struct split_root *root = &p->roots[k];
        bool member = root->role == ROLE_ROOT && (per_kernel ? k == first : root->set == p->roots[first].set);
        values[k] = (spvcond_spec_value){root->spec_id, member || root->role == ROLE_ALWAYS, false};
        in[root->function] = member;
    }
    for (size_t k = 0; k < p->aspect_count && r == SPVCOND_OK; k++) /* what the image's devices have */
        values[p->count + k] = (spvcond_spec_value){p->aspects[k].spec_id,
                                                    spvcond_aspects_has(&p->roots[first].aspects, p->aspects[k].aspect),
                                                    false};
    if (r == SPVCOND_OK)
        r = symbols(original, in, &syms, &roots);
    if (r == SPVCOND_OK)
        r = properties(&props, &p->roots[first]);
    if (r == SPVCOND_OK)
        r = spvcond_module_parse(ctx, annotated, count, SPVCOND_PARSE_BORROW, &m);
    spvcond_specialize_options o = {sizeof(spvcond_specialize_options), values, p->count + p->aspect_count, NULL, 0};
    if (r == SPVCOND_OK && (r = spvcond_specialize(m, &o, NULL)) == SPVCOND_OK)
        r = spvcond_module_emit(m, &words, &n);
    if (r == SPVCOND_OK) {
        spvcond_split_image img = {sizeof(img), words, n, props.data, syms.data, roots};
        r = fn(user, index, &img);
    }
    spvcond_module_destroy(m);
    spvcond_free(ctx, words);
    spvcond_dealloc(ctx, values);
    spvcond_dealloc(ctx, in);
    spvcond_dealloc(ctx, props.data);
    spvcond_dealloc(ctx, syms.data);
    return r;
}

spvcond_result
spvcond_split(spvcond_context *ctx, const uint32_t *words, size_t word_count, const spvcond_annotate_options *options,
              uint32_t flags, spvcond_split_fn fn, void *user, size_t *image_count)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!words || !fn || (flags & ~SPVCOND_SPLIT_PER_KERNEL))
        return spvcond_invalid(ctx, "spvcond_split", "`words` and `fn` must not be NULL, and flags must be known ones");
    static const spvcond_annotate_options defaults = {.size = sizeof(spvcond_annotate_options)};
    spvcond_module *m = NULL;
    struct spvcond_split_plan plan = {NULL, 0, NULL, 0};
    uint32_t *annotated = NULL;
    size_t count = 0, images = 0;
    spvcond_result r = spvcond_module_parse(ctx, words, word_count, SPVCOND_PARSE_BORROW | SPVCOND_PARSE_FOR_ANNOTATE, &m);
    if (r == SPVCOND_OK)
        r = spvcond_annotate_for_split(m, options ? options : &defaults, &plan);
    if (r == SPVCOND_OK)
        r = spvcond_module_emit(m, &annotated, &count);
    bool per_kernel = flags & SPVCOND_SPLIT_PER_KERNEL;
    /* Images in module order of their first root. */
    for (size_t k = 0; k < plan.count && r == SPVCOND_OK; k++) {
        if (plan.roots[k].role != ROLE_ROOT)
            continue;
        bool seen = false;
        for (size_t j = 0; j < k && !per_kernel && !seen; j++)
            seen = plan.roots[j].role == ROLE_ROOT && plan.roots[j].set == plan.roots[k].set;
        if (!seen)
            r = image(ctx, m, annotated, count, &plan, k, per_kernel, images++, fn, user);
    }
    if (image_count)
        *image_count = images;
    spvcond_free(ctx, annotated);
    spvcond_split_plan_release(ctx, &plan);
    spvcond_module_destroy(m);
    return r;
}
