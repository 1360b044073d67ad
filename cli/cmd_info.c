/* SPDX-License-Identifier: MIT */
/* spvcond info: a summary of a module, as text or JSON. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "cli.h"
#include "json_writer.h"

static const char info_usage[] =
    "USAGE: spvcond info [--json] [<input>]\n"
    "\n"
    "Print a summary: SPIR-V version, bound, addressing and memory model, capabilities, extensions,\n"
    "entry points with execution modes, functions, call edges, spec constants with SpecIds and\n"
    "defaults, ConditionalINTEL decorations, the extension's conditional instructions, and the functions\n"
    "that share a name (a multi-target module's variants) with their conditions in words.\n";

/* A grammar name, or the number when the grammar has none. */
static const char *
name_or_number(const char *name, uint32_t value, char *buf, size_t n)
{
    if (name)
        return name;
    snprintf(buf, n, "%u", value);
    return buf;
}

/* Everything info prints, read through the public inspection calls. */
struct summary {
    spvcond_module_info info;
    size_t capabilities, conditional_capabilities, extensions, conditional_extensions;
    size_t conditional_decorations, conditional_entry_points, conditional_copies, spec_constants, entry_points;
};

/* The items of a kind: how many in all, and how many of them are conditional. */
static void
count_items(const spvcond_module *m, spvcond_item_kind kind, size_t *all, size_t *conditional)
{
    size_t cursor = 0;
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    *all = *conditional = 0;
    for (; spvcond_module_next_item(m, kind, &cursor, &it); ++*all)
        *conditional += it.condition != 0;
}

static void
count_summary(const spvcond_module *m, struct summary *s)
{
    memset(s, 0, sizeof(*s));
    s->info.size = sizeof(s->info);
    spvcond_module_info_get(m, &s->info);
    size_t unused;
    count_items(m, SPVCOND_ITEM_CAPABILITY, &s->capabilities, &s->conditional_capabilities);
    s->capabilities -= s->conditional_capabilities; /* the plain ones */
    count_items(m, SPVCOND_ITEM_EXTENSION, &s->extensions, &s->conditional_extensions);
    s->extensions -= s->conditional_extensions;
    count_items(m, SPVCOND_ITEM_ENTRY_POINT, &s->entry_points, &s->conditional_entry_points);
    count_items(m, SPVCOND_ITEM_CONDITIONAL_DECORATION, &s->conditional_decorations, &unused);
    count_items(m, SPVCOND_ITEM_CONDITIONAL_COPY, &s->conditional_copies, &unused);
    count_items(m, SPVCOND_ITEM_SPEC_CONSTANT, &s->spec_constants, &unused);
}

/* Describe a spec constant's value: "true", "false", "42", or "LogicalAnd %5 %6". */
static void
spec_default(const spvcond_item *c, char *buf, size_t n)
{
    const uint32_t *w = c->operands;
    size_t len = 0, wc = c->operand_count;
    buf[0] = 0;
    switch (c->opcode) {
    case SpvOpSpecConstantTrue: snprintf(buf, n, "true"); return;
    case SpvOpSpecConstantFalse: snprintf(buf, n, "false"); return;
    case SpvOpSpecConstant:
        if (wc == 1)
            snprintf(buf, n, "%u", w[0]);
        else if (wc >= 2)
            snprintf(buf, n, "%llu", (unsigned long long)w[0] | ((unsigned long long)w[1] << 32));
        return;
    case SpvOpSpecConstantOp:
        len = (size_t)snprintf(buf, n, "%s", wc && spvcond_opcode_name(w[0])[0] ? spvcond_opcode_name(w[0]) : "?");
        for (size_t k = 1; k < wc && len < n; k++)
            len += (size_t)snprintf(buf + len, n - len, " %%%u", w[k]);
        return;
    default:
        len = (size_t)snprintf(buf, n, "%s", spvcond_opcode_name(c->opcode));
        for (size_t k = 0; k < wc && len < n; k++)
            len += (size_t)snprintf(buf + len, n - len, " %u", w[k]);
        return;
    }
}

