/* SPDX-License-Identifier: MIT */
/* spvcond validate: our checker for SPV_INTEL_function_variants. */
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
    "the extensions that enable it. Prints every violation; exit 1 if there is any.\n";

static int
run_validate(struct cli *cli, void *args)
{
    (void)args;
    spvcond_module *m;
    int rc = cli_load_module(cli, cli_input(cli), &m);
    if (rc != EXIT_OK)
        return rc;
    size_t violations = 0;
    spvcond_result r = spvcond_validate(m, &violations);
    spvcond_module_destroy(m);
    if (violations)
        fprintf(stderr, "%zu violation%s\n", violations, violations == 1 ? "" : "s");
    return cli_exit_code(r);
}

static const struct cli_opt validate_options[] = {CLI_END};

const struct cli_command cli_validate = {
    .name = "validate",
    .summary = "Check a module's use of SPV_INTEL_function_variants, including that no\n"
               "specialization can leave a dangling reference.",
    .usage = validate_usage,
    .options = validate_options,
    .args_size = 1,
    CLI_ONE_INPUT,
    .run = run_validate,
};
