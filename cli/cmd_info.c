/* SPDX-License-Identifier: MIT */
/* spvcond info: a summary of a module, as text or JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_writer.h"
#include "ir/index.h"
#include "ir/module.h"

static const char info_usage[] =
    "USAGE: spvcond info [--json] [<input>]\n"
    "\n"
    "Print a summary: SPIR-V version, bound, addressing and memory model, capabilities, extensions,\n"
    "entry points with execution modes, functions, call edges, spec constants with SpecIds and\n"
    "defaults, ConditionalINTEL decorations, the extension's conditional instructions, and the functions\n"
    "that share a name (a multi-target module's variants) with their conditions in words.\n"
    "\n"
    "  --json             Print the same as one JSON object.\n"
    "  -h, --help         Print this help and exit.\n";

static const char *
enum_name(unsigned kind, uint32_t value, char *buf, size_t n)
{
    const char *s = spvcond_grammar_enumerant_name(kind, value);
    if (s)
        return s;
    snprintf(buf, n, "%u", value);
    return buf;
}

struct summary {
    size_t capabilities, conditional_capabilities, extensions, conditional_extensions;
    size_t declarations, conditional_decorations, conditional_entry_points, conditional_copies;
    size_t spec_constants, decorations, names;
};

static bool
is_spec_constant(uint32_t op)
{
    return (op >= SPVCOND_OP_SPEC_CONSTANT_TRUE && op <= SPVCOND_OP_SPEC_CONSTANT_OP) ||
           (op >= SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL && op <= SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL);
}

static bool
is_conditional_decoration(const struct spvcond_module *m, size_t i, uint32_t *target, uint32_t *cond)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    if (!spvcond_is_condition_decoration(w) || spvcond_word_count_of(w[0]) < 4)
        return false;
    *target = w[1];
    *cond = w[3];
    return true;
}

static void
count_summary(const struct spvcond_module *m, struct summary *s)
{
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < m->inst_count; i++) {
        uint32_t op = spvcond_inst_opcode(m, i), t, c;
        switch (op) {
        case SPVCOND_OP_CAPABILITY: s->capabilities++; break;
        case SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL: s->conditional_capabilities++; break;
        case SPVCOND_OP_EXTENSION: s->extensions++; break;
        case SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL: s->conditional_extensions++; break;
        case SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL: s->conditional_entry_points++; break;
        case SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL: s->conditional_copies++; break;
        case SPVCOND_OP_NAME: case SPVCOND_OP_MEMBER_NAME: s->names++; break;
        case SPVCOND_OP_DECORATE: case SPVCOND_OP_MEMBER_DECORATE: case SPVCOND_OP_GROUP_DECORATE:
        case SPVCOND_OP_GROUP_MEMBER_DECORATE: case SPVCOND_OP_DECORATE_ID: case SPVCOND_OP_DECORATE_STRING:
        case SPVCOND_OP_MEMBER_DECORATE_STRING:
            s->decorations++;
            if (is_conditional_decoration(m, i, &t, &c))
                s->conditional_decorations++;
            break;
        default:
            if (is_spec_constant(op) && i >= m->section[SPVCOND_SECTION_GLOBAL] &&
                i < m->section[SPVCOND_SECTION_FUNCTION])
                s->spec_constants++;
        }
    }
    for (size_t f = 0; f < m->function_count; f++)
        if (m->functions[f].first_block == m->functions[f].end)
            s->declarations++;
}

/* Describe a spec constant's value: "true", "false", "42", or "LogicalAnd %5 %6". */
static void
spec_default(const struct spvcond_module *m, size_t i, char *buf, size_t n)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t wc = spvcond_word_count_of(w[0]), op = spvcond_opcode_of(w[0]);
    size_t len = 0;
    buf[0] = 0;
    switch (op) {
    case SPVCOND_OP_SPEC_CONSTANT_TRUE: snprintf(buf, n, "true"); return;
    case SPVCOND_OP_SPEC_CONSTANT_FALSE: snprintf(buf, n, "false"); return;
    case SPVCOND_OP_SPEC_CONSTANT:
        if (wc == 4)
            snprintf(buf, n, "%u", w[3]);
        else if (wc >= 5)
            snprintf(buf, n, "%llu", (unsigned long long)w[3] | ((unsigned long long)w[4] << 32));
        return;
    case SPVCOND_OP_SPEC_CONSTANT_OP:
        len = (size_t)snprintf(buf, n, "%s", spvcond_grammar_opcode_name(w[3])[0] ? spvcond_grammar_opcode_name(w[3]) : "?");
        for (uint32_t k = 4; k < wc && len < n; k++)
            len += (size_t)snprintf(buf + len, n - len, " %%%u", w[k]);
        return;
    default:
        len = (size_t)snprintf(buf, n, "%s", spvcond_grammar_opcode_name(op));
        for (uint32_t k = 3; k < wc && len < n; k++)
            len += (size_t)snprintf(buf + len, n - len, " %u", w[k]);
        return;
    }
}

