/* SPDX-License-Identifier: MIT */
/* spvcond annotate: mark what each kernel requires with spec constants and ConditionalINTEL. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "values.h"

static const char annotate_usage[] =
    "USAGE: spvcond annotate [options] [<input>] -o <output>\n"
    "\n"
    "Infer what each kernel and exported function requires (fp64, fp16, atomic64, image, required\n"
    "work-group and sub-group sizes), emit one boolean spec constant with a SpecId per requirement,\n"
    "and guard functions, entry points, types, constants and capabilities with ConditionalINTEL\n"
    "conditions (SPV_INTEL_function_variants). The result specializes, for any device, into a module\n"
    "that declares nothing the device lacks.\n";

struct annotate_args {
    uint32_t spec_id_base, flags;
    const char *props, *requirements, *output;
    bool validate;
};

/* The module and (--props) its property set, which describes the module as written: read back. */
static int
write_with_props(struct cli *cli, spvcond_module *m, const char *output, const char *props, spvcond_result *r)
{
    uint32_t *words;
    size_t count;
    int rc = EXIT_OK;
    if ((*r = spvcond_module_emit(m, &words, &count)) != SPVCOND_OK)
        return rc;
    spvcond_module *annotated;
    spvcond_requirements *reqs = NULL;
    char *text = NULL;
    size_t size = 0;
    *r = spvcond_module_parse(cli->ctx, words, count, SPVCOND_PARSE_BORROW, &annotated);
    if (*r == SPVCOND_OK) {
        *r = spvcond_requirements_from_module(annotated, &reqs);
        if (*r == SPVCOND_OK)
            *r = spvcond_requirements_write_props(reqs, &text, &size);
        spvcond_requirements_destroy(reqs);
        spvcond_module_destroy(annotated);
    }
    if (*r == SPVCOND_OK)
        rc = cli_write_file(cli, props, text, size);
    spvcond_free(cli->ctx, text);
    if (*r == SPVCOND_OK && rc == EXIT_OK)
        rc = cli_write_file(cli, output, words, count * 4);
    spvcond_free(cli->ctx, words);
    return rc;
}

static void
print_stats(const spvcond_annotate_stats *stats)
{
    fprintf(stderr,
            "annotated: %zu roots (%zu conditional), %zu requirements, %zu spec constants, %zu "
            "ConditionalINTEL decorations (%zu functions, %zu types/constants/variables), %zu conditional "
            "capabilities, %zu conditional entry points\n",
            stats->roots, stats->conditional_roots, stats->requirements, stats->spec_constants, stats->decorations,
            stats->conditional_functions, stats->conditional_globals, stats->conditional_capabilities,
            stats->conditional_entry_points);
    if (stats->virtual_stubs)
        fprintf(stderr, "annotated: %zu virtual-function stubs (bodies behind their sets' conditions)\n",
                stats->virtual_stubs);
}

static int
run_annotate(struct cli *cli, void *args)
{
    const struct annotate_args *a = args;
    spvcond_annotate_options opts = {.size = sizeof(opts), .spec_id_base = a->spec_id_base, .flags = a->flags};
    spvcond_requirements_file *reqfile = NULL;
    int rc = a->requirements ? cli_load_requirements(cli, a->requirements, &reqfile) : EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    if (reqfile) {
        opts.requirements = spvcond_requirements_file_entries(reqfile, &opts.requirement_count);
        opts.guard_spec_ids = spvcond_requirements_file_guard_spec_ids(reqfile, &opts.guard_spec_id_count);
    }
    spvcond_module *m = NULL;
    rc = cli_load_module_flags(cli, cli_input(cli), SPVCOND_PARSE_FOR_ANNOTATE, &m);
    /* The input as it was read: emitting an unedited module gives its words back. */
    if (rc == EXIT_OK && a->validate)
        rc = cli_validate_module(cli, m, "the input");
    spvcond_result r = SPVCOND_OK;
    spvcond_annotate_stats stats = {.size = sizeof(spvcond_annotate_stats)};
    if (rc == EXIT_OK)
        r = spvcond_annotate(m, &opts, &stats);
    if (rc == EXIT_OK && r == SPVCOND_OK)
        rc = a->props ? write_with_props(cli, m, a->output, a->props, &r) : cli_write_module(cli, a->output, m);
    if (r == SPVCOND_OK && rc == EXIT_OK && !cli->quiet)
        print_stats(&stats);
    if (r != SPVCOND_OK)
        rc = r == SPVCOND_ERROR_NOT_FOUND || r == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(r);
    spvcond_module_destroy(m);
    spvcond_requirements_file_destroy(reqfile);
    return rc;
}

static const struct cli_opt annotate_options[] = {
    CLI_U32("spec-id-base", "N", struct annotate_args, spec_id_base,
            "First SpecId to allocate (default 0x10000); ids the module uses are skipped."),
    CLI_BITS("no-inference", struct annotate_args, flags, SPVCOND_ANNOTATE_NO_INFERENCE,
             "Only execution modes count as requirements."),
    CLI_STRING("requirements", 0, "FILE", struct annotate_args, requirements,
               "Requirements stated per function (YAML: uses, declared, reqd_work_group_size,\n"
               "reqd_sub_group_size; spec/requirements.md), virtual-function sets\n"
               "(indirectly_callable, calls_indirectly; spec/virtual-functions.md), and\n"
               "spec-constants: the module's boolean spec constants that mean aspects, by SpecId\n"
               "(spec/guards.md)."),
    CLI_STRING("props", 0, "FILE", struct annotate_args, props,
               "Also write the [SYCL/kernel reqs] property set (DPC++'s text format), and\n"
               "[SYCL/virtual functions] when the module uses virtual-function sets."),
    CLI_FLAG("validate", 0, struct annotate_args, validate,
             "First judge the input with SPIRV-Tools' validator (SPIR-V's universal rules of\n"
             "its version): an invalid module is refused (exit 1) here rather than at the\n"
             "driver. Off by default: it costs tens of times what annotate does."),
    CLI_OUTPUT("FILE", struct annotate_args, output, "Output ('-' for standard output). Required."),
    CLI_QUIET("No summary and no warnings on standard error."),
    CLI_SYNC,
    CLI_END,
};

const struct cli_command cli_annotate = {
    .name = "annotate",
    .summary = "Mark what each kernel requires with spec constants and ConditionalINTEL.",
    .usage = annotate_usage,
    .options = annotate_options,
    .args_size = sizeof(struct annotate_args),
    CLI_ONE_INPUT,
    .run = run_annotate,
};
