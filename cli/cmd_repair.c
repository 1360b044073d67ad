/* SPDX-License-Identifier: MIT */
/* spvcond repair: give a multi-target module's items the conditions their users need (spec/repair.md). */
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
    "printed as a note; a module that validates is written unchanged.\n";

struct repair_args {
    const char *output;
};

static int
run_repair(struct cli *cli, void *args)
{
    const struct repair_args *a = args;
    spvcond_module *m;
    int rc = cli_load_module(cli, cli_input(cli), &m);
    if (rc != EXIT_OK)
        return rc;
    spvcond_repair_stats stats = {.size = sizeof(spvcond_repair_stats)};
    spvcond_result r = spvcond_repair(m, &stats);
    if (r == SPVCOND_OK)
        rc = cli_write_module(cli, a->output, m);
    if (r == SPVCOND_OK && rc == EXIT_OK && !cli->quiet)
        fprintf(stderr,
                "repaired: %zu conditions widened, %zu removed, %zu conditional capabilities widened, %zu uses "
                "pointed at their merge\n",
                stats.conditions_widened, stats.conditions_removed, stats.capabilities_widened, stats.uses_merged);
    spvcond_module_destroy(m);
    return r != SPVCOND_OK ? cli_exit_code(r) : rc;
}

static const struct cli_opt repair_options[] = {
    CLI_OUTPUT("FILE", struct repair_args, output, "Output ('-' for standard output). Required."),
    CLI_QUIET("No notes and no summary on standard error."),
    CLI_SYNC,
    CLI_END,
};

const struct cli_command cli_repair = {
    .name = "repair",
    .summary = "Widen the conditions of a multi-target module's items so that no specialization\n"
               "can leave a dangling use (spirv-link's modules).",
    .usage = repair_usage,
    .options = repair_options,
    .args_size = sizeof(struct repair_args),
    CLI_ONE_INPUT,
    .run = run_repair,
};
