/* SPDX-License-Identifier: MIT */
/* spvcond specialize: evaluate conditions for given spec-constant values and strip what is false. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "device_options.h"
#include "values.h"

static const char specialize_usage[] =
    "USAGE: spvcond specialize [options] [<input>] -o <output>\n"
    "\n"
    "Evaluate every ConditionalINTEL condition and conditional instruction, remove what is false, and\n"
    "write a module without SPV_INTEL_function_variants. Spec constants without a value keep their\n"
    "default. The output is refused (exit 1, no file written) if it would refer to anything removed.\n";

struct specialize_args {
    struct value_list values;
    struct device_options device;
    struct fnvar_options fnvar;
    const char *props, *output;
    uint32_t flags;
    bool validate;
};

static int
take_spec(struct cli *cli, void *args, const char *arg)
{
    (void)cli;
    return values_parse_list(&((struct specialize_args *)args)->values, arg, "--spec");
}

static int
take_spec_file(struct cli *cli, void *args, const char *arg)
{
    (void)cli;
    return values_parse_file(&((struct specialize_args *)args)->values, arg);
}

/* The device's value of each requirement, after the explicit ones (the first value for a SpecId wins);
 * with --props, the requirements are the property file's. */
static int
add_device_values(struct cli *cli, struct specialize_args *a, spvcond_module *m)
{
    spvcond_spec_value *dv = NULL;
    size_t dn = 0;
    spvcond_result dr;
    if (a->props) {
        void *text;
        size_t size;
        spvcond_requirements *reqs = NULL;
        int rc = cli_read_file(a->props, &text, &size);
        if (rc != EXIT_OK)
            return rc;
        dr = spvcond_requirements_parse_props(cli->ctx, text, size, a->props, &reqs);
        free(text);
        if (dr == SPVCOND_OK)
            dr = spvcond_requirements_device_values(reqs, &a->device.info, &dv, &dn);
        spvcond_requirements_destroy(reqs);
    } else {
        dr = spvcond_device_spec_values(m, &a->device.info, &dv, &dn);
    }
    if (dr != SPVCOND_OK)
        return cli_exit_code(dr);
    int rc = EXIT_OK;
    for (size_t k = 0; k < dn && rc == EXIT_OK; k++) {
        char item[64];
        snprintf(item, sizeof(item), "%u=%llu", dv[k].spec_id, (unsigned long long)dv[k].value);
        rc = values_parse_list(&a->values, item, "--device");
    }
    spvcond_free(cli->ctx, dv);
    return rc;
}

static void
print_stats(const spvcond_specialize_stats *stats)
{
    fprintf(stderr,
            "specialized: %zu functions kept, %zu removed; %zu entry points kept, %zu removed; %zu "
            "instructions removed\n",
            stats->functions_kept, stats->functions_removed, stats->entry_points_kept, stats->entry_points_removed,
            stats->instructions_removed);
    if (stats->branches_folded)
        fprintf(stderr, "folded: %zu branches on frozen conditions\n", stats->branches_folded);
}

static int
run_specialize(struct cli *cli, void *args)
{
    struct specialize_args *a = args;
    struct device_options *dev = &a->device;
    if (!dev->name && a->values.count == 0 && !fnvar_options_given(&a->fnvar) && !cli->quiet)
        fprintf(stderr, "spvcond specialize: warning: no --device, --spec, --spec-file or device facts: every spec "
                        "constant keeps its default, so an annotated module keeps everything\n");
    int rc = dev->name ? device_options_resolve(cli, dev) : EXIT_OK;
    if (rc == EXIT_OK)
        rc = fnvar_options_finish(&a->fnvar, dev);
    spvcond_module *m = NULL;
    if (rc == EXIT_OK)
        rc = cli_load_module(cli, cli_input(cli), &m);
    if (rc == EXIT_OK && dev->name)
        rc = add_device_values(cli, a, m);
    if (rc != EXIT_OK) {
        spvcond_module_destroy(m);
        return rc;
    }
    spvcond_specialize_options opts = {sizeof(spvcond_specialize_options), a->values.items, a->values.count,
                                       &a->fnvar.device, a->flags};
    spvcond_specialize_stats stats = {.size = sizeof(spvcond_specialize_stats)};
    spvcond_result r = spvcond_specialize(m, &opts, &stats);
    if (r == SPVCOND_OK && a->validate)
        rc = cli_validate_module(cli, m, "the specialized module");
    if (r == SPVCOND_OK && rc == EXIT_OK)
        rc = cli_write_module(cli, a->output, m);
    if (r == SPVCOND_OK && rc == EXIT_OK && !cli->quiet)
        print_stats(&stats);
    spvcond_module_destroy(m);
    return r != SPVCOND_OK ? cli_exit_code(r) : rc;
}

