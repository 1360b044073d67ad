/* SPDX-License-Identifier: MIT */
#include "device_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    d->info = SPVCOND_SIZED(spvcond_device_info);
    if (spvcond_device_config_find(d->config, d->name, &d->info) || spvcond_builtin_device_find(d->name, &d->info)) {
        d->info.name = d->name;
        return EXIT_OK;
    }
    spvcond_result r = device_options_vulkan_info(cli->ctx, d->name, &d->vulkan);
    if (r == SPVCOND_OK) {
        d->vulkan_ctx = cli->ctx;
        d->info = *d->vulkan;
        return EXIT_OK;
    }
    if (r != SPVCOND_ERROR_NOT_FOUND)
        return cli_exit_code(r);
    cli_error("unknown device '%s'%s; 'spvcond devices' lists the known ones", d->name,
              d->config_path ? " (not in the configuration file nor built in)" : "");
    return EXIT_USAGE;
}

spvcond_result
device_options_vulkan_info(spvcond_context *ctx, const char *name, spvcond_device_info **out)
{
    spvcond_vulkan_device vk = SPVCOND_SIZED(spvcond_vulkan_device);
    return spvcond_vulkan_profile(name, &vk) ? spvcond_vulkan_device_info(ctx, &vk, out) : SPVCOND_ERROR_NOT_FOUND;
}

void
device_options_fini(struct device_options *d)
{
    spvcond_device_config_destroy(d->config);
    d->config = NULL;
    if (d->vulkan && d->vulkan_ctx)
        spvcond_free(d->vulkan_ctx, d->vulkan);
    d->vulkan = NULL;
}

bool
fnvar_options_given(const struct fnvar_options *f)
{
    return f->target || f->features || f->category || f->family || f->arch || f->capabilities || f->unspecified;
}

static int
unknown_name(const char *option, const char *name, const char *within)
{
    cli_error("%s: the device registry (version 0) has no '%s'%s%s; give a registry name ('spvcond devices "
              "--registry' lists them) or a number",
              option, name, within ? " " : "", within ? within : "");
    return EXIT_USAGE;
}

static int
resolve_unspecified(struct fnvar_options *f)
{
    static const char *const names[] = {"error", "unknown", "any"};
    f->device.unspecified = SPVCOND_UNSPECIFIED_ERROR;
    if (!f->unspecified)
        return EXIT_OK;
    for (int k = 0; k < 3; k++)
        if (strcmp(f->unspecified, names[k]) == 0) {
            f->device.unspecified = (spvcond_unspecified)k;
            return EXIT_OK;
        }
    cli_error("--unspecified: '%s' is none of error, unknown, any", f->unspecified);
    return EXIT_USAGE;
}

