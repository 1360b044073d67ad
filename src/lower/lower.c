/* SPDX-License-Identifier: MIT */
/* Lowering (spec/lower.md): what a consumer cannot read, written in forms it can, with the same meaning.
 * SPVCOND_LOWER_SPIRV14 gives SPIR-V 1.4's new instructions the forms of SPIR-V 1.2 where they have one
 * (the SPIR-V/LLVM translator of LLVM 15 ends the process on them): pointers compared and subtracted as the
 * integers they convert to, the source's memory operands of a copy dropped, string decorations (which say
 * nothing a kernel's meaning depends on) dropped. SPVCOND_LOWER_PRINTF_DOUBLE passes printf's scalar float
 * arguments as double, as C's variadic promotion does (a consumer that reads printf's arguments as C does
 * reads a double for %f). SPVCOND_LOWER_COPY_MEMORY writes OpCopyMemory as a load and a store (the
 * translator of LLVM 15 ends the process on OpCopyMemory). OpCopyLogical becomes its operand taken apart
 * and put together again as the result's type. SPVCOND_LOWER_FUNCTION_INITIALIZERS stores a function
 * variable's initializer into it at the start of its block (Mesa 22.3's reader drops those initializers).
 * SPVCOND_LOWER_PRINTF_FORMAT writes a printf format that is a pointer to a char array cast to a pointer to
 * char as the address of the array's first element, the form compilers write (Mesa 22.3's OpenCL ends the
 * process on the cast). SPVCOND_LOWER_PRINTF_SMALL_VECTORS passes printf's vectors of four bytes or less
 * (char2, char3, char4, short2) as a 32-bit integer holding their bytes, as clang passes them to a variadic
 * function on x86-64 (pocl's printf reads them so). */
#include <string.h>

#include "ir/edit.h"
#include "ir/module.h"
#include "support/context.h"

enum {
    OP_LINE = 8,
    OP_EXT_INST = 12,
    OP_MEMORY_MODEL = 14,
    OP_CAPABILITY = 17,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_FUNCTION = 54,
    OP_COPY_OBJECT = 83,
    OP_COMPOSITE_CONSTRUCT = 80,
    OP_COMPOSITE_EXTRACT = 81,
    OP_COPY_LOGICAL = 400,
    OP_VARIABLE = 59,
    OP_LOAD = 61,
    OP_STORE = 62,
    OP_COPY_MEMORY = 63,
    OP_COPY_MEMORY_SIZED = 64,
    OP_IN_BOUNDS_PTR_ACCESS_CHAIN = 70,
    OP_S_CONVERT = 114,
    OP_F_CONVERT = 115,
    OP_CONVERT_PTR_TO_U = 117,
    OP_BITCAST = 124,
    OP_VECTOR_SHUFFLE = 79,
    OP_I_SUB = 130,
    OP_S_DIV = 135,
    OP_I_EQUAL = 170,
    OP_I_NOT_EQUAL = 171,
    OP_LABEL = 248,
    OP_NO_LINE = 317,
    OP_PTR_EQUAL = 401,
    OP_PTR_NOT_EQUAL = 402,
    OP_PTR_DIFF = 403,
    OP_DECORATE_STRING = 5632,
    OP_MEMBER_DECORATE_STRING = 5633,
    STORAGE_FUNCTION = 7,
    CAPABILITY_KERNEL = 6,
    CAPABILITY_FLOAT64 = 10,
    CAPABILITY_INT64 = 11,
    OPENCL_STD_PRINTF = 184,
};

struct lower {
    struct spvcond_module *m;
    size_t lowered;
    uint32_t pointer_bits;        /* 32 or 64 (Physical32, Physical64); 0 for Logical addressing */
    uint32_t int_type, double_type; /* the pointer's integer type and double, made or found on demand */
    uint32_t zero;                /* a 32-bit 0, made or found on demand */
    uint32_t opencl_std;          /* the OpenCL.std import */
    uint32_t sizes[8], size_ids[8]; /* constants of the pointer's integer type made so far */
    size_t size_count;
    struct {
        uint32_t opcode, a, b, id; /* the type's opcode and the two operands after its result id */
    } made[8];                     /* types this pass made: its edits are not in the module until emitted */
    size_t made_count;
};