/* Operands of an execution mode after the mode itself, as text. */
static void
mode_operands(const spvcond_item *mode, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t k = 0; k < mode->operand_count && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, mode->opcode == SpvOpExecutionModeId ? " %%%u" : " %u",
                                mode->operands[k]);
}

struct variant_out {
    struct json *json; /* NULL: text */
    size_t count;
};

static void
print_variant(void *user, const spvcond_variant *v)
{
    struct variant_out *o = user;
    o->count++;
    if (!o->json) {
        printf("  %s %s %%%u if %s\n", v->entry_point ? "kernel" : "function", v->name, v->function, v->condition_text);
        return;
    }
    json_object_begin(o->json);
    json_kv_string(o->json, "name", v->name);
    json_kv_bool(o->json, "entry_point", v->entry_point);
    json_kv_uint(o->json, "function", v->function);
    json_kv_string(o->json, "condition", v->condition_text);
    json_object_end(o->json);
}

/* How the variants cover the devices (spvcond_variant_coverage): a line a group, or a JSON object. */
static void
print_coverage(void *user, const spvcond_coverage *c)
{
    struct variant_out *o = user;
    o->count++;
    const char *kind = c->entry_point ? "entry point" : "copy in";
    if (!o->json) {
        if (!c->total) {
            printf("  %s %s: not counted (more devices than the proof budget covers)\n", kind, c->name);
            return;
        }
        printf("  %s %s:", kind, c->name);
        for (size_t k = 0; k < c->variant_count; k++)
            printf("%s %%%u for %llu%s%s%s", k ? ";" : "", c->variants[k], (unsigned long long)c->devices[k],
                   c->examples[k] ? " (" : "", c->examples[k] ? c->examples[k] : "", c->examples[k] ? ")" : "");
        if (c->uncovered)
            printf("; none for %llu (%s)", (unsigned long long)c->uncovered, c->uncovered_example);
        printf("\n");
        return;
    }
    json_object_begin(o->json);
    json_kv_string(o->json, "name", c->name);
    json_kv_bool(o->json, "entry_point", c->entry_point);
    if (!c->entry_point)
        json_kv_uint(o->json, "copy", c->id);
    json_kv_uint(o->json, "devices", c->total);
    json_key(o->json, "variants");
    json_array_begin(o->json);
    for (size_t k = 0; k < c->variant_count; k++) {
        json_object_begin(o->json);
        json_kv_uint(o->json, "id", c->variants[k]);
        json_kv_uint(o->json, "devices", c->devices[k]);
        json_key(o->json, "example");
        if (c->examples[k])
            json_string(o->json, c->examples[k]);
        else
            json_null(o->json);
        json_object_end(o->json);
    }
    json_array_end(o->json);
    json_kv_uint(o->json, "uncovered", c->uncovered);
    json_key(o->json, "uncovered_example");
    if (c->uncovered_example)
        json_string(o->json, c->uncovered_example);
    else
        json_null(o->json);
    json_object_end(o->json);
}

/* The header, capabilities, extensions and imports, as text. */
static void
print_text_header(const spvcond_module *m, const struct summary *s)
{
    char b2[32], b3[32];
    const spvcond_module_info *info = &s->info;
    uint32_t version = spvcond_module_version(m);
    printf("SPIR-V %u.%u, generator 0x%08x, bound %u, %zu instructions, %zu words%s\n", (version >> 16) & 0xffu,
           (version >> 8) & 0xffu, info->generator, spvcond_module_bound(m), spvcond_module_instruction_count(m),
           info->word_count, spvcond_module_was_byte_swapped(m) ? " (read byte-swapped)" : "");
    if (info->has_memory_model)
        printf("addressing model %s, memory model %s\n",
               name_or_number(info->addressing_model_name, info->addressing_model, b2, 32),
               name_or_number(info->memory_model_name, info->memory_model, b3, 32));
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    size_t cursor = 0;
    printf("capabilities (%zu):", s->capabilities);
    while (spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &it))
        if (!it.condition)
            printf(" %s", name_or_number(it.value_name, it.value, b2, 32));
    printf("\n");
    if (s->conditional_capabilities) {
        printf("conditional capabilities (%zu):", s->conditional_capabilities);
        for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &it);)
            if (it.condition)
                printf(" %s if %%%u", name_or_number(it.value_name, it.value, b2, 32), it.condition);
        printf("\n");
    }
    printf("extensions (%zu):", s->extensions + s->conditional_extensions);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_EXTENSION, &cursor, &it);) {
        if (it.condition)
            printf(" %s if %%%u", it.name, it.condition);
        else
            printf(" %s", it.name);
    }
    printf("\n");
    uint32_t registry;
    if (spvcond_module_registry_version(m, &registry) == SPVCOND_OK)
        printf("device registry version: %u (OpDeviceRegistryVersion)\n", registry);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_EXT_INST_IMPORT, &cursor, &it);)
        printf("extended instruction set %%%u: %s\n", it.id, it.name);
}

