/* SPDX-License-Identifier: MIT */
/* Inspection (spvcond.h, "inspection"): what a module holds, read through the index, for callers that
 * summarise a module (spvcond info) without the library's internals. */
#include <string.h>

#include "ir/index.h"
#include "ir/module.h"
#include "support/sized.h"

static bool
is_decoration(uint32_t op)
{
    switch (op) {
    case SPVCOND_OP_DECORATE: case SPVCOND_OP_MEMBER_DECORATE: case SPVCOND_OP_GROUP_DECORATE:
    case SPVCOND_OP_GROUP_MEMBER_DECORATE: case SPVCOND_OP_DECORATE_ID: case SPVCOND_OP_DECORATE_STRING:
    case SPVCOND_OP_MEMBER_DECORATE_STRING:
        return true;
    default:
        return false;
    }
}

spvcond_result
spvcond_module_info_get(const spvcond_module *m, spvcond_module_info *out)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out)
        return spvcond_invalid(m->ctx, "spvcond_module_info_get", "`info` is NULL");
    spvcond_result r = SPVCOND_SIZED_OUT_CHECK(m->ctx, out, spvcond_module_info);
    if (r != SPVCOND_OK)
        return r;
    spvcond_module_info info = {.size = sizeof(info), .generator = m->generator, .word_count = m->word_count,
                                .function_count = m->function_count};
    for (size_t i = m->section[SPVCOND_SECTION_MEMORY_MODEL]; i < m->section[SPVCOND_SECTION_MEMORY_MODEL + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_MEMORY_MODEL) {
            info.has_memory_model = true;
            info.addressing_model = w[1];
            info.memory_model = w[2];
            info.addressing_model_name = spvcond_grammar_enumerant_name(SPVCOND_KIND_AddressingModel, w[1]);
            info.memory_model_name = spvcond_grammar_enumerant_name(SPVCOND_KIND_MemoryModel, w[2]);
        }
    }
    for (size_t i = 0; i < m->inst_count; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        info.name_count += op == SPVCOND_OP_NAME || op == SPVCOND_OP_MEMBER_NAME;
        info.decoration_count += is_decoration(op);
        info.call_edge_count += op == SPVCOND_OP_FUNCTION_CALL; /* only in functions' blocks: the reader's rule */
    }
    for (size_t f = 0; f < m->function_count; f++)
        info.function_declaration_count += m->functions[f].first_block == m->functions[f].end;
    SPVCOND_SIZED_OUT(out, &info, spvcond_module_info);
    return SPVCOND_OK;
}

const char *
spvcond_opcode_name(uint32_t opcode)
{
    return spvcond_grammar_opcode_name(opcode);
}

/* The instructions a kind lives among: [begin, end). */
static void
kind_range(const struct spvcond_module *m, spvcond_item_kind kind, size_t *begin, size_t *end)
{
    int first = SPVCOND_SECTION_CAPABILITY, last = SPVCOND_SECTION_CAPABILITY;
    switch (kind) {
    case SPVCOND_ITEM_CAPABILITY: break;
    case SPVCOND_ITEM_EXTENSION: first = last = SPVCOND_SECTION_EXTENSION; break;
    case SPVCOND_ITEM_EXT_INST_IMPORT: first = last = SPVCOND_SECTION_EXTINST_IMPORT; break;
    case SPVCOND_ITEM_EXECUTION_MODE: first = last = SPVCOND_SECTION_EXECUTION_MODE; break;
    case SPVCOND_ITEM_SPEC_CONSTANT: first = last = SPVCOND_SECTION_GLOBAL; break;
    case SPVCOND_ITEM_CONDITIONAL_DECORATION: first = last = SPVCOND_SECTION_ANNOTATION; break;
    case SPVCOND_ITEM_CONDITIONAL_COPY: first = last = SPVCOND_SECTION_FUNCTION; break;
    default: *begin = *end = 0; return;
    }
    *begin = m->section[first];
    *end = m->section[last + 1];
}