static bool
has_capability(const struct spvcond_module *m, uint32_t capability)
{
    for (size_t i = m->section[SPVCOND_SECTION_CAPABILITY]; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == OP_CAPABILITY && spvcond_word_count_of(w[0]) >= 2 && w[1] == capability)
            return true;
    }
    return false;
}

/* The module's type `opcode` whose operands after its result id are `a` (and `b` when it has `words` 4 or
 * more words), or the one this pass made: its id, 0 when there is none. */
static uint32_t
known_type(const struct lower *l, uint32_t opcode, uint32_t words, uint32_t a, uint32_t b)
{
    const struct spvcond_module *m = l->m;
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == opcode && spvcond_word_count_of(w[0]) >= words && w[2] == a &&
            (words < 4 || w[3] == b))
            return w[1];
    }
    for (size_t k = 0; k < l->made_count; k++)
        if (l->made[k].opcode == opcode && l->made[k].a == a && (words < 4 || l->made[k].b == b))
            return l->made[k].id;
    return 0;
}

/* A fresh id for a type this pass makes, remembered so that known_type finds it. */
static spvcond_result
new_type_id(struct lower *l, uint32_t opcode, uint32_t a, uint32_t b, uint32_t *id)
{
    if (l->made_count == sizeof(l->made) / sizeof(l->made[0]))
        return SPVCOND_ERROR_LIMIT;
    spvcond_result r = spvcond_edit_new_id(l->m, id);
    if (r == SPVCOND_OK) {
        l->made[l->made_count].opcode = opcode;
        l->made[l->made_count].a = a;
        l->made[l->made_count].b = b;
        l->made[l->made_count++].id = *id;
    }
    return r;
}

/* A scalar type of the module (OpTypeInt width 0, OpTypeFloat width), or one made before the other
 * globals, its capability declared if need be. */
static spvcond_result
scalar_type(struct lower *l, uint32_t opcode, uint32_t width, uint32_t capability, uint32_t *id)
{
    struct spvcond_module *m = l->m;
    uint32_t words = opcode == OP_TYPE_INT ? 4 : 3;
    if ((*id = known_type(l, opcode, words, width, 0)) != 0)
        return SPVCOND_OK;
    spvcond_result r = new_type_id(l, opcode, width, 0, id);
    uint32_t type[4] = {spvcond_first_word(words, opcode), *id, width, 0};
    if (r == SPVCOND_OK)
        r = spvcond_edit_prepend_to_section(m, SPVCOND_SECTION_GLOBAL, type, words);
    if (r == SPVCOND_OK && !has_capability(m, capability)) {
        uint32_t cap[2] = {spvcond_first_word(2, OP_CAPABILITY), capability};
        r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_CAPABILITY, cap, 2);
    }
    return r;
}

/* The result type of the instruction that defines `id`, or 0. */
static uint32_t
type_of(const struct spvcond_module *m, uint32_t id)
{
    size_t d = spvcond_def(m, id);
    return d != SIZE_MAX && spvcond_inst_word_count(m, d) >= 3 ? spvcond_inst_words(m, d)[1] : 0;
}

/* Bytes of a type's values in memory: scalars, vectors (three components take four) and arrays of them;
 * 0 for what this does not size (structs, whose padding is not worked out here). */
static uint64_t
size_of(const struct spvcond_module *m, uint32_t type, int depth)
{
    size_t d = spvcond_def(m, type);
    if (d == SIZE_MAX || depth > 16)
        return 0;
    const uint32_t *w = spvcond_inst_words(m, d);
    uint32_t n = spvcond_word_count_of(w[0]), op = spvcond_opcode_of(w[0]);
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && n >= 3)
        return w[2] % 8 ? 0 : w[2] / 8;
    if (op == OP_TYPE_VECTOR && n >= 4)
        return size_of(m, w[2], depth + 1) * (w[3] == 3 ? 4 : w[3]);
    if (op == OP_TYPE_ARRAY && n >= 4) {
        size_t c = spvcond_def(m, w[3]);
        const uint32_t *cw = c == SIZE_MAX ? NULL : spvcond_inst_words(m, c);
        if (!cw || spvcond_opcode_of(cw[0]) != OP_CONSTANT || spvcond_word_count_of(cw[0]) < 4)
            return 0;
        uint64_t length = cw[3] | (spvcond_word_count_of(cw[0]) >= 5 ? (uint64_t)cw[4] << 32 : 0);
        return length <= UINT32_MAX ? size_of(m, w[2], depth + 1) * length : 0;
    }
    return 0;
}

