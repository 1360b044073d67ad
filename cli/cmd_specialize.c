/* SPDX-License-Identifier: MIT */
/* spvcond specialize: evaluate conditions for given spec-constant values and strip what is false. */
#include <errno.h>
#include <getopt.h>
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
    "default. The output is refused (exit 1, no file written) if it would refer to anything removed.\n"
    "\n"
    "  --spec ID=VALUE[,ID=VALUE...]\n"
    "                     Values by SpecId: true, false, or an integer (decimal or 0x hex). May be\n"
    "                     repeated.\n"
    "  --spec-file FILE   The same, one ID=VALUE per line or separated by blanks; '#' starts a comment.\n"
    "  --device NAME      Values for a device (spvcond devices): each requirement constant (spvcond.*\n"
    "                     OpName) is true iff the device supports it. --spec values take precedence.\n"
    "  --props FILE       With --device: take the requirement of each SpecId from this [SYCL/kernel reqs]\n"
    "                     property file instead of the constants' names.\n"
    "  --device-config FILE\n"
    "                     Devices in DPC++'s YAML schema, searched before the built-in table.\n"
    "  --freeze-all       Also freeze spec constants unrelated to conditions.\n"
    "  --no-trim          Keep capabilities whose only users were stripped.\n"
    "  --no-fold          Keep branches on frozen conditions (spec/guards.md).\n"
    "  --strict           A value for a SpecId the module lacks is an error, not a warning.\n"
    FNVAR_USAGE
    "  --validate         Judge the output with SPIRV-Tools' validator (SPIR-V's universal rules of its\n"
    "                     version) before writing it: a module invalid there was invalid as it came\n"
    "                     (specialize writes nothing invalid of a valid module) and is refused (exit 1).\n"
    "  -o FILE            Output ('-' for standard output). Required.\n"
    "  -q, --quiet        No summary and no warnings on standard error.\n"
    CLI_SYNC_HELP
    "  -h, --help         Print this help and exit.\n";

enum { OPT_DEVICE = 200, OPT_DEVICE_CONFIG, OPT_PROPS, OPT_NO_TRIM, OPT_NO_FOLD, OPT_SPEC = 256, OPT_SPEC_FILE, OPT_FREEZE_ALL,
       OPT_STRICT };