/* Functions that share a name: a multi-target module's variants ('spvcond check' says which a device gets),
 * and which devices keep which, over those the module's constants tell apart. */
static void
print_text_variants(const spvcond_module *m)
{
    struct variant_out o = {NULL, 0};
    printf("variants (functions that share a name):\n");
    spvcond_function_variants(m, NULL, print_variant, &o);
    if (!o.count) {
        printf("  none\n");
        return;
    }
    struct variant_out cov = {NULL, 0};
    printf("coverage (devices its constants tell apart, how many keep each variant, which keep none):\n");
    if (spvcond_variant_coverage(m, print_coverage, &cov) != SPVCOND_OK || !cov.count)
        printf("  %s\n", cov.count ? "(incomplete)" : "none");
}

static void
print_text(const spvcond_module *m, const struct summary *s)
{
    char buf[512], b2[32], b3[32];
    const spvcond_module_info *info = &s->info;
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    size_t cursor;
    print_text_header(m, s);
    printf("entry points (%zu, %zu conditional):\n", s->entry_points, s->conditional_entry_points);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_ENTRY_POINT, &cursor, &it);) {
        printf("  %s %%%u \"%s\"", name_or_number(it.value_name, it.value, b2, 32), it.target, it.name);
        if (it.condition)
            printf(" if %%%u", it.condition);
        spvcond_item mode = SPVCOND_SIZED(spvcond_item);
        bool first = true;
        for (size_t c = 0; spvcond_module_next_execution_mode(m, it.target, &c, &mode);) {
            mode_operands(&mode, buf, sizeof(buf));
            printf("%s %s%s", first ? "; modes:" : ",", name_or_number(mode.value_name, mode.value, b3, 32), buf);
            first = false;
        }
        printf("\n");
    }
    printf("functions: %zu (%zu definitions, %zu declarations)\n", info->function_count,
           info->function_count - info->function_declaration_count, info->function_declaration_count);
    printf("call edges: %zu\n", info->call_edge_count);
    printf("names: %zu, decorations: %zu\n", info->name_count, info->decoration_count);
    printf("spec constants (%zu):\n", s->spec_constants);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_SPEC_CONSTANT, &cursor, &it);) {
        spec_default(&it, buf, sizeof(buf));
        printf("  %%%u", it.id);
        if (it.has_spec_id)
            printf(" SpecId %u", it.spec_id);
        printf(" = %s%s%s%s\n", buf, it.name ? " \"" : "", it.name ? it.name : "", it.name ? "\"" : "");
    }
    printf("ConditionalINTEL decorations (%zu):\n", s->conditional_decorations);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_CONDITIONAL_DECORATION, &cursor, &it);)
        printf("  %s %%%u%s%s%s if %%%u\n", it.value_name, it.target, it.name ? " \"" : "", it.name ? it.name : "",
               it.name ? "\"" : "", it.condition);
    printf("conditional instructions: %zu capabilities, %zu extensions, %zu entry points, %zu copy-objects\n",
           s->conditional_capabilities, s->conditional_extensions, s->conditional_entry_points,
           s->conditional_copies);
    print_text_variants(m);
}

