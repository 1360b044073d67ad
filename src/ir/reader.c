/* SPDX-License-Identifier: MIT */
/* Reading a module: header checks, the instruction table, layout sections, id definitions and uses,
 * function ranges. Every word is treated as hostile: all reads are bounds-checked before use. */
#include <limits.h>
#include <string.h>

#include "support/bitset.h"
#include "ir/index.h"
#include "ir/module.h"
#include "ir/operands.h"
#include "ir/reader_items.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libspvcond reads literal strings in place and supports little-endian hosts only"
#endif

static uint32_t
bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static struct spvcond_where
header_where(size_t word)
{
    return (struct spvcond_where){word, SPVCOND_NO_POSITION, 0, 0};
}

static spvcond_result
check_header(spvcond_context *ctx, const uint32_t *w, size_t n, uint32_t *bound)
{
    if (n < SPVCOND_HEADER_WORDS)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, header_where(0),
                              "module has %zu word%s, fewer than the 5 of a SPIR-V header", n, n == 1 ? "" : "s");
    if (w[0] != SPVCOND_MAGIC)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, header_where(0),
                              "bad magic number 0x%08x (expected 0x%08x)", w[0], SPVCOND_MAGIC);
    uint32_t v = w[1];
    if ((v & 0xff0000ffu) != 0 || ((v >> 16) & 0xffu) != 1)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, header_where(1),
                              "bad version word 0x%08x (expected 0x0001mm00 for SPIR-V 1.m)", v);
    if (w[3] == 0)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, header_where(3),
                              "id bound is 0; every module defines at least one id");
    if (w[3] > SPVCOND_MAX_BOUND + 1)
        return spvcond_report(ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, header_where(3),
                              "id bound %u exceeds the SPIR-V limit (ids up to 0x%x)", w[3], SPVCOND_MAX_BOUND);
    if (w[4] != 0)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, header_where(4),
                              "reserved schema word is %u (expected 0)", w[4]);
    *bound = w[3];
    return SPVCOND_OK;
}

/* A word count of 0, or one that runs past the end of the module. */
__attribute__((noinline, cold)) static spvcond_result
bad_word_count(struct spvcond_module *m, size_t p, size_t count)
{
    const uint32_t *w = m->words + p;
    uint32_t wc = spvcond_word_count_of(w[0]);
    if (wc == 0)
        return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR,
                              (struct spvcond_where){p, count, spvcond_opcode_of(w[0]), 0},
                              "instruction has word count 0");
    return spvcond_report(m->ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR,
                          (struct spvcond_where){p, count, spvcond_opcode_of(w[0]), 0},
                          "instruction of %u words runs past the end of the module (%zu words left)", wc,
                          m->word_count - p);
}

/* Per-id tables are sized by the header's bound when that is no more than the module's word count
 * (then they are no larger than the module, and the bound is trusted), otherwise by 1 + the largest id
 * anything may define: a known instruction's result, or any word of an instruction we cannot see into
 * below the header's bound (its result, if it has one, is one of them). A 36-byte module claiming 4M
 * ids took 16 MB per table before. Only that case costs a pass of its own. */
static spvcond_result
find_bound(struct spvcond_module *m)
{
    if (m->header_bound <= m->word_count)
        return SPVCOND_OK;
    uint32_t max_id = 0;
    size_t count = 0;
    for (size_t p = SPVCOND_HEADER_WORDS; p < m->word_count; count++) {
        const uint32_t *w = m->words + p;
        uint32_t wc = spvcond_word_count_of(w[0]);
        if (wc == 0 || wc > m->word_count - p)
            return bad_word_count(m, p, count);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(spvcond_opcode_of(w[0]));
        uint32_t at = gi && gi->has_type ? 2 : 1;
        if (gi && gi->has_result && wc > at && w[at] > max_id)
            max_id = w[at];
        for (uint32_t k = 1; !gi && k < wc; k++)
            if (w[k] > max_id && w[k] < m->header_bound)
                max_id = w[k];
        p += wc;
    }
    m->bound = max_id >= m->header_bound ? m->header_bound : max_id + 1;
    return SPVCOND_OK;
}

/* Room for instruction `count` and the sentinel after it in the per-instruction tables (offsets and id
 * uses), which the reader fills as it goes. Out of line: the loop checks the capacity itself. */
static __attribute__((noinline)) spvcond_result
grow_instruction_tables(struct spvcond_module *m, size_t count, size_t *cap)
{
    if (count >= UINT32_MAX - 1)
        return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "module has more than 2^32 instructions");
    size_t id_cap = *cap;
    spvcond_result r = spvcond_grow(m->ctx, (void **)&m->inst, cap, count + 2, sizeof(uint32_t));
    if (r == SPVCOND_OK)
        r = spvcond_grow(m->ctx, (void **)&m->id_words, &id_cap, *cap, sizeof(uint32_t));
    return r;
}

/* Where an opcode may stand in the logical layout: [*lo, *hi] (the generated tables say). Unknown
 * opcodes stay where they are. */
static inline void
section_range(const struct spvcond_grammar_instruction *gi, int current, int *lo, int *hi)
{
    if (!gi || gi->layout == SPVCOND_LAYOUT_ANYWHERE) {
        *lo = *hi = current;
        return;
    }
    *lo = gi->layout >> 4;
    *hi = gi->layout & 15;
}

struct parse_state {
    struct spvcond_module *m;
    size_t inst;
    struct spvcond_index_builder *b;
    uint32_t *forward; /* (id, inst) pairs used before their definition */
    size_t forward_len, forward_cap;
    uint64_t *forward_pointers; /* ids named by OpTypeForwardPointer (a bitset, made on first use) */
    uint64_t *types; /* ids of known type declarations: the quick path's result-type check is one bit, where
                        the definition's opcode was a chain of four dependent loads (a tenth of reading) */
    /* While a function is read, the instructions of the functions before it (and its own OpFunction)
     * are [earlier_code, earlier_code + earlier_count); outside functions the range is empty. A use of
     * an id defined there is another function's local (or a function): one comparison finds it. */
    uint32_t earlier_code, earlier_count;
    struct item_notes items; /* SPVCOND_PARSE_FOR_ANNOTATE */
    int section;       /* the layout section of the instruction being read */
    uint32_t result;   /* the result id of the instruction being read, 0 if none yet */
    uint32_t id_words; /* its id uses so far (spvcond_module.id_words) */
    const uint32_t *words; /* its words */
};

enum id_fault { FAULT_RANGE, FAULT_TWICE, FAULT_SELF, FAULT_OTHER_FUNCTION, FAULT_TYPE_UNDEFINED, FAULT_NOT_TYPE };

/* The report for a failed id check, out of line so the checks stay small. */
__attribute__((noinline, cold)) static spvcond_result
id_fault(struct parse_state *s, uint32_t word, uint16_t kind, uint32_t id, enum id_fault fault)
{
    struct spvcond_module *m = s->m;
    switch (fault) {
    case FAULT_RANGE:
        if (id != 0 && id < m->header_bound) /* above every result id */
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id, "id %%%u is used but never defined", id);
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id,
                                 "%s operand at word %u is %%%u, outside the id range 1..%u",
                                 spvcond_grammar_kinds[kind].name, word, id, m->header_bound - 1);
    case FAULT_TWICE:
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id,
                                 "id %%%u is defined twice (first at instruction %u)", id, m->def[id] - 1);
    case FAULT_SELF:
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id, "%%%u uses itself", id);
    case FAULT_OTHER_FUNCTION:
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id,
                                 "%%%u is local to another function and cannot be used here", id);
    case FAULT_TYPE_UNDEFINED:
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id,
                                 "result type %%%u is used before its definition", id);
    default:
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id,
                                 "result type %%%u is not a type (it is defined by %s)", id,
                                 spvcond_grammar_opcode_name(spvcond_def_opcode(m, id)));
    }
}

/* A use before the definition: allowed for forward pointers, function-pointer constants, non-semantic
 * instructions and within functions; recorded, to be checked once everything is read. */
