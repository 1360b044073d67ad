/* SPDX-License-Identifier: MIT */
/* The parsed module: the words, an instruction index, sections, ids and the recorded edits.
 * Nothing here copies operands: every query goes back to the words through a word offset. */
#ifndef SPVCOND_MODULE_H
#define SPVCOND_MODULE_H

#include "support/bitset.h"
#include "support/context.h"
#include "support/grammar.h"
#include "support/spirv_names.h"
#include "support/spirv_words.h"

#define SPVCOND_EXTENSION_NAME "SPV_INTEL_function_variants"
/* The start of annotate's OpModuleProcessed record of what it added (spec/annotate.md). */
#define SPVCOND_ANNOTATE_RECORD "spvcond annotate:"
/* The record of the virtual-function sets a module uses (spec/virtual-functions.md). */
#define SPVCOND_VIRTUAL_SETS_RECORD SPVCOND_ANNOTATE_RECORD " virtual-function sets used: "

/* Whether a capability is one the extension declares (SpecConditionalINTEL, FunctionVariantsINTEL). */
static inline bool
spvcond_is_extension_capability(uint32_t cap)
{
    return cap == SPVCOND_CAPABILITY_SPEC_CONDITIONAL_INTEL || cap == SPVCOND_CAPABILITY_FUNCTION_VARIANTS_INTEL;
}

/* Whether an opcode is one of the six comparisons OpSpecConstantArchitectureINTEL allows (extension.md
 * 2.3: IEqual, INotEqual, UGreaterThan, UGreaterThanEqual, ULessThan, ULessThanEqual). */
static inline bool
spvcond_is_architecture_comparison(uint32_t op)
{
    return op == SPVCOND_OP_I_EQUAL || op == SPVCOND_OP_I_NOT_EQUAL || op == SPVCOND_OP_U_GREATER_THAN ||
           op == SPVCOND_OP_U_GREATER_THAN_EQUAL || op == SPVCOND_OP_U_LESS_THAN || op == SPVCOND_OP_U_LESS_THAN_EQUAL;
}

/* Whether an opcode defines a spec constant: OpSpecConstant{True,False,,Composite,Op} and the extension's
 * OpSpecConstant{Target,Architecture,Capabilities}INTEL. */
static inline bool
spvcond_is_spec_constant_opcode(uint32_t op)
{
    return (op >= SPVCOND_OP_SPEC_CONSTANT_TRUE && op <= SPVCOND_OP_SPEC_CONSTANT_OP) ||
           (op >= SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL && op <= SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL);
}

/* Whether an instruction is a ConditionalINTEL decoration (OpDecorate or OpDecorateId: the reader has
 * checked that a decoration has its target and decoration words). */
static inline bool
spvcond_is_condition_decoration(const uint32_t *w)
{
    uint32_t op = spvcond_opcode_of(w[0]);
    return (op == SPVCOND_OP_DECORATE || op == SPVCOND_OP_DECORATE_ID) && w[2] == SPVCOND_DECORATION_CONDITIONAL_INTEL;
}

struct spvcond_function {
    uint32_t id;
    uint32_t begin;       /* index of OpFunction */
    uint32_t first_block; /* index of the first OpLabel; == end for a declaration */
    uint32_t end;         /* index of OpFunctionEnd */
    uint32_t type;        /* its result type */
};

/* Instructions grouped by the id they target: (target, inst) sorted by target, module order within a
 * target. Sorted pairs rather than per-id rows: most ids have none, and a table of bound entries cost
 * more to clear than the lookups (a binary search) cost. */
struct spvcond_refs {
    uint32_t *target;
    uint32_t *inst;
    size_t count;
};

/* An OpExtInstImport, resolved once: its grammar (NULL when unknown) and whether it is non-semantic. */
struct spvcond_import {
    uint32_t id;
    const struct spvcond_grammar_extinst_set *set;
    bool non_semantic;
    bool debug_info; /* non-semantic, or a DebugInfo set: its instructions may stand outside functions */
};

struct spvcond_spec_id {
    uint32_t spec_id;
    uint32_t id;
};

/* An instruction to insert before instruction `before` (inst_count: at the end). */
struct spvcond_insert {
    uint32_t before;
    uint32_t section; /* layout section the words belong to: orders insertions at one place */
    uint32_t seq;     /* creation order, breaks remaining ties */
    uint32_t words; /* offset into the edit pool */
    uint32_t count;
};

/* What an edit did to an instruction of the module as read. */
enum spvcond_edit_state { SPVCOND_EDIT_KEPT, SPVCOND_EDIT_DELETED, SPVCOND_EDIT_REPLACED };

/* A replaced instruction and where its replacement is: a slot of an open-addressing table (few
 * instructions are replaced; a table per instruction took 4 bytes each, 20% of the module). */
struct spvcond_replacement {
    uint32_t inst_plus_one; /* 0: an empty slot */
    uint32_t record;        /* pool offset of (count, words...) */
};

