/* SPDX-License-Identifier: MIT */
/* Grammar tables generated from the SPIR-V JSON grammars (tools/gen_grammar.py) and their lookups. */
#ifndef SPVCOND_GRAMMAR_H
#define SPVCOND_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/grammar_tables.h"

/* A grammar's SPIR-V version 0xMMmm: "None" (a version's: only through capabilities or extensions; a
 * last version's: none). */
#define SPVCOND_VERSION_NONE 0xFFFFu

/* A module's version word (0x00MMmm00) as the grammar's 0xMMmm. */
static inline uint16_t
spvcond_version_of(uint32_t version_word)
{
    return (uint16_t)(version_word >> 8);
}

/* How an operand kind is encoded in words. */
enum spvcond_operand_class {
    SPVCOND_OC_ID,              /* one word naming an id (a use) */
    SPVCOND_OC_RESULT_TYPE,     /* one word naming the result type (a use) */
    SPVCOND_OC_RESULT_ID,       /* one word defining an id */
    SPVCOND_OC_LITERAL_INT,     /* one word */
    SPVCOND_OC_LITERAL_STRING,  /* NUL-terminated, padded to whole words */
    SPVCOND_OC_CONTEXT_NUMBER,  /* width given by a type: OpConstant, OpSwitch */
    SPVCOND_OC_EXTINST_NUMBER,  /* selects the OpExtInst instruction */
    SPVCOND_OC_SPECOP_NUMBER,   /* selects the OpSpecConstantOp operation */
    SPVCOND_OC_VALUE_ENUM,      /* one word, plus the chosen enumerant's parameters */
    SPVCOND_OC_BIT_ENUM,        /* one word, plus each set bit's parameters, low bit first */
    SPVCOND_OC_PAIR_LIT_ID,
    SPVCOND_OC_PAIR_ID_LIT,
    SPVCOND_OC_PAIR_ID_ID
};

enum spvcond_quantifier { SPVCOND_Q_ONE, SPVCOND_Q_OPTIONAL, SPVCOND_Q_ANY };

/* The logical layout of a module (SPIR-V 2.4), in order. */
enum spvcond_section {
    SPVCOND_SECTION_CAPABILITY,
    SPVCOND_SECTION_EXTENSION,
    SPVCOND_SECTION_EXTINST_IMPORT,
    SPVCOND_SECTION_MEMORY_MODEL,
    SPVCOND_SECTION_ENTRY_POINT,
    SPVCOND_SECTION_EXECUTION_MODE,
    SPVCOND_SECTION_DEBUG_SOURCE,
    SPVCOND_SECTION_DEBUG_NAME,
    SPVCOND_SECTION_DEBUG_PROCESSED,
    SPVCOND_SECTION_ANNOTATION,
    SPVCOND_SECTION_GLOBAL, /* types, constants, global variables */
    SPVCOND_SECTION_FUNCTION,
    SPVCOND_SECTION_COUNT
};

/* spvcond_grammar_instruction.layout: the first and last section an opcode may stand in. */
#define SPVCOND_LAYOUT(first, last) ((uint8_t)((first) << 4 | (last)))
#define SPVCOND_LAYOUT_ANYWHERE 0xffu /* OpNop: wherever it is */

struct spvcond_grammar_operand {
    uint16_t kind;       /* index into spvcond_grammar_kinds */
    uint8_t quantifier;  /* enum spvcond_quantifier */
};

struct spvcond_grammar_kind {
    const char *name;
    uint8_t operand_class;
    uint16_t first_enumerant, enumerant_count; /* sorted by value */
    uint16_t slot_row; /* row of spvcond_grammar_enumerant_slots; 0: none */
};

/* Common enumerants found without a search: a value enum's values 0..63, and the lowest of its larger
 * values with each low byte in the next 256 slots (spvcond_grammar_hashed_slot: vendor values come in
 * runs, so most have a slot of their own, ConditionalINTEL among them, where a binary search cost
 * mispredicted branches: 5% of specializing an annotated libclc); a bit enum's single bits at their
 * bit number and its zero at slot 63. An entry is the enumerant's index + 1, 0 if none. */
#define SPVCOND_GRAMMAR_ENUMERANT_SLOTS 64
#define SPVCOND_GRAMMAR_HASHED_SLOTS 256
extern const uint16_t spvcond_grammar_enumerant_slots[][SPVCOND_GRAMMAR_ENUMERANT_SLOTS + SPVCOND_GRAMMAR_HASHED_SLOTS];

