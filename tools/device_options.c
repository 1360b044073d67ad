/* SPDX-License-Identifier: MIT */
#include "device_options.h"

#include <stdlib.h>

int
device_options_load_config(struct cli *cli, struct device_options *d)
{
    if (!d->config_path || d->config)
        return EXIT_OK;
    void *text;
    size_t size;
    int rc = cli_read_file(d->config_path, &text, &size);
    if (rc != EXIT_OK)
        return rc;
    spvcond_result r = spvcond_device_config_parse(cli->ctx, text, size, d->config_path, &d->config);
    free(text);
    return r == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(r);
}

int
device_options_resolve(struct cli *cli, struct device_options *d)
{
    int rc = device_options_load_config(cli, d);
    if (rc != EXIT_OK)
        return rc;
    if (spvcond_device_config_find(d->config, d->name, &d->info) || spvcond_builtin_device_find(d->name, &d->info)) {
        d->info.name = d->name;
        return EXIT_OK;
    }
    cli_error("unknown device '%s'%s; 'spvcond devices' lists the known ones", d->name,
              d->config_path ? " (not in the configuration file nor built in)" : "");
    return EXIT_USAGE;
}

void
device_options_fini(struct device_options *d)
{
    spvcond_device_config_destroy(d->config);
    d->config = NULL;
}

bool
fnvar_option(struct fnvar_options *f, int opt, const char *arg, int *rc)
{
    spvcond_fnvar_device *d = &f->device;
    switch (opt) {
    case OPT_TARGET: d->has_target = true; *rc = parse_u32(arg, "--target", &d->target); break;
    case OPT_FEATURES: *rc = u32_list_parse(&f->features, arg, "--features", NULL); break;
    case OPT_CATEGORY: f->architecture_parts |= 1; *rc = parse_u32(arg, "--category", &d->category); break;
    case OPT_FAMILY: f->architecture_parts |= 2; *rc = parse_u32(arg, "--family", &d->family); break;
    case OPT_ARCH: f->architecture_parts |= 4; *rc = parse_u32(arg, "--arch", &d->architecture); break;
    case OPT_CAPABILITIES:
        d->has_capabilities = true;
        *rc = u32_list_parse(&f->caps, arg, "--capabilities", capability_value);
        break;
    default: return false;
    }
    f->given = true;
    return true;
}

int
fnvar_options_finish(struct fnvar_options *f, const struct device_options *d)
{
    static const char *const parts[3] = {"--category", "--family", "--arch"};
    if (f->architecture_parts && f->architecture_parts != 7) {
        for (int k = 0; k < 3; k++)
            if (!(f->architecture_parts >> k & 1)) {
                cli_error("%s is missing: --category, --family and --arch describe the device's architecture "
                          "together (none is taken as 0)", parts[k]);
                return EXIT_USAGE;
            }
    }
    if (f->features.count && !f->device.has_target) {
        cli_error("--features needs --target: features belong to a target");
        return EXIT_USAGE;
    }
    f->device.has_architecture = f->architecture_parts == 7;
    f->device.features = f->features.items;
    f->device.feature_count = f->features.count;
    f->device.capabilities = f->caps.items;
    f->device.capability_count = f->caps.count;
    if (d && d->name && !f->device.has_architecture && d->info.has_architecture) {
        f->device.has_architecture = true; /* the device's own, unless --category said otherwise */
        f->device.category = d->info.category;
        f->device.family = d->info.family;
        f->device.architecture = d->info.architecture;
    }
    return EXIT_OK;
}

void
fnvar_options_fini(struct fnvar_options *f)
{
    free(f->features.items);
    free(f->caps.items);
}
