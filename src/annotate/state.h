/* SPDX-License-Identifier: MIT */
/* The producer's state and its phases. annotate.c coordinates them in order (docs/architecture.md):
 * guards.c (markers and guarded code), roots.c (stated requirements, roots, requirement sets), virtual.c
 * (function pointers and virtual sets), reach.c (what reaches each function), then annotate.c gives
 * every function, item and capability its condition, which condition_emit.c writes. Every phase holds
 * conditions as handles of the condition store (condition_store.h) and emits through the emitter; none
 * reads another's private state (struct guards, struct virtuals). */
#ifndef SPVCOND_ANNOTATE_STATE_H
#define SPVCOND_ANNOTATE_STATE_H

#include "annotate/condition_emit.h"
#include "annotate/condition_store.h"
#include "annotate/split_plan.h"

#include "ir/capabilities.h"
#include "ir/edit.h"
#include "ir/index.h"
#include "support/index_table.h"
#include "analysis/infer.h"
#include "ir/operands.h"

#define DEFAULT_SPEC_ID_BASE 0x10000u

/* What of SPV_INTEL_function_variants the module declares (a guard's input may), read once. */
struct extension_declared {
    size_t first_capability; /* the first OpCapability of the extension's, SIZE_MAX if none */
    bool spec_conditional, function_variants, extension;
};

/* Each field says which phase writes it: "analyse" and "capabilities" are annotate.c's steps (the
 * analysis before the phases, and the capabilities' conditions after them); the others are the files of
 * the phases above. Every phase may read what an earlier one wrote. */
struct annotate {
    struct spvcond_module *m;     /* spvcond_annotate (annotate.c) */
    const spvcond_annotate_options *o; /* spvcond_annotate */
    struct spvcond_callgraph g;   /* analyse (spvcond_infer builds it) */
    struct spvcond_inference inf; /* analyse (spvcond_infer); roots.c adds stated uses to `own`, and
                                     annotate.c propagates again after virtual.c's hidden edges */
    spvcond_annotate_stats stats; /* every phase counts what it makes; the emitter its constants */

    uint8_t *is_root;             /* per function. analyse allocates; roots.c (entry points, exported and
                                     stated functions) and virtual.c (virtual functions' bodies) set it */
    uint32_t *root_set;           /* per function: requirement set index + 1. roots.c (spvcond_roots_sets) */
    spvcond_aspects *declared;    /* per function, with has_declared. roots.c (stated requirements) */
    uint8_t *has_declared;        /* roots.c */
    uint32_t (*wg)[3];            /* per function: required work-group size. roots.c (stated, then
                                     LocalSize execution modes) */
    uint32_t *sg;                 /* per function: required sub-group size. roots.c */

    struct condition_store store;  /* leaves, sets and conditions: every phase adds to it */
    struct condition_emitter emit; /* their constants and decorations: guards.c, virtual.c, annotate.c */

    uint32_t *reach;              /* per function: the condition of the sets that reach it. reach.c */
    uint32_t *global_cond;        /* per module-level item (EXTINST_IMPORT..GLOBAL). annotate.c (the items'
                                     conditions); guards.c sets its guard constants' to "always" */
    uint32_t *var_set;            /* per module-level item: requirement set + 1 of exported variables.
                                     analyse allocates; roots.c (spvcond_roots_sets) */
    size_t global_begin, global_end; /* analyse */
    struct spvcond_declared_caps caps; /* the distinct capabilities declared. analyse */
    uint32_t *cap_cond;           /* per distinct capability: the condition of its users (0: none seen).
                                     capabilities */
    uint64_t caps_always;         /* those whose condition is "always" (spvcond_declared_cap_done bits).
                                     capabilities */
    bool added_bool;              /* annotate made the emitter's bool type (the record says so). annotate.c */
    struct extension_declared ext_declared; /* analyse */
    struct guards *guards;        /* guards.c's state; NULL when the module has no guard. guards.c */
    uint32_t *aspect_constant;    /* with guard spec constants stated: per aspect, the module's constant
                                     that means it (its leaf is that constant), else 0; or NULL. guards.c */
    uint32_t *edge_guard;         /* with guards, per call-graph edge: the Or of its sites' guards, 0 if
                                     some site is unguarded. guards.c; virtual.c adds the edges to a
                                     virtual set's stubs (allocating it when no guard did) */
    struct virtuals *virt;        /* virtual.c's state; NULL when no function pointer or set is
                                     stated. virtual.c */
    const uint32_t *code_cond;    /* per function: the condition its code (items, capabilities) is under:
                                     reach, but for a virtual function's moved body its set's too.
                                     virtual.c */
    uint8_t *narrow_computes;     /* in a shader module with 8- or 16-bit storage: per function, which of
                                     Float16, Int16, Int8 (bits 0-2) its code computes with; else NULL.
                                     shader_requirements.c */
    uint8_t narrow_kinds;         /* those whose values may be storage's alone. shader_requirements.c */
    uint64_t shader_optional;     /* in a shader module, the declared capabilities that are requirements
                                     (spvcond_declared_cap_done bits). shader_requirements.c */
    uint32_t *split_set;          /* per function, the requirement set + 1 of a root whose own condition
                                     is its LEAF_ROOT; NULL when not splitting. spvcond_annotate allocates
                                     it; roots.c sets it; split_plan.c reads it */
};