/* Instruction i as an item of `kind`, or false when it is none. */
static bool
item_of(const struct spvcond_module *m, spvcond_item_kind kind, size_t i, spvcond_item *it)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
    *it = (spvcond_item){.size = sizeof(*it), .kind = kind, .opcode = op, .instruction = i};
    switch (kind) {
    case SPVCOND_ITEM_CAPABILITY:
        if (op == SPVCOND_OP_CAPABILITY)
            it->value = w[1];
        else if (op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL)
            it->condition = w[1], it->value = w[2];
        else
            return false;
        it->value_name = spvcond_grammar_enumerant_name(SPVCOND_KIND_Capability, it->value);
        return true;
    case SPVCOND_ITEM_EXTENSION:
        if (op == SPVCOND_OP_EXTENSION)
            it->name = spvcond_inst_string(m, i, 1);
        else if (op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL)
            it->condition = w[1], it->name = spvcond_inst_string(m, i, 2);
        else
            return false;
        return true;
    case SPVCOND_ITEM_EXT_INST_IMPORT:
        if (op != SPVCOND_OP_EXT_INST_IMPORT)
            return false;
        it->id = w[1];
        it->name = spvcond_inst_string(m, i, 2);
        return true;
    case SPVCOND_ITEM_ENTRY_POINT: {
        uint32_t k = op == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL;
        it->condition = k ? w[1] : 0;
        it->value = w[1 + k];
        it->target = w[2 + k];
        it->name = spvcond_inst_string(m, i, 3 + k);
        it->value_name = spvcond_grammar_enumerant_name(SPVCOND_KIND_ExecutionModel, it->value);
        return true;
    }
    case SPVCOND_ITEM_EXECUTION_MODE:
        if (op != SPVCOND_OP_EXECUTION_MODE && op != SPVCOND_OP_EXECUTION_MODE_ID)
            return false;
        it->target = w[1];
        it->value = w[2];
        it->value_name = spvcond_grammar_enumerant_name(SPVCOND_KIND_ExecutionMode, w[2]);
        it->operands = w + 3;
        it->operand_count = wc - 3;
        return true;
    case SPVCOND_ITEM_SPEC_CONSTANT:
        if (!spvcond_is_spec_constant_opcode(op))
            return false;
        it->id = w[2];
        it->has_spec_id = spvcond_spec_id_of(m, w[2], &it->spec_id);
        it->name = spvcond_name_of(m, w[2]);
        it->operands = w + 3;
        it->operand_count = wc - 3;
        return true;
    case SPVCOND_ITEM_CONDITIONAL_DECORATION:
        if (!spvcond_is_condition_decoration(w) || wc < 4)
            return false;
        it->target = w[1];
        it->condition = w[3];
        it->value = spvcond_def_opcode(m, w[1]);
        it->value_name = spvcond_grammar_opcode_name(it->value);
        it->name = spvcond_name_of(m, w[1]);
        return true;
    case SPVCOND_ITEM_CONDITIONAL_COPY:
        if (op != SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL)
            return false;
        it->id = w[2];
        return true;
    default:
        return false;
    }
}

bool
spvcond_module_next_execution_mode(const spvcond_module *m, uint32_t function, size_t *cursor, spvcond_item *item)
{
    if (!m || !cursor || !item || !SPVCOND_SIZED_OK(item, spvcond_item))
        return false;
    uint32_t begin, end;
    spvcond_refs_range(&m->modes, function, &begin, &end);
    if (*cursor >= end - begin)
        return false;
    spvcond_item it;
    item_of(m, SPVCOND_ITEM_EXECUTION_MODE, m->modes.inst[begin + (*cursor)++], &it);
    return SPVCOND_SIZED_OUT(item, &it, spvcond_item);
}

bool
spvcond_module_next_item(const spvcond_module *m, spvcond_item_kind kind, size_t *cursor, spvcond_item *item)
{
    if (!m || !cursor || !item || !SPVCOND_SIZED_OK(item, spvcond_item))
        return false;
    spvcond_item it;
    if (kind == SPVCOND_ITEM_ENTRY_POINT) { /* the index's list: the cursor counts entry points */
        if (*cursor >= m->entry_point_count)
            return false;
        item_of(m, kind, m->entry_points[(*cursor)++], &it);
        return SPVCOND_SIZED_OUT(item, &it, spvcond_item);
    }
    size_t begin, end;
    kind_range(m, kind, &begin, &end);
    for (size_t i = *cursor > begin ? *cursor : begin; i < end; i++) {
        if (item_of(m, kind, i, &it)) {
            *cursor = i + 1;
            return SPVCOND_SIZED_OUT(item, &it, spvcond_item);
        }
    }
    *cursor = end > *cursor ? end : *cursor;
    return false;
}