static spvcond_result
note_forward_use(struct parse_state *s, const uint32_t *words, uint32_t id)
{
    struct spvcond_module *m = s->m;
    /* Types, constants and variables are defined before use; the exceptions are pointers declared by
     * OpTypeForwardPointer, functions named by function-pointer constants, and non-semantic instructions. */
    uint32_t opcode = spvcond_opcode_of(words[0]);
    if (s->section == SPVCOND_SECTION_GLOBAL && !(s->forward_pointers && bitset_test(s->forward_pointers, id)) &&
        opcode != SPVCOND_OP_TYPE_FORWARD_POINTER && opcode != SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL &&
        opcode != SPVCOND_OP_EXT_INST && opcode != SPVCOND_OP_LINE)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, s->inst, id,
                                 "%%%u is used before its definition among types, constants and variables", id);
    if (opcode == SPVCOND_OP_TYPE_FORWARD_POINTER) {
        if (!s->forward_pointers && !(s->forward_pointers = spvcond_alloc_array(m->ctx, bitset_words(m->bound), sizeof(uint64_t))))
            return spvcond_oom(m->ctx);
        bitset_set(s->forward_pointers, id);
    }
    spvcond_result r = spvcond_grow(m->ctx, (void **)&s->forward, &s->forward_cap, s->forward_len + 2, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    s->forward[s->forward_len++] = id;
    s->forward[s->forward_len++] = (uint32_t)s->inst;
    return SPVCOND_OK;
}

static spvcond_result
note_function_id(struct parse_state *s, uint32_t id)
{
    /* The module's bitset of function ids (spvcond_is_function_id), made at the first: asking for a
     * definition's opcode is a cache miss per call. */
    struct spvcond_module *m = s->m;
    if (!m->function_ids && !(m->function_ids = spvcond_alloc_array(m->ctx, bitset_words(m->bound), sizeof(uint64_t))))
        return spvcond_oom(m->ctx);
    bitset_set(m->function_ids, id);
    return SPVCOND_OK;
}

/* At OpFunctionEnd: a forward use in this function whose id the function has defined since is a
 * later block or value of the same function, which is fine; drop it while it is in cache. What stays
 * (calls of later functions, and errors) is checked once everything is read. Checking them all at the
 * end took a quarter of reading a 100 MB module, in cache misses. */
static void
settle_local_forward_uses(struct parse_state *s, size_t from)
{
    size_t kept = from;
    for (size_t n = from; n < s->forward_len; n += 2)
        if (!s->m->def[s->forward[n]]) {
            s->forward[kept++] = s->forward[n];
            s->forward[kept++] = s->forward[n + 1];
        }
    s->forward_len = kept;
}

/* Whether word 1 of an instruction with this opcode is the target the index records it by (names,
 * decorations: spvcond_index_note), so that first_undefined_target finds it undefined, not a forward use. */
static inline bool
names_target(uint32_t opcode)
{
    return opcode == SPVCOND_OP_NAME || opcode == SPVCOND_OP_MEMBER_NAME || opcode == SPVCOND_OP_DECORATE ||
           opcode == SPVCOND_OP_MEMBER_DECORATE || opcode == SPVCOND_OP_DECORATE_ID ||
           opcode == SPVCOND_OP_DECORATE_STRING || opcode == SPVCOND_OP_MEMBER_DECORATE_STRING;
}

/* Check and record one id operand (a definition or a use) of the instruction being read. */
static inline __attribute__((always_inline)) spvcond_result
note_id(struct parse_state *s, const uint32_t *words, uint32_t word, uint8_t operand_class, uint16_t kind)
{
    struct spvcond_module *m = s->m;
    uint32_t id = words[word];
    if (id == 0 || id >= m->bound)
        return id_fault(s, word, kind, id, FAULT_RANGE);
    uint32_t def = m->def[id];
    if (operand_class == SPVCOND_OC_RESULT_ID) {
        if (def)
            return id_fault(s, word, kind, id, FAULT_TWICE);
        m->def[id] = (uint32_t)s->inst + 1;
        s->result = id;
        return SPVCOND_OK;
    }
    s->id_words |= word < 32 ? 1u << word : 1u;
    /* Constants form a DAG: an OpPhi may name itself, a constant may not. */
    if (id == s->result && s->section == SPVCOND_SECTION_GLOBAL)
        return id_fault(s, word, kind, id, FAULT_SELF);
    bool checks_type = operand_class == SPVCOND_OC_RESULT_TYPE && m->opaque_count == 0;
    if (!def && checks_type)
        return id_fault(s, word, kind, id, FAULT_TYPE_UNDEFINED);
    /* Names and decorations precede their targets: first_undefined_target checks those. */
    if (!def && word == 1 && s->section < SPVCOND_SECTION_GLOBAL && names_target(spvcond_opcode_of(words[0])))
        return SPVCOND_OK;
    if (!def)
        return note_forward_use(s, words, id);
    /* Defined before the current function, yet inside the function section: only an earlier
     * function's own local id could be that (OpFunction's id belongs to the module). */
    if (def - 1 - s->earlier_code < s->earlier_count) {
        if (!spvcond_is_function_id(m, id) && spvcond_function_of_inst(m, def - 1))
            return id_fault(s, word, kind, id, FAULT_OTHER_FUNCTION);
        if (s->items.fn) /* a function, or an id defined between functions */
            spvcond_items_foreign_use(&s->items, words, word);
    }
    if (checks_type && !bitset_test(s->types, id)) { /* types precede their uses: known by now, a type */
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(spvcond_def_opcode(m, id));
        if (gi && gi->class_id != SPVCOND_CLASS_Type_Declaration)
            return id_fault(s, word, kind, id, FAULT_NOT_TYPE);
    }
    if (s->items.fn && def - 1 < s->earlier_code) /* module-level */
        spvcond_items_note(m->ctx, &s->items, s->items.seen, s->items.fn, def - 1);
    return SPVCOND_OK;
}

/* The general walker's callback. */
static spvcond_result
note_operand(void *user, const uint32_t *words, const struct spvcond_operand *op)
{
    struct parse_state *s = user;
    if (op->operand_class == SPVCOND_OC_UNKNOWN) {
        s->id_words |= 1u; /* walks must see these words as the walker does */
        if (s->m->opaque_count++ == 0)
            s->m->first_opaque = (uint32_t)s->inst;
        return SPVCOND_OK;
    }
    if (op->operand_class != SPVCOND_OC_ID && op->operand_class != SPVCOND_OC_RESULT_TYPE &&
        op->operand_class != SPVCOND_OC_RESULT_ID)
        return SPVCOND_OK;
    return note_id(s, words, op->word, op->operand_class, op->kind);
}

static inline __attribute__((always_inline)) spvcond_result
note_fast_id(void *user, uint32_t word, uint8_t operand_class)
{
    struct parse_state *s = user;
    return note_id(s, s->words, word, operand_class, SPVCOND_KIND_IdRef);
}

/* Check and record the ids of instruction i: directly for fast-layout instructions, through the
 * general walker otherwise; then keep where its id uses are, so later walks need no grammar. */
static spvcond_result
note_operands(struct parse_state *s, size_t i, const struct spvcond_grammar_instruction *gi)
{
    struct spvcond_fast f = spvcond_fast_shape(s->m, s->words, gi);
    s->id_words = 0;
    spvcond_result r;
    if (f.kind != SPVCOND_FAST_NONE)
        r = spvcond_fast_for_each(f, s->words, note_fast_id, s);
    else
        r = spvcond_walk_operands(s->m, i, note_operand, s);
    s->m->id_words[i] = s->id_words;
    return r;
}

/* What quick_code_inst reads of the module and the parse state, loaded once per run of quick
 * instructions (quick_run): its stores (to def and id_words) could alias every uint32_t field and force
 * reloads. */
struct quick_view {
    uint32_t *def, *id_words;
    const uint64_t *types, *function_ids;
    uint32_t bound, earlier_code, earlier_count;
};

/* What a run that notes items (SPVCOND_PARSE_FOR_ANNOTATE) reads besides, apart: the other runs' view
 * stays as small as it was. */
struct quick_items {
    spvcond_context *ctx;
    struct item_notes *notes;
    uint32_t *seen, fn;
};

/* Past the words an opcode's quick layout surely fits: only an optional mask, whose bits say how many
 * literals follow (as spvcond_grammar_fits_fast reads it), fits. */