/* roots.c: stated requirements, roots, leaves and requirement sets, in three steps around the virtual
 * functions' (annotate.c orders them). */
struct root_exports {
    uint32_t *vars; /* exported variables, roots after the functions */
    size_t count, cap;
};
spvcond_result spvcond_roots_stated(struct annotate *a);
spvcond_result spvcond_roots_find(struct annotate *a, struct root_exports *x);
spvcond_result spvcond_roots_sets(struct annotate *a, const struct root_exports *x);
/* guards.c (spec/guards.md): markers, guard values, block guards, guarded calls. */
spvcond_result spvcond_guards_begin(struct annotate *a);
spvcond_result spvcond_guards_analyze(struct annotate *a);
/* What a guarded call's guard implies, per call-graph edge: hidden from the caller's used aspects. */
void spvcond_guards_hide(struct annotate *a, spvcond_aspects *hidden);
/* Module-level constants that are leaves stay unconditional. */
void spvcond_guards_pin(struct annotate *a);
/* Whether function f is a marker declaration (which goes). */
bool spvcond_guards_is_marker(const struct annotate *a, size_t f);
/* Whether there are markers to replace or guarded calls to decorate. */
bool spvcond_guards_rewrite_needed(const struct annotate *a);
spvcond_result spvcond_guards_rewrite(struct annotate *a);
void spvcond_guards_release(struct annotate *a);
/* virtual.c (spec/virtual-functions.md): sets, their requirements, stubs. In order: after the stated
 * requirements; hiding what naming a function requires from propagation; after the roots (kernels get
 * their sets' requirements, members none); before reach (bodies behind their sets' conditions); after
 * reach (code conditions); and the rewrite. */
spvcond_result spvcond_virtual_begin(struct annotate *a);
void spvcond_virtual_hide(const struct annotate *a, spvcond_aspects *hidden);
spvcond_result spvcond_virtual_requirements(struct annotate *a);
/* Whether function f is a virtual function, and what its stub requires (its signature's types). */
bool spvcond_virtual_member(const struct annotate *a, size_t f, spvcond_aspects *signature);
spvcond_result spvcond_virtual_guard_bodies(struct annotate *a);
spvcond_result spvcond_virtual_code_conditions(struct annotate *a);
spvcond_result spvcond_virtual_rewrite(struct annotate *a);
void spvcond_virtual_release(struct annotate *a);
/* shader_requirements.c: in a shader module, each function's own optional capabilities (word 2 of its
 * requirements) and no image aspect; after the analysis, before the guards and roots. */
spvcond_result spvcond_shader_requirements(struct annotate *a);
/* After the capabilities' users: the optional capabilities under the functions that require them; Float16,
 * Int16 and Int8 beside 8- or 16-bit storage under the functions that compute with them. */
spvcond_result spvcond_shader_capabilities(struct annotate *a);
/* reach.c */
spvcond_result spvcond_annotate_reach(struct annotate *a);
/* split_plan.c: what annotate made for splitting, taken before its state goes. */
spvcond_result spvcond_split_plan_take(struct annotate *a, struct spvcond_split_plan *plan);

#endif