/* The hashed slot of a value enum's value from 64 up (tools/gen_grammar.py computes the same). */
static inline unsigned
spvcond_grammar_hashed_slot(uint32_t value)
{
    return SPVCOND_GRAMMAR_ENUMERANT_SLOTS + (value & (SPVCOND_GRAMMAR_HASHED_SLOTS - 1));
}

/* fast_params of an enumerant whose parameters are not all one word each (tools/gen_grammar.py). */
#define SPVCOND_PARAMS_NOT_FAST 255

struct spvcond_grammar_enumerant {
    uint32_t value;
    const char *name;
    uint16_t first_param, param_count;   /* into spvcond_grammar_operands */
    uint16_t first_cap, cap_count;       /* into spvcond_grammar_capabilities */
    uint16_t first_ext, ext_count;       /* into spvcond_grammar_extensions */
    uint16_t version, last_version;      /* SPIR-V versions as 0xMMmm (spvcond_version_of); version
                                            SPVCOND_VERSION_NONE: only through capabilities or
                                            extensions; last_version SPVCOND_VERSION_NONE: no last */
    uint8_t fast_params;                 /* parameters, when each is one word; else SPVCOND_PARAMS_NOT_FAST */
    uint8_t id_params;                   /* with fast_params: bit k set when parameter k is an id */
};

struct spvcond_grammar_instruction {
    uint16_t opcode; /* or extended-instruction number */
    const char *name;
    uint8_t has_type, has_result;
    uint16_t first_operand, operand_count;
    uint16_t first_cap, cap_count;
    uint16_t first_ext, ext_count;
    uint16_t version, last_version; /* as an enumerant's */
    uint8_t class_id; /* enum spvcond_grammar_class_id */
    /* A fast layout for the walkers, when `simple`: `fixed` one-word operands (bit k of id_mask set when
     * word k + 1 is an id use; result_word is the IdResult's word, 0 if none), then a repeated tail. */
    uint8_t simple, fixed;
    uint16_t id_mask;
    uint8_t result_word;
    uint8_t tail; /* enum spvcond_tail */
    uint32_t mask_allowed, mask_one_word; /* SPVCOND_TAIL_OPTIONAL_MASK: bits without an id parameter, and
                                             those of them that take one literal word; SPVCOND_TAIL_ENUM:
                                             mask_allowed is the enumerant's operand kind */
    uint8_t has_enum_operands; /* some operand is an enumerant, which may need capabilities; a trailing
                                  SPVCOND_TAIL_OPTIONAL_MASK or SPVCOND_TAIL_ENUM is left out (when the
                                  layout fits, the capability scan reads those itself) */
    uint16_t enum_mask; /* with `simple`: bit k set when fixed operand k (word k + 1) is an enumerant,
                           which takes no parameters there: the capability scan reads it in place */
    uint8_t layout;     /* core opcodes: SPVCOND_LAYOUT(first, last section), or SPVCOND_LAYOUT_ANYWHERE */
    uint8_t quick;      /* where the reader may take the instruction by its fast layout (bits of enum
                           spvcond_quick; tools/gen_grammar.py, quick) */
};

enum spvcond_quick {
    SPVCOND_QUICK_CODE = 1,  /* in a function's blocks: allowed there, no rule of its own, a tail of ids,
                                literals, an optional id or a memory-access mask (for an extended
                                instruction: its own operands so, few enough for the masks) */
    SPVCOND_QUICK_GLOBAL = 2 /* among the globals: a constant with a type and a result, then ids or literals */
};

/* What the reader's quick runs need of an opcode, in one 8-byte row indexed by the opcode itself (the
 * full rows are 64 bytes, reached through spvcond_grammar_opcode_index, their fields on several loads):
 * spvcond_grammar_quick, generated with the rest (tools/gen_grammar.py, quick_layout). */
