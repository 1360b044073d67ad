/* SPDX-License-Identifier: MIT */
/* spvcond check: DPC++'s kernel_not_supported check for a device, kernel by kernel. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "device_options.h"
#include "json_writer.h"

static const char check_usage[] =
    "USAGE: spvcond check --device NAME [--device-config FILE] [--json] <input> [KERNEL...]\n"
    "\n"
    "For each kernel of an annotated module (all of them if none is named), say whether the device\n"
    "supports it and, if not, why, in DPC++'s kernel_not_supported wording. Prints the spec-constant\n"
    "values for the device too. Exit status 0 when the check ran, whatever the verdicts.\n";

struct verdicts {
    struct json *json; /* NULL: text */
};

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

int
cmd_check(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"device", required_argument, NULL, 'd'},
        {"device-config", required_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct device_options d;
    memset(&d, 0, sizeof(d));
    bool json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (c) {
        case 'd': d.name = optarg; break;
        case 'c': d.config_path = optarg; break;
        case 'j': json = true; break;
        case 'h': fputs(check_usage, stdout); return EXIT_OK;
        default: fputs(check_usage, stderr); return EXIT_USAGE;
        }
    }
    if (!d.name || optind >= argc) {
        cli_error(!d.name ? "--device required" : "no input file");
        return EXIT_USAGE;
    }
    int rc = device_options_resolve(cli, &d);
    spvcond_module *m = NULL;
    if (rc == EXIT_OK)
        rc = cli_load_module(cli, argv[optind], &m);
    if (rc != EXIT_OK) {
        device_options_fini(&d);
        return rc;
    }
    struct json j;
    json_init(&j, stdout);
    if (json) {
        json_object_begin(&j);
        json_kv_string(&j, "device", d.name);
    }
    spvcond_spec_value *values = NULL;
    size_t count = 0;
    spvcond_result r = spvcond_device_spec_values(m, &d.info, &values, &count);
    if (r == SPVCOND_OK) {
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
    spvcond_free(cli->ctx, values);
    /* The kernels: the ones named, or every entry point (in one pass over the module). */
    struct verdicts out = {json ? &j : NULL};
    size_t named = (size_t)(argc - optind - 1);
    if (!named && r == SPVCOND_OK)
        r = spvcond_kernels_supported(m, &d.info, print_verdict, &out);
    for (size_t k = 0; k < named && r == SPVCOND_OK; k++) {
        bool ok;
        char reason[SPVCOND_REASON_MAX];
        r = spvcond_kernel_supported(m, &d.info, argv[optind + 1 + k], &ok, reason, sizeof(reason));
        if (r == SPVCOND_OK)
            print_verdict(&out, argv[optind + 1 + k], ok, reason);
    }
    if (json && r == SPVCOND_OK) {
        json_array_end(&j);
        json_object_end(&j);
    }
    spvcond_module_destroy(m);
    device_options_fini(&d);
    return cli_exit_code(r);
}
