/* SPDX-License-Identifier: MIT */
/* What drivers that take their input as trusted, and the SPIR-V/LLVM translator of LLVM 15 (built with
 * assertions: an assertion ends the application's process), end the process on though SPIRV-Tools'
 * validator of Debian bookworm lets it pass, found by mutating modules through the layer
 * (docs/opencl-layer.md, "Validation"): an entry point's name that is not UTF-8 (rusticl panics on it), an
 * alignment that is not a power of two (a decoration, or a memory access's Aligned operand), and a
 * decoration of an id defined before the decorations (an extended instruction set import, a string), which
 * the translator takes only as a forward reference. Each is refused here, with where it is, in one walk
 * that also reads the module's pointer size for the caller to hold against the device's. The words are
 * untrusted: every read is bounded. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "driver_checks.h"

enum {
    OP_STRING = 7, OP_EXT_INST_IMPORT = 11, OP_MEMORY_MODEL = 14, OP_ENTRY_POINT = 15, OP_LOAD = 61, OP_STORE = 62,
    OP_COPY_MEMORY = 63, OP_COPY_MEMORY_SIZED = 64, OP_DECORATE = 71, OP_GROUP_DECORATE = 74,
    DECORATION_ALIGNMENT = 44, MEMORY_ACCESS_ALIGNED = 0x2, ADDRESSING_PHYSICAL32 = 1, ADDRESSING_PHYSICAL64 = 2,
};

static bool
power_of_two(uint32_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* The Aligned operand of a memory-access mask at w[at] of an instruction of n words. */
static bool
aligned_ok(const uint32_t *w, uint32_t n, uint32_t at)
{
    if (at >= n || !(w[at] & MEMORY_ACCESS_ALIGNED))
        return true;
    return at + 1 < n && power_of_two(w[at + 1]);
}

/* The length of the UTF-8 sequence at s (at most n bytes), 0 when it is not one. */
static size_t
utf8_sequence(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > n || (len == 2 && s[0] < 0xc2))
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    return len;
}

/* The byte of an entry point's name (operands from word 3 of an instruction of n words) where it stops being
 * UTF-8 text without control characters, or SIZE_MAX when it is such text. */
static size_t
name_not_text(const uint32_t *w, uint32_t n)
{
    const unsigned char *name = (const unsigned char *)&w[3];
    size_t room = (size_t)(n - 3) * 4, at = 0;
    while (at < room && name[at]) {
        size_t len = utf8_sequence(name + at, room - at);
        if (len == 0 || (len == 1 && name[at] < 0x20))
            return at;
        at += len;
    }
    return SIZE_MAX;
}

bool
layer_driver_check(const uint32_t *words, size_t count, unsigned *address_bits, char *msg, size_t msg_size)
{
    static const char early_decorated[] = "decorates an id defined before the decorations (an import or a string), "
                                          "which the SPIR-V/LLVM translator takes only as a forward reference";
    /* Ids defined before the annotations: a bit each, for ids below EARLY_MAX. */
    enum { EARLY_MAX = 1 << 16 };
    uint32_t early[EARLY_MAX / 32];
    memset(early, 0, sizeof(early));
#define EARLY(id) ((id) < EARLY_MAX && (early[(id) / 32] >> ((id) % 32) & 1))
    *address_bits = 0;
    for (size_t k = 5, index = 0; k < count; index++) {
        const uint32_t *w = &words[k];
        uint32_t n = w[0] >> 16, op = w[0] & 0xffff;
        if (n == 0 || n > count - k) {
            snprintf(msg, msg_size, "instruction %zu at word %zu runs past the module's end", index, k);
            return false;
        }
        if ((op == OP_EXT_INST_IMPORT || op == OP_STRING) && n > 1 && w[1] < EARLY_MAX)
            early[w[1] / 32] |= 1u << (w[1] % 32);
        if (op == OP_MEMORY_MODEL && n >= 3)
            *address_bits = w[1] == ADDRESSING_PHYSICAL32 ? 32 : w[1] == ADDRESSING_PHYSICAL64 ? 64 : 0;
        size_t byte;
        if (op == OP_ENTRY_POINT && n > 3 && (byte = name_not_text(w, n)) != SIZE_MAX) {
            snprintf(msg, msg_size, "the name of the entry point at word %zu (instruction %zu) is not UTF-8 text "
                     "(byte %zu), which SPIR-V requires and drivers rely on", k, index, byte);
            return false;
        }
        const char *wrong = NULL;
        uint32_t id = 0;
        if (op == OP_DECORATE && n > 2) {
            id = w[1];
            if (EARLY(id))
                wrong = early_decorated;
            else if (w[2] == DECORATION_ALIGNMENT && (n < 4 || !power_of_two(w[3])))
                wrong = "gives an alignment that is not a power of two";
        } else if (op == OP_GROUP_DECORATE) {
            for (uint32_t t = 2; t < n && !wrong; t++)
                if (EARLY(w[t])) {
                    id = w[t];
                    wrong = early_decorated;
                }
        } else if ((op == OP_LOAD && !aligned_ok(w, n, 4)) || (op == OP_STORE && !aligned_ok(w, n, 3)) ||
                   (op == OP_COPY_MEMORY && !aligned_ok(w, n, 3)) ||
                   (op == OP_COPY_MEMORY_SIZED && !aligned_ok(w, n, 4))) {
            wrong = "has an Aligned memory access that is not a power of two";
        }
        if (wrong) {
            if (id)
                snprintf(msg, msg_size, "instruction %zu at word %zu %s (%%%u)", index, k, wrong, id);
            else
                snprintf(msg, msg_size, "instruction %zu at word %zu %s", index, k, wrong);
            return false;
        }
        k += n;
    }
#undef EARLY
    return true;
}