/* A constant of the pointer's integer type, made after the other globals. */
static spvcond_result
size_constant(struct lower *l, uint32_t size, uint32_t *id)
{
    for (size_t k = 0; k < l->size_count; k++)
        if (l->sizes[k] == size) {
            *id = l->size_ids[k];
            return SPVCOND_OK;
        }
    spvcond_result r = spvcond_edit_new_id(l->m, id);
    uint32_t c[5] = {spvcond_first_word(l->pointer_bits == 64 ? 5 : 4, OP_CONSTANT), l->int_type, *id, size, 0};
    if (r == SPVCOND_OK)
        r = spvcond_edit_append_to_section(l->m, SPVCOND_SECTION_GLOBAL, c, l->pointer_bits == 64 ? 5 : 4);
    if (r == SPVCOND_OK && l->size_count < 8) {
        l->sizes[l->size_count] = size;
        l->size_ids[l->size_count++] = *id;
    }
    return r;
}

/* OpPtrEqual, OpPtrNotEqual, OpPtrDiff: the pointers as integers, compared or subtracted (the difference in
 * elements: bytes over the element's size). */
static spvcond_result
lower_pointers(struct lower *l, size_t i, const uint32_t *w)
{
    struct spvcond_module *m = l->m;
    uint32_t op = spvcond_opcode_of(w[0]), element = 0;
    if (op == OP_PTR_DIFF) {
        size_t p = spvcond_def(m, type_of(m, w[3]));
        const uint32_t *pw = p == SIZE_MAX ? NULL : spvcond_inst_words(m, p);
        bool pointer = pw && spvcond_opcode_of(pw[0]) == OP_TYPE_POINTER && spvcond_word_count_of(pw[0]) >= 4;
        uint64_t size = pointer ? size_of(m, pw[3], 0) : 0;
        if (size == 0 || size > UINT32_MAX)
            return SPVCOND_OK; /* not sized here: stays, and the consumer's profile says so */
        element = (uint32_t)size;
    }
    uint32_t ia, ib, out[32], n = 0;
    spvcond_result r = l->int_type ? SPVCOND_OK
                                   : scalar_type(l, OP_TYPE_INT, l->pointer_bits, CAPABILITY_INT64, &l->int_type);
    if (r == SPVCOND_OK)
        r = spvcond_edit_new_id(m, &ia);
    if (r == SPVCOND_OK)
        r = spvcond_edit_new_id(m, &ib);
    if (r != SPVCOND_OK)
        return r;
    uint32_t convert[8] = {spvcond_first_word(4, OP_CONVERT_PTR_TO_U), l->int_type, ia, w[3],
                           spvcond_first_word(4, OP_CONVERT_PTR_TO_U), l->int_type, ib, w[4]};
    memcpy(out, convert, sizeof(convert));
    n = 8;
    if (op != OP_PTR_DIFF) {
        uint32_t compare[5] = {spvcond_first_word(5, op == OP_PTR_EQUAL ? OP_I_EQUAL : OP_I_NOT_EQUAL), w[1], w[2], ia, ib};
        memcpy(out + n, compare, sizeof(compare));
        n += 5;
    } else {
        bool same = spvcond_scalar_width(m, w[1]) == l->pointer_bits;
        uint32_t bytes, elements = w[2], divisor;
        if ((r = spvcond_edit_new_id(m, &bytes)) != SPVCOND_OK || (r = size_constant(l, element, &divisor)) != SPVCOND_OK)
            return r;
        if (!same && (r = spvcond_edit_new_id(m, &elements)) != SPVCOND_OK)
            return r;
        uint32_t diff[10] = {spvcond_first_word(5, OP_I_SUB), l->int_type, bytes, ia, ib,
                             spvcond_first_word(5, OP_S_DIV), l->int_type, elements, bytes, divisor};
        memcpy(out + n, diff, sizeof(diff));
        n += 10;
        if (!same) { /* a result narrower than the pointer */
            uint32_t narrow[4] = {spvcond_first_word(4, OP_S_CONVERT), w[1], w[2], elements};
            memcpy(out + n, narrow, sizeof(narrow));
            n += 4;
        }
    }
    l->lowered++;
    return spvcond_edit_replace(m, i, out, n);
}

