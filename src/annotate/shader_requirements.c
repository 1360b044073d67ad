/* SPDX-License-Identifier: MIT */
/* A shader module's requirements (spec/annotate.md, "Shader modules"): Vulkan lets a module declare a
 * capability only where the device allows it, so each function requires the optional capabilities its code
 * uses (Int64, Int8, subgroup operations, integer dot products, 8- and 16-bit storage...), beside the
 * aspects fp64, fp16 and atomic64, which stand for Float64, Float16 and Int64Atomics as they do for kernels.
 * Images are core in Vulkan: the image aspect is no shader's requirement; nor is fp16 in a module that
 * does not declare Float16 (its half values are 16-bit storage's, loaded and converted). */
#include "annotate/state.h"
#include "devices/devices.h"

/* Whether the module is a shader module: it declares Shader and not Kernel. */
static bool
shader_module(const struct annotate *a)
{
    return spvcond_declared_caps_find(&a->caps, SPVCOND_CAPABILITY_SHADER) != SIZE_MAX &&
           spvcond_declared_caps_find(&a->caps, SPVCOND_CAPABILITY_KERNEL) == SIZE_MAX;
}

enum { NARROW_KINDS = 3 };

struct item_caps {
    const struct annotate *a;
    const uint8_t *narrow; /* per id: NARROW_* of types (NULL: the module declares no storage capability) */
    uint64_t need;
};

/* Types that contain 16-bit or 8-bit scalars: what a pointer to them needs a storage capability for. */
enum { NARROW_16 = 1, NARROW_8 = 2 };

static uint8_t *
narrow_types(const struct spvcond_module *m)
{
    uint8_t *narrow = spvcond_alloc_array(m->ctx, m->bound + 1, 1);
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; narrow && i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        if (wc < 3 || w[1] > m->bound)
            continue;
        uint8_t f = 0;
        if (op == SPVCOND_OP_TYPE_INT || op == SPVCOND_OP_TYPE_FLOAT)
            f = w[2] == 16 ? NARROW_16 : w[2] == 8 ? NARROW_8 : 0;
        else if (op == SPVCOND_OP_TYPE_VECTOR || op == SPVCOND_OP_TYPE_MATRIX || op == SPVCOND_OP_TYPE_ARRAY ||
                 op == SPVCOND_OP_TYPE_RUNTIME_ARRAY)
            f = w[2] <= m->bound ? narrow[w[2]] : 0;
        else if (op == SPVCOND_OP_TYPE_STRUCT)
            for (uint32_t k = 2; k < wc; k++)
                f |= w[k] <= m->bound ? narrow[w[k]] : 0;
        else
            continue; /* not a type: word 1 is a type, or nothing of this */
        narrow[w[1]] = f;
    }
    return narrow;
}

/* The declared capability of the first of `caps` the module declares, as a requirement bit (0: none). */
static uint64_t
first_declared(const struct annotate *a, const uint32_t *caps, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        size_t d = spvcond_declared_caps_find(&a->caps, caps[k]);
        if (d != SIZE_MAX)
            return spvcond_declared_cap_done(d);
    }
    return 0;
}

/* A pointer to a type with 16-bit or 8-bit scalars in a buffer, push constants or the interface: the storage
 * capability the validator asks of it (StorageBuffer16BitAccess and its kin), which no grammar rule names. */