static inline bool
quick_mask_fits(struct spvcond_grammar_quick ql, const uint32_t *w, uint32_t wc)
{
    if (!(ql.flags & SPVCOND_QUICK_MASK_TAIL))
        return false;
    struct spvcond_grammar_quick_mask bits = spvcond_grammar_quick_masks[ql.flags >> SPVCOND_QUICK_MASK_SHIFT];
    uint32_t mask = w[ql.min_words];
    return (mask & ~bits.allowed) == 0 && wc - ql.min_words == 1u + spvcond_popcount32(mask & bits.one_word);
}

/* One id use for quick_code_inst, of word k (`fixed`: one of the fixed words, below 32): false to
 * decline the instruction. Among the globals (`global`), a constant naming itself is a fault the
 * general path names; in code, an OpPhi naming its own result finds it undefined yet and records a
 * forward use, which the function's end settles. What is not defined yet is recorded like a forward
 * use in code, by note_forward_use, which refuses it there. With `items`, a module-level id is noted
 * as an item of the function. */
static inline __attribute__((always_inline)) bool
quick_use(const struct quick_view *v, bool global, bool fixed, const struct quick_items *items, const uint32_t *w,
          uint32_t k, uint32_t result, uint32_t *id_words, uint32_t *forward)
{
    uint32_t id = w[k], bit = fixed || k < 32 ? 1u << k : 1u, d;
    if (id - 1u >= v->bound - 1u) /* 0, or past the bound (which is at least 1) */
        return false;
    *id_words |= bit;
    if (global && id == result)
        return false;
    if (!(d = v->def[id])) {
        *forward |= bit;
        return fixed || bit != 1u; /* past word 31 the bits cannot say which word it was */
    }
    d--;
    if (items && d < v->earlier_code) { /* module-level */
        spvcond_items_note(items->ctx, items->notes, items->seen, items->fn, d);
        return true;
    }
    if (d - v->earlier_code >= v->earlier_count)
        return true;
    /* Another function's id (or this function's own): a call's callee may be a function; anything else
     * the general path decides. */
    return k == 3 && spvcond_opcode_of(w[0]) == SPVCOND_OP_FUNCTION_CALL && v->function_ids &&
           bitset_test(v->function_ids, id);
}

/* An OpExtInst's layout as if it were a core instruction's, into *out: its set's quick row (a type, a
 * result, the set and the number, then the set's fast layout from word 5). False when that does not
 * fit: a set we do not carry, an instruction its grammar does not mark SPVCOND_QUICK_CODE (operands the
 * fast layouts do not describe, or more than the masks hold), or a non-semantic set, whose operands the
 * general path reads as ids whatever its grammar says. */
static inline bool
ext_inst_layout(const struct spvcond_module *m, const uint32_t *w, uint32_t wc, struct spvcond_grammar_quick *out)
{
    if (wc < 5)
        return false;
    const struct spvcond_import *imp = spvcond_import_of(m, w[3]);
    if (!imp || imp->non_semantic || !imp->set)
        return false;
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_extinst(imp->set, w[4]);
    if (!gi || !(gi->quick & SPVCOND_QUICK_CODE))
        return false;
    *out = imp->set->quick[gi - imp->set->instructions];
    return true;
}

/* What quick_code_inst made of an instruction. */
enum quick { QUICK_TAKEN, QUICK_DECLINED, QUICK_FAILED };

/* Most of a module is ordinary instructions in functions' blocks with the plainest operand layouts: a
 * type, a result, ids and literals in fixed places, then ids or literals or a memory-access mask. Those
 * are checked here in two steps, every check first, then the records; anything unusual (a failed check,
 * another function's id, an id nothing defined yet that might be a fault) is declined before a record
 * is made, and the general path takes the instruction from the start and names the fault. The caller
 * has found instruction `inst` inside a function's blocks, in a module with nothing opaque, and its
 * opcode one the grammar marks quick. */
static inline __attribute__((always_inline)) enum quick
quick_code_inst(struct parse_state *s, const struct quick_view *v, bool global, const struct quick_items *items,
                uint32_t inst, const uint32_t *w, uint32_t wc, struct spvcond_grammar_quick ql, spvcond_result *r)
{
    if (wc < ql.min_words || (wc - ql.min_words >= ql.fits_below && !quick_mask_fits(ql, w, wc)))
        return QUICK_DECLINED;
    uint32_t ids = ql.ids, id_words = 0, result = 0;
    if (ql.result_word) {
        result = w[ql.result_word];
        if (result - 1u >= v->bound - 1u || v->def[result])
            return QUICK_DECLINED;
    }
    if (ql.flags & SPVCOND_QUICK_TYPE) { /* a type declared already (so module-level) */
        uint32_t t = w[1];
        if (t >= v->bound || !bitset_test(v->types, t))
            return QUICK_DECLINED;
        id_words = 1u << 1;
        if (items)
            spvcond_items_note(items->ctx, items->notes, items->seen, items->fn, v->def[t] - 1);
    }
    /* The id uses: fixed words by the mask, then a tail of ids. */
    uint32_t forward = 0; /* the words (as id_words bits) naming ids nothing defined yet */
    for (; ids; ids &= ids - 1)
        if (!quick_use(v, global, true, items, w, 1u + (uint32_t)__builtin_ctz(ids), result, &id_words, &forward))
            return QUICK_DECLINED;
    if (ql.flags & SPVCOND_QUICK_ID_TAIL)
        for (uint32_t k = ql.min_words; k < wc; k++)
            if (!quick_use(v, global, false, items, w, k, result, &id_words, &forward))
                return QUICK_DECLINED;
    /* Every check passed: the records. */
    v->id_words[inst] = id_words;
    if (result)
        v->def[result] = inst + 1;
    if (forward) { /* rare: a later block, or a later function called */
        s->inst = inst;
        s->words = w;
        s->result = result;
        s->m->inst_count = (size_t)inst + 1; /* diagnostics name the instructions read so far */
        for (; forward; forward &= forward - 1)
            if ((*r = note_forward_use(s, w, w[__builtin_ctz(forward)])) != SPVCOND_OK)
                return QUICK_FAILED;
    }
    return QUICK_TAKEN;
}

/* The quick row of instruction w (wc words) where it stands (`where`), into *ql: false if the quick
 * runs do not take its opcode there. Extended instructions too, by their set's layout, and later
 * blocks' labels: in blocks, neither has a rule of its own. */
static inline __attribute__((always_inline)) bool
quick_row(const struct spvcond_module *m, enum spvcond_quick where, const uint32_t *w, uint32_t wc,
          struct spvcond_grammar_quick *ql)
{
    uint32_t opcode = spvcond_opcode_of(w[0]);
    if (opcode < SPVCOND_GRAMMAR_QUICK_OPCODES && ((*ql = spvcond_grammar_quick[opcode]).where & where))
        return true;
    if (where != SPVCOND_QUICK_CODE)
        return false;
    if (opcode == SPVCOND_OP_EXT_INST)
        return ext_inst_layout(m, w, wc, ql);
    return opcode == SPVCOND_OP_LABEL; /* its row looked up above */
}

/* An opcode's quick row as a constant (grammar_tables.h, SPVCOND_QUICK_ROW_...). */
#define QUICK_ROW(NAME) ((struct spvcond_grammar_quick)SPVCOND_QUICK_ROW_##NAME)

/* Instructions from *p (instruction *i) on, while quick_code_inst takes them, in a loop of its own:
 * inside the reader's one loop its state was spilled around every general-path call. Stops at the end,
 * at a full instruction table, or at the first instruction it does not take (which the general path
 * then reads from the start); *p and *i say where. The caller has found *i inside a function's blocks
 * (`where` SPVCOND_QUICK_CODE) or among the globals (SPVCOND_QUICK_GLOBAL), in a module with nothing
 * opaque: the instructions taken change neither. */
