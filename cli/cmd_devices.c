/* SPDX-License-Identifier: MIT */
/* spvcond devices: the devices --device accepts, from a configuration file and the built-in table. */
#include <string.h>

#include "device_options.h"
#include "json_writer.h"

static const char devices_usage[] =
    "USAGE: spvcond devices [--device-config FILE] [--table dpcpp] [--json]\n"
    "       spvcond devices --registry [--json]\n"
    "\n"
    "List the devices --device accepts: those of the configuration file (DPC++'s YAML schema), then\n"
    "DPC++'s targets compiled into the library, with their aspects (Intel GPUs as Intel's Linux driver\n"
    "reports them) and sub-group sizes. --json also says where each built-in aspect comes from.\n";

/* A device as a line of text. */
static void
print_device_text(const char *source, const spvcond_device_info *d, const char *name)
{
    char buf[48];
    printf("%-22s %-8s aspects:", name, source);
    for (size_t k = 0; k < d->aspect_count; k++) {
        const char *an = spvcond_aspect_name(d->aspects[k]);
        snprintf(buf, sizeof(buf), "%u", d->aspects[k]);
        printf(" %s", an ? an : buf);
    }
    /* A device that may support other aspects lists what it is known to have: with nothing listed, any. */
    if (d->may_support_other_aspects)
        printf(d->aspect_count ? " and maybe others" : " any");
    else if (!d->aspect_count)
        printf(" none");
    printf("; sub-group sizes:");
    for (size_t k = 0; k < d->sub_group_size_count; k++)
        printf(" %u", d->sub_group_sizes[k]);
    if (!d->sub_group_size_count)
        printf(d->may_support_other_aspects ? " any" : " none");
    if (d->max_work_group_size)
        printf("; max work-group size %llu", (unsigned long long)d->max_work_group_size);
    if (d->has_architecture) {
        spvcond_registry_describe_architecture(d->category, d->family, d->architecture, buf, sizeof(buf));
        printf("; architecture %s", buf);
    }
    if (d->has_target) {
        const char *tn = spvcond_registry_target_name(d->target, buf, sizeof(buf));
        printf("; target %s", tn ? tn : "?");
    }
    if (d->has_capabilities && strcmp(source, "built-in") != 0) { /* a Vulkan device's: what it is known by */
        printf("; capabilities:");
        for (size_t k = 0; k < d->capability_count; k++) {
            const char *cn = spvcond_capability_name(d->capabilities[k]);
            if (cn)
                printf(" %s", cn);
            else
                printf(" %u", d->capabilities[k]);
        }
    }
    printf("\n");
}

/* A device as a JSON object; a built-in one says where each of its aspects comes from. */
static void
print_device_json(struct json *j, const char *source, const spvcond_device_info *d, const char *name)
{
    char buf[48];
    json_object_begin(j);
    json_kv_string(j, "name", name);
    json_kv_string(j, "source", source);
    json_key(j, "aspects");
    json_array_begin(j);
    for (size_t k = 0; k < d->aspect_count; k++) {
        const char *an = spvcond_aspect_name(d->aspects[k]);
        snprintf(buf, sizeof(buf), "%u", d->aspects[k]);
        json_string(j, an ? an : buf);
    }
    json_array_end(j);
    json_kv_bool(j, "may_support_other_aspects", d->may_support_other_aspects);
    json_key(j, "sub_group_sizes");
    json_array_begin(j);
    for (size_t k = 0; k < d->sub_group_size_count; k++)
        json_uint(j, d->sub_group_sizes[k]);
    json_array_end(j);
    json_kv_uint(j, "max_work_group_size", d->max_work_group_size);
    if (d->has_architecture) {
        json_key(j, "architecture");
        json_array_begin(j);
        json_uint(j, d->category);
        json_uint(j, d->family);
        json_uint(j, d->architecture);
        json_array_end(j);
    }
    if (d->has_architecture) {
        spvcond_registry_describe_architecture(d->category, d->family, d->architecture, buf, sizeof(buf));
        json_kv_string(j, "architecture_name", buf);
    }
    if (d->has_target) {
        const char *tn = spvcond_registry_target_name(d->target, buf, sizeof(buf));
        json_kv_string(j, "target", tn ? tn : "?");
    }
    if (d->has_capabilities) {
        json_key(j, "capabilities");
        json_array_begin(j);
        for (size_t k = 0; k < d->capability_count; k++)
            json_uint(j, d->capabilities[k]);
        json_array_end(j);
    }
    if (!strcmp(source, "built-in")) {
        json_key(j, "aspect_sources");
        json_object_begin(j);
        for (size_t k = 0; k < d->aspect_count; k++) {
            const char *an = spvcond_aspect_name(d->aspects[k]);
            snprintf(buf, sizeof(buf), "%u", d->aspects[k]);
            json_kv_string(j, an ? an : buf, spvcond_builtin_device_aspect_source(name, d->aspects[k]));
        }
        json_object_end(j);
    }
    json_object_end(j);
}

static void
print_device(struct json *j, const char *source, const spvcond_device_info *d, const char *name)
{
    if (j)
        print_device_json(j, source, d, name);
    else
        print_device_text(source, d, name);
}

