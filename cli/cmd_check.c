/* SPDX-License-Identifier: MIT */
/* spvcond check: DPC++'s kernel_not_supported check for a device, kernel by kernel. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_options.h"
#include "json_writer.h"

static const char check_usage[] =
    "USAGE: spvcond check [--device NAME] [--device-config FILE] [--target T --features F --arch A ...] [--json]\n"
    "                     <input> [KERNEL...]\n"
    "\n"
    "For each kernel of an annotated module (all of them if none is named), say whether the device\n"
    "supports it and, if not, why, in DPC++'s kernel_not_supported wording. Prints the spec-constant\n"
    "values for the device too. For a multi-target module (spirv-link's), say which of the functions\n"
    "that share a name the device gets, and under which condition each is kept. Exit status 0 when the\n"
    "check ran, whatever the verdicts.\n"
    "\n"
    "  --device NAME      A device (spvcond devices); its architecture counts as below.\n"
    "  --device-config FILE\n"
    "                     Devices in DPC++'s YAML schema, searched before the built-in table.\n"
    FNVAR_USAGE
    "  --json             Print one JSON object.\n"
    "  -h, --help         Print this help and exit.\n";

struct verdicts {
    struct json *json; /* NULL: text */
    /* The variant group being listed (variants come by name): its name, whether the device keeps one;
     * the names of groups it keeps none of, for the JSON's "uncovered". */
    char group[256];
    bool group_kept, group_entry;
    char **uncovered;
    size_t uncovered_count;
};

/* The group listed so far is done: a device that keeps none of its variants is told so (specialize
 * refuses it wherever a kept function calls the name through a conditional copy). */
static void
end_group(struct verdicts *out)
{
    if (!out->group[0] || out->group_kept)
        return;
    if (!out->json) {
        printf("%s %s: no variant for this device\n", out->group_entry ? "kernel" : "function", out->group);
        return;
    }
    char **grown = realloc(out->uncovered, (out->uncovered_count + 1) * sizeof(*grown));
    if (grown && (grown[out->uncovered_count] = strdup(out->group)) != NULL)
        out->uncovered_count++;
    out->uncovered = grown ? grown : out->uncovered;
}

static void
print_verdict(void *user, const char *kernel, bool supported, const char *reason)
{
    struct verdicts *v = user;
    if (v->json) {
        json_object_begin(v->json);
        json_kv_string(v->json, "kernel", kernel);
        json_kv_bool(v->json, "supported", supported);
        if (!supported)
            json_kv_string(v->json, "reason", reason);
        json_object_end(v->json);
    } else {
        printf("%s: %s%s%s\n", kernel, supported ? "supported" : "not supported", supported ? "" : ": ",
               supported ? "" : reason);
    }
}

static void
print_variant(void *user, const spvcond_variant *v)
{
    struct verdicts *out = user;
    if (strcmp(out->group, v->name) != 0 || out->group_entry != v->entry_point) {
        end_group(out);
        snprintf(out->group, sizeof(out->group), "%s", v->name);
        out->group_kept = false;
        out->group_entry = v->entry_point;
    }
    out->group_kept |= v->kept;
    if (out->json) {
        json_object_begin(out->json);
        json_kv_string(out->json, "name", v->name);
        json_kv_bool(out->json, "entry_point", v->entry_point);
        json_kv_uint(out->json, "function", v->function);
        json_kv_string(out->json, "condition", v->condition_text);
        json_kv_bool(out->json, "kept", v->kept);
        json_object_end(out->json);
    } else {
        printf("%s %s %%%u: %s (%s)\n", v->entry_point ? "kernel" : "function", v->name, v->function,
               v->kept ? "kept" : "removed", v->condition_text);
    }
}

