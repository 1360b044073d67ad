/* SPDX-License-Identifier: MIT */
/* Structure-aware mutation for the module targets: most byte-level mutations break the header or a
 * word count, and the reader rejects the input before any pass runs. This mutator mixes libFuzzer's
 * byte mutations with instruction-level ones (delete, duplicate, swap, re-point an operand to another
 * id, change an opcode at the same size) and then repairs what the reader checks first: the header
 * (magic, version, a bound within limits, schema) and a chain of word counts that ends exactly at the
 * end. Include it once per target after defining FUZZ_MODULE_OFFSET (bytes before the module). */
#ifndef SPVCOND_FUZZ_STRUCTURE_MUTATOR_H
#define SPVCOND_FUZZ_STRUCTURE_MUTATOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "support/spirv_names.h"
#include "support/spirv_words.h"

#ifndef FUZZ_MODULE_OFFSET
#define FUZZ_MODULE_OFFSET 0
#endif

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static inline uint32_t
fuzz_next(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static inline uint32_t
fuzz_load(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void
fuzz_store(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* Word offsets of instructions in w[5..n) (after repair: a valid chain). At most cap of them. */
static inline size_t
fuzz_instructions(const uint8_t *m, size_t n, size_t *at, size_t cap)
{
    size_t count = 0;
    for (size_t p = 5; p < n && count < cap; p += spvcond_word_count_of(fuzz_load(m + 4 * p)))
        at[count++] = p;
    return count;
}

/* Make the header and the word-count chain acceptable to the reader's first checks. */
static inline size_t
fuzz_repair(uint8_t *m, size_t bytes)
{
    bytes &= ~(size_t)3;
    if (bytes < 20)
        return 0;
    size_t n = bytes / 4;
    fuzz_store(m, 0x07230203u);
    uint32_t version = fuzz_load(m + 4);
    if ((version & 0xff0000ffu) != 0 || spvcond_version_major(version) != 1 || spvcond_version_minor(version) > 6)
        fuzz_store(m + 4, 0x00010000u | (((version >> 8) % 7) << 8));
    uint32_t bound = fuzz_load(m + 12);
    if (bound == 0 || bound > 0x400000u)
        fuzz_store(m + 12, 1 + bound % 0x2000u);
    fuzz_store(m + 16, 0);
    for (size_t p = 5; p < n;) {
        uint32_t w = fuzz_load(m + 4 * p), wc = spvcond_word_count_of(w);
        if (wc == 0 || wc > n - p) {
            wc = wc == 0 ? 1 : (uint32_t)(n - p);
            fuzz_store(m + 4 * p, spvcond_first_word(wc, spvcond_opcode_of(w)));
        }
        p += wc;
    }
    return bytes;
}

static inline size_t
fuzz_mutate_instructions(uint8_t *m, size_t bytes, size_t max_bytes, uint32_t *rng)
{
    enum { CAP = 4096 };
    size_t at[CAP];
    size_t n = bytes / 4, count = fuzz_instructions(m, n, at, CAP);
    if (count == 0)
        return bytes;
    size_t i = fuzz_next(rng) % count, p = at[i];
    uint32_t wc = spvcond_word_count_of(fuzz_load(m + 4 * p)), bound = fuzz_load(m + 12);
    static const uint16_t opcodes[] = {
        SPVCOND_OP_NAME, SPVCOND_OP_ENTRY_POINT, SPVCOND_OP_EXECUTION_MODE, SPVCOND_OP_CAPABILITY,
        SPVCOND_OP_TYPE_VOID, SPVCOND_OP_TYPE_BOOL, SPVCOND_OP_TYPE_INT, SPVCOND_OP_TYPE_FLOAT,
        SPVCOND_OP_TYPE_VECTOR, SPVCOND_OP_TYPE_IMAGE, SPVCOND_OP_TYPE_ARRAY, SPVCOND_OP_TYPE_STRUCT,
        SPVCOND_OP_TYPE_POINTER, SPVCOND_OP_TYPE_FUNCTION, SPVCOND_OP_CONSTANT_TRUE,
        SPVCOND_OP_CONSTANT_FALSE, SPVCOND_OP_CONSTANT, SPVCOND_OP_CONSTANT_COMPOSITE,
        SPVCOND_OP_CONSTANT_NULL, SPVCOND_OP_SPEC_CONSTANT_TRUE, SPVCOND_OP_SPEC_CONSTANT_FALSE,
        SPVCOND_OP_SPEC_CONSTANT, SPVCOND_OP_SPEC_CONSTANT_COMPOSITE, SPVCOND_OP_SPEC_CONSTANT_OP,
        SPVCOND_OP_FUNCTION, SPVCOND_OP_FUNCTION_PARAMETER, SPVCOND_OP_FUNCTION_END, SPVCOND_OP_FUNCTION_CALL,
        SPVCOND_OP_VARIABLE, SPVCOND_OP_LOAD, SPVCOND_OP_STORE, SPVCOND_OP_DECORATE,
        SPVCOND_OP_MEMBER_DECORATE, SPVCOND_OP_GROUP_DECORATE, SPVCOND_OP_COMPOSITE_EXTRACT,
        SPVCOND_OP_BITCAST, SPVCOND_OP_LOGICAL_NOT, SPVCOND_OP_ATOMIC_I_ADD, SPVCOND_OP_LABEL,
        SPVCOND_OP_BRANCH, SPVCOND_OP_BRANCH_CONDITIONAL, SPVCOND_OP_SWITCH, SPVCOND_OP_RETURN,
        SPVCOND_OP_RETURN_VALUE, SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL,
        SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL, SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL,
        SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL, SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL,
        SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL, SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL,
        SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL};
    switch (fuzz_next(rng) % 5) {
    case 0: /* delete instruction i */
        memmove(m + 4 * p, m + 4 * (p + wc), 4 * (n - p - wc));
        return bytes - 4 * wc;
    case 1: { /* copy instruction i before another instruction */
        if (bytes + 4 * wc > max_bytes || wc > 64)
            return bytes;
        uint32_t copy[64];
        memcpy(copy, m + 4 * p, 4 * wc);
        size_t q = at[fuzz_next(rng) % count];
        memmove(m + 4 * (q + wc), m + 4 * q, 4 * (n - q));
        memcpy(m + 4 * q, copy, 4 * wc);
        return bytes + 4 * wc;
    }
    case 2: { /* swap instruction i with the next one */
        if (i + 1 >= count || wc > 64)
            return bytes;
        uint32_t first[64], next_wc = spvcond_word_count_of(fuzz_load(m + 4 * at[i + 1]));
        memcpy(first, m + 4 * p, 4 * wc);
        memmove(m + 4 * p, m + 4 * at[i + 1], 4 * next_wc);
        memcpy(m + 4 * (p + next_wc), first, 4 * wc);
        return bytes;
    }
    case 3: { /* point one operand at another id: a small one, as real modules number ids densely (a huge
               * id is valid but makes every per-id table huge, which slows the fuzzer, not the finding) */
        uint32_t limit = bound < n + 16 ? bound : (uint32_t)n + 16;
        if (wc > 1)
            fuzz_store(m + 4 * (p + 1 + fuzz_next(rng) % (wc - 1)), 1 + fuzz_next(rng) % (limit > 1 ? limit - 1 : 1));
        return bytes;
    }
    default: /* another opcode with the same operands */
        fuzz_store(m + 4 * p, spvcond_first_word(wc, opcodes[fuzz_next(rng) % (sizeof(opcodes) / sizeof(opcodes[0]))]));
        return bytes;
    }
}

#ifndef FUZZ_REPLAY /* the regression replays run without libFuzzer */
size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t rng = seed | 1u;
    if (size <= FUZZ_MODULE_OFFSET + 20 || fuzz_next(&rng) % 3 == 0) {
        size = LLVMFuzzerMutate(data, size, max_size);
    } else {
        size_t repaired = fuzz_repair(data + FUZZ_MODULE_OFFSET, size - FUZZ_MODULE_OFFSET);
        size = FUZZ_MODULE_OFFSET +
               fuzz_mutate_instructions(data + FUZZ_MODULE_OFFSET, repaired, max_size - FUZZ_MODULE_OFFSET, &rng);
    }
    /* Half the time keep the byte mutation as it is, so the reader's own checks stay fuzzed. */
    if (size > FUZZ_MODULE_OFFSET + 20 && fuzz_next(&rng) % 2 == 0)
        size = FUZZ_MODULE_OFFSET + fuzz_repair(data + FUZZ_MODULE_OFFSET, size - FUZZ_MODULE_OFFSET);
    return size;
}
#endif

#endif