/* The words of a lowered OpCopyLogical, gathered before they replace it. */
struct logical {
    uint32_t words[2048];
    uint32_t count;
};

/* A composite's member types: a struct's members, or an array's element `length` times (up to 64). */
static bool
members(const struct spvcond_module *m, uint32_t type, uint32_t *out, uint32_t *n)
{
    size_t d = spvcond_def(m, type);
    if (d == SIZE_MAX)
        return false;
    const uint32_t *w = spvcond_inst_words(m, d);
    uint32_t wc = spvcond_word_count_of(w[0]), op = spvcond_opcode_of(w[0]);
    if (op == OP_TYPE_STRUCT) {
        *n = wc - 2;
        if (*n > 64)
            return false;
        memcpy(out, w + 2, *n * sizeof(uint32_t));
        return true;
    }
    if (op != OP_TYPE_ARRAY || wc < 4)
        return false;
    size_t c = spvcond_def(m, w[3]);
    const uint32_t *cw = c == SIZE_MAX ? NULL : spvcond_inst_words(m, c);
    if (!cw || spvcond_opcode_of(cw[0]) != OP_CONSTANT || spvcond_word_count_of(cw[0]) < 4 || cw[3] > 64 ||
        (spvcond_word_count_of(cw[0]) >= 5 && cw[4]))
        return false;
    *n = cw[3];
    for (uint32_t k = 0; k < *n; k++)
        out[k] = w[2];
    return true;
}

/* `value` of type `from` as a value of the logically matching type `to`, member by member: its id in *out
 * (`result` when not 0, for the last instruction). False when the types do not match as this knows. */
static spvcond_result
copy_logical(struct lower *l, struct logical *g, uint32_t value, uint32_t from, uint32_t to, uint32_t result,
             uint32_t *out, int depth, bool *ok)
{
    struct spvcond_module *m = l->m;
    spvcond_result r = SPVCOND_OK;
    if (from == to) {
        if (!result) {
            *out = value;
            return SPVCOND_OK;
        }
        if (g->count + 4 > 2048)
            return *ok = false, SPVCOND_OK;
        uint32_t copy[4] = {spvcond_first_word(4, OP_COPY_OBJECT), to, result, value};
        memcpy(g->words + g->count, copy, sizeof(copy));
        g->count += 4;
        *out = result;
        return SPVCOND_OK;
    }
    uint32_t from_members[64], to_members[64], nf = 0, nt = 0, parts[64];
    if (depth > 8 || !members(m, from, from_members, &nf) || !members(m, to, to_members, &nt) || nf != nt ||
        spvcond_def_opcode(m, from) != spvcond_def_opcode(m, to))
        return *ok = false, SPVCOND_OK;
    for (uint32_t k = 0; k < nf && *ok && r == SPVCOND_OK; k++) {
        uint32_t member;
        if (g->count + 5 > 2048 || (r = spvcond_edit_new_id(m, &member)) != SPVCOND_OK) {
            *ok = r == SPVCOND_OK ? false : *ok;
            break;
        }
        uint32_t extract[5] = {spvcond_first_word(5, OP_COMPOSITE_EXTRACT), from_members[k], member, value, k};
        memcpy(g->words + g->count, extract, sizeof(extract));
        g->count += 5;
        r = copy_logical(l, g, member, from_members[k], to_members[k], 0, &parts[k], depth + 1, ok);
    }
    if (r != SPVCOND_OK || !*ok)
        return r;
    if (!result && (r = spvcond_edit_new_id(m, &result)) != SPVCOND_OK)
        return r;
    if (g->count + 3 + nf > 2048)
        return *ok = false, SPVCOND_OK;
    g->words[g->count++] = spvcond_first_word(3 + nf, OP_COMPOSITE_CONSTRUCT);
    g->words[g->count++] = to;
    g->words[g->count++] = result;
    memcpy(g->words + g->count, parts, nf * sizeof(uint32_t));
    g->count += nf;
    *out = result;
    return SPVCOND_OK;
}