static inline __attribute__((always_inline)) spvcond_result
quick_run(struct parse_state *s, enum spvcond_quick where, bool items, size_t *p, size_t *i, size_t cap)
{
    struct spvcond_module *m = s->m;
    const uint32_t *const words = m->words;
    const size_t word_count = m->word_count;
    uint32_t *const offsets = m->inst;
    const struct quick_view v = {m->def, m->id_words, s->types, m->function_ids, m->bound, s->earlier_code,
                                 s->earlier_count};
    const struct quick_items qi = {m->ctx, &s->items, s->items.seen, s->items.fn};
    size_t at = *p, n = *i;
    /* Each instruction takes a word at least: below `stop`, the tables hold one more and the sentinel. */
    size_t stop = at;
    if (cap > n + 1)
        stop = cap - n - 1 < word_count - at ? at + (cap - n - 1) : word_count;
    spvcond_result r = SPVCOND_OK;
    while (at < stop) {
        const uint32_t *w = words + at;
        uint32_t wc = spvcond_word_count_of(w[0]);
        if (wc - 1u >= word_count - at)
            break; /* 0, or past the end: the general path names the fault */
        uint32_t opcode = spvcond_opcode_of(w[0]);
        offsets[n] = (uint32_t)at;
        /* In code, the commonest opcodes with their rows as constants: no look-up, and the row's tests
         * and the loop over its ids compile away (libclc: 7% fewer instructions to read; more opcodes
         * gained nothing). */
        const struct quick_items *it = items ? &qi : NULL;
        bool global = where == SPVCOND_QUICK_GLOBAL;
        struct spvcond_grammar_quick ql;
        enum quick q;
        switch (where == SPVCOND_QUICK_CODE ? opcode : SPVCOND_OP_NOP) {
        case SPVCOND_OP_LOAD:
            q = quick_code_inst(s, &v, global, it, (uint32_t)n, w, wc, QUICK_ROW(LOAD), &r);
            break;
        case SPVCOND_OP_STORE:
            q = quick_code_inst(s, &v, global, it, (uint32_t)n, w, wc, QUICK_ROW(STORE), &r);
            break;
        case SPVCOND_OP_VARIABLE:
            q = quick_code_inst(s, &v, global, it, (uint32_t)n, w, wc, QUICK_ROW(VARIABLE), &r);
            break;
        default:
            q = quick_row(m, where, w, wc, &ql) ? quick_code_inst(s, &v, global, it, (uint32_t)n, w, wc, ql, &r)
                                                : QUICK_DECLINED;
        }
        if (q != QUICK_TAKEN)
            break;
        if (items)
            spvcond_items_code(m->ctx, &s->items, (uint32_t)n, opcode);
        n++;
        at += wc;
    }
    m->inst_count = r == SPVCOND_OK ? n : n + 1;
    *p = at;
    *i = n;
    return r;
}

/* The runs of code out of line: inlined into the reader's loop, they moved with every change to it
 * (the run noting items made reading 0.8% slower for every stage, the parameters' run 3%). */
static __attribute__((noinline)) spvcond_result
quick_code_run_noting_items(struct parse_state *s, size_t *p, size_t *i, size_t cap)
{
    return quick_run(s, SPVCOND_QUICK_CODE, true, p, i, cap);
}

static __attribute__((noinline)) spvcond_result
quick_code_run(struct parse_state *s, size_t *p, size_t *i, size_t cap)
{
    return quick_run(s, SPVCOND_QUICK_CODE, false, p, i, cap);
}

/* Names and decorations read here without the general walker: OpName and OpMemberName; OpDecorate
 * with one-word parameters (literals, or ids such as an annotated module's ConditionalINTEL
 * conditions), or LinkageAttributes (a library's annotations are mostly these). The target is defined
 * later as a rule, which first_undefined_target checks from the index; an id parameter not defined yet
 * is recorded as a forward use, as the general path does. Other strings and faults go to the general
 * path. */
static inline enum quick
quick_annotation(struct parse_state *s, size_t inst, uint32_t opcode, const uint32_t *w, uint32_t wc,
                 spvcond_result *r)
{
    struct spvcond_module *m = s->m;
    if (wc < 3 || w[1] == 0 || w[1] >= m->bound)
        return QUICK_DECLINED;
    uint32_t params = 0; /* id parameters, as id_words bits */
    if (opcode == SPVCOND_OP_DECORATE) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(SPVCOND_KIND_Decoration, w[2]);
        bool fits = e && (e->fast_params == SPVCOND_PARAMS_NOT_FAST ? spvcond_is_linkage_decoration(w)
                                                                    : wc == 3u + e->fast_params);
        if (!fits)
            return QUICK_DECLINED;
        params = e->fast_params == SPVCOND_PARAMS_NOT_FAST ? 0 : (uint32_t)e->id_params << 3;
        for (uint32_t ids = params; ids; ids &= ids - 1) {
            uint32_t id = w[__builtin_ctz(ids)];
            if (id == 0 || id >= m->bound)
                return QUICK_DECLINED;
        }
    } else {
        /* The string (OpMemberName's follows the member) ends with the instruction. */
        if (!spvcond_string_ends_at(w, opcode == SPVCOND_OP_NAME ? 2 : 3, wc, wc - 1))
            return QUICK_DECLINED;
    }
    m->id_words[inst] = 1u << 1 | params;
    for (; params; params &= params - 1) {
        uint32_t id = w[__builtin_ctz(params)];
        if (m->def[id])
            continue;
        s->inst = inst; /* the use's instruction, and diagnostics name the instructions read so far */
        m->inst_count = inst + 1;
        if ((*r = note_forward_use(s, w, id)) != SPVCOND_OK)
            return QUICK_FAILED;
    }
    return QUICK_TAKEN;
}

/* Names (in their section) or decorations (in theirs) from *p (instruction *i) on, while
 * quick_annotation takes them, in a loop of their own as quick_run reads code; *p and *i say where it
 * stopped. */
static spvcond_result
annotation_run(struct parse_state *s, size_t *p, size_t *i, size_t cap)
{
    struct spvcond_module *m = s->m;
    const uint32_t *const words = m->words;
    const size_t word_count = m->word_count;
    bool names = s->section == SPVCOND_SECTION_DEBUG_NAME;
    size_t at = *p, n = *i;
    spvcond_result r = SPVCOND_OK;
    while (at < word_count && n + 1 < cap) {
        const uint32_t *w = words + at;
        uint32_t wc = spvcond_word_count_of(w[0]), opcode = spvcond_opcode_of(w[0]);
        bool other = names ? opcode != SPVCOND_OP_NAME && opcode != SPVCOND_OP_MEMBER_NAME
                           : opcode != SPVCOND_OP_DECORATE;
        if (wc == 0 || wc > word_count - at || other)
            break;
        m->inst[n] = (uint32_t)at;
        if (quick_annotation(s, n, opcode, w, wc, &r) != QUICK_TAKEN)
            break;
        n++;
        at += wc;
    }
    m->inst_count = r == SPVCOND_OK ? n : n + 1;
    if (r == SPVCOND_OK) /* the index notes the run whole */
        r = spvcond_index_note_run(s->b, *i, n, names);
    *p = at;
    *i = n;
    return r;
}

/* A function's parameters from *p (instruction *i) on, after its OpFunction, while each is plain
 * (a declared type, a new result): they have no rule but that, which track_function checks of what
 * stands before the first block. Stops at anything else, which the general path reads (and names the
 * fault of); *p and *i say where. */
static __attribute__((noinline)) spvcond_result
parameter_run(struct parse_state *s, size_t *p, size_t *i, size_t cap)
{
    struct spvcond_module *m = s->m;
    const uint32_t *const words = m->words;
    const size_t word_count = m->word_count;
    size_t at = *p, n = *i;
    while (at + 3 <= word_count && n + 1 < cap && words[at] == spvcond_first_word(3, SPVCOND_OP_FUNCTION_PARAMETER)) {
        uint32_t t = words[at + 1], result = words[at + 2];
        if (t >= m->bound || !bitset_test(s->types, t) || result == 0 || result >= m->bound || m->def[result])
            break;
        m->inst[n] = (uint32_t)at;
        m->id_words[n] = 1u << 1;
        m->def[result] = (uint32_t)n + 1;
        if (s->items.fn) { /* its type, a module-level item */
            spvcond_items_note(m->ctx, &s->items, s->items.seen, s->items.fn, m->def[t] - 1);
            spvcond_items_code(m->ctx, &s->items, (uint32_t)n, SPVCOND_OP_FUNCTION_PARAMETER);
        }
        n++;
        at += 3;
    }
    m->inst_count = n;
    *p = at;
    *i = n;
    return SPVCOND_OK;
}