static uint64_t
storage_need(const struct item_caps *c, const uint32_t *w)
{
    if (!c->narrow || spvcond_opcode_of(w[0]) != SPVCOND_OP_TYPE_POINTER || spvcond_word_count_of(w[0]) < 4 ||
        w[3] > c->a->m->bound)
        return 0;
    uint8_t narrow = c->narrow[w[3]];
    uint64_t need = 0;
    for (int bits = 16; bits >= 8; bits -= 8) {
        if (!(narrow & (bits == 16 ? NARROW_16 : NARROW_8)))
            continue;
        static const uint32_t buffer16[] = {SPVCOND_CAPABILITY_STORAGE_BUFFER16_BIT_ACCESS,
                                            SPVCOND_CAPABILITY_UNIFORM_AND_STORAGE_BUFFER16_BIT_ACCESS},
                              buffer8[] = {SPVCOND_CAPABILITY_STORAGE_BUFFER8_BIT_ACCESS,
                                           SPVCOND_CAPABILITY_UNIFORM_AND_STORAGE_BUFFER8_BIT_ACCESS},
                              uniform16[] = {SPVCOND_CAPABILITY_UNIFORM_AND_STORAGE_BUFFER16_BIT_ACCESS},
                              uniform8[] = {SPVCOND_CAPABILITY_UNIFORM_AND_STORAGE_BUFFER8_BIT_ACCESS},
                              push16[] = {SPVCOND_CAPABILITY_STORAGE_PUSH_CONSTANT16},
                              push8[] = {SPVCOND_CAPABILITY_STORAGE_PUSH_CONSTANT8},
                              io16[] = {SPVCOND_CAPABILITY_STORAGE_INPUT_OUTPUT16};
        switch (w[2]) {
        case SPVCOND_STORAGE_CLASS_STORAGE_BUFFER:
        case SPVCOND_STORAGE_CLASS_PHYSICAL_STORAGE_BUFFER:
            need |= bits == 16 ? first_declared(c->a, buffer16, 2) : first_declared(c->a, buffer8, 2);
            break;
        case SPVCOND_STORAGE_CLASS_UNIFORM:
            need |= bits == 16 ? first_declared(c->a, uniform16, 1) : first_declared(c->a, uniform8, 1);
            break;
        case SPVCOND_STORAGE_CLASS_PUSH_CONSTANT:
            need |= bits == 16 ? first_declared(c->a, push16, 1) : first_declared(c->a, push8, 1);
            break;
        case SPVCOND_STORAGE_CLASS_INPUT:
        case SPVCOND_STORAGE_CLASS_OUTPUT:
            need |= bits == 16 ? first_declared(c->a, io16, 1) : 0;
            break;
        default:
            break;
        }
    }
    return need;
}

/* The 16-bit and the 8-bit storage capabilities. */
static const uint32_t storage16[] = {SPVCOND_CAPABILITY_STORAGE_BUFFER16_BIT_ACCESS,
                                     SPVCOND_CAPABILITY_UNIFORM_AND_STORAGE_BUFFER16_BIT_ACCESS,
                                     SPVCOND_CAPABILITY_STORAGE_PUSH_CONSTANT16,
                                     SPVCOND_CAPABILITY_STORAGE_INPUT_OUTPUT16};
static const uint32_t storage8[] = {SPVCOND_CAPABILITY_STORAGE_BUFFER8_BIT_ACCESS,
                                    SPVCOND_CAPABILITY_UNIFORM_AND_STORAGE_BUFFER8_BIT_ACCESS,
                                    SPVCOND_CAPABILITY_STORAGE_PUSH_CONSTANT8};

/* Whether the module declares one of the storage capabilities (a type walk is worth making). */
static bool
declares_storage(const struct annotate *a)
{
    return first_declared(a, storage16, sizeof(storage16) / sizeof(storage16[0])) != 0 ||
           first_declared(a, storage8, sizeof(storage8) / sizeof(storage8[0])) != 0;
}

static spvcond_result
note_item_capability(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct item_caps *c = user;
    (void)inst;
    for (size_t k = 0; k < count; k++) {
        size_t d = spvcond_declared_caps_find(&c->a->caps, caps[k]);
        c->need |= d != SIZE_MAX ? spvcond_declared_cap_done(d) : 0;
    }
    return SPVCOND_OK;
}

/* The narrow arithmetic types a shader module may declare storage for: Float16, Int16, Int8. */
static const struct narrow_kind {
    uint32_t capability;
    uint32_t opcode, width; /* its scalar type */
} narrow_kinds[NARROW_KINDS] = {
    {SPVCOND_CAPABILITY_FLOAT16, SPVCOND_OP_TYPE_FLOAT, 16},
    {SPVCOND_CAPABILITY_INT16, SPVCOND_OP_TYPE_INT, 16},
    {SPVCOND_CAPABILITY_INT8, SPVCOND_OP_TYPE_INT, 8},
};

