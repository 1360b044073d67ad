/* SPDX-License-Identifier: MIT */
/* What the reader notes for annotate when asked (SPVCOND_PARSE_FOR_ANNOTATE): the module-level items
 * (OpExtInstImport; types, constants, variables) each function names, each once, in the order first
 * named. It checks every id use already, with the definition in hand; annotate's own walk over every id
 * to find them again took a fifth of annotating libclc. The lists stand only if they say everything that
 * walk would learn from ids: a function named in code other than as a call's callee, or an id defined
 * between functions, makes the reader give them up (infer.c then walks). With them, the instructions of
 * each function (its OpFunction, parameters and blocks) that the walk must read still (calls, atomics,
 * and whatever may need a declared capability: a few percent of code), so that it need not pass over
 * the others, nor read the words of functions' starts, which lie far apart. */
#ifndef SPVCOND_READER_ITEMS_H
#define SPVCOND_READER_ITEMS_H

#include "ir/capabilities.h"
#include "ir/module.h"

/* Opcodes below this (all of core SPIR-V's in code) are looked up in a table of their own. */
#define SPVCOND_ITEMS_OPCODES 512u

struct item_notes {
    bool on;           /* asked for, and not given up */
    bool out_of_memory; /* a list could not grow: the read fails as out of memory */
    uint32_t fn;       /* the function being read + 1; 0 outside functions */
    uint32_t *seen;    /* per instruction before the code: the last function (+ 1) that named it;
                          UINT32_MAX for instructions that are no item, so one comparison decides */
    uint32_t base;     /* the first instruction of the OpExtInstImport section: lists count from it */
    uint32_t *list;    /* the items, function after function */
    size_t len, cap;
    uint32_t *start;   /* per function: where its items begin in list; one more at the end */
    size_t start_cap;
    /* The instructions infer.c's walk reads (spvcond_items_reads), function after function. */
    uint32_t *reads, *reads_start;
    size_t reads_len, reads_cap, reads_start_cap;
    struct spvcond_declared_caps caps; /* as annotate builds them; made at the first OpFunction */
    uint8_t reads_opcode[SPVCOND_ITEMS_OPCODES]; /* spvcond_items_reads of the opcodes below that, once
                                                     the capabilities are known */
};

/* Room for one more item; false when given up or out of memory (noted: spvcond_items_finish fails). */
bool spvcond_items_grow(spvcond_context *ctx, struct item_notes *n);

/* Instruction `at` (before the code) is named by the function being read. */
static inline __attribute__((always_inline)) void
spvcond_items_note(spvcond_context *ctx, struct item_notes *n, uint32_t *seen, uint32_t fn, uint32_t at)
{
    if (seen[at] >= fn) /* this function's already, or no item */
        return;
    seen[at] = fn;
    if (n->len < n->cap || spvcond_items_grow(ctx, n))
        n->list[n->len++] = at - n->base;
}

/* Room for one more instruction to read; false when given up or out of memory. */
bool spvcond_items_grow_reads(spvcond_context *ctx, struct item_notes *n);

/* Whether infer.c's walk must read an instruction of a function's blocks with this opcode: a call, or
 * one that may need a declared capability (code_caps; an atomic, whose 64-bit kind is an aspect, always
 * may, as may extended instructions). */
static inline bool
spvcond_items_reads(struct item_notes *n, uint32_t opcode)
{
    return opcode == SPVCOND_OP_FUNCTION_CALL || spvcond_declared_caps_may(&n->caps, opcode) != 0;
}

/* Instruction `inst` of the current function (from its OpFunction on), of `opcode`: listed if the walk
 * must read it. */
static inline void
spvcond_items_code(spvcond_context *ctx, struct item_notes *n, uint32_t inst, uint32_t opcode)
{
    bool reads = opcode < SPVCOND_ITEMS_OPCODES ? n->reads_opcode[opcode] : spvcond_items_reads(n, opcode);
    if (reads && (n->reads_len < n->reads_cap || spvcond_items_grow_reads(ctx, n)))
        n->reads[n->reads_len++] = inst;
}

/* At the OpFunction starting function `index`, instruction `inst`: the first also sizes the table of
 * what is named (the sections before the code are known by then). */
void spvcond_items_function(struct spvcond_module *m, struct item_notes *n, size_t index, size_t inst);
/* A use, in code, of an id defined in code outside the function being read: unless it is the callee of
 * an OpFunctionCall (infer.c reads those), the lists cannot say it. */
void spvcond_items_foreign_use(struct item_notes *n, const uint32_t *words, uint32_t word);
/* Free the module's lists: annotate once it has read them (the walk, the items' conditions), and
 * spvcond_module_destroy. */
void spvcond_module_release_reads(struct spvcond_module *m);
void spvcond_module_release_items(struct spvcond_module *m);

/* After a module was read (r): the lists to the module if they stand, else freed; `seen` freed.
 * Returns r, or out of memory if a list could not grow. */
spvcond_result spvcond_items_finish(struct spvcond_module *m, struct item_notes *n, spvcond_result r);

#endif