/* Function structure: OpFunction, parameters, blocks, OpFunctionEnd; nothing else between functions. */
struct function_state {
    bool inside;
    struct spvcond_function current;
    size_t capacity;
};

/* Debug lines, non-semantic instructions and instructions unknown to us may stand anywhere in a function. */
static bool
may_stand_anywhere(const struct spvcond_module *m, const uint32_t *w, uint32_t opcode)
{
    if (opcode == SPVCOND_OP_LINE || opcode == SPVCOND_OP_NO_LINE || opcode == SPVCOND_OP_FUNCTION_END ||
        !spvcond_grammar_instruction(opcode))
        return true;
    const struct spvcond_import *imp = opcode == SPVCOND_OP_EXT_INST ? spvcond_import_of(m, w[3]) : NULL;
    return imp && imp->non_semantic;
}

/* The function being read ends at instruction i: recorded in m->functions. */
static inline spvcond_result
end_function(struct spvcond_module *m, struct function_state *f, size_t i)
{
    spvcond_result r;
    if (m->function_count >= f->capacity &&
        (r = spvcond_grow(m->ctx, (void **)&m->functions, &f->capacity, m->function_count + 1,
                          sizeof(*m->functions))) != SPVCOND_OK)
        return r;
    f->current.end = (uint32_t)i;
    f->inside = false;
    m->functions[m->function_count++] = f->current;
    return SPVCOND_OK;
}

/* Past a function's OpFunctionEnd: no function's ids are local any more, and the forward uses its code
 * recorded (from `forward_from` on) are settled. */
static inline void
leave_function(struct parse_state *s, size_t forward_from)
{
    s->earlier_count = 0;
    s->items.fn = 0;
    settle_local_forward_uses(s, forward_from);
}

static spvcond_result
track_function(struct spvcond_module *m, struct function_state *f, size_t i, uint32_t opcode)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    if (opcode == SPVCOND_OP_FUNCTION) {
        if (f->inside)
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_LAYOUT, i, w[2],
                                     "OpFunction %%%u starts inside function %%%u, which has no OpFunctionEnd",
                                     w[2], f->current.id);
        /* Its type is an OpTypeFunction (found by fuzzing: a function named as another's type became
         * an unconditional use of it). Types precede functions, so the definition is known. */
        if (m->opaque_count == 0 && spvcond_def_opcode(m, w[4]) != SPVCOND_OP_TYPE_FUNCTION)
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, w[4],
                                     "the type of OpFunction %%%u is %%%u, which is not an OpTypeFunction", w[2], w[4]);
        f->inside = true;
        f->current = (struct spvcond_function){w[2], (uint32_t)i, UINT32_MAX, 0, w[1]};
        return SPVCOND_OK;
    }
    if (!f->inside) {
        /* debug lines and non-semantic extended instructions */
        if (opcode == SPVCOND_OP_LINE || opcode == SPVCOND_OP_NO_LINE || opcode == SPVCOND_OP_EXT_INST)
            return SPVCOND_OK;
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_LAYOUT, i, 0,
                                 "%s outside a function: after the first OpFunction only functions may follow",
                                 spvcond_grammar_opcode_name(opcode)[0] ? spvcond_grammar_opcode_name(opcode)
                                                                         : "unknown instruction");
    }
    /* Parameters, then blocks: passes look for calls in blocks only (found by fuzzing: a call before
     * the first OpLabel escaped the call graph). Debug lines and unknown instructions may stand anywhere. */
    bool before_blocks = f->current.first_block == UINT32_MAX;
    bool misplaced = before_blocks ? opcode != SPVCOND_OP_FUNCTION_PARAMETER && opcode != SPVCOND_OP_LABEL
                                   : opcode == SPVCOND_OP_FUNCTION_PARAMETER;
    if (misplaced && !may_stand_anywhere(m, w, opcode))
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_LAYOUT, i, 0,
                                 before_blocks ? "%s in function %%%u before its first OpLabel: only OpFunctionParameter may stand there"
                                               : "%s in function %%%u after its first OpLabel",
                                 spvcond_grammar_opcode_name(opcode), f->current.id);
    if (opcode == SPVCOND_OP_LABEL && before_blocks)
        f->current.first_block = (uint32_t)i;
    if (opcode == SPVCOND_OP_FUNCTION_END) {
        if (f->current.first_block == UINT32_MAX)
            f->current.first_block = (uint32_t)i;
        spvcond_result r = end_function(m, f, i);
        if (r != SPVCOND_OK)
            return r;
    }
    if (opcode == SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL)
        m->conditional_copy_count++;
    return SPVCOND_OK;
}

/* What the reader's loop keeps about where it is in the function section, for boundary_step. */
struct boundary {
    struct function_state *f;
    size_t *forward_at_function; /* forward uses recorded before the current function */
    bool *in_blocks, *in_parameters;
};

/* The boundaries between functions in the quick path (a module with nothing opaque, read by the quick
 * runs), one instruction at a time: the OpFunctionEnd of a function read in its blocks, an OpFunction
 * outside functions whose operands fit the fast layout, with a declared result type and an
 * OpTypeFunction as its type, and the first OpLabel after the parameters. They are a third of what
 * libclc's reading left to the general path (2,166 functions), which looked each up in the grammar,
 * walked its operands through callbacks and asked track_function and opcode_rules what they are. The
 * records are the general path's, in its order (the items an OpFunction names: its result type, then
 * its type); anything else, or a check that fails, is declined before a record is made, and the general
 * path reads the instruction and names the fault. Instruction `i` stands at w; the caller has recorded
 * its offset and made room for it. */
static inline bool
boundary_step(struct parse_state *s, struct boundary b, size_t i, const uint32_t *w, spvcond_result *r)
{
    struct spvcond_module *m = s->m;
    struct function_state *f = b.f;
    if (w[0] == spvcond_first_word(1, SPVCOND_OP_FUNCTION_END) && f->inside && f->current.first_block != UINT32_MAX) {
        m->id_words[i] = 0;
        if (s->items.fn)
            spvcond_items_code(m->ctx, &s->items, (uint32_t)i, SPVCOND_OP_FUNCTION_END);
        if ((*r = end_function(m, f, i)) != SPVCOND_OK)
            return true;
        *b.in_blocks = *b.in_parameters = false;
        leave_function(s, *b.forward_at_function);
        return true;
    }
    if (w[0] == spvcond_first_word(5, SPVCOND_OP_FUNCTION) && !f->inside) {
        uint32_t type = w[1], result = w[2], fn_type = w[4];
        if (!spvcond_grammar_fits_fast(spvcond_grammar_instruction(SPVCOND_OP_FUNCTION), w, 5) ||
            type >= m->bound || !bitset_test(s->types, type) || result - 1u >= m->bound - 1u || m->def[result] ||
            fn_type - 1u >= m->bound - 1u || !m->def[fn_type] || spvcond_def_opcode(m, fn_type) != SPVCOND_OP_TYPE_FUNCTION)
            return false;
        s->inst = i;
        if ((*r = note_function_id(s, result)) != SPVCOND_OK)
            return true;
        s->earlier_code = m->section[SPVCOND_SECTION_FUNCTION];
        s->earlier_count = (uint32_t)i - s->earlier_code + 1;
        spvcond_items_function(m, &s->items, m->function_count, i);
        m->id_words[i] = 1u << 1 | 1u << 4;
        m->def[result] = (uint32_t)i + 1;
        if (s->items.fn) {
            spvcond_items_note(m->ctx, &s->items, s->items.seen, s->items.fn, m->def[type] - 1);
            spvcond_items_note(m->ctx, &s->items, s->items.seen, s->items.fn, m->def[fn_type] - 1);
            spvcond_items_code(m->ctx, &s->items, (uint32_t)i, SPVCOND_OP_FUNCTION);
        }
        f->inside = true;
        f->current = (struct spvcond_function){result, (uint32_t)i, UINT32_MAX, 0, type};
        *b.forward_at_function = s->forward_len;
        *b.in_parameters = true;
        return true;
    }
    if (w[0] == spvcond_first_word(2, SPVCOND_OP_LABEL) && *b.in_parameters) {
        uint32_t result = w[1];
        if (result - 1u >= m->bound - 1u || m->def[result])
            return false;
        m->id_words[i] = 0;
        m->def[result] = (uint32_t)i + 1;
        f->current.first_block = (uint32_t)i;
        if (s->items.fn)
            spvcond_items_code(m->ctx, &s->items, (uint32_t)i, SPVCOND_OP_LABEL);
        *b.in_parameters = false;
        *b.in_blocks = true;
        return true;
    }
    return false;
}