struct spvcond_edits {
    uint8_t *state; /* per instruction, an spvcond_edit_state; made by the pass's start (so it lies
                       below the pass's temporaries in the heap) or the first edit */
    struct spvcond_replacement *replaced; /* replaced_cap slots, a power of two; NULL until the first */
    size_t replaced_len, replaced_cap;
    uint32_t *pool;        /* words of replacements and insertions */
    size_t pool_len, pool_cap;
    struct spvcond_insert *inserts;
    size_t insert_len, insert_cap;
    uint32_t bound;        /* >= the module's bound once ids are allocated */
    uint32_t restored_bound; /* non-zero: the output's bound (specialize gives back the bound annotate
                                raised, once none of its ids is left) */
    size_t count;          /* number of edits recorded */
    int64_t word_delta;    /* words the output gains over the input: the writer sizes it without a pass */
    bool inserts_unordered; /* some insertion goes before an earlier one's place: the writer sorts */
};

struct spvcond_module {
    spvcond_context *ctx;
    const uint32_t *words;
    size_t word_count;
    uint32_t *owned_words; /* NULL when borrowed */
    bool swapped;
    uint32_t version, generator, schema;
    uint32_t header_bound; /* as the header says; emitted unless new ids go past it */
    uint32_t bound;        /* 1 + the largest id defined: per-id tables have this many entries, so a
                              header claiming 4M ids costs nothing unless the ids exist */

    uint32_t *inst; /* word offset of each instruction */
    uint32_t *id_words; /* per instruction: bit k set when word k is an id use (result type included,
                           result id not), as the reader found them; bit 0 (the opcode word, never an
                           id) set when some id lies past word 31 or words are opaque: walk again */
    size_t inst_count;
    uint32_t section[SPVCOND_SECTION_COUNT + 1]; /* first instruction of each section */

    uint32_t *def; /* per id: defining instruction + 1, 0 if undefined */
    struct spvcond_function *functions;
    size_t function_count;
    uint32_t *entry_points; /* OpEntryPoint and OpConditionalEntryPointINTEL */
    size_t entry_point_count;
    struct spvcond_refs decorations; /* OpDecorate*, OpMemberDecorate*, OpGroup*Decorate by target */
    struct spvcond_refs names;       /* OpName, OpMemberName by target */
    struct spvcond_refs modes;       /* OpExecutionMode(Id) by entry point */
    struct spvcond_import *imports;   /* OpExtInstImport instructions, in module order */
    size_t import_count;
    struct spvcond_spec_id *spec_ids; /* sorted by spec_id, then id */
    size_t spec_id_count;
    size_t conditional_copy_count; /* OpConditionalCopyObjectINTEL: specialize looks for them only if any */
    uint64_t *function_ids; /* a bitset of the OpFunction ids (the reader's); NULL when there is none */
    uint32_t first_extension_inst; /* 1 + the first instruction with an opcode of SPV_INTEL_function_variants,
                                      0 if none */
    size_t opaque_count;  /* instructions the grammar cannot see into */
    uint32_t first_opaque; /* index of the first of them */
    /* Read with SPVCOND_PARSE_FOR_ANNOTATE, when the reader could tell (reader_items.h): function f
     * names the module-level items fn_items[fn_item_start[f] .. fn_item_start[f + 1]), each once, in
     * the order first named, as instruction indices from the OpExtInstImport section. NULL otherwise. */
    uint32_t *fn_item_start, *fn_items;
    /* With them, the instructions of function f's blocks infer.c's walk must read (calls, atomics, what
     * may need a declared capability): fn_reads[fn_read_start[f] .. fn_read_start[f + 1]). */
    uint32_t *fn_read_start, *fn_reads;

    struct spvcond_edits edits;
};

/* ---- instruction access ---- */

static inline const uint32_t *
spvcond_inst_words(const struct spvcond_module *m, size_t i)
{
    return m->words + m->inst[i];
}

static inline uint32_t
spvcond_inst_opcode(const struct spvcond_module *m, size_t i)
{
    return spvcond_opcode_of(m->words[m->inst[i]]);
}

static inline uint32_t
spvcond_inst_word_count(const struct spvcond_module *m, size_t i)
{
    return spvcond_word_count_of(m->words[m->inst[i]]);
}

/* Asks for the words of the instruction 64 places after i. A pass that does little per instruction
 * otherwise waits on memory at each one: the hardware prefetcher does not follow reads through the
 * offset table (checking uses when specializing the 100 MB synthetic module: 47 ms, 25 with this). */
static inline void
spvcond_prefetch_ahead(const struct spvcond_module *m, size_t i)
{
    if (i + 64 < m->inst_count)
        __builtin_prefetch(m->words + m->inst[i + 64]);
}

/* Whether instruction i is a module-level item, which annotate may guard and its code walk notes
 * (infer.c): OpExtInstImport, or a type, constant or variable (spvcond_item_runs: the same as two runs).
 * The sections between them (memory model .. annotations) only use items. */