int
cmd_specialize(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"spec", required_argument, NULL, OPT_SPEC},
        {"device", required_argument, NULL, OPT_DEVICE},
        {"device-config", required_argument, NULL, OPT_DEVICE_CONFIG},
        {"props", required_argument, NULL, OPT_PROPS},
        {"spec-file", required_argument, NULL, OPT_SPEC_FILE},
        {"freeze-all", no_argument, NULL, OPT_FREEZE_ALL},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"no-trim", no_argument, NULL, OPT_NO_TRIM},
        {"no-fold", no_argument, NULL, OPT_NO_FOLD},
        FNVAR_LONG_OPTIONS,
        {"quiet", no_argument, NULL, 'q'},
        CLI_VALIDATE_OPTIONS,
        CLI_SYNC_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct value_list values = {0};
    struct device_options dev;
    memset(&dev, 0, sizeof(dev));
    struct fnvar_options fnvar;
    memset(&fnvar, 0, sizeof(fnvar));
    const char *output = NULL, *props = NULL;
    uint32_t flags = 0;
    int c, rc = EXIT_OK;
    optind = 1;
    bool facts_given = false, validate = false;
    while (rc == EXIT_OK && (c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
        if (fnvar_option(&fnvar, c, optarg, &rc)) {
            facts_given = true;
            continue;
        }
        switch (c) {
        case OPT_SPEC: rc = values_parse_list(&values, optarg, "--spec"); break;
        case OPT_DEVICE: dev.name = optarg; break;
        case OPT_DEVICE_CONFIG: dev.config_path = optarg; break;
        case OPT_PROPS: props = optarg; break;
        case OPT_SPEC_FILE: rc = values_parse_file(&values, optarg); break;
        case OPT_FREEZE_ALL: flags |= SPVCOND_SPECIALIZE_FREEZE_ALL; break;
        case OPT_STRICT: flags |= SPVCOND_SPECIALIZE_STRICT; break;
        case OPT_NO_TRIM: flags |= SPVCOND_SPECIALIZE_NO_TRIM; break;
        case OPT_NO_FOLD: flags |= SPVCOND_SPECIALIZE_NO_FOLD; break;
        case CLI_OPT_VALIDATE: validate = true; break;
        case 'o': output = optarg; break;
        case 'q': cli->quiet = 1; break;
        CLI_SYNC_CASES;
        case 'h': fputs(specialize_usage, stdout); goto done;
        default: fputs(specialize_usage, stderr); rc = EXIT_USAGE; break;
        }
    }
    if (rc != EXIT_OK)
        goto done;
    if (props && !dev.name) {
        cli_error("--props needs --device");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!output) {
        cli_error("-o required");
        rc = EXIT_USAGE;
        goto done;
    }
    if (argc - optind > 1) {
        cli_error("More than one input file specified");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!dev.name && values.count == 0 && !facts_given && !cli->quiet)
        fprintf(stderr, "spvcond specialize: warning: no --device, --spec, --spec-file or device facts: every spec "
                        "constant keeps its default, so an annotated module keeps everything\n");
    if (dev.name && (rc = device_options_resolve(cli, &dev)) != EXIT_OK)
        goto done;
    if ((rc = fnvar_options_finish(&fnvar, &dev)) != EXIT_OK)
        goto done;
    spvcond_fnvar_device device = fnvar.device;
    spvcond_module *m;
    if ((rc = cli_load_module(cli, optind < argc ? argv[optind] : "-", &m)) != EXIT_OK)
        goto done;
    if (dev.name) {
        /* The device's values after the explicit ones: the first value for a SpecId wins. */
        spvcond_spec_value *dv = NULL;
        size_t dn = 0;
        spvcond_result dr;
        if (props) {
            void *text;
            size_t size;
            spvcond_requirements *reqs = NULL;
            if ((rc = cli_read_file(props, &text, &size)) != EXIT_OK) {
                spvcond_module_destroy(m);
                goto done;
            }
            dr = spvcond_requirements_parse_props(cli->ctx, text, size, props, &reqs);
            free(text);
            if (dr == SPVCOND_OK)
                dr = spvcond_requirements_device_values(reqs, &dev.info, &dv, &dn);
            spvcond_requirements_destroy(reqs);
        } else {
            dr = spvcond_device_spec_values(m, &dev.info, &dv, &dn);
        }
        if (dr != SPVCOND_OK) {
            spvcond_module_destroy(m);
            rc = cli_exit_code(dr);
            goto done;
        }
        for (size_t k = 0; k < dn && rc == EXIT_OK; k++) {
            char item[64];
            snprintf(item, sizeof(item), "%u=%llu", dv[k].spec_id, (unsigned long long)dv[k].value);
            rc = values_parse_list(&values, item, "--device");
        }
        spvcond_free(cli->ctx, dv);
        if (rc != EXIT_OK) {
            spvcond_module_destroy(m);
            goto done;
        }
    }
    spvcond_specialize_options opts = {sizeof(spvcond_specialize_options), values.items, values.count, &device, flags};
    spvcond_specialize_stats stats = {.size = sizeof(spvcond_specialize_stats)};
    spvcond_result r = spvcond_specialize(m, &opts, &stats);
    if (r == SPVCOND_OK && validate)
        rc = cli_validate_module(cli, m, "the specialized module");
    if (r == SPVCOND_OK && rc == EXIT_OK) {
        rc = cli_write_module(cli, output, m);
        if (rc == EXIT_OK && !cli->quiet)
            fprintf(stderr,
                    "specialized: %zu functions kept, %zu removed; %zu entry points kept, %zu removed; %zu "
                    "instructions removed\n",
                    stats.functions_kept, stats.functions_removed, stats.entry_points_kept,
                    stats.entry_points_removed, stats.instructions_removed);
        if (rc == EXIT_OK && !cli->quiet && stats.branches_folded)
            fprintf(stderr, "folded: %zu branches on frozen conditions\n", stats.branches_folded);
    }
    if (r != SPVCOND_OK)
        rc = cli_exit_code(r);
    spvcond_module_destroy(m);
done:
    device_options_fini(&dev);
    free(values.items);
    fnvar_options_fini(&fnvar);
    return rc;
}