/* One registry entry: "target x86_64 4" (text) or {"kind", "name", "value"} (JSON). */
static void
print_entry(struct json *j, const char *kind, const char *name, uint32_t value)
{
    if (!j) {
        printf("%-12s %-36s %u\n", kind, name, value);
        return;
    }
    json_object_begin(j);
    json_kv_string(j, "kind", kind);
    json_kv_string(j, "name", name);
    json_kv_uint(j, "value", value);
    json_object_end(j);
}

/* The device registry (version 0) through the public lookups: every list is dense from 0, so a name
 * per value until the first missing one. */
static void
print_registry(struct json *j)
{
    char a[64], b[64], c[64], path[200];
    if (j)
        json_array_begin(j);
    for (uint32_t t = 0; spvcond_registry_target_name(t, a, sizeof(a)); t++) {
        print_entry(j, "target", a, t);
        for (uint32_t f = 0; spvcond_registry_feature_name(t, f, b, sizeof(b)); f++) {
            snprintf(path, sizeof(path), "%s/%s", a, b);
            print_entry(j, "feature", path, f);
        }
    }
    for (uint32_t cat = 0; spvcond_registry_category_name(cat, a, sizeof(a)); cat++) {
        print_entry(j, "category", a, cat);
        for (uint32_t fam = 0; spvcond_registry_family_name(cat, fam, b, sizeof(b)); fam++) {
            snprintf(path, sizeof(path), "%s/%s", a, b);
            print_entry(j, "family", path, fam);
            for (uint32_t arch = 0; spvcond_registry_architecture_name(cat, fam, arch, c, sizeof(c)); arch++) {
                snprintf(path, sizeof(path), "%s/%s/%s", a, b, c);
                print_entry(j, "architecture", path, arch);
            }
        }
    }
    if (j)
        json_array_end(j);
}

struct devices_args {
    const char *config_path;
    bool json, dpcpp, registry;
};

static int
take_table(struct cli *cli, void *args, const char *arg)
{
    (void)cli;
    if (strcmp(arg, "dpcpp") != 0) {
        cli_error("--table takes dpcpp (the default table is the hardware's)");
        return EXIT_USAGE;
    }
    ((struct devices_args *)args)->dpcpp = true;
    return EXIT_OK;
}

static int
run_devices(struct cli *cli, void *args)
{
    const struct devices_args *a = args;
    struct json j;
    json_init(&j, stdout);
    if (a->registry) {
        if (a->config_path || a->dpcpp) {
            cli_error("--registry lists the device registry alone: no --device-config or --table with it");
            return EXIT_USAGE;
        }
        print_registry(a->json ? &j : NULL);
        return EXIT_OK;
    }
    struct device_options d = {.config_path = a->config_path};
    int rc = device_options_load_config(cli, &d);
    if (rc != EXIT_OK)
        return rc;
    if (a->json)
        json_array_begin(&j);
    spvcond_device_info info = {.size = sizeof(spvcond_device_info)};
    for (size_t k = 0; spvcond_device_config_get(d.config, k, &info); k++)
        print_device(a->json ? &j : NULL, "file", &info, info.name);
    char name[64], full[80];
    for (size_t k = 0; spvcond_builtin_device_name(k, name, sizeof(name)); k++) {
        snprintf(full, sizeof(full), "%s%s", a->dpcpp ? "dpcpp:" : "", name);
        spvcond_builtin_device_find(full, &info);
        print_device(a->json ? &j : NULL, "built-in", &info, full);
    }
    /* The built-in Vulkan devices (spvcond_vulkan_profile), described as a queried device would be. */
    const char *vn;
    for (size_t k = 0; !a->dpcpp && (vn = spvcond_vulkan_profile_name(k)) != NULL; k++) {
        spvcond_device_info *vinfo;
        if (device_options_vulkan_info(cli->ctx, vn, &vinfo) == SPVCOND_OK) {
            print_device(a->json ? &j : NULL, "vulkan", vinfo, vn);
            spvcond_free(cli->ctx, vinfo);
        }
    }
    if (a->json)
        json_array_end(&j);
    device_options_fini(&d);
    return EXIT_OK;
}

static const struct cli_opt devices_options[] = {
    CLI_CALL("table", 0, "dpcpp", take_table,
             "List DPC++'s own table instead (DeviceConfigFile.td), as \"dpcpp:NAME\", the\n"
             "names --device takes to see a device as DPC++'s AOT filter does."),
    CLI_STRING("device-config", 0, "FILE", struct devices_args, config_path,
               "Devices in DPC++'s YAML schema, listed first."),
    CLI_FLAG("registry", 0, struct devices_args, registry,
             "List SPV_INTEL_function_variants' device registry instead: every target and\n"
             "its features, every category/family/architecture, with their values: the\n"
             "names --target, --features, --category, --family and --arch take."),
    CLI_FLAG("json", 0, struct devices_args, json, "Print one JSON object."),
    CLI_END,
};

const struct cli_command cli_devices = {
    .name = "devices",
    .summary = "List the devices --device accepts.",
    .usage = devices_usage,
    .options = devices_options,
    .args_size = sizeof(struct devices_args),
    .min_inputs = 0,
    .max_inputs = 0,
    .run = run_devices,
};
