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