int
cmd_check(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"device", required_argument, NULL, 'd'},
        {"device-config", required_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        FNVAR_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    struct device_options d;
    memset(&d, 0, sizeof(d));
    struct fnvar_options fnvar;
    memset(&fnvar, 0, sizeof(fnvar));
    bool json = false;
    int c, rc = EXIT_OK;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (fnvar_option(&fnvar, c, optarg, &rc)) {
            if (rc != EXIT_OK) {
                fnvar_options_fini(&fnvar);
                return rc;
            }
            continue;
        }
        switch (c) {
        case 'd': d.name = optarg; break;
        case 'c': d.config_path = optarg; break;
        case 'j': json = true; break;
        case 'h': fputs(check_usage, stdout); fnvar_options_fini(&fnvar); return EXIT_OK;
        default: fputs(check_usage, stderr); fnvar_options_fini(&fnvar); return EXIT_USAGE;
        }
    }
    if ((!d.name && !fnvar.given) || optind >= argc) {
        cli_error(optind >= argc ? "no input file" : "--device or a function-variants device required");
        fnvar_options_fini(&fnvar);
        return EXIT_USAGE;
    }
    rc = d.name ? device_options_resolve(cli, &d) : EXIT_OK;
    spvcond_module *m = NULL;
    if (rc == EXIT_OK)
        rc = cli_load_module(cli, argv[optind], &m);
    if (rc != EXIT_OK) {
        device_options_fini(&d);
        fnvar_options_fini(&fnvar);
        return rc;
    }
    if ((rc = fnvar_options_finish(&fnvar, &d)) != EXIT_OK) {
        spvcond_module_destroy(m);
        device_options_fini(&d);
        fnvar_options_fini(&fnvar);
        return rc;
    }
    struct json j;
    json_init(&j, stdout);
    if (json) {
        json_object_begin(&j);
        if (d.name)
            json_kv_string(&j, "device", d.name);
    }
    spvcond_spec_value *values = NULL;
    size_t count = 0;
    spvcond_result r = d.name ? spvcond_device_spec_values(m, &d.info, &values, &count) : SPVCOND_OK;
    if (r == SPVCOND_OK && d.name) {
        if (json) {
            json_key(&j, "spec_values");
            json_array_begin(&j);
        }
        for (size_t k = 0; k < count; k++) {
            if (json) {
                json_object_begin(&j);
                json_kv_uint(&j, "spec_id", values[k].spec_id);
                json_kv_bool(&j, "value", values[k].value != 0);
                json_object_end(&j);
            } else {
                printf("SpecId %u = %s\n", values[k].spec_id, values[k].value ? "true" : "false");
            }
        }
        if (json) {
            json_array_end(&j);
            json_key(&j, "kernels");
            json_array_begin(&j);
        }
    }
    /* The kernels: the ones named, or every entry point (in one pass over the module). */
    struct verdicts out = {json ? &j : NULL, "", false, false, NULL, 0};
    size_t named = (size_t)(argc - optind - 1);
    if (d.name && !named && r == SPVCOND_OK)
        r = spvcond_kernels_supported(m, &d.info, print_verdict, &out);
    for (size_t k = 0; d.name && k < named && r == SPVCOND_OK; k++) {
        bool ok;
        char reason[SPVCOND_REASON_MAX];
        r = spvcond_kernel_supported(m, &d.info, argv[optind + 1 + k], &ok, reason, sizeof(reason));
        if (r == SPVCOND_OK)
            print_verdict(&out, argv[optind + 1 + k], ok, reason);
    }
    /* The variants a multi-target module offers, and which the device gets. */
    if (json && r == SPVCOND_OK) {
        if (d.name)
            json_array_end(&j);
        json_key(&j, "variants");
        json_array_begin(&j);
    }
    spvcond_specialize_options o = {sizeof(spvcond_specialize_options), values, count, &fnvar.device, 0};
    if (r == SPVCOND_OK)
        r = spvcond_function_variants(m, &o, print_variant, &out);
    if (r == SPVCOND_OK)
        end_group(&out);
    if (json && r == SPVCOND_OK) {
        json_array_end(&j);
        json_key(&j, "uncovered"); /* names the device gets no variant of */
        json_array_begin(&j);
        for (size_t k = 0; k < out.uncovered_count; k++)
            json_string(&j, out.uncovered[k]);
        json_array_end(&j);
        json_object_end(&j);
    }
    for (size_t k = 0; k < out.uncovered_count; k++)
        free(out.uncovered[k]);
    free(out.uncovered);
    spvcond_free(cli->ctx, values);
    spvcond_module_destroy(m);
    device_options_fini(&d);
    fnvar_options_fini(&fnvar);
    return cli_exit_code(r);
}
