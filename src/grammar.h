/* Grammar tables generated from the SPIR-V JSON grammars (tools/gen_grammar.py) and their lookups. */
#ifndef SPVCOND_GRAMMAR_H
#define SPVCOND_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grammar_tables.h"

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

struct spvcond_grammar_operand {
    uint16_t kind;       /* index into spvcond_grammar_kinds */
    uint8_t quantifier;  /* enum spvcond_quantifier */
};

struct spvcond_grammar_kind {
    const char *name;
    uint8_t operand_class;
    uint16_t first_enumerant, enumerant_count; /* sorted by value */
};

struct spvcond_grammar_enumerant {
    uint32_t value;
    const char *name;
    uint16_t first_param, param_count;   /* into spvcond_grammar_operands */
    uint16_t first_cap, cap_count;       /* into spvcond_grammar_capabilities */
    uint16_t first_ext, ext_count;       /* into spvcond_grammar_extensions */
    uint32_t version;                    /* 0x00MMmm00; 0xffffffff: only through extensions */
};

struct spvcond_grammar_instruction {
    uint16_t opcode; /* or extended-instruction number */
    const char *name;
    uint8_t has_type, has_result;
    uint16_t first_operand, operand_count;
    uint16_t first_cap, cap_count;
    uint16_t first_ext, ext_count;
    uint32_t version;
    uint8_t class_id; /* enum spvcond_grammar_class_id */
    /* A fast layout for the walkers, when `simple`: `fixed` one-word operands (bit k of id_mask set when
     * word k + 1 is an id use; result_word is the IdResult's word, 0 if none), then a repeated tail. */
    uint8_t simple, fixed;
    uint16_t id_mask;
    uint8_t result_word;
    uint8_t tail; /* enum spvcond_tail */
    uint32_t mask_allowed, mask_one_word; /* SPVCOND_TAIL_OPTIONAL_MASK: bits without an id parameter, and
                                             those of them that take one literal word */
    uint8_t has_enum_operands; /* some operand is an enumerant, which may need capabilities (a trailing
                                  SPVCOND_TAIL_OPTIONAL_MASK aside: when the layout fits, it needs none) */
};

enum spvcond_tail {
    SPVCOND_TAIL_NONE,
    SPVCOND_TAIL_IDS,
    SPVCOND_TAIL_LITERALS,
    SPVCOND_TAIL_LITERAL_ID_PAIRS,
    SPVCOND_TAIL_ID_LITERAL_PAIRS,
    SPVCOND_TAIL_OPTIONAL_MASK, /* a last optional bit mask (memory operands) with literal parameters only */
    SPVCOND_TAIL_OPTIONAL_ID,   /* a last optional id (OpVariable's initializer) */
};

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
    case SPVCOND_TAIL_OPTIONAL_MASK: {
        if (n == 1u + gi->fixed)
            return true;
        uint32_t mask = w[1u + gi->fixed];
        return (mask & ~gi->mask_allowed) == 0 &&
               n == 2u + gi->fixed + (uint32_t)__builtin_popcount(mask & gi->mask_one_word);
    }
    case SPVCOND_TAIL_LITERAL_ID_PAIRS:
    case SPVCOND_TAIL_ID_LITERAL_PAIRS:
        return (n - 1u - gi->fixed) % 2 == 0;
    default:
        return true;
    }
}

/* Is word w (1-based) of a fast-layout instruction an id use? */
static inline bool
spvcond_grammar_fast_is_id(const struct spvcond_grammar_instruction *gi, uint32_t w)
{
    if (w <= gi->fixed)
        return (gi->id_mask >> (w - 1)) & 1;
    uint32_t k = w - 1 - gi->fixed;
    switch (gi->tail) {
    case SPVCOND_TAIL_IDS: case SPVCOND_TAIL_OPTIONAL_ID: return true;
    case SPVCOND_TAIL_LITERAL_ID_PAIRS: return k % 2 == 1;
    case SPVCOND_TAIL_ID_LITERAL_PAIRS: return k % 2 == 0;
    default: return false;
    }
}

struct spvcond_grammar_extinst_set {
    const char *name; /* as in OpExtInstImport */
    const struct spvcond_grammar_instruction *instructions; /* sorted by number */
    size_t count;
};

extern const struct spvcond_grammar_kind spvcond_grammar_kinds[];
extern const struct spvcond_grammar_enumerant spvcond_grammar_enumerants[];
extern const struct spvcond_grammar_operand spvcond_grammar_operands[];
extern const uint32_t spvcond_grammar_capabilities[];
extern const char *const spvcond_grammar_extensions[];
extern const char *const spvcond_grammar_classes[];
extern const struct spvcond_grammar_instruction spvcond_grammar_core[];
extern const uint16_t spvcond_grammar_opcode_index[];
extern const struct spvcond_grammar_extinst_set spvcond_grammar_extinst_sets[];

/* NULL for an opcode the grammar does not know. */
const struct spvcond_grammar_instruction *spvcond_grammar_instruction(uint32_t opcode);
/* "" for an unknown opcode, never NULL. */
const char *spvcond_grammar_opcode_name(uint32_t opcode);
const struct spvcond_grammar_enumerant *spvcond_grammar_enumerant(unsigned kind, uint32_t value);
const char *spvcond_grammar_enumerant_name(unsigned kind, uint32_t value);
/* Looks an enumerant up by name (any spelling of an alias is not kept: the first one is). */
const struct spvcond_grammar_enumerant *spvcond_grammar_enumerant_by_name(unsigned kind, const char *name);
/* NULL if the set is not one we carry a grammar for. */
const struct spvcond_grammar_extinst_set *spvcond_grammar_extinst_set(const char *import_name);
const struct spvcond_grammar_instruction *spvcond_grammar_extinst(const struct spvcond_grammar_extinst_set *set,
                                                                  uint32_t number);

#endif