struct spvcond_grammar_quick {
    uint16_t ids;        /* the fixed words that are id uses (bit k: word k + 1), the type and result left out */
    uint16_t fits_below; /* the words past the fixed ones that surely fit; SPVCOND_QUICK_ANY_COUNT: any number */
    uint8_t where;       /* enum spvcond_quick */
    uint8_t min_words;   /* 1 + the fixed operands; 0 for an opcode without a fast layout */
    uint8_t result_word; /* the IdResult's word, 0 if none */
    uint8_t flags;       /* SPVCOND_QUICK_TYPE, _ID_TAIL, _MASK_TAIL; the mask's row */
};
#define SPVCOND_QUICK_ANY_COUNT 0xFFFFu
#define SPVCOND_QUICK_TYPE 1u      /* word 1 is a result type */
#define SPVCOND_QUICK_ID_TAIL 2u   /* the words past the fixed ones are ids */
#define SPVCOND_QUICK_MASK_TAIL 4u /* an optional memory-access mask follows (its bits decide the count) */
#define SPVCOND_QUICK_MASK_SHIFT 3u /* with SPVCOND_QUICK_MASK_TAIL, flags >> this: the row of
                                       spvcond_grammar_quick_masks its mask's bits are in */
extern const struct spvcond_grammar_quick spvcond_grammar_quick[SPVCOND_GRAMMAR_QUICK_OPCODES];

/* A quick row's optional mask: as the full row's mask_allowed and mask_one_word (a few bit enums, so a
 * few rows), without the full row's lookup. */
struct spvcond_grammar_quick_mask {
    uint32_t allowed, one_word;
};
extern const struct spvcond_grammar_quick_mask spvcond_grammar_quick_masks[];

enum spvcond_tail {
    SPVCOND_TAIL_NONE,
    SPVCOND_TAIL_IDS,
    SPVCOND_TAIL_LITERALS,
    SPVCOND_TAIL_LITERAL_ID_PAIRS,
    SPVCOND_TAIL_ID_LITERAL_PAIRS,
    SPVCOND_TAIL_OPTIONAL_MASK, /* a last optional bit mask (memory operands) with literal parameters only */
    SPVCOND_TAIL_OPTIONAL_ID,   /* a last optional id (OpVariable's initializer) */
    SPVCOND_TAIL_ENUM,          /* a last value enumerant with one-word parameters (OpDecorate) */
    SPVCOND_TAIL_STRING,        /* a last literal string (OpName) */
};

extern const struct spvcond_grammar_kind spvcond_grammar_kinds[];
extern const struct spvcond_grammar_enumerant spvcond_grammar_enumerants[];
extern const uint32_t spvcond_grammar_enumerant_values[]; /* spvcond_grammar_enumerants[k].value */

/* Any enumerant by kind and value, NULL if none (grammar.c). */
const struct spvcond_grammar_enumerant *spvcond_grammar_enumerant_lookup(unsigned kind, uint32_t value);

/* The same, inline for the commonest case, a value enum's value in its slots (decorations, reading;
 * an annotated module's ConditionalINTEL among them). */
static inline const struct spvcond_grammar_enumerant *
spvcond_grammar_enumerant(unsigned kind, uint32_t value)
{
    if (kind < SPVCOND_GRAMMAR_KIND_COUNT && spvcond_grammar_kinds[kind].operand_class == SPVCOND_OC_VALUE_ENUM &&
        spvcond_grammar_kinds[kind].slot_row) {
        const uint16_t *slots = spvcond_grammar_enumerant_slots[spvcond_grammar_kinds[kind].slot_row];
        if (value < SPVCOND_GRAMMAR_ENUMERANT_SLOTS)
            return slots[value] ? &spvcond_grammar_enumerants[slots[value] - 1] : NULL;
        uint16_t e = slots[spvcond_grammar_hashed_slot(value)];
        if (e && spvcond_grammar_enumerant_values[e - 1] == value)
            return &spvcond_grammar_enumerants[e - 1];
    }
    return spvcond_grammar_enumerant_lookup(kind, value);
}

extern const struct spvcond_grammar_instruction spvcond_grammar_core[];
extern const uint16_t spvcond_grammar_opcode_index[];

/* The grammar of a core opcode, or NULL: inline, as every instruction of every pass asks. */
static inline const struct spvcond_grammar_instruction *
spvcond_grammar_instruction(uint32_t opcode)
{
    if (opcode > SPVCOND_GRAMMAR_MAX_OPCODE || spvcond_grammar_opcode_index[opcode] == 0)
        return NULL;
    return &spvcond_grammar_core[spvcond_grammar_opcode_index[opcode] - 1];
}

