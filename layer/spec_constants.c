/* SPDX-License-Identifier: MIT */
/* A module's specialization constants as clSetProgramSpecializationConstant sees them: each SpecId with the
 * size of its type in bytes (a boolean's is a cl_uchar's), and a copy of the module with new defaults for a
 * compiled object that clLinkProgram will link (the build applies values through spvcond_specialize). The
 * module was read by the library before, so its words are whole; these walks still check every bound. */
#include <stdlib.h>
#include <string.h>

#include "spec_constants.h"

enum { OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_SPEC_CONSTANT_TRUE = 48,
       OP_SPEC_CONSTANT_FALSE = 49, OP_SPEC_CONSTANT = 50, OP_DECORATE = 71, DECORATION_SPEC_ID = 1 };

struct scalar {
    uint32_t id, opcode, width, is_signed;
};

/* A list that grows by doubling; false when out of memory. */
static bool
grow(void **items, size_t *capacity, size_t count, size_t item_size)
{
    if (count < *capacity)
        return true;
    size_t capacity2 = *capacity ? *capacity * 2 : 16;
    void *more = realloc(*items, capacity2 * item_size);
    if (!more)
        return false;
    *items = more;
    *capacity = capacity2;
    return true;
}

bool
layer_spec_constants(const uint32_t *w, size_t count, struct layer_spec_constant **out, size_t *n)
{
    struct scalar *types = NULL;
    uint32_t *spec_ids = NULL; /* pairs: target, SpecId */
    struct layer_spec_constant *table = NULL;
    size_t nt = 0, ct = 0, ns = 0, cs = 0, ne = 0, ce = 0;
    bool ok = count >= 5 && w[0] == 0x07230203;
    for (size_t i = 5; ok && i < count;) {
        uint32_t wc = w[i] >> 16, op = w[i] & 0xFFFF;
        if (wc == 0 || wc > count - i)
            break;
        if (op == OP_DECORATE && wc >= 4 && w[i + 2] == DECORATION_SPEC_ID) {
            if ((ok = grow((void **)&spec_ids, &cs, ns + 2, sizeof(uint32_t)))) {
                spec_ids[ns++] = w[i + 1];
                spec_ids[ns++] = w[i + 3];
            }
        } else if ((op == OP_TYPE_BOOL && wc >= 2) || ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && wc >= 3)) {
            if ((ok = grow((void **)&types, &ct, nt, sizeof(*types))))
                types[nt++] = (struct scalar){w[i + 1], op, op == OP_TYPE_BOOL ? 8 : w[i + 2],
                                              op == OP_TYPE_INT && wc >= 4 ? w[i + 3] : 0};
        } else if ((op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE || op == OP_SPEC_CONSTANT) &&
                   wc >= 3) {
            const struct scalar *t = NULL;
            for (size_t k = 0; k < nt && !t; k++)
                t = types[k].id == w[i + 1] ? &types[k] : NULL;
            for (size_t k = 0; t && ok && k < ns; k += 2) {
                if (spec_ids[k] != w[i + 2] || t->width == 0 || t->width > 64 || t->width % 8)
                    continue;
                if ((ok = grow((void **)&table, &ce, ne, sizeof(*table))))
                    table[ne++] = (struct layer_spec_constant){spec_ids[k + 1], t->width / 8, i,
                                                               t->opcode == OP_TYPE_BOOL, t->is_signed != 0,
                                                               t->width};
            }
        }
        i += wc;
    }
    free(types);
    free(spec_ids);
    if (!ok) {
        free(table);
        return false;
    }
    *out = table;
    *n = ne;
    return true;
}

uint32_t *
layer_spec_defaults(const uint32_t *w, size_t count, const struct layer_spec_constant *table, size_t n,
                    const spvcond_spec_value *values, size_t value_count)
{
    uint32_t *copy = malloc(count * sizeof(uint32_t));
    if (!copy)
        return NULL;
    memcpy(copy, w, count * sizeof(uint32_t));
    for (size_t v = 0; v < value_count; v++) {
        for (size_t k = 0; k < n; k++) {
            const struct layer_spec_constant *c = &table[k];
            if (c->spec_id != values[v].spec_id || c->word >= count)
                continue;
            uint32_t *inst = copy + c->word, wc = inst[0] >> 16;
            uint64_t value = values[v].value;
            if (c->is_bool) {
                if ((inst[0] & 0xFFFF) != OP_SPEC_CONSTANT)
                    inst[0] = (wc << 16) | ((value & 0xFF) ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE);
                continue;
            }
            if ((inst[0] & 0xFFFF) != OP_SPEC_CONSTANT || wc < (c->width > 32 ? 5u : 4u))
                continue;
            if (c->width < 64)
                value &= (UINT64_C(1) << c->width) - 1;
            /* the literal of a narrow signed type is sign-extended */
            if (c->is_signed && c->width < 32 && (value >> (c->width - 1)) & 1)
                value |= ~((UINT64_C(1) << c->width) - 1) & 0xFFFFFFFFu;
            inst[3] = (uint32_t)value;
            if (c->width > 32)
                inst[4] = (uint32_t)(value >> 32);
        }
    }
    return copy;
}