/* OpCopyLogical: its operand taken apart and put together again as the result's type. */
static spvcond_result
lower_copy_logical(struct lower *l, size_t i, const uint32_t *w)
{
    struct logical *g = spvcond_alloc(l->m->ctx, sizeof(*g));
    if (!g)
        return spvcond_oom(l->m->ctx);
    g->count = 0;
    bool ok = true;
    uint32_t out;
    spvcond_result r = copy_logical(l, g, w[3], type_of(l->m, w[3]), w[1], w[2], &out, 0, &ok);
    if (r == SPVCOND_OK && ok) {
        l->lowered++;
        r = spvcond_edit_replace(l->m, i, g->words, g->count);
    }
    spvcond_dealloc(l->m->ctx, g);
    return r;
}

/* How many words a memory-operands mask takes, itself included. */
static uint32_t
memory_operands_words(uint32_t mask)
{
    return 1 + !!(mask & 0x2) + !!(mask & 0x8) + !!(mask & 0x10);
}

/* OpCopyMemory as a load of the source and a store to the target: the target's memory operands on the store,
 * the source's (the second set, else the same) on the load. */
static spvcond_result
copy_as_load_store(struct lower *l, size_t i, const uint32_t *w)
{
    struct spvcond_module *m = l->m;
    uint32_t n = spvcond_word_count_of(w[0]);
    size_t p = spvcond_def(m, type_of(m, w[2]));
    const uint32_t *pw = p == SIZE_MAX ? NULL : spvcond_inst_words(m, p);
    if (!pw || spvcond_opcode_of(pw[0]) != OP_TYPE_POINTER || spvcond_word_count_of(pw[0]) < 4)
        return SPVCOND_OK; /* not a pointer the module defines: stays */
    uint32_t target_ops = n > 3 ? memory_operands_words(w[3]) : 0;
    uint32_t source_at = 3 + target_ops, source_ops = source_at < n ? n - source_at : target_ops;
    if (target_ops > 4 || source_ops > 4 || 3 + target_ops > n)
        return SPVCOND_OK;
    const uint32_t *source_mask = source_at < n ? w + source_at : w + 3;
    uint32_t value, out[16], k = 0;
    spvcond_result r = spvcond_edit_new_id(m, &value);
    if (r != SPVCOND_OK)
        return r;
    out[k++] = spvcond_first_word(4 + source_ops, OP_LOAD);
    out[k++] = pw[3];
    out[k++] = value;
    out[k++] = w[2];
    for (uint32_t j = 0; j < source_ops; j++)
        out[k++] = source_mask[j];
    out[k++] = spvcond_first_word(3 + target_ops, OP_STORE);
    out[k++] = w[1];
    out[k++] = value;
    for (uint32_t j = 0; j < target_ops; j++)
        out[k++] = w[3 + j];
    l->lowered++;
    return spvcond_edit_replace(m, i, out, k);
}

/* OpCopyMemory[Sized] with the source's memory operands: the target's alone. */
static spvcond_result
lower_copy(struct lower *l, size_t i, const uint32_t *w, uint32_t flags)
{
    uint32_t n = spvcond_word_count_of(w[0]), first = spvcond_opcode_of(w[0]) == OP_COPY_MEMORY ? 3 : 4;
    if ((flags & SPVCOND_LOWER_COPY_MEMORY) && spvcond_opcode_of(w[0]) == OP_COPY_MEMORY)
        return copy_as_load_store(l, i, w);
    if (!(flags & SPVCOND_LOWER_SPIRV14) || first >= n || first + memory_operands_words(w[first]) >= n)
        return SPVCOND_OK;
    uint32_t keep = first + memory_operands_words(w[first]), out[16];
    if (keep > 16)
        return SPVCOND_OK;
    memcpy(out, w, keep * sizeof(uint32_t));
    out[0] = spvcond_first_word(keep, spvcond_opcode_of(w[0]));
    l->lowered++;
    return spvcond_edit_replace(l->m, i, out, keep);
}

/* printf's scalar float argument `value` converted to double before the call (at `i`): *out the double, or 0
 * when it is not such a float. */
