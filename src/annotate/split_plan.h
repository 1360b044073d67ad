/* SPDX-License-Identifier: MIT */
/* What annotate hands to split (spec/split.md): annotated in split mode, every root's condition is a
 * constant of its own; the plan says, per root, which requirement set (image) it belongs to and what
 * that set requires, and which requirement constants a condition still uses. */
#ifndef SPVCOND_ANNOTATE_SPLIT_PLAN_H
#define SPVCOND_ANNOTATE_SPLIT_PLAN_H

#include "ir/module.h"
#include "analysis/infer.h"

enum role { ROLE_DROPPED, ROLE_ROOT, ROLE_ALWAYS };

struct split_root {
    uint32_t function;   /* index */
    uint32_t set;        /* its requirement set: the image it goes to */
    uint32_t spec_id;    /* its own constant */
    uint8_t role;        /* dropped (annotate's root for unreached code), root, or kept in every image */
    spvcond_aspects aspects;
    uint32_t wg[3], sg;
};

/* A requirement constant a condition uses (a virtual function set's aspect): true in an image whose
 * requirements have the aspect. */
struct split_aspect {
    uint32_t spec_id, aspect;
};

struct spvcond_split_plan {
    struct split_root *roots;
    size_t count;
    struct split_aspect *aspects;
    size_t aspect_count;
};

/* Annotate m in split mode and hand the plan over (release it with spvcond_split_plan_release). */
spvcond_result spvcond_annotate_for_split(spvcond_module *m, const spvcond_annotate_options *o,
                                          struct spvcond_split_plan *plan);
void spvcond_split_plan_release(spvcond_context *ctx, struct spvcond_split_plan *plan);

#endif
