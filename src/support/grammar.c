/* SPDX-License-Identifier: MIT */
/* Lookups over the generated grammar tables. */
#include "support/grammar.h"
#include "spvcond/spvcond.h"

#include <string.h>

const char *
spvcond_grammar_opcode_name(uint32_t opcode)
{
    const struct spvcond_grammar_instruction *info = spvcond_grammar_instruction(opcode);
    return info ? info->name : "";
}

const struct spvcond_grammar_enumerant *
spvcond_grammar_enumerant_lookup(unsigned kind, uint32_t value)
{
    if (kind >= SPVCOND_GRAMMAR_KIND_COUNT)
        return NULL;
    const struct spvcond_grammar_kind *k = &spvcond_grammar_kinds[kind];
    if (k->slot_row) {
        const uint16_t *slots = spvcond_grammar_enumerant_slots[k->slot_row];
        if (k->operand_class == SPVCOND_OC_VALUE_ENUM) {
            if (value < SPVCOND_GRAMMAR_ENUMERANT_SLOTS)
                return slots[value] ? &spvcond_grammar_enumerants[slots[value] - 1] : NULL;
            uint16_t e = slots[spvcond_grammar_hashed_slot(value)];
            if (e && spvcond_grammar_enumerant_values[e - 1] == value)
                return &spvcond_grammar_enumerants[e - 1];
        } else {
            unsigned slot = value == 0                 ? SPVCOND_GRAMMAR_ENUMERANT_SLOTS - 1
                            : (value & (value - 1)) == 0 ? (unsigned)__builtin_ctz(value)
                                                         : ~0u;
            if (slot != ~0u)
                return slots[slot] ? &spvcond_grammar_enumerants[slots[slot] - 1] : NULL;
        }
    }
    size_t lo = k->first_enumerant, hi = lo + k->enumerant_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t v = spvcond_grammar_enumerant_values[mid];
        if (v == value)
            return &spvcond_grammar_enumerants[mid];
        if (v < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *
spvcond_grammar_enumerant_name(unsigned kind, uint32_t value)
{
    const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, value);
    return e ? e->name : NULL;
}

const struct spvcond_grammar_enumerant *
spvcond_grammar_enumerant_by_name(unsigned kind, const char *name)
{
    if (kind >= SPVCOND_GRAMMAR_KIND_COUNT)
        return NULL;
    const struct spvcond_grammar_kind *k = &spvcond_grammar_kinds[kind];
    for (size_t i = k->first_enumerant; i < (size_t)k->first_enumerant + k->enumerant_count; i++)
        if (strcmp(spvcond_grammar_enumerants[i].name, name) == 0)
            return &spvcond_grammar_enumerants[i];
    return NULL;
}

const struct spvcond_grammar_extinst_set *
spvcond_grammar_extinst_set(const char *import_name)
{
    for (size_t i = 0; i < SPVCOND_GRAMMAR_EXTINST_SET_COUNT; i++)
        if (strcmp(spvcond_grammar_extinst_sets[i].name, import_name) == 0)
            return &spvcond_grammar_extinst_sets[i];
    return NULL;
}

const struct spvcond_grammar_instruction *
spvcond_grammar_extinst(const struct spvcond_grammar_extinst_set *set, uint32_t number)
{
    if (number >= set->index_count || set->index[number] == 0)
        return NULL;
    return &set->instructions[set->index[number] - 1];
}

const char *
spvcond_capability_name(uint32_t value)
{
    return spvcond_grammar_enumerant_name(SPVCOND_KIND_Capability, value);
}

bool
spvcond_capability_value(const char *name, uint32_t *value)
{
    const struct spvcond_grammar_enumerant *e =
        name && value ? spvcond_grammar_enumerant_by_name(SPVCOND_KIND_Capability, name) : NULL;
    if (e)
        *value = e->value;
    return e != NULL;
}