/* Operands of an execution mode after the mode itself, as text. */
static void
mode_operands(const uint32_t *w, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    uint32_t op = spvcond_opcode_of(w[0]);
    for (uint32_t k = 3; k < spvcond_word_count_of(w[0]) && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, op == SPVCOND_OP_EXECUTION_MODE_ID ? " %%%u" : " %u", w[k]);
}

struct entry {
    uint32_t condition, model, function;
    const char *name;
};

static struct entry
entry_point(const struct spvcond_module *m, size_t i)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL)
        return (struct entry){w[1], w[2], w[3], spvcond_inst_string(m, i, 4)};
    return (struct entry){0, w[1], w[2], spvcond_inst_string(m, i, 3)};
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

static void
print_text(struct spvcond_module *m, const struct summary *s)
{
    char buf[512], b2[32], b3[32];
    printf("SPIR-V %u.%u, generator 0x%08x, bound %u, %zu instructions, %zu words%s\n",
           spvcond_version_major(m->version), spvcond_version_minor(m->version), m->generator, m->header_bound,
           m->inst_count, m->word_count, m->swapped ? " (read byte-swapped)" : "");
    for (size_t i = m->section[SPVCOND_SECTION_MEMORY_MODEL]; i < m->section[SPVCOND_SECTION_MEMORY_MODEL + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_MEMORY_MODEL)
            printf("addressing model %s, memory model %s\n", enum_name(SPVCOND_KIND_AddressingModel, w[1], b2, 32),
                   enum_name(SPVCOND_KIND_MemoryModel, w[2], b3, 32));
    }
    printf("capabilities (%zu):", s->capabilities);
    for (size_t i = 0; i < m->section[1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CAPABILITY)
            printf(" %s", enum_name(SPVCOND_KIND_Capability, w[1], b2, 32));
    }
    printf("\n");
    if (s->conditional_capabilities) {
        printf("conditional capabilities (%zu):", s->conditional_capabilities);
        for (size_t i = 0; i < m->section[1]; i++) {
            const uint32_t *w = spvcond_inst_words(m, i);
            if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL)
                printf(" %s if %%%u", enum_name(SPVCOND_KIND_Capability, w[2], b2, 32), w[1]);
        }
        printf("\n");
    }
    printf("extensions (%zu):", s->extensions + s->conditional_extensions);
    for (size_t i = m->section[1]; i < m->section[2]; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        if (op == SPVCOND_OP_EXTENSION)
            printf(" %s", spvcond_inst_string(m, i, 1));
        else if (op == SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL)
            printf(" %s if %%%u", spvcond_inst_string(m, i, 2), spvcond_inst_words(m, i)[1]);
    }
    printf("\n");
    uint32_t registry;
    if (spvcond_module_registry_version(m, &registry) == SPVCOND_OK)
        printf("device registry version: %u (OpDeviceRegistryVersion)\n", registry);
    for (size_t i = m->section[2]; i < m->section[3]; i++)
        if (spvcond_inst_opcode(m, i) == SPVCOND_OP_EXT_INST_IMPORT)
            printf("extended instruction set %%%u: %s\n", spvcond_inst_words(m, i)[1], spvcond_inst_string(m, i, 2));
    printf("entry points (%zu, %zu conditional):\n", m->entry_point_count, s->conditional_entry_points);
    for (size_t k = 0; k < m->entry_point_count; k++) {
        struct entry e = entry_point(m, m->entry_points[k]);
        printf("  %s %%%u \"%s\"", enum_name(SPVCOND_KIND_ExecutionModel, e.model, b2, 32), e.function, e.name);
        if (e.condition)
            printf(" if %%%u", e.condition);
        uint32_t b, end;
        spvcond_refs_range(&m->modes, e.function, &b, &end);
        for (uint32_t r = b; r < end; r++) {
            const uint32_t *w = spvcond_inst_words(m, m->modes.inst[r]);
            mode_operands(w, buf, sizeof(buf));
            printf("%s %s%s", r == b ? "; modes:" : ",", enum_name(SPVCOND_KIND_ExecutionMode, w[2], b3, 32), buf);
        }
        printf("\n");
    }
    printf("functions: %zu (%zu definitions, %zu declarations)\n", m->function_count,
           m->function_count - s->declarations, s->declarations);
    printf("call edges: %zu\n", m->call_count);
    printf("names: %zu, decorations: %zu\n", s->names, s->decorations);
    printf("spec constants (%zu):\n", s->spec_constants);
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        uint32_t op = spvcond_inst_opcode(m, i), spec_id;
        if (!is_spec_constant(op))
            continue;
        uint32_t id = spvcond_inst_words(m, i)[2];
        spec_default(m, i, buf, sizeof(buf));
        printf("  %%%u", id);
        if (spvcond_spec_id_of(m, id, &spec_id))
            printf(" SpecId %u", spec_id);
        const char *name = spvcond_name_of(m, id);
        printf(" = %s%s%s%s\n", buf, name ? " \"" : "", name ? name : "", name ? "\"" : "");
    }
    printf("ConditionalINTEL decorations (%zu):\n", s->conditional_decorations);
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        uint32_t t, c;
        if (!is_conditional_decoration(m, i, &t, &c))
            continue;
        const char *name = spvcond_name_of(m, t);
        printf("  %s %%%u%s%s%s if %%%u\n", spvcond_grammar_opcode_name(spvcond_def_opcode(m, t)), t,
               name ? " \"" : "", name ? name : "", name ? "\"" : "", c);
    }
    printf("conditional instructions: %zu capabilities, %zu extensions, %zu entry points, %zu copy-objects\n",
           s->conditional_capabilities, s->conditional_extensions, s->conditional_entry_points,
           s->conditional_copies);
    /* Functions that share a name: a multi-target module's variants ('spvcond check' says which a
     * device gets). */
    struct variant_out o = {NULL, 0};
    printf("variants (functions that share a name):\n");
    spvcond_function_variants(m, NULL, print_variant, &o);
    if (!o.count) {
        printf("  none\n");
        return;
    }
    /* Which devices keep which variant, over those the module's constants tell apart. */
    struct variant_out cov = {NULL, 0};
    printf("coverage (devices its constants tell apart, how many keep each variant, which keep none):\n");
    if (spvcond_variant_coverage(m, print_coverage, &cov) != SPVCOND_OK || !cov.count)
        printf("  %s\n", cov.count ? "(incomplete)" : "none");
}