static spvcond_result
float_as_double(struct lower *l, size_t i, uint32_t value, uint32_t *out)
{
    struct spvcond_module *m = l->m;
    uint32_t type = type_of(m, value);
    spvcond_result r = SPVCOND_OK;
    *out = 0;
    if (spvcond_def_opcode(m, type) != OP_TYPE_FLOAT || spvcond_scalar_width(m, type) >= 64)
        return r;
    if (!l->double_type && (r = scalar_type(l, OP_TYPE_FLOAT, 64, CAPABILITY_FLOAT64, &l->double_type)) != SPVCOND_OK)
        return r;
    if ((r = spvcond_edit_new_id(m, out)) != SPVCOND_OK)
        return r;
    uint32_t convert[4] = {spvcond_first_word(4, OP_F_CONVERT), l->double_type, *out, value};
    return spvcond_edit_insert(m, i, convert, 4);
}

/* A vector type of four components of `component`, found or made right after the component's type. */
static spvcond_result
vector4_type(struct lower *l, uint32_t component, uint32_t *id)
{
    if ((*id = known_type(l, OP_TYPE_VECTOR, 4, component, 4)) != 0)
        return SPVCOND_OK;
    size_t d = spvcond_def(l->m, component);
    if (d == SIZE_MAX)
        return SPVCOND_ERROR_INVALID_ID;
    spvcond_result r = new_type_id(l, OP_TYPE_VECTOR, component, 4, id);
    uint32_t type[4] = {spvcond_first_word(4, OP_TYPE_VECTOR), *id, component, 4};
    return r == SPVCOND_OK ? spvcond_edit_insert(l->m, d + 1, type, 4) : r;
}

/* printf's integer vector argument `value` of four bytes or less as the 32-bit integer of its bytes (a char2
 * or char3 first widened to a char4, its added lanes undefined): *out that integer, or 0 when it is not
 * such a vector. */
static spvcond_result
vector_as_integer(struct lower *l, size_t i, uint32_t value, uint32_t *out)
{
    struct spvcond_module *m = l->m;
    uint32_t type = type_of(m, value);
    size_t d = spvcond_def(m, type);
    const uint32_t *vw = d == SIZE_MAX ? NULL : spvcond_inst_words(m, d);
    spvcond_result r = SPVCOND_OK;
    *out = 0;
    if (!vw || spvcond_opcode_of(vw[0]) != OP_TYPE_VECTOR || spvcond_word_count_of(vw[0]) < 4 ||
        spvcond_def_opcode(m, vw[2]) != OP_TYPE_INT || size_of(m, type, 0) == 0 || size_of(m, type, 0) > 4)
        return r;
    uint32_t component = vw[2], count = vw[3], int32;
    if ((r = scalar_type(l, OP_TYPE_INT, 32, CAPABILITY_KERNEL, &int32)) != SPVCOND_OK) /* not int_type: the pointer's */
        return r;
    if (size_of(m, component, 0) == 1 && count < 4) {
        uint32_t four, widened;
        if ((r = vector4_type(l, component, &four)) != SPVCOND_OK || (r = spvcond_edit_new_id(m, &widened)) != SPVCOND_OK)
            return r;
        uint32_t shuffle[9] = {spvcond_first_word(9, OP_VECTOR_SHUFFLE), four, widened, value, value, 0, 1,
                               count == 3 ? 2 : 0xffffffffu, 0xffffffffu};
        if ((r = spvcond_edit_insert(m, i, shuffle, 9)) != SPVCOND_OK)
            return r;
        value = widened;
    }
    if ((r = spvcond_edit_new_id(m, out)) != SPVCOND_OK)
        return r;
    uint32_t cast[4] = {spvcond_first_word(4, OP_BITCAST), int32, *out, value};
    return spvcond_edit_insert(m, i, cast, 4);
}

/* printf's arguments as the consumer reads them (SPVCOND_LOWER_PRINTF_DOUBLE, _SMALL_VECTORS): each one
 * converted before the call, the call then given the converted values. */
static spvcond_result
lower_printf(struct lower *l, size_t i, const uint32_t *w, uint32_t flags)
{
    uint32_t n = spvcond_word_count_of(w[0]);
    uint32_t out[256];
    if (n > 256)
        return SPVCOND_OK;
    memcpy(out, w, n * sizeof(uint32_t));
    bool changed = false;
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = 6; k < n && r == SPVCOND_OK; k++) {
        uint32_t converted = 0;
        if (flags & SPVCOND_LOWER_PRINTF_DOUBLE)
            r = float_as_double(l, i, w[k], &converted);
        if (r == SPVCOND_OK && !converted && (flags & SPVCOND_LOWER_PRINTF_SMALL_VECTORS))
            r = vector_as_integer(l, i, w[k], &converted);
        if (converted) {
            out[k] = converted;
            changed = true;
        }
    }
    if (r == SPVCOND_OK && changed) {
        l->lowered++;
        r = spvcond_edit_replace(l->m, i, out, n);
    }
    return r;
}