/* The word of an entry point or execution mode that names its function, 0 for other opcodes. */
static uint32_t
function_word(uint32_t opcode)
{
    switch (opcode) {
    case SPVCOND_OP_ENTRY_POINT: return 2;
    case SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL: return 3;
    case SPVCOND_OP_EXECUTION_MODE: case SPVCOND_OP_EXECUTION_MODE_ID: return 1;
    default: return 0;
    }
}

/* Before types, a function may be named only as the function of an entry point or execution mode, or
 * as the target of a name or decoration: annotate keeps functions by their callers, so any other use
 * would escape its conditions (found by fuzzing: a function in an entry point's interface list). */
static bool
may_name_function(uint32_t opcode, uint32_t word)
{
    if (function_word(opcode))
        return word == function_word(opcode);
    if (names_target(opcode)) /* names, decorations */
        return word == 1;
    switch (opcode) {
    case SPVCOND_OP_GROUP_DECORATE: return word >= 2;                      /* targets */
    case SPVCOND_OP_GROUP_MEMBER_DECORATE: return word >= 2 && word % 2 == 0; /* (target, member) pairs */
    default: return false;
    }
}

static spvcond_result
check_function_named(void *user, size_t inst, uint32_t word, uint32_t id)
{
    const struct spvcond_module *m = user;
    uint32_t op = spvcond_inst_opcode(m, inst);
    if (!spvcond_is_function_id(m, id)) {
        /* A function's own id may only be the target of a name or decoration here (found by fuzzing: an
         * entry point's interface named another function's parameter, which stayed when annotate's
         * condition on that function removed it). */
        size_t d = spvcond_def(m, id);
        if (d != SIZE_MAX && d >= m->section[SPVCOND_SECTION_FUNCTION] && spvcond_function_of_inst(m, d) &&
            !may_name_function(op, word))
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, inst, id,
                                     "%s names %%%u at word %u, which is local to a function (only a name or "
                                     "decoration may name it here)",
                                     spvcond_grammar_opcode_name(op), id, word);
        return SPVCOND_OK;
    }
    if (may_name_function(op, word))
        return SPVCOND_OK;
    return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, inst, id,
                             "%s names function %%%u at word %u, where a function cannot stand (only entry points, "
                             "execution modes, names, decorations and calls name functions)",
                             spvcond_grammar_opcode_name(op), id, word);
}

/* The sections before the types, in one pass once every id is known: entry points and execution modes
 * name functions; group decorations name a decoration group (found by fuzzing: a condition constant
 * named as the group was not a use, so specialize dropped it and left the OpGroupDecorate dangling);
 * and a function is named nowhere else (see may_name_function). */
static spvcond_result
check_names_before_types(struct spvcond_module *m)
{
    spvcond_result r = SPVCOND_OK;
    for (size_t i = 0; r == SPVCOND_OK && i < m->section[SPVCOND_SECTION_GLOBAL]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        /* Names and decorations, most of these sections, name one id at word 1, where a function may
         * stand: nothing to check (may_name_function), and no rule below is theirs. */
        if (m->id_words[i] == 1u << 1 && names_target(op))
            continue;
        /* Nor a decoration whose id parameters (an annotated module's ConditionalINTEL condition, a third
         * of its decorations) are module-level ids and no function, as they nearly always are: the general
         * check below would find the same. */
        if (op == SPVCOND_OP_DECORATE && !(m->id_words[i] & 1u)) {
            bool plain = true;
            for (uint32_t params = m->id_words[i] & ~(1u << 1); params && plain; params &= params - 1) {
                uint32_t id = w[__builtin_ctz(params)]; /* below the bound: the reader checked it */
                plain = !spvcond_is_function_id(m, id) && m->def[id] - 1u < m->section[SPVCOND_SECTION_FUNCTION];
            }
            if (plain)
                continue;
        }
        uint32_t fn_word = function_word(op);
        /* A conditional entry point whose "execution model" is a boolean spec constant's id: spirv-link
         * converted it twice (spec/repair.md), shifting every operand; say so. */
        uint32_t model_def = op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL && w[2] < m->bound
                                 ? spvcond_def_opcode(m, w[2]) : 0;
        bool twice = spvcond_is_spec_constant_opcode(model_def);
        if (fn_word && !spvcond_is_function_id(m, w[fn_word]))
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, w[fn_word], "%%%u is not an OpFunction (it is %s)%s",
                                     w[fn_word], spvcond_grammar_opcode_name(spvcond_def_opcode(m, w[fn_word])),
                                     twice ? "; the entry point's operands are shifted by one: it was made conditional "
                                             "twice, as spirv-link does to a second entry point, and its function and "
                                             "name are lost"
                                           : "");
        if ((op == SPVCOND_OP_GROUP_DECORATE || op == SPVCOND_OP_GROUP_MEMBER_DECORATE) &&
            spvcond_word_count_of(w[0]) >= 2 && spvcond_def_opcode(m, w[1]) != SPVCOND_OP_DECORATION_GROUP)
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, w[1],
                                     "%s names %%%u as its group, which is not an OpDecorationGroup (it is %s)",
                                     spvcond_grammar_opcode_name(op), w[1],
                                     spvcond_grammar_opcode_name(spvcond_def_opcode(m, w[1])));
        if (m->id_words[i] != 1u << 1 || !may_name_function(op, 1)) /* else word 1 alone, where it may */
            r = spvcond_for_each_id(m, i, check_function_named, m);
    }
    return r;
}

/* A known opcode with no rule of its own (most): functions' structure (OpFunction, parameters, labels,
 * calls, the end; track_function) and debug lines, extended instructions, function pointers
 * (opcode_rules) and the extension's conditional copies all have one. One comparison for most
 * opcodes. */
static inline bool
is_ordinary(const struct spvcond_grammar_instruction *gi, uint32_t opcode)
{
    const uint64_t special = 1ull << SPVCOND_OP_LINE | 1ull << SPVCOND_OP_EXT_INST | 1ull << SPVCOND_OP_FUNCTION |
                             1ull << SPVCOND_OP_FUNCTION_PARAMETER | 1ull << SPVCOND_OP_FUNCTION_END |
                             1ull << SPVCOND_OP_FUNCTION_CALL;
    if (opcode < sizeof(special) * CHAR_BIT)
        return gi && !((special >> opcode) & 1);
    return gi && opcode != SPVCOND_OP_LABEL && opcode != SPVCOND_OP_NO_LINE &&
           opcode < SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL;
}

/* The rules of the opcodes that have one besides functions' structure (is_ordinary), once their
 * operands are read. */
static spvcond_result
opcode_rules(struct parse_state *s, const struct function_state *f, uint32_t opcode)
{
    struct spvcond_module *m = s->m;
    const uint32_t *w = s->words;
    size_t i = s->inst;
    if (opcode == SPVCOND_OP_FUNCTION && s->result)
        return note_function_id(s, s->result);
    if (opcode >= SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL && opcode <= SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL &&
        !m->first_extension_inst)
        m->first_extension_inst = (uint32_t)i + 1;
    /* Outside functions only debug information may be an extended instruction (found by fuzzing: an
     * OpenCL.std instruction among the types used a conditional id unconditionally). */
    if (opcode == SPVCOND_OP_EXT_INST && !f->inside && m->opaque_count == 0 && !spvcond_is_debug_info(m, i))
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_LAYOUT, i, 0,
                                 "OpExtInst outside a function must be debug information (a non-semantic or "
                                 "debug-info set)");
    /* A line's file is an OpString, which the debug section defined already (a function there would be
     * a use that annotate's conditions do not see). */
    if (opcode == SPVCOND_OP_LINE && m->opaque_count == 0 && spvcond_def_opcode(m, w[1]) != SPVCOND_OP_STRING)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, w[1], "OpLine's file %%%u is not an OpString", w[1]);
    /* Functions follow every constant: a function-pointer constant naming an id defined already names
     * something else (a later function is checked with the forward uses). */
    if (opcode == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL && spvcond_word_count_of(w[0]) >= 4 &&
        m->def[w[3]] && spvcond_def_opcode(m, w[3]) != SPVCOND_OP_FUNCTION)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, w[3], "%%%u is not an OpFunction (it is %s)", w[3],
                                 spvcond_grammar_opcode_name(spvcond_def_opcode(m, w[3])));
    return SPVCOND_OK;
}