/* Whether `type` is a scalar or vector of kind k. */
static bool
of_kind(const struct spvcond_module *m, uint32_t type, const struct narrow_kind *k)
{
    size_t d = spvcond_def(m, type);
    if (d != SIZE_MAX && spvcond_inst_opcode(m, d) == SPVCOND_OP_TYPE_VECTOR && spvcond_inst_word_count(m, d) >= 3)
        d = spvcond_def(m, spvcond_inst_words(m, d)[2]);
    return d != SIZE_MAX && spvcond_inst_opcode(m, d) == k->opcode && spvcond_inst_word_count(m, d) >= 3 &&
           spvcond_inst_words(m, d)[2] == k->width;
}

/* Of function f, bit k when it computes with values of narrow_kinds[k] (Float16 values added, Int8 values
 * compared...), which needs that capability: a value only loaded, copied or converted to another width of its
 * kind (OpUConvert, OpSConvert, OpFConvert: what SPV_KHR_16bit_storage and SPV_KHR_8bit_storage allow, and
 * what the validator checks; an int8 converted to float needs Int8) needs the storage capability alone. Only the kinds in
 * `kinds` (a mask) are looked for. */
static uint8_t
computes_narrow(const struct annotate *a, size_t f, uint8_t kinds)
{
    const struct spvcond_module *m = a->m;
    const struct spvcond_function *fn = &m->functions[f];
    uint8_t found = 0;
    for (size_t i = fn->begin; i < fn->end && found != kinds; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
        if (!gi || !gi->has_type || spvcond_word_count_of(w[0]) < 3 || op == SPVCOND_OP_LOAD ||
            op == SPVCOND_OP_COPY_OBJECT || (op >= SPVCOND_OP_U_CONVERT && op <= SPVCOND_OP_F_CONVERT))
            continue;
        for (int k = 0; k < NARROW_KINDS; k++)
            if ((kinds >> k & 1) && of_kind(m, w[1], &narrow_kinds[k]))
                found |= (uint8_t)(1u << k);
    }
    return found;
}

/* The narrow kinds whose values may be storage's alone: the module declares the capability and storage
 * for it (16-bit storage for Float16 and Int16, 8-bit storage for Int8). */
static uint8_t
storage_kinds(const struct annotate *a, const uint8_t *narrow)
{
    bool has16 = first_declared(a, storage16, sizeof(storage16) / sizeof(storage16[0])) != 0,
         has8 = first_declared(a, storage8, sizeof(storage8) / sizeof(storage8[0])) != 0;
    uint8_t kinds = 0;
    for (int k = 0; narrow && k < NARROW_KINDS; k++)
        if (spvcond_declared_caps_find(&a->caps, narrow_kinds[k].capability) != SIZE_MAX &&
            (narrow_kinds[k].width == 16 ? has16 : has8))
            kinds |= (uint8_t)(1u << k);
    return kinds;
}