/* A pointer type's storage class and pointee, or false. */
static bool
pointer_type(const struct spvcond_module *m, uint32_t type, uint32_t *storage, uint32_t *pointee)
{
    size_t d = spvcond_def(m, type);
    const uint32_t *w = d == SIZE_MAX ? NULL : spvcond_inst_words(m, d);
    if (!w || spvcond_opcode_of(w[0]) != OP_TYPE_POINTER || spvcond_word_count_of(w[0]) < 4)
        return false;
    *storage = w[2];
    *pointee = w[3];
    return true;
}

/* printf's format: a pointer to an array of char cast to a pointer to char becomes the address of the
 * array's first element (OpInBoundsPtrAccessChain base 0 0). */
static spvcond_result
lower_printf_format(struct lower *l, const uint32_t *w)
{
    struct spvcond_module *m = l->m;
    size_t d = spvcond_def(m, w[5]);
    if (d == SIZE_MAX || spvcond_inst_opcode(m, d) != OP_BITCAST || spvcond_inst_word_count(m, d) != 4 ||
        spvcond_edit_replacement(m, d))
        return SPVCOND_OK;
    const uint32_t *cast = spvcond_inst_words(m, d);
    uint32_t storage, from_storage, element, array;
    if (!pointer_type(m, cast[1], &storage, &element) || !pointer_type(m, type_of(m, cast[3]), &from_storage, &array) ||
        storage != from_storage || spvcond_def_opcode(m, element) != OP_TYPE_INT || spvcond_scalar_width(m, element) != 8 ||
        spvcond_def_opcode(m, array) != OP_TYPE_ARRAY || spvcond_inst_word_count(m, spvcond_def(m, array)) < 4 ||
        spvcond_inst_words(m, spvcond_def(m, array))[2] != element)
        return SPVCOND_OK;
    spvcond_result r = SPVCOND_OK;
    if (!l->zero) {
        uint32_t uint_type; /* a kernel declares no capability for 32-bit integers: Kernel stands for none */
        r = scalar_type(l, OP_TYPE_INT, 32, CAPABILITY_KERNEL, &uint_type);
        if (r == SPVCOND_OK)
            r = spvcond_edit_new_id(m, &l->zero);
        uint32_t c[4] = {spvcond_first_word(4, OP_CONSTANT), uint_type, l->zero, 0};
        if (r == SPVCOND_OK)
            r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_GLOBAL, c, 4);
    }
    uint32_t chain[6] = {spvcond_first_word(6, OP_IN_BOUNDS_PTR_ACCESS_CHAIN), cast[1], cast[2], cast[3], l->zero,
                         l->zero};
    if (r == SPVCOND_OK) {
        l->lowered++;
        r = spvcond_edit_replace(m, d, chain, 6);
    }
    return r;
}

/* A function's variables with initializers, from `first` (the instruction after a block's label): each
 * initializer dropped and stored into its variable before the block's first instruction that is not a
 * variable (nor a line), where the variables' scope begins. */
static spvcond_result
lower_initializers(struct lower *l, size_t first, size_t *next)
{
    struct spvcond_module *m = l->m;
    size_t i = first;
    spvcond_result r = SPVCOND_OK;
    uint32_t stores[3 * 64], n = 0;
    for (; i < m->inst_count && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        if (op == OP_LINE || op == OP_NO_LINE)
            continue;
        if (op != OP_VARIABLE)
            break;
        if (wc < 5 || w[3] != STORAGE_FUNCTION || n == 64)
            continue;
        uint32_t plain[4] = {spvcond_first_word(4, OP_VARIABLE), w[1], w[2], w[3]};
        stores[3 * n] = spvcond_first_word(3, OP_STORE);
        stores[3 * n + 1] = w[2];
        stores[3 * n + 2] = w[4];
        n++;
        l->lowered++;
        r = spvcond_edit_replace(m, i, plain, 4);
    }
    if (r == SPVCOND_OK && n)
        r = spvcond_edit_insert(m, i, stores, 3 * n);
    *next = i;
    return r;
}

