/* SPDX-License-Identifier: MIT */
/* spvcond validate: our checker for SPV_INTEL_function_variants. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static const char validate_usage[] =
    "USAGE: spvcond validate [<input>]\n"
    "\n"
    "Check the module's use of SPV_INTEL_function_variants, more strictly than spirv-val: every\n"
    "condition is a boolean specialization-constant tree of allowed operations; ConditionalINTEL targets\n"
    "are of allowed kinds, at most one per id; the capability and extension are declared and in order;\n"
    "OpConditionalCopyObjectINTEL is well formed; at most one OpDeviceRegistryVersion, in its place; no\n"
    "assignment of the spec constants can leave a use of a removed id. Also SPIR-V's version rules, as\n"
    "SPIRV-Tools checks them: every instruction and enumerant operand against the module's version and\n"
    "the extensions that enable it. Prints every violation; exit 1 if there is any.\n"
    "\n"
    "  -h, --help         Print this help and exit.\n";

int
cmd_validate(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(validate_usage, stdout); return EXIT_OK;
        default: fputs(validate_usage, stderr); return EXIT_USAGE;
        }
    }
    if (argc - optind > 1) {
        cli_error("More than one input file specified");
        return EXIT_USAGE;
    }
    spvcond_module *m;
    int rc = cli_load_module(cli, optind < argc ? argv[optind] : "-", &m);
    if (rc != EXIT_OK)
        return rc;
    size_t violations = 0;
    spvcond_result r = spvcond_validate(m, &violations);
    spvcond_module_destroy(m);
    if (violations)
        fprintf(stderr, "%zu violation%s\n", violations, violations == 1 ? "" : "s");
    return cli_exit_code(r);
}