/* JSON: null, or the number. */
static void
json_uint_or_null(struct json *j, const char *key, bool has, uint32_t value)
{
    json_key(j, key);
    if (has)
        json_uint(j, value);
    else
        json_null(j);
}

static void
json_string_or_null(struct json *j, const char *key, const char *value)
{
    json_key(j, key);
    if (value)
        json_string(j, value);
    else
        json_null(j);
}

static void
json_header(struct json *j, const spvcond_module *m, const spvcond_module_info *info)
{
    char buf[32];
    uint32_t version = spvcond_module_version(m);
    snprintf(buf, sizeof(buf), "%u.%u", (version >> 16) & 0xffu, (version >> 8) & 0xffu);
    json_kv_string(j, "version", buf);
    json_kv_uint(j, "generator", info->generator);
    json_kv_uint(j, "bound", spvcond_module_bound(m));
    json_kv_uint(j, "instructions", spvcond_module_instruction_count(m));
    json_kv_uint(j, "words", info->word_count);
    json_kv_bool(j, "byte_swapped", spvcond_module_was_byte_swapped(m));
    if (info->has_memory_model) {
        json_kv_string(j, "addressing_model", name_or_number(info->addressing_model_name, info->addressing_model,
                                                             buf, sizeof(buf)));
        json_kv_string(j, "memory_model", name_or_number(info->memory_model_name, info->memory_model, buf,
                                                         sizeof(buf)));
    }
}

/* Capabilities, extensions and imports: the module's declarations. */
static void
json_declarations(struct json *j, const spvcond_module *m)
{
    char b2[32];
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    size_t cursor;
    json_key(j, "capabilities");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &it);)
        if (!it.condition)
            json_string(j, name_or_number(it.value_name, it.value, b2, 32));
    json_array_end(j);
    json_key(j, "conditional_capabilities");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &it);) {
        if (!it.condition)
            continue;
        json_object_begin(j);
        json_kv_string(j, "capability", name_or_number(it.value_name, it.value, b2, 32));
        json_kv_uint(j, "condition", it.condition);
        json_object_end(j);
    }
    json_array_end(j);
    json_key(j, "extensions");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_EXTENSION, &cursor, &it);)
        if (!it.condition)
            json_string(j, it.name);
    json_array_end(j);
    json_key(j, "conditional_extensions");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_EXTENSION, &cursor, &it);) {
        if (!it.condition)
            continue;
        json_object_begin(j);
        json_kv_string(j, "extension", it.name);
        json_kv_uint(j, "condition", it.condition);
        json_object_end(j);
    }
    json_array_end(j);
    uint32_t registry;
    bool has_registry = spvcond_module_registry_version(m, &registry) == SPVCOND_OK;
    json_uint_or_null(j, "device_registry_version", has_registry, registry);
    json_key(j, "extended_instruction_sets");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_EXT_INST_IMPORT, &cursor, &it);) {
        json_object_begin(j);
        json_kv_uint(j, "id", it.id);
        json_kv_string(j, "name", it.name);
        json_object_end(j);
    }
    json_array_end(j);
}

static void
json_entry_points(struct json *j, const spvcond_module *m)
{
    char b2[32];
    spvcond_item it = SPVCOND_SIZED(spvcond_item), mode = SPVCOND_SIZED(spvcond_item);
    json_key(j, "entry_points");
    json_array_begin(j);
    for (size_t cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_ENTRY_POINT, &cursor, &it);) {
        json_object_begin(j);
        json_kv_string(j, "name", it.name);
        json_kv_string(j, "execution_model", name_or_number(it.value_name, it.value, b2, 32));
        json_kv_uint(j, "function", it.target);
        json_uint_or_null(j, "condition", it.condition != 0, it.condition);
        json_key(j, "execution_modes");
        json_array_begin(j);
        for (size_t c = 0; spvcond_module_next_execution_mode(m, it.target, &c, &mode);) {
            json_object_begin(j);
            json_kv_string(j, "mode", name_or_number(mode.value_name, mode.value, b2, 32));
            json_key(j, mode.opcode == SpvOpExecutionModeId ? "ids" : "literals");
            json_array_begin(j);
            for (size_t x = 0; x < mode.operand_count; x++)
                json_uint(j, mode.operands[x]);
            json_array_end(j);
            json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
    }
    json_array_end(j);
}