spvcond_result
spvcond_shader_requirements(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    if (!a->inf.cap_need || !shader_module(a))
        return SPVCOND_OK;
    /* The declared capabilities a Vulkan device may lack and no aspect stands for. */
    uint64_t optional = 0;
    for (size_t d = 0; d < a->caps.count; d++) {
        uint32_t cap = a->caps.values[d];
        if (spvcond_vulkan_capability_optional(cap) && spvcond_aspect_of_capability(cap, false) == SPVCOND_ASPECT_MAX)
            optional |= spvcond_declared_cap_done(d);
    }
    /* Per module-level item (types above all: OpTypeInt 64 is what needs Int64, a pointer to a buffer's
     * halves StorageBuffer16BitAccess), what it needs, once. */
    size_t base = m->section[SPVCOND_SECTION_EXTINST_IMPORT], items = m->section[SPVCOND_SECTION_FUNCTION] - base;
    uint64_t *item_need = optional ? spvcond_alloc_array(m->ctx, items + 1, sizeof(uint64_t)) : NULL;
    uint8_t *narrow = optional && declares_storage(a) ? narrow_types(m) : NULL;
    if (optional && (!item_need || (declares_storage(a) && !narrow))) {
        spvcond_dealloc(m->ctx, item_need);
        return spvcond_oom(m->ctx);
    }
    bool float16 = spvcond_declared_caps_find(&a->caps, SPVCOND_CAPABILITY_FLOAT16) != SIZE_MAX;
    uint8_t kinds = storage_kinds(a, narrow); /* whose values may be storage's alone */
    if (kinds && !(a->narrow_computes = spvcond_alloc_array(m->ctx, m->function_count + 1, 1))) {
        spvcond_dealloc(m->ctx, item_need);
        spvcond_dealloc(m->ctx, narrow);
        return spvcond_oom(m->ctx);
    }
    a->narrow_kinds = kinds;
    a->shader_optional = optional;
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        spvcond_aspects *own = &a->inf.own[f];
        own->bits[SPVCOND_ASPECT_IMAGE / 64] &= ~(UINT64_C(1) << (SPVCOND_ASPECT_IMAGE % 64));
        uint8_t computes = kinds ? computes_narrow(a, f, kinds) : 0;
        if (kinds)
            a->narrow_computes[f] = computes;
        if (!float16 || ((kinds & 1) && !(computes & 1)))
            own->bits[SPVCOND_ASPECT_FP16 / 64] &= ~(UINT64_C(1) << (SPVCOND_ASPECT_FP16 % 64));
        uint64_t need = a->inf.cap_need[f];
        for (uint32_t k = a->inf.item_start[f]; optional && k < a->inf.item_start[f + 1] && r == SPVCOND_OK; k++) {
            uint32_t item = a->inf.item_list[k];
            if (!(item_need[item] & SPVCOND_CAPS_KNOWN)) {
                struct item_caps c = {a, narrow, 0};
                r = spvcond_instruction_capabilities(m, base + item, note_item_capability, &c);
                item_need[item] = c.need | storage_need(&c, spvcond_inst_words(m, base + item)) | SPVCOND_CAPS_KNOWN;
            }
            need |= item_need[item] & ~SPVCOND_CAPS_KNOWN;
        }
        for (int k = 1; k < NARROW_KINDS; k++) /* Int16, Int8 values a function only moves need storage alone */
            if ((kinds >> k & 1) && !(computes >> k & 1))
                need &= ~first_declared(a, &narrow_kinds[k].capability, 1);
        own->bits[2] = need & optional;
    }
    spvcond_dealloc(m->ctx, item_need);
    spvcond_dealloc(m->ctx, narrow);
    return r;
}

/* The optional capabilities' conditions from the functions that require them: those no instruction names
 * (8- and 16-bit storage: a pointer type's) had no user, and stayed on every device. Float16, Int16 and Int8
 * where their values may be storage's alone are needed where a function computes with such values, not
 * wherever the type is named (a function that only loads halves needs StorageBuffer16BitAccess, not
 * Float16): their users' conditions are replaced by those functions' code conditions (a kind no function
 * computes with keeps its users', the type's). */
spvcond_result
spvcond_shader_capabilities(struct annotate *a)
{
    spvcond_result r = SPVCOND_OK;
    for (uint64_t caps = a->shader_optional; caps && r == SPVCOND_OK; caps &= caps - 1) {
        size_t d = (size_t)__builtin_ctzll(caps);
        for (size_t f = 0; f < a->m->function_count && r == SPVCOND_OK; f++)
            if (a->inf.own[f].bits[2] >> d & 1)
                r = spvcond_cond_union(&a->store, a->cap_cond[d], a->code_cond[f], &a->cap_cond[d]);
    }
    for (int k = 0; a->narrow_computes && k < NARROW_KINDS && r == SPVCOND_OK; k++) {
        size_t d = spvcond_declared_caps_find(&a->caps, narrow_kinds[k].capability);
        if (!(a->narrow_kinds >> k & 1) || d == SIZE_MAX)
            continue;
        uint32_t cond = 0;
        for (size_t f = 0; f < a->m->function_count && r == SPVCOND_OK; f++)
            if (a->narrow_computes[f] >> k & 1)
                r = spvcond_cond_union(&a->store, cond, a->code_cond[f], &cond);
        if (cond)
            a->cap_cond[d] = cond;
    }
    return r;
}
