/* SPDX-License-Identifier: MIT */
/* spvcond annotate: mark what each kernel requires with spec constants and ConditionalINTEL. */
#include <getopt.h>
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
    "that declares nothing the device lacks.\n"
    "\n"
    "  --spec-id-base N   First SpecId to allocate (default 0x10000); ids the module uses are skipped.\n"
    "  --no-inference     Only execution modes count as requirements.\n"
    "  --requirements FILE  Requirements stated per function (YAML: uses, declared, reqd_work_group_size,\n"
    "                     reqd_sub_group_size; spec/requirements.md), virtual-function sets\n"
    "                     (indirectly_callable, calls_indirectly; spec/virtual-functions.md), and\n"
    "                     spec-constants: the module's boolean spec constants that mean aspects, by SpecId\n"
    "                     (spec/guards.md).\n"
    "  --props FILE       Also write the [SYCL/kernel reqs] property set (DPC++'s text format), and\n"
    "                     [SYCL/virtual functions] when the module uses virtual-function sets.\n"
    "  --validate         First judge the input with SPIRV-Tools' validator (SPIR-V's universal rules of\n"
    "                     its version): an invalid module is refused (exit 1) here rather than at the\n"
    "                     driver. Off by default: it costs tens of times what annotate does.\n"
    "  -o FILE            Output ('-' for standard output). Required.\n"
    "  -q, --quiet        No summary and no warnings on standard error.\n"
    CLI_SYNC_HELP
    "  -h, --help         Print this help and exit.\n";

enum { OPT_BASE = 256, OPT_NO_INFERENCE, OPT_PROPS, OPT_REQUIREMENTS };

int
cmd_annotate(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"spec-id-base", required_argument, NULL, OPT_BASE},
        {"no-inference", no_argument, NULL, OPT_NO_INFERENCE},
        {"props", required_argument, NULL, OPT_PROPS},
        {"requirements", required_argument, NULL, OPT_REQUIREMENTS},
        {"quiet", no_argument, NULL, 'q'},
        CLI_VALIDATE_OPTIONS,
        CLI_SYNC_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    spvcond_annotate_options opts;
    memset(&opts, 0, sizeof(opts));
    opts.size = sizeof(opts);
    const char *output = NULL, *props = NULL, *requirements = NULL;
    bool validate = false;
    int c, rc = EXIT_OK;
    optind = 1;
    while (rc == EXIT_OK && (c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
        switch (c) {
        case OPT_BASE: rc = parse_u32(optarg, "--spec-id-base", &opts.spec_id_base); break;
        case OPT_NO_INFERENCE: opts.flags |= SPVCOND_ANNOTATE_NO_INFERENCE; break;
        case OPT_PROPS: props = optarg; break;
        case OPT_REQUIREMENTS: requirements = optarg; break;
        case CLI_OPT_VALIDATE: validate = true; break;
        case 'o': output = optarg; break;
        case 'q': cli->quiet = 1; break;
        CLI_SYNC_CASES;
        case 'h': fputs(annotate_usage, stdout); return EXIT_OK;
        default: fputs(annotate_usage, stderr); return EXIT_USAGE;
        }
    }
    if (rc != EXIT_OK)
        return rc;
    if (!output) {
        cli_error("-o required");
        return EXIT_USAGE;
    }
    if (argc - optind > 1) {
        cli_error("More than one input file specified");
        return EXIT_USAGE;
    }
    spvcond_requirements_file *reqfile = NULL;
    if (requirements) {
        void *text;
        size_t size;
        if ((rc = cli_read_file(requirements, &text, &size)) != EXIT_OK)
            return rc;
        spvcond_result pr = spvcond_requirements_file_parse(cli->ctx, text, size, requirements, &reqfile);
        free(text);
        if (pr != SPVCOND_OK)
            return pr == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(pr);
        opts.requirements = spvcond_requirements_file_entries(reqfile, &opts.requirement_count);
        opts.guard_spec_ids = spvcond_requirements_file_guard_spec_ids(reqfile, &opts.guard_spec_id_count);
    }
    spvcond_module *m;
    if ((rc = cli_load_module_flags(cli, optind < argc ? argv[optind] : "-", SPVCOND_PARSE_FOR_ANNOTATE, &m)) != EXIT_OK) {
        spvcond_requirements_file_destroy(reqfile);
        return rc;
    }
    if (validate) { /* the input as it was read: emitting an unedited module gives its words back */
        rc = cli_validate_module(cli, m, "the input");
        if (rc != EXIT_OK) {
            spvcond_module_destroy(m);
            spvcond_requirements_file_destroy(reqfile);
            return rc;
        }
    }
    spvcond_annotate_stats stats = {.size = sizeof(spvcond_annotate_stats)};
    spvcond_result r = spvcond_annotate(m, &opts, &stats);
    if (r == SPVCOND_OK && !props) {
        rc = cli_write_module(cli, output, m);
    } else if (r == SPVCOND_OK) {
        uint32_t *words;
        size_t count;
        r = spvcond_module_emit(m, &words, &count);
        if (r == SPVCOND_OK) {
            /* The property set describes the output, so read the output back. */
            spvcond_module *annotated;
            spvcond_requirements *reqs = NULL;
            char *text = NULL;
            size_t size = 0;
            r = spvcond_module_parse(cli->ctx, words, count, SPVCOND_PARSE_BORROW, &annotated);
            if (r == SPVCOND_OK) {
                r = spvcond_requirements_from_module(annotated, &reqs);
                if (r == SPVCOND_OK)
                    r = spvcond_requirements_write_props(reqs, &text, &size);
                spvcond_requirements_destroy(reqs);
                spvcond_module_destroy(annotated);
            }
            if (r == SPVCOND_OK)
                rc = cli_write_file(cli, props, text, size);
            spvcond_free(cli->ctx, text);
        }
        if (r == SPVCOND_OK && rc == EXIT_OK)
            rc = cli_write_file(cli, output, words, count * 4);
        if (r == SPVCOND_OK)
            spvcond_free(cli->ctx, words);
    }
    if (r == SPVCOND_OK && rc == EXIT_OK && !cli->quiet) {
        fprintf(stderr,
                "annotated: %zu roots (%zu conditional), %zu requirements, %zu spec constants, %zu "
                "ConditionalINTEL decorations (%zu functions, %zu types/constants/variables), %zu conditional "
                "capabilities, %zu conditional entry points\n",
                stats.roots, stats.conditional_roots, stats.requirements, stats.spec_constants, stats.decorations,
                stats.conditional_functions, stats.conditional_globals, stats.conditional_capabilities,
                stats.conditional_entry_points);
        if (stats.virtual_stubs)
            fprintf(stderr, "annotated: %zu virtual-function stubs (bodies behind their sets' conditions)\n",
                    stats.virtual_stubs);
    }
    if (r != SPVCOND_OK)
        rc = r == SPVCOND_ERROR_NOT_FOUND || r == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(r);
    spvcond_module_destroy(m);
    spvcond_requirements_file_destroy(reqfile);
    return rc;
}