/* Spec constants and ConditionalINTEL decorations: the module's conditions. */
static void
json_conditions(struct json *j, const spvcond_module *m, const struct summary *s)
{
    char buf[512];
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    size_t cursor;
    json_key(j, "spec_constants");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_SPEC_CONSTANT, &cursor, &it);) {
        json_object_begin(j);
        json_kv_uint(j, "id", it.id);
        json_kv_string(j, "opcode", spvcond_opcode_name(it.opcode));
        json_uint_or_null(j, "spec_id", it.has_spec_id, it.spec_id);
        spec_default(&it, buf, sizeof(buf));
        json_kv_string(j, "default", buf);
        json_string_or_null(j, "name", it.name);
        json_object_end(j);
    }
    json_array_end(j);
    json_key(j, "conditional_decorations");
    json_array_begin(j);
    for (cursor = 0; spvcond_module_next_item(m, SPVCOND_ITEM_CONDITIONAL_DECORATION, &cursor, &it);) {
        json_object_begin(j);
        json_kv_uint(j, "target", it.target);
        json_kv_string(j, "target_opcode", it.value_name);
        json_string_or_null(j, "name", it.name);
        json_kv_uint(j, "condition", it.condition);
        json_object_end(j);
    }
    json_array_end(j);
    json_key(j, "conditional_instructions");
    json_object_begin(j);
    json_kv_uint(j, "capabilities", s->conditional_capabilities);
    json_kv_uint(j, "extensions", s->conditional_extensions);
    json_kv_uint(j, "entry_points", s->conditional_entry_points);
    json_kv_uint(j, "copy_objects", s->conditional_copies);
    json_object_end(j);
}

static void
print_json(const spvcond_module *m, const struct summary *s)
{
    struct json j;
    json_init(&j, stdout);
    json_object_begin(&j);
    json_header(&j, m, &s->info);
    json_declarations(&j, m);
    json_entry_points(&j, m);
    json_kv_uint(&j, "functions", s->info.function_count);
    json_kv_uint(&j, "function_declarations", s->info.function_declaration_count);
    json_kv_uint(&j, "call_edges", s->info.call_edge_count);
    json_kv_uint(&j, "names", s->info.name_count);
    json_kv_uint(&j, "decorations", s->info.decoration_count);
    json_conditions(&j, m, s);
    json_key(&j, "variants");
    json_array_begin(&j);
    struct variant_out o = {&j, 0};
    spvcond_function_variants(m, NULL, print_variant, &o);
    json_array_end(&j);
    json_key(&j, "coverage");
    json_array_begin(&j);
    struct variant_out cov = {&j, 0};
    if (o.count)
        spvcond_variant_coverage(m, print_coverage, &cov);
    json_array_end(&j);
    json_object_end(&j);
}

struct info_args {
    bool json;
};

static int
run_info(struct cli *cli, void *args)
{
    const struct info_args *a = args;
    spvcond_module *m;
    int rc = cli_load_module(cli, cli_input(cli), &m);
    if (rc != EXIT_OK)
        return rc;
    struct summary s;
    count_summary(m, &s);
    if (a->json)
        print_json(m, &s);
    else
        print_text(m, &s);
    spvcond_module_destroy(m);
    return EXIT_OK;
}

static const struct cli_opt info_options[] = {
    CLI_FLAG("json", 0, struct info_args, json, "Print the same as one JSON object."),
    CLI_END,
};

const struct cli_command cli_info = {
    .name = "info",
    .summary = "Summarize a module: header, capabilities, entry points, functions, spec constants,\n"
               "conditions.",
    .usage = info_usage,
    .options = info_options,
    .args_size = sizeof(struct info_args),
    CLI_ONE_INPUT,
    .run = run_info,
};