/* The first name or decoration (in module order) whose target nothing defines, or SIZE_MAX: from the
 * index, in target order, so that the definitions are read in id order (a forward use each, checked
 * at the end in module order, took a cache miss per name and decoration). */
static size_t
first_undefined_target(const struct spvcond_module *m)
{
    size_t first = SIZE_MAX;
    const struct spvcond_refs *refs[2] = {&m->names, &m->decorations};
    for (size_t r = 0; r < 2 && m->opaque_count == 0; r++)
        for (size_t k = 0; k < refs[r]->count; k++)
            if (!m->def[refs[r]->target[k]] && refs[r]->inst[k] < first)
                first = refs[r]->inst[k];
    return first;
}

/* Whether instruction `user` names `id` as an OpFunctionCall's callee and nowhere else. */
static bool
only_callee(const struct spvcond_module *m, size_t user, uint32_t id)
{
    const uint32_t *w = spvcond_inst_words(m, user);
    uint32_t wc = spvcond_word_count_of(w[0]);
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_FUNCTION_CALL || wc < 4 || w[3] != id)
        return false;
    for (uint32_t k = 4; k < wc; k++)
        if (w[k] == id)
            return false;
    return true;
}

/* Uses that preceded their definition must be defined somewhere, unless an instruction we cannot
 * see into might define them: names' and decorations' targets from the index, the others as
 * recorded; the first fault in module order is reported. */
static spvcond_result
check_forward_uses(struct spvcond_module *m, struct parse_state *s)
{
    spvcond_result r = SPVCOND_OK;
    size_t cursor = 0, bad_target = first_undefined_target(m);
    for (size_t n = 0; r == SPVCOND_OK && n < s->forward_len; n += 2) {
        uint32_t id = s->forward[n], user = s->forward[n + 1];
        if (user >= bad_target) /* a target (word 1) comes first */
            break;
        if (s->items.on && user >= m->section[SPVCOND_SECTION_FUNCTION] && !only_callee(m, user, id))
            s->items.on = false; /* a later function (or an id between functions) named in code */
        if (spvcond_is_function_id(m, id)) /* a call or function pointer of a later function: fine */
            continue;
        if (!m->def[id] && m->opaque_count == 0) {
            r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, user, id, "id %%%u is used but never defined", id);
        } else if (m->def[id] && m->def[id] - 1 >= m->section[SPVCOND_SECTION_FUNCTION]) {
            /* A forward use of a function-local id (a later block, say) must be in the same function.
             * Users come in module order: a cursor finds their function. */
            while (cursor < m->function_count && m->functions[cursor].end < user)
                cursor++;
            const struct spvcond_function *uf =
                cursor < m->function_count && m->functions[cursor].begin <= user ? &m->functions[cursor] : NULL;
            uint32_t d = m->def[id] - 1;
            /* Types, constants and variables see no function-local id either (found by fuzzing: a
             * function-pointer constant naming a parameter escaped annotate's conditions). */
            bool global_user = user >= m->section[SPVCOND_SECTION_GLOBAL] && user < m->section[SPVCOND_SECTION_FUNCTION];
            if ((global_user || (uf && (d < uf->begin || d > uf->end))) && spvcond_function_of_inst(m, d))
                r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, user, id,
                                      global_user ? "%%%u is local to a function and cannot be used outside it"
                                                  : "%%%u is local to another function and cannot be used here",
                                      id);
        }
        /* A function-pointer constant names a function, nothing else. */
        if (r == SPVCOND_OK && m->def[id] && spvcond_inst_opcode(m, user) == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL)
            r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, user, id, "%%%u is not an OpFunction (it is %s)", id,
                                  spvcond_grammar_opcode_name(spvcond_def_opcode(m, id)));
    }
    if (r == SPVCOND_OK && bad_target != SIZE_MAX) {
        uint32_t id = spvcond_inst_words(m, bad_target)[1];
        r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, bad_target, id, "id %%%u is used but never defined", id);
    }
    return r;
}

/* One pass over the words: the offset table, then each instruction's layout, ids and function
 * structure. (Two passes read a 100 MB module twice from memory.) `cap`: the tables' capacity. */
static spvcond_result
index_instructions(struct spvcond_module *m, struct spvcond_index_builder *b, size_t cap, bool for_annotate)
{
    struct parse_state s = {.m = m, .b = b, .items = {.on = for_annotate}};
    bool quick_path = !m->ctx->reader_general_only;
    struct function_state f = {false, {0, 0, 0, 0, 0}, 0};
    int section = 0;
    size_t forward_at_function = 0; /* forward uses recorded before the current function */
    spvcond_result r = SPVCOND_OK;
    const uint32_t *const words = m->words;
    const size_t word_count = m->word_count;
    if (!(s.types = spvcond_alloc_array(m->ctx, bitset_words(m->bound), sizeof(uint64_t))))
        return spvcond_oom(m->ctx);
    bool in_blocks = false; /* inside a function, past its first OpLabel: where quick_run reads code */
    bool in_parameters = false; /* inside a function, before it: where parameter_run reads */
    const struct boundary boundary = {&f, &forward_at_function, &in_blocks, &in_parameters};
    size_t i = 0;
    for (size_t p = SPVCOND_HEADER_WORDS; p < word_count; i++) {
        /* Runs of instructions the general path need not see: code, names and decorations, constants. */
        bool globals = quick_path && section == SPVCOND_SECTION_GLOBAL && m->opaque_count == 0;
        if (in_blocks || in_parameters || globals ||
            (quick_path && (section == SPVCOND_SECTION_DEBUG_NAME || section == SPVCOND_SECTION_ANNOTATION))) {
            s.section = section;
            r = in_blocks && s.items.fn ? quick_code_run_noting_items(&s, &p, &i, cap)
                : in_blocks             ? quick_code_run(&s, &p, &i, cap)
                : in_parameters         ? parameter_run(&s, &p, &i, cap)
                : globals               ? quick_run(&s, SPVCOND_QUICK_GLOBAL, false, &p, &i, cap)
                          : annotation_run(&s, &p, &i, cap);
            if (r != SPVCOND_OK || p >= word_count)
                break;
        }
        const uint32_t *w = words + p;
        uint32_t wc = spvcond_word_count_of(w[0]);
        if (wc == 0 || wc > word_count - p) {
            r = bad_word_count(m, p, i);
            break;
        }
        if (i + 1 >= cap) {
            size_t grown = cap; /* cap itself stays in a register */
            if ((r = grow_instruction_tables(m, i, &grown)) != SPVCOND_OK)
                break;
            cap = grown;
        }
        m->inst[i] = (uint32_t)p;
        m->inst_count = i + 1; /* diagnostics name the instructions read so far */
        p += wc;
        if (quick_path && section == SPVCOND_SECTION_FUNCTION && m->opaque_count == 0 &&
            boundary_step(&s, boundary, i, w, &r)) {
            if (r != SPVCOND_OK)
                break;
            continue;
        }
        uint32_t opcode = spvcond_opcode_of(w[0]);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(opcode);
        s.inst = i;
        s.words = w;
        s.result = 0;
        int lo, hi;
        section_range(gi, section, &lo, &hi);
        if (section > hi) {
            r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_LAYOUT, i, 0,
                                  "%s is out of the logical layout order: it belongs before the %s already seen",
                                  spvcond_grammar_opcode_name(opcode), spvcond_section_name(section));
            break;
        }
        while (section < lo)
            m->section[++section] = (uint32_t)i;
        s.section = section;
        if (opcode == SPVCOND_OP_FUNCTION && section == SPVCOND_SECTION_FUNCTION && !f.inside) {
            /* This OpFunction starts a function; the range takes it in, so that the quick path leaves a
             * use of the function's own id (which may be a callee only) to the general path. */
            s.earlier_code = m->section[SPVCOND_SECTION_FUNCTION];
            s.earlier_count = (uint32_t)i - s.earlier_code + 1;
            spvcond_items_function(m, &s.items, m->function_count, i);
        }
        if ((r = note_operands(&s, i, gi)) != SPVCOND_OK)
            break;
        if (s.result && gi && gi->class_id == SPVCOND_CLASS_Type_Declaration)
            bitset_set(s.types, s.result);
        bool ordinary = is_ordinary(gi, opcode);
        if (!ordinary && (r = opcode_rules(&s, &f, opcode)) != SPVCOND_OK)
            break;
        /* Inside a function's blocks, track_function has nothing to say about an ordinary instruction. */
        if (section == SPVCOND_SECTION_FUNCTION && (!ordinary || !f.inside || f.current.first_block == UINT32_MAX) &&
            (r = track_function(m, &f, i, opcode)) != SPVCOND_OK)
            break;
        if (s.items.fn && f.inside) /* the function's, read here: OpFunction, parameters, blocks */
            spvcond_items_code(m->ctx, &s.items, (uint32_t)i, opcode);
        bool quick_function = quick_path && f.inside && m->opaque_count == 0;
        in_blocks = quick_function && f.current.first_block != UINT32_MAX;
        in_parameters = quick_function && f.current.first_block == UINT32_MAX;
        if (opcode == SPVCOND_OP_FUNCTION_END)
            leave_function(&s, forward_at_function);
        if (opcode == SPVCOND_OP_FUNCTION)
            forward_at_function = s.forward_len;
        if (section < SPVCOND_SECTION_GLOBAL && /* what the index records precedes types */
            (r = spvcond_index_note(b, i, opcode)) != SPVCOND_OK)
            break;
    }
    if (r == SPVCOND_OK) { /* the sentinel: the end of the last instruction */
        m->inst[i] = (uint32_t)m->word_count;
        m->id_words[i] = 0;
    }
    while (section < SPVCOND_SECTION_COUNT)
        m->section[++section] = (uint32_t)m->inst_count;
    if (r == SPVCOND_OK && f.inside)
        r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_LAYOUT, f.current.begin, f.current.id,
                              "OpFunction %%%u has no OpFunctionEnd", f.current.id);
    if (r == SPVCOND_OK)
        r = spvcond_index_builder_finish(b);
    if (r == SPVCOND_OK)
        r = check_forward_uses(m, &s);
    r = spvcond_items_finish(m, &s.items, r);
    spvcond_dealloc(m->ctx, s.forward);
    spvcond_dealloc(m->ctx, s.forward_pointers);
    spvcond_dealloc(m->ctx, s.types);
    if (r == SPVCOND_OK && m->opaque_count == 0)
        r = check_names_before_types(m);
    return r;
}