/* Bits set in v (no libgcc call without -mpopcnt; masks here have few bits). */
static inline uint32_t
spvcond_popcount32(uint32_t v)
{
    uint32_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* The top bit of each byte of v that may be zero: (v - 0x01010101) & ~v has a byte's top bit set only
 * if that byte or one below it is zero, so masked to the top bits it is nonzero exactly when a byte is. */
static inline uint32_t
spvcond_nul_bits(uint32_t v)
{
    return (v - 0x01010101u) & ~v;
}

/* Whether a word of a literal string holds its terminating NUL. */
static inline bool
spvcond_word_has_nul(uint32_t v)
{
    return (spvcond_nul_bits(v) & 0x80808080u) != 0;
}

/* Whether a literal string starting at w[from] ends (holds its first zero byte) at word `last`, within
 * w[from..n): no word before `last` holds a zero byte, and it does. The words before are tested
 * together, without a branch each (names run to tens of words). */
static inline bool
spvcond_string_ends_at(const uint32_t *w, uint32_t from, uint32_t n, uint32_t last)
{
    if (last < from || last >= n)
        return false;
    uint32_t before = 0;
    for (uint32_t k = from; k < last; k++)
        before |= spvcond_nul_bits(w[k]);
    return !(before & 0x80808080u) && spvcond_word_has_nul(w[last]);
}

/* Whether operands w[1..n-1] fit gi's fast layout (otherwise the general walker decides). For a core
 * instruction w is the instruction and n its word count; for an extended instruction, w + 4 and n - 4. */
static inline bool
spvcond_grammar_fits_fast(const struct spvcond_grammar_instruction *gi, const uint32_t *w, uint32_t n)
{
    if (!gi || !gi->simple || n < 1u + gi->fixed)
        return false;
    switch (gi->tail) {
    case SPVCOND_TAIL_NONE:
        return n == 1u + gi->fixed;
    case SPVCOND_TAIL_OPTIONAL_ID:
        return n <= 2u + gi->fixed;
    case SPVCOND_TAIL_ENUM: {
        if (n < 2u + gi->fixed)
            return false;
        const struct spvcond_grammar_enumerant *e =
            spvcond_grammar_enumerant((unsigned)gi->mask_allowed, w[1u + gi->fixed]);
        return e && e->fast_params != SPVCOND_PARAMS_NOT_FAST && n == 2u + gi->fixed + e->fast_params;
    }
    case SPVCOND_TAIL_STRING: /* the string (the first zero byte ends it) must fill the instruction exactly */
        return spvcond_string_ends_at(w, 1u + gi->fixed, n, n - 1);
    case SPVCOND_TAIL_OPTIONAL_MASK: {
        if (n == 1u + gi->fixed)
            return true;
        uint32_t mask = w[1u + gi->fixed];
        return (mask & ~gi->mask_allowed) == 0 &&
               n == 2u + gi->fixed + spvcond_popcount32(mask & gi->mask_one_word);
    }
    case SPVCOND_TAIL_LITERAL_ID_PAIRS:
    case SPVCOND_TAIL_ID_LITERAL_PAIRS:
        return (n - 1u - gi->fixed) % 2 == 0;
    default:
        return true;
    }
}

struct spvcond_grammar_extinst_set {
    const char *name; /* as in OpExtInstImport */
    const struct spvcond_grammar_instruction *instructions; /* sorted by number */
    const struct spvcond_grammar_quick *quick; /* per instruction, as OpExtInst holds it (from word 5) */
    size_t count;
    const uint16_t *index; /* number -> instructions row + 1, 0 if none */
    size_t index_count;
};

extern const struct spvcond_grammar_operand spvcond_grammar_operands[];
extern const uint32_t spvcond_grammar_capabilities[];
extern const char *const spvcond_grammar_extensions[];
extern const char *const spvcond_grammar_classes[];
extern const struct spvcond_grammar_extinst_set spvcond_grammar_extinst_sets[];

/* NULL for an opcode the grammar does not know. */
/* "" for an unknown opcode, never NULL. */
const char *spvcond_grammar_opcode_name(uint32_t opcode);
const char *spvcond_grammar_enumerant_name(unsigned kind, uint32_t value);
/* Looks an enumerant up by name (any spelling of an alias is not kept: the first one is). */
const struct spvcond_grammar_enumerant *spvcond_grammar_enumerant_by_name(unsigned kind, const char *name);
/* NULL if the set is not one we carry a grammar for. */
const struct spvcond_grammar_extinst_set *spvcond_grammar_extinst_set(const char *import_name);
const struct spvcond_grammar_instruction *spvcond_grammar_extinst(const struct spvcond_grammar_extinst_set *set,
                                                                  uint32_t number);

#endif
