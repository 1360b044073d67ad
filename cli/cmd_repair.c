/* SPDX-License-Identifier: MIT */
/* spvcond repair: give a multi-target module's items the conditions their users need (spec/repair.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char repair_usage[] =
    "USAGE: spvcond repair [options] [<input>] -o <output>\n"
    "\n"
    "Mend a module whose SPV_INTEL_function_variants conditions let some specialization leave a dangling\n"
    "use (as spirv-link's multi-target modules do): an item (type, constant, variable, import) used where\n"
    "its condition may be false takes the Or of its condition and its users' conditions, or none when\n"
    "something unconditional uses it, and so do the items and conditional capabilities it needs; a use of\n"
    "a conditional call's result outside the call's merge is pointed at the merge. Conditions of functions,\n"
    "entry points and code never change; what only such a change could mend is an error. Each change is\n"
    "printed as a note; a module that validates is written unchanged.\n"
    "\n"
    "  -o FILE            Output ('-' for standard output). Required.\n"
    "  -q, --quiet        No notes and no summary on standard error.\n"
    CLI_SYNC_HELP
    "  -h, --help         Print this help and exit.\n";

int
cmd_repair(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"quiet", no_argument, NULL, 'q'},
        CLI_SYNC_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'q': cli->quiet = 1; break;
        CLI_SYNC_CASES;
        case 'h': fputs(repair_usage, stdout); return EXIT_OK;
        default: fputs(repair_usage, stderr); return EXIT_USAGE;
        }
    }
    if (!output) {
        cli_error("-o required");
        return EXIT_USAGE;
    }
    if (argc - optind > 1) {
        cli_error("More than one input file specified");
        return EXIT_USAGE;
    }
    spvcond_module *m;
    int rc = cli_load_module(cli, optind < argc ? argv[optind] : "-", &m);
    if (rc != EXIT_OK)
        return rc;
    spvcond_repair_stats stats = {.size = sizeof(spvcond_repair_stats)};
    spvcond_result r = spvcond_repair(m, &stats);
    if (r == SPVCOND_OK)
        rc = cli_write_module(cli, output, m);
    if (r == SPVCOND_OK && rc == EXIT_OK && !cli->quiet)
        fprintf(stderr,
                "repaired: %zu conditions widened, %zu removed, %zu conditional capabilities widened, %zu uses "
                "pointed at their merge\n",
                stats.conditions_widened, stats.conditions_removed, stats.capabilities_widened, stats.uses_merged);
    spvcond_module_destroy(m);
    return r != SPVCOND_OK ? cli_exit_code(r) : rc;
}