/* The architecture: --arch alone by name or path, or --category [--family [--arch]] part by part. */
static int
resolve_architecture(struct fnvar_options *f)
{
    spvcond_fnvar_device *d = &f->device;
    char within[64];
    if (f->family && !f->category) {
        cli_error("--family needs --category: a family is numbered within its category");
        return EXIT_USAGE;
    }
    if (f->arch && !f->category) {
        if (!spvcond_registry_architecture_path(f->arch, &d->category, &d->family, &d->architecture)) {
            if (strspn(f->arch, "0123456789") == strlen(f->arch)) {
                cli_error("--arch %s: a number needs --category and --family (or give a name: --arch "
                          "intel_gpu_pvc, gpu/intel/pvc)", f->arch);
                return EXIT_USAGE;
            }
            return unknown_name("--arch", f->arch, NULL);
        }
        d->has_architecture = true;
        return EXIT_OK;
    }
    if (!f->category)
        return EXIT_OK;
    if (!spvcond_registry_category(f->category, &d->category))
        return unknown_name("--category", f->category, NULL);
    d->has_category = true;
    if (f->family) {
        snprintf(within, sizeof(within), "in category %s", f->category);
        if (!spvcond_registry_family(d->category, f->family, &d->family))
            return unknown_name("--family", f->family, within);
        d->has_family = true;
    }
    if (f->arch) {
        if (!f->family) {
            cli_error("--arch with --category needs --family: architectures are numbered within a family");
            return EXIT_USAGE;
        }
        snprintf(within, sizeof(within), "in family %s/%s", f->category, f->family);
        if (!spvcond_registry_architecture(d->category, d->family, f->arch, &d->architecture))
            return unknown_name("--arch", f->arch, within);
        d->has_architecture = true;
    }
    if (!d->has_architecture && d->unspecified == SPVCOND_UNSPECIFIED_ERROR) {
        cli_error("%s is missing: --category, --family and --arch describe the device's architecture together "
                  "(none is taken as 0; --unspecified unknown or any says what a missing part means)",
                  f->family ? "--arch" : "--family");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* --features: names of the target's features (or numbers), comma-separated; '' or "none" for none. */
static int
parse_features(struct u32_list *list, const char *text, uint32_t target, const char *target_text)
{
    char *copy = strdup(text);
    if (!copy)
        return EXIT_NOMEM;
    int rc = EXIT_OK;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == EXIT_OK; tok = strtok_r(NULL, ",", &save)) {
        uint32_t v;
        if (strcmp(tok, "none") == 0 && strcmp(text, "none") == 0)
            break;
        if (!spvcond_registry_feature(target, tok, &v)) {
            char within[64];
            snprintf(within, sizeof(within), "among the features of target %s", target_text);
            rc = unknown_name("--features", tok, within);
            break;
        }
        rc = u32_list_push(list, v);
    }
    free(copy);
    return rc;
}

int
fnvar_options_finish(struct fnvar_options *f, const struct device_options *d)
{
    spvcond_fnvar_device *dev = &f->device;
    dev->size = sizeof(*dev);
    int rc = resolve_unspecified(f);
    if (rc == EXIT_OK && f->target) {
        dev->has_target = spvcond_registry_target(f->target, &dev->target);
        if (!dev->has_target)
            rc = unknown_name("--target", f->target, NULL);
    }
    const spvcond_device_info *info = d && d->name ? &d->info : NULL;
    if (rc == EXIT_OK && !f->target && info && info->has_target) { /* --device's target, and its features */
        dev->has_target = true;
        dev->target = info->target;
        dev->has_features = info->has_features;
        dev->features = info->features;
        dev->feature_count = info->feature_count;
    }
    if (rc == EXIT_OK && f->features) {
        if (!dev->has_target) {
            cli_error("--features needs a target (--target, or a --device that has one): features belong to a "
                      "target");
            return EXIT_USAGE;
        }
        char t[32];
        const char *tname = spvcond_registry_target_name(dev->target, t, sizeof(t));
        rc = parse_features(&f->feature_list, f->features, dev->target, tname ? tname : f->target);
        dev->has_features = true;
        dev->features = f->feature_list.items;
        dev->feature_count = f->feature_list.count;
    }
    if (rc == EXIT_OK)
        rc = resolve_architecture(f);
    if (rc == EXIT_OK && !f->arch && !f->category && info) { /* the device's own, unless given */
        dev->has_architecture = info->has_architecture;
        dev->has_family = info->has_family;
        dev->has_category = info->has_category;
        dev->category = info->category;
        dev->family = info->family;
        dev->architecture = info->architecture;
    }
    if (rc == EXIT_OK && f->capabilities) {
        dev->has_capabilities = true;
        rc = u32_list_parse(&f->caps, f->capabilities, "--capabilities", capability_value);
        dev->capabilities = f->caps.items;
        dev->capability_count = f->caps.count;
    } else if (rc == EXIT_OK && info && info->has_capabilities) {
        dev->has_capabilities = true;
        dev->capabilities = info->capabilities;
        dev->capability_count = info->capability_count;
    }
    return rc;
}

void
fnvar_options_fini(struct fnvar_options *f)
{
    free(f->feature_list.items);
    free(f->caps.items);
}