static spvcond_result
parse(spvcond_context *ctx, const uint32_t *words, size_t word_count, uint32_t *owned, bool for_annotate,
      spvcond_module **out)
{
    uint32_t bound = 0;
    spvcond_result r = check_header(ctx, words, word_count, &bound);
    if (r != SPVCOND_OK) {
        spvcond_dealloc(ctx, owned);
        return r;
    }
    struct spvcond_module *m = spvcond_alloc_array(ctx, 1, sizeof(*m));
    if (!m) {
        spvcond_dealloc(ctx, owned);
        return spvcond_oom(ctx);
    }
    m->ctx = ctx;
    m->words = words;
    m->word_count = word_count;
    m->owned_words = owned;
    m->version = words[1];
    m->generator = words[2];
    m->header_bound = m->bound = bound;
    m->schema = words[4];
    struct spvcond_index_builder *b = NULL;
    size_t cap = (word_count - SPVCOND_HEADER_WORDS) / 4 + 16; /* instructions; grown if too few */
    if ((r = find_bound(m)) == SPVCOND_OK) {
        m->edits.bound = m->bound;
        m->def = spvcond_alloc_array(ctx, m->bound, sizeof(uint32_t));
        m->inst = spvcond_alloc(ctx, cap * sizeof(uint32_t));    /* written as instructions are read */
        m->id_words = spvcond_alloc(ctx, cap * sizeof(uint32_t)); /* likewise */
        if (!m->def || !m->inst || !m->id_words)
            r = spvcond_oom(ctx);
    }
    if (r == SPVCOND_OK)
        r = spvcond_index_builder_create(m, &b);
    if (r == SPVCOND_OK)
        r = index_instructions(m, b, cap, for_annotate);
    spvcond_index_builder_destroy(b);
    if (r != SPVCOND_OK) {
        spvcond_module_destroy(m);
        return r;
    }
    /* The tables were sized for an instruction every 4 words (about 5 in practice): the rest is free
     * for the passes' tables. A failed shrink keeps the larger block. */
    uint32_t *shrunk = spvcond_realloc(ctx, m->inst, (m->inst_count + 1) * sizeof(uint32_t));
    m->inst = shrunk ? shrunk : m->inst;
    shrunk = spvcond_realloc(ctx, m->id_words, (m->inst_count + 1) * sizeof(uint32_t));
    m->id_words = shrunk ? shrunk : m->id_words;
    *out = m;
    return SPVCOND_OK;
}

spvcond_result
spvcond_module_parse(spvcond_context *ctx, const uint32_t *words, size_t word_count, uint32_t flags,
                     spvcond_module **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out || (!words && word_count))
        return spvcond_invalid(ctx, "spvcond_module_parse", "`out` is NULL, or `words` is NULL with a count");
    *out = NULL;
    const uint32_t known = SPVCOND_PARSE_BORROW | SPVCOND_PARSE_FOR_ANNOTATE;
    if (flags & ~known)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "unknown parse flags 0x%x", flags & ~known);
    bool for_annotate = flags & SPVCOND_PARSE_FOR_ANNOTATE;
    bool swap = word_count > 0 && words[0] == bswap32(SPVCOND_MAGIC);
    if ((flags & SPVCOND_PARSE_BORROW) && !swap)
        return parse(ctx, words, word_count, NULL, for_annotate, out);
    uint32_t *copy = spvcond_alloc_array(ctx, word_count, sizeof(uint32_t));
    if (!copy)
        return spvcond_oom(ctx);
    if (swap) {
        for (size_t i = 0; i < word_count; i++)
            copy[i] = bswap32(words[i]);
    } else if (word_count) {
        memcpy(copy, words, word_count * sizeof(uint32_t));
    }
    spvcond_result r = parse(ctx, copy, word_count, copy, for_annotate, out);
    if (r == SPVCOND_OK)
        (*out)->swapped = swap;
    return r;
}

spvcond_result
spvcond_module_parse_bytes(spvcond_context *ctx, const void *bytes, size_t size, spvcond_module **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out || (!bytes && size))
        return spvcond_invalid(ctx, "spvcond_module_parse_bytes", "`out` is NULL, or `bytes` is NULL with a size");
    *out = NULL;
    if (size % 4 != 0)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "size %zu bytes is not a multiple of 4", size);
    uint32_t *copy = spvcond_alloc_array(ctx, size / 4, sizeof(uint32_t));
    if (!copy)
        return spvcond_oom(ctx);
    if (size)
        memcpy(copy, bytes, size);
    bool swap = size >= 4 && copy[0] == bswap32(SPVCOND_MAGIC);
    if (swap)
        for (size_t i = 0; i < size / 4; i++)
            copy[i] = bswap32(copy[i]);
    spvcond_result r = parse(ctx, copy, size / 4, copy, false, out);
    if (r == SPVCOND_OK)
        (*out)->swapped = swap;
    return r;
}

spvcond_context *
spvcond_module_context(const spvcond_module *m)
{
    return m ? m->ctx : NULL;
}

void
spvcond_module_destroy(spvcond_module *m)
{
    if (!m)
        return;
    spvcond_context *ctx = m->ctx;
    spvcond_edits_release(m);
    spvcond_index_release(m);
    spvcond_dealloc(ctx, m->inst);
    spvcond_dealloc(ctx, m->def);
    spvcond_dealloc(ctx, m->id_words);
    spvcond_dealloc(ctx, m->functions);
    spvcond_dealloc(ctx, m->function_ids);
    spvcond_module_release_items(m);
    spvcond_module_release_reads(m);
    spvcond_dealloc(ctx, m->owned_words);
    spvcond_dealloc(ctx, m);
}
