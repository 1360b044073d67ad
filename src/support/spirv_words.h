/* SPDX-License-Identifier: MIT */
/* The layout of SPIR-V words that every pass reads or writes: an instruction's first word (word count
 * in the high half, opcode in the low half) and the module header. Pure constants and inline
 * functions, so that the benchmark's module generator and the fuzz targets can share them. */
#ifndef SPVCOND_SPIRV_WORDS_H
#define SPVCOND_SPIRV_WORDS_H

#include <stdint.h>

#define SPVCOND_MAGIC 0x07230203u
#define SPVCOND_HEADER_WORDS 5
#define SPVCOND_MAX_BOUND 0x3fffffu /* SPIR-V universal limit on the id bound */
#define SPVCOND_WORD_COUNT_SHIFT 16
#define SPVCOND_OPCODE_MASK 0xffffu
#define SPVCOND_MAX_WORD_COUNT 0xffffu

/* An instruction's opcode, from its first word. */
static inline uint32_t
spvcond_opcode_of(uint32_t first_word)
{
    return first_word & SPVCOND_OPCODE_MASK;
}

/* An instruction's word count, from its first word. */
static inline uint32_t
spvcond_word_count_of(uint32_t first_word)
{
    return first_word >> SPVCOND_WORD_COUNT_SHIFT;
}

/* The first word of an instruction of `word_count` words: a constant expression for tables. */
#define SPVCOND_FIRST_WORD(word_count, opcode) ((uint32_t)(word_count) << SPVCOND_WORD_COUNT_SHIFT | (uint32_t)(opcode))

static inline uint32_t
spvcond_first_word(uint32_t word_count, uint32_t opcode)
{
    return SPVCOND_FIRST_WORD(word_count, opcode);
}

/* The major and minor version of a module's version word (0x00MMmm00). */
static inline uint32_t
spvcond_version_major(uint32_t version)
{
    return (version >> 16) & 0xffu;
}

static inline uint32_t
spvcond_version_minor(uint32_t version)
{
    return (version >> 8) & 0xffu;
}

#endif