static void
print_json(struct spvcond_module *m, const struct summary *s)
{
    char buf[512], b2[32];
    struct json j;
    json_init(&j, stdout);
    json_object_begin(&j);
    snprintf(buf, sizeof(buf), "%u.%u", spvcond_version_major(m->version), spvcond_version_minor(m->version));
    json_kv_string(&j, "version", buf);
    json_kv_uint(&j, "generator", m->generator);
    json_kv_uint(&j, "bound", m->header_bound);
    json_kv_uint(&j, "instructions", m->inst_count);
    json_kv_uint(&j, "words", m->word_count);
    json_kv_bool(&j, "byte_swapped", m->swapped);
    for (size_t i = m->section[SPVCOND_SECTION_MEMORY_MODEL]; i < m->section[SPVCOND_SECTION_MEMORY_MODEL + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) != SPVCOND_OP_MEMORY_MODEL)
            continue;
        json_kv_string(&j, "addressing_model", enum_name(SPVCOND_KIND_AddressingModel, w[1], b2, 32));
        json_kv_string(&j, "memory_model", enum_name(SPVCOND_KIND_MemoryModel, w[2], b2, 32));
    }
    json_key(&j, "capabilities");
    json_array_begin(&j);
    for (size_t i = 0; i < m->section[1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CAPABILITY)
            json_string(&j, enum_name(SPVCOND_KIND_Capability, w[1], b2, 32));
    }
    json_array_end(&j);
    json_key(&j, "conditional_capabilities");
    json_array_begin(&j);
    for (size_t i = 0; i < m->section[1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) != SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL)
            continue;
        json_object_begin(&j);
        json_kv_string(&j, "capability", enum_name(SPVCOND_KIND_Capability, w[2], b2, 32));
        json_kv_uint(&j, "condition", w[1]);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "extensions");
    json_array_begin(&j);
    for (size_t i = m->section[1]; i < m->section[2]; i++)
        if (spvcond_inst_opcode(m, i) == SPVCOND_OP_EXTENSION)
            json_string(&j, spvcond_inst_string(m, i, 1));
    json_array_end(&j);
    json_key(&j, "conditional_extensions");
    json_array_begin(&j);
    for (size_t i = m->section[1]; i < m->section[2]; i++) {
        if (spvcond_inst_opcode(m, i) != SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL)
            continue;
        json_object_begin(&j);
        json_kv_string(&j, "extension", spvcond_inst_string(m, i, 2));
        json_kv_uint(&j, "condition", spvcond_inst_words(m, i)[1]);
        json_object_end(&j);
    }
    json_array_end(&j);
    uint32_t registry;
    json_key(&j, "device_registry_version");
    if (spvcond_module_registry_version(m, &registry) == SPVCOND_OK)
        json_uint(&j, registry);
    else
        json_null(&j);
    json_key(&j, "extended_instruction_sets");
    json_array_begin(&j);
    for (size_t i = m->section[2]; i < m->section[3]; i++) {
        if (spvcond_inst_opcode(m, i) != SPVCOND_OP_EXT_INST_IMPORT)
            continue;
        json_object_begin(&j);
        json_kv_uint(&j, "id", spvcond_inst_words(m, i)[1]);
        json_kv_string(&j, "name", spvcond_inst_string(m, i, 2));
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "entry_points");
    json_array_begin(&j);
    for (size_t k = 0; k < m->entry_point_count; k++) {
        struct entry e = entry_point(m, m->entry_points[k]);
        json_object_begin(&j);
        json_kv_string(&j, "name", e.name);
        json_kv_string(&j, "execution_model", enum_name(SPVCOND_KIND_ExecutionModel, e.model, b2, 32));
        json_kv_uint(&j, "function", e.function);
        json_key(&j, "condition");
        if (e.condition)
            json_uint(&j, e.condition);
        else
            json_null(&j);
        json_key(&j, "execution_modes");
        json_array_begin(&j);
        uint32_t b, end;
        spvcond_refs_range(&m->modes, e.function, &b, &end);
        for (uint32_t r = b; r < end; r++) {
            const uint32_t *w = spvcond_inst_words(m, m->modes.inst[r]);
            json_object_begin(&j);
            json_kv_string(&j, "mode", enum_name(SPVCOND_KIND_ExecutionMode, w[2], b2, 32));
            json_key(&j, spvcond_opcode_of(w[0]) == SPVCOND_OP_EXECUTION_MODE_ID ? "ids" : "literals");
            json_array_begin(&j);
            for (uint32_t x = 3; x < spvcond_word_count_of(w[0]); x++)
                json_uint(&j, w[x]);
            json_array_end(&j);
            json_object_end(&j);
        }
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_kv_uint(&j, "functions", m->function_count);
    json_kv_uint(&j, "function_declarations", s->declarations);
    json_kv_uint(&j, "call_edges", m->call_count);
    json_kv_uint(&j, "names", s->names);
    json_kv_uint(&j, "decorations", s->decorations);
    json_key(&j, "spec_constants");
    json_array_begin(&j);
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        uint32_t op = spvcond_inst_opcode(m, i), spec_id;
        if (!is_spec_constant(op))
            continue;
        uint32_t id = spvcond_inst_words(m, i)[2];
        json_object_begin(&j);
        json_kv_uint(&j, "id", id);
        json_kv_string(&j, "opcode", spvcond_grammar_opcode_name(op));
        json_key(&j, "spec_id");
        if (spvcond_spec_id_of(m, id, &spec_id))
            json_uint(&j, spec_id);
        else
            json_null(&j);
        spec_default(m, i, buf, sizeof(buf));
        json_kv_string(&j, "default", buf);
        const char *name = spvcond_name_of(m, id);
        json_key(&j, "name");
        if (name)
            json_string(&j, name);
        else
            json_null(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "conditional_decorations");
    json_array_begin(&j);
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        uint32_t t, c;
        if (!is_conditional_decoration(m, i, &t, &c))
            continue;
        json_object_begin(&j);
        json_kv_uint(&j, "target", t);
        json_kv_string(&j, "target_opcode", spvcond_grammar_opcode_name(spvcond_def_opcode(m, t)));
        const char *name = spvcond_name_of(m, t);
        json_key(&j, "name");
        if (name)
            json_string(&j, name);
        else
            json_null(&j);
        json_kv_uint(&j, "condition", c);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "conditional_instructions");
    json_object_begin(&j);
    json_kv_uint(&j, "capabilities", s->conditional_capabilities);
    json_kv_uint(&j, "extensions", s->conditional_extensions);
    json_kv_uint(&j, "entry_points", s->conditional_entry_points);
    json_kv_uint(&j, "copy_objects", s->conditional_copies);
    json_object_end(&j);
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

int
cmd_info(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'h': fputs(info_usage, stdout); return EXIT_OK;
        default: fputs(info_usage, stderr); return EXIT_USAGE;
        }
    }
    if (argc - optind > 1) {
        cli_error("More than one input file specified");
        return EXIT_USAGE;
    }
    const char *path = optind < argc ? argv[optind] : "-";
    spvcond_module *m;
    int rc = cli_load_module(cli, path, &m);
    if (rc != EXIT_OK)
        return rc;
    struct summary s;
    count_summary(m, &s);
    if (json)
        print_json(m, &s);
    else
        print_text(m, &s);
    spvcond_module_destroy(m);
    return EXIT_OK;
}