static spvcond_result
run(struct lower *l, uint32_t flags)
{
    struct spvcond_module *m = l->m;
    for (size_t i = m->section[SPVCOND_SECTION_EXTINST_IMPORT]; i < m->section[SPVCOND_SECTION_EXTINST_IMPORT + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_EXT_INST_IMPORT && spvcond_word_count_of(w[0]) >= 3 &&
            strcmp(spvcond_inst_string(m, i, 2), "OpenCL.std") == 0)
            l->opencl_std = w[1];
    }
    /* The sections hold what stands there, an instruction the grammar does not know included (found by
     * fuzzing: a one-word unknown opcode after OpMemoryModel): each is taken by its opcode. */
    for (size_t i = m->section[SPVCOND_SECTION_MEMORY_MODEL]; i < m->section[SPVCOND_SECTION_MEMORY_MODEL + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == OP_MEMORY_MODEL)
            l->pointer_bits = w[1] == 1 ? 32 : w[1] == 2 ? 64 : 0;
    }
    spvcond_result r = SPVCOND_OK;
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; r == SPVCOND_OK && (flags & SPVCOND_LOWER_SPIRV14) &&
                                                            i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        if (op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING) {
            l->lowered++;
            r = spvcond_edit_delete(m, i);
        }
    }
    bool entry_block = false; /* the next label begins a function's first block */
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; r == SPVCOND_OK && i < m->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), n = spvcond_word_count_of(w[0]);
        if (op == OP_FUNCTION)
            entry_block = true;
        if (op == OP_LABEL && entry_block && (flags & SPVCOND_LOWER_FUNCTION_INITIALIZERS)) {
            entry_block = false;
            size_t next;
            r = lower_initializers(l, i + 1, &next);
            i = next - 1; /* the loop goes on from the block's first instruction that is not a variable */
            continue;
        }
        if ((flags & SPVCOND_LOWER_SPIRV14) && l->pointer_bits && n >= 5 &&
            (op == OP_PTR_EQUAL || op == OP_PTR_NOT_EQUAL || op == OP_PTR_DIFF))
            r = lower_pointers(l, i, w);
        else if ((flags & SPVCOND_LOWER_SPIRV14) && op == OP_COPY_LOGICAL && n >= 4)
            r = lower_copy_logical(l, i, w);
        else if ((flags & (SPVCOND_LOWER_SPIRV14 | SPVCOND_LOWER_COPY_MEMORY)) &&
                 (op == OP_COPY_MEMORY || op == OP_COPY_MEMORY_SIZED) && n >= 3)
            r = lower_copy(l, i, w, flags);
        else if (op == OP_EXT_INST && n >= 6 && l->opencl_std && w[3] == l->opencl_std && w[4] == OPENCL_STD_PRINTF) {
            if (flags & SPVCOND_LOWER_PRINTF_FORMAT)
                r = lower_printf_format(l, w);
            if (r == SPVCOND_OK && (flags & (SPVCOND_LOWER_PRINTF_DOUBLE | SPVCOND_LOWER_PRINTF_SMALL_VECTORS)))
                r = lower_printf(l, i, w, flags);
        }
    }
    return r;
}

spvcond_result
spvcond_lower(spvcond_module *m, uint32_t flags, size_t *lowered)
{
    if (!m || (flags & ~(uint32_t)(SPVCOND_LOWER_SPIRV14 | SPVCOND_LOWER_PRINTF_DOUBLE | SPVCOND_LOWER_COPY_MEMORY |
                                   SPVCOND_LOWER_FUNCTION_INITIALIZERS | SPVCOND_LOWER_PRINTF_FORMAT |
                                   SPVCOND_LOWER_PRINTF_SMALL_VECTORS)))
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    spvcond_result r = spvcond_edit_begin_pass(m, "lowering");
    if (r != SPVCOND_OK)
        return r;
    struct lower l;
    memset(&l, 0, sizeof(l));
    l.m = m;
    r = run(&l, flags);
    if (r != SPVCOND_OK)
        spvcond_edit_abandon(m);
    else if (lowered)
        *lowered = l.lowered;
    return r;
}