static void
specialize_fini(void *args)
{
    struct specialize_args *a = args;
    device_options_fini(&a->device);
    free(a->values.items);
    fnvar_options_fini(&a->fnvar);
}

static const struct cli_opt specialize_options[] = {
    CLI_CALL("spec", 0, "ID=VALUE[,ID=VALUE...]", take_spec,
             "Values by SpecId: true, false, or an integer (decimal or 0x hex). May be\n"
             "repeated."),
    CLI_CALL("spec-file", 0, "FILE", take_spec_file,
             "The same, one ID=VALUE per line or separated by blanks; '#' starts a comment."),
    CLI_STRING("device", 0, "NAME", struct specialize_args, device.name,
               "Values for a device (spvcond devices): each requirement constant (spvcond.*\n"
               "OpName) is true iff the device supports it. --spec values take precedence."),
    {.name = "props", .arg = "FILE", .kind = CLI_OPT_STRING, .offset = offsetof(struct specialize_args, props),
     .needs = "device",
     .help = "With --device: take the requirement of each SpecId from this [SYCL/kernel reqs]\n"
             "property file instead of the constants' names."},
    CLI_STRING("device-config", 0, "FILE", struct specialize_args, device.config_path,
               "Devices in DPC++'s YAML schema, searched before the built-in table."),
    CLI_BITS("freeze-all", struct specialize_args, flags, SPVCOND_SPECIALIZE_FREEZE_ALL,
             "Also freeze spec constants unrelated to conditions."),
    CLI_BITS("no-trim", struct specialize_args, flags, SPVCOND_SPECIALIZE_NO_TRIM,
             "Keep capabilities whose only users were stripped."),
    CLI_BITS("no-fold", struct specialize_args, flags, SPVCOND_SPECIALIZE_NO_FOLD,
             "Keep branches on frozen conditions (spec/guards.md)."),
    CLI_BITS("strict", struct specialize_args, flags, SPVCOND_SPECIALIZE_STRICT,
             "A value for a SpecId the module lacks is an error, not a warning."),
    FNVAR_ROWS(struct specialize_args, fnvar),
    CLI_FLAG("validate", 0, struct specialize_args, validate,
             "Judge the output with SPIRV-Tools' validator (SPIR-V's universal rules of its\n"
             "version) before writing it: a module invalid there was invalid as it came\n"
             "(specialize writes nothing invalid of a valid module) and is refused (exit 1)."),
    CLI_OUTPUT("FILE", struct specialize_args, output, "Output ('-' for standard output). Required."),
    CLI_QUIET("No summary and no warnings on standard error."),
    CLI_SYNC,
    CLI_END,
};

const struct cli_command cli_specialize = {
    .name = "specialize",
    .summary = "Evaluate conditions for given spec-constant values, strip what is false, and\n"
               "write a plain module.",
    .usage = specialize_usage,
    .options = specialize_options,
    .args_size = sizeof(struct specialize_args),
    CLI_ONE_INPUT,
    .run = run_specialize,
    .fini = specialize_fini,
};