static inline bool
spvcond_is_module_item(const struct spvcond_module *m, size_t i)
{
    /* One test leaves out function code, where most ids asked about are defined. */
    size_t begin = m->section[SPVCOND_SECTION_EXTINST_IMPORT];
    if (i - begin >= m->section[SPVCOND_SECTION_FUNCTION] - begin)
        return false;
    return i < m->section[SPVCOND_SECTION_EXTINST_IMPORT + 1] || i >= m->section[SPVCOND_SECTION_GLOBAL];
}

/* Whether instruction i stands among the annotations (decorations and their groups). */
static inline bool
spvcond_is_annotation(const struct spvcond_module *m, size_t i)
{
    size_t begin = m->section[SPVCOND_SECTION_ANNOTATION];
    return i - begin < m->section[SPVCOND_SECTION_ANNOTATION + 1] - begin;
}

/* Whether instruction i is an annotation that names no id past its target (word 1), which is no use:
 * a pass over uses need not read its words. Most decorations; an OpDecorateId's further operands are
 * uses, and the reader's id words say which have any. */
static inline bool
spvcond_annotation_uses_nothing(const struct spvcond_module *m, size_t i)
{
    return spvcond_is_annotation(m, i) && !(m->id_words[i] & ~(1u << 1));
}

/* The module-level items as runs of instructions, [runs[k][0], runs[k][1]): OpExtInstImport's section,
 * then the globals' (the instructions spvcond_is_module_item says are items). */
static inline void
spvcond_item_runs(const struct spvcond_module *m, size_t runs[2][2])
{
    runs[0][0] = m->section[SPVCOND_SECTION_EXTINST_IMPORT];
    runs[0][1] = m->section[SPVCOND_SECTION_EXTINST_IMPORT + 1];
    runs[1][0] = m->section[SPVCOND_SECTION_GLOBAL];
    runs[1][1] = m->section[SPVCOND_SECTION_FUNCTION];
}

/* The id an instruction with words w defines, 0 if none; `gi`: its opcode's grammar row (NULL if the
 * grammar does not know it: 0). */
static inline uint32_t
spvcond_result_id_row(const struct spvcond_grammar_instruction *gi, const uint32_t *w)
{
    return gi && gi->has_result ? w[gi->has_type ? 2 : 1] : 0;
}

/* The id instruction i defines, 0 if none (or if the grammar does not know its opcode). */
static inline uint32_t
spvcond_result_id(const struct spvcond_module *m, size_t i)
{
    return spvcond_result_id_row(spvcond_grammar_instruction(spvcond_inst_opcode(m, i)), spvcond_inst_words(m, i));
}

/* Whether `id` is an OpFunction's: one bit, where its definition's opcode is a cache miss. */
static inline bool
spvcond_is_function_id(const struct spvcond_module *m, uint32_t id)
{
    return m->function_ids && id < m->bound && bitset_test(m->function_ids, id);
}

/* Instruction defining `id`, or SIZE_MAX. */
static inline size_t
spvcond_def(const struct spvcond_module *m, uint32_t id)
{
    return id < m->bound && m->def[id] ? m->def[id] - 1 : SIZE_MAX;
}

static inline uint32_t
spvcond_def_opcode(const struct spvcond_module *m, uint32_t id)
{
    size_t d = spvcond_def(m, id);
    return d == SIZE_MAX ? 0 : spvcond_inst_opcode(m, d);
}

struct spvcond_where spvcond_where_inst(const struct spvcond_module *m, size_t inst, uint32_t id);
spvcond_result spvcond_fail_inst(const struct spvcond_module *m, spvcond_result code, size_t inst, uint32_t id,
                                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void spvcond_warn_inst(const struct spvcond_module *m, size_t inst, uint32_t id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Range [*begin, *end) of positions in refs->inst for `id`. */
static inline void
spvcond_refs_range(const struct spvcond_refs *r, uint32_t id, uint32_t *begin, uint32_t *end)
{
    size_t lo = 0, hi = r->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->target[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    *begin = (uint32_t)lo;
    while (lo < r->count && r->target[lo] == id)
        lo++;
    *end = (uint32_t)lo;
}

/* Literal string operand at word `word` of instruction `i` (terminated: the reader checked). */
static inline const char *
spvcond_inst_string(const struct spvcond_module *m, size_t i, uint32_t word)
{
    return (const char *)(m->words + m->inst[i] + word);
}

/* Words taken by the literal string at word `word` of instruction `i`. */
uint32_t spvcond_string_words(const struct spvcond_module *m, size_t i, uint32_t word);

/* The function containing instruction `i`, or NULL. */
const struct spvcond_function *spvcond_function_of_inst(const struct spvcond_module *m, size_t i);
const struct spvcond_function *spvcond_function_by_id(const struct spvcond_module *m, uint32_t id);

/* First SpecId decorating `id`; false if none. */
bool spvcond_spec_id_of(const struct spvcond_module *m, uint32_t id, uint32_t *spec_id);

/* Width in bits of a scalar OpTypeInt/OpTypeFloat/OpTypeBool (1) id; 0 if not one. */
uint32_t spvcond_scalar_width(const struct spvcond_module *m, uint32_t type_id);

#endif
