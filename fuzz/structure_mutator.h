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
    for (size_t p = 5; p < n && count < cap; p += fuzz_load(m + 4 * p) >> 16)
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
    if ((version & 0xff0000ffu) != 0 || ((version >> 16) & 0xff) != 1 || ((version >> 8) & 0xff) > 6)
        fuzz_store(m + 4, 0x00010000u | (((version >> 8) % 7) << 8));
    uint32_t bound = fuzz_load(m + 12);
    if (bound == 0 || bound > 0x400000u)
        fuzz_store(m + 12, 1 + bound % 0x2000u);
    fuzz_store(m + 16, 0);
    for (size_t p = 5; p < n;) {
        uint32_t w = fuzz_load(m + 4 * p), wc = w >> 16;
        if (wc == 0 || wc > n - p) {
            wc = wc == 0 ? 1 : (uint32_t)(n - p);
            fuzz_store(m + 4 * p, wc << 16 | (w & 0xffffu));
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
    uint32_t wc = fuzz_load(m + 4 * p) >> 16, bound = fuzz_load(m + 12);
    static const uint16_t opcodes[] = {
        5, 15, 16, 17, 19, 20, 21, 22, 23, 25, 28, 30, 32, 33, 41, 42, 43, 44, 46, 48, 49, 50, 51, 52, 54, 55,
        56, 57, 59, 61, 62, 71, 72, 74, 81, 124, 168, 234, 248, 249, 250, 251, 253, 254, 5600, 6248, 6249,
        6250, 6251, 6252, 6253, 6254};
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
        uint32_t first[64], next_wc = fuzz_load(m + 4 * at[i + 1]) >> 16;
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
        fuzz_store(m + 4 * p, wc << 16 | opcodes[fuzz_next(rng) % (sizeof(opcodes) / sizeof(opcodes[0]))]);
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
