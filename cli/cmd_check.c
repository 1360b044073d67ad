/* SPDX-License-Identifier: MIT */
/* spvcond check: DPC++'s kernel_not_supported check for a device, kernel by kernel. */
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
    "check ran, whatever the verdicts.\n";

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

struct check_args {
    struct device_options device;
    struct fnvar_options fnvar;
    bool json;
};

/* The spec-constant values for the device. */
static void
print_spec_values(struct json *j, const spvcond_spec_value *values, size_t count)
{
    if (j) {
        json_key(j, "spec_values");
        json_array_begin(j);
    }
    for (size_t k = 0; k < count; k++) {
        if (j) {
            json_object_begin(j);
            json_kv_uint(j, "spec_id", values[k].spec_id);
            json_kv_bool(j, "value", values[k].value != 0);
            json_object_end(j);
        } else {
            printf("SpecId %u = %s\n", values[k].spec_id, values[k].value ? "true" : "false");
        }
    }
    if (j)
        json_array_end(j);
}

/* The kernels' verdicts: the ones named, or every entry point (in one pass over the module). */
static spvcond_result
print_kernels(struct cli *cli, const spvcond_device_info *device, spvcond_module *m, struct verdicts *out)
{
    if (out->json) {
        json_key(out->json, "kernels");
        json_array_begin(out->json);
    }
    spvcond_result r = SPVCOND_OK;
    if (cli->input_count == 1)
        r = spvcond_kernels_supported(m, device, print_verdict, out);
    for (size_t k = 1; k < cli->input_count && r == SPVCOND_OK; k++) {
        bool ok;
        char reason[SPVCOND_REASON_MAX];
        r = spvcond_kernel_supported(m, device, cli->inputs[k], &ok, reason, sizeof(reason));
        if (r == SPVCOND_OK)
            print_verdict(out, cli->inputs[k], ok, reason);
    }
    if (out->json && r == SPVCOND_OK)
        json_array_end(out->json);
    return r;
}

/* The variants a multi-target module offers, which the device gets, and (JSON) the names it gets none of. */
static spvcond_result
print_variants(spvcond_module *m, const spvcond_specialize_options *o, struct verdicts *out)
{
    if (out->json) {
        json_key(out->json, "variants");
        json_array_begin(out->json);
    }
    spvcond_result r = spvcond_function_variants(m, o, print_variant, out);
    if (r == SPVCOND_OK)
        end_group(out);
    if (out->json && r == SPVCOND_OK) {
        json_array_end(out->json);
        json_key(out->json, "uncovered");
        json_array_begin(out->json);
        for (size_t k = 0; k < out->uncovered_count; k++)
            json_string(out->json, out->uncovered[k]);
        json_array_end(out->json);
    }
    for (size_t k = 0; k < out->uncovered_count; k++)
        free(out->uncovered[k]);
    free(out->uncovered);
    return r;
}

static int
run_check(struct cli *cli, void *args)
{
    struct check_args *a = args;
    struct device_options *d = &a->device;
    if (!d->name && !fnvar_options_given(&a->fnvar)) {
        cli_error("--device or a function-variants device required");
        return EXIT_USAGE;
    }
    int rc = d->name ? device_options_resolve(cli, d) : EXIT_OK;
    spvcond_module *m = NULL;
    if (rc == EXIT_OK)
        rc = cli_load_module(cli, cli->inputs[0], &m);
    if (rc == EXIT_OK)
        rc = fnvar_options_finish(&a->fnvar, d);
    if (rc != EXIT_OK) {
        spvcond_module_destroy(m);
        return rc;
    }
    struct json j;
    json_init(&j, stdout);
    struct verdicts out = {a->json ? &j : NULL, "", false, false, NULL, 0};
    if (a->json)
        json_object_begin(&j);
    if (a->json && d->name)
        json_kv_string(&j, "device", d->name);
    spvcond_spec_value *values = NULL;
    size_t count = 0;
    spvcond_result r = d->name ? spvcond_device_spec_values(m, &d->info, &values, &count) : SPVCOND_OK;
    if (r == SPVCOND_OK && d->name) {
        print_spec_values(out.json, values, count);
        r = print_kernels(cli, &d->info, m, &out);
    }
    spvcond_specialize_options o = {sizeof(spvcond_specialize_options), values, count, &a->fnvar.device, 0};
    if (r == SPVCOND_OK)
        r = print_variants(m, &o, &out);
    if (a->json && r == SPVCOND_OK)
        json_object_end(&j);
    spvcond_free(cli->ctx, values);
    spvcond_module_destroy(m);
    return cli_exit_code(r);
}

static void
check_fini(void *args)
{
    struct check_args *a = args;
    device_options_fini(&a->device);
    fnvar_options_fini(&a->fnvar);
}

static const struct cli_opt check_options[] = {
    CLI_STRING("device", 0, "NAME", struct check_args, device.name,
               "A device (spvcond devices); its architecture counts as below."),
    CLI_STRING("device-config", 0, "FILE", struct check_args, device.config_path,
               "Devices in DPC++'s YAML schema, searched before the built-in table."),
    FNVAR_ROWS(struct check_args, fnvar),
    CLI_FLAG("json", 0, struct check_args, json, "Print one JSON object."),
    CLI_END,
};

const struct cli_command cli_check = {
    .name = "check",
    .summary = "Say which kernels of an annotated module a device supports, and why not.",
    .usage = check_usage,
    .options = check_options,
    .args_size = sizeof(struct check_args),
    .min_inputs = 1,
    .max_inputs = -1,
    .inputs_error = "no input file",
    .run = run_check,
    .fini = check_fini,
};
