/* SPDX-License-Identifier: MIT */
/* spvcond filter: DPC++'s AOT aspect filter over a file table (spec/split.md). */
#include <stdlib.h>
#include <string.h>

#include "device_options.h"

static const char filter_usage[] =
    "USAGE: spvcond filter <table> --device NAME [--device-config FILE] -o <table>\n"
    "\n"
    "Keep the rows of a file table ([Code|Properties|Symbols], as spvcond split and DPC++'s post-link tool\n"
    "write it) whose image the device can take: every aspect, the required sub-group size and the required\n"
    "work-group size its property file lists ([SYCL/device requirements]). Paths in the table are relative\n"
    "to its directory; the output keeps them as they are, so write it beside the input. Dropped rows are\n"
    "named on standard error with the reason, in DPC++'s kernel_not_supported words.\n";

#define HEADER "[Code|Properties|Symbols]"

/* `path` relative to the directory of `table`, unless absolute. */
static char *
beside(const char *table, const char *path, size_t len)
{
    const char *slash = strrchr(table, '/');
    size_t dir = path[0] == '/' || !slash ? 0 : (size_t)(slash - table) + 1;
    char *out = malloc(dir + len + 1);
    if (out) {
        memcpy(out, table, dir);
        memcpy(out + dir, path, len);
        out[dir + len] = 0;
    }
    return out;
}

/* The next line of the table from *pos (advanced past it), without its CR LF or LF; *number counts from 1. */
static bool
next_line(const char *text, size_t size, size_t *pos, size_t *number, const char **line, size_t *len)
{
    if (*pos >= size)
        return false;
    const char *s = text + *pos, *nl = memchr(s, '\n', size - *pos);
    size_t n = nl ? (size_t)(nl - s) : size - *pos;
    *pos += n + 1;
    ++*number;
    *line = s;
    *len = n && s[n - 1] == '\r' ? n - 1 : n;
    return true;
}

struct filter_args {
    struct device_options device;
    const char *output;
};

struct table {
    const char *path;
    char *out; /* the kept rows */
    size_t len, kept, rows;
};

/* Row `s` (n bytes, line `line`) of the table: copied to the output if the device takes its image. */
static int
filter_row(struct cli *cli, const spvcond_device_info *device, struct table *t, const char *s, size_t n, size_t line)
{
    const char *bar1 = memchr(s, '|', n), *bar2 = bar1 ? memchr(bar1 + 1, '|', (size_t)(s + n - bar1 - 1)) : NULL;
    if (!bar1 || !bar2 || bar1 == s || bar2 == bar1 + 1) {
        cli_error("%s:%zu: expected code|properties|symbols", t->path, line);
        return EXIT_INVALID;
    }
    char *props = beside(t->path, bar1 + 1, (size_t)(bar2 - bar1 - 1));
    void *ptext = NULL;
    size_t psize = 0;
    t->rows++;
    int rc = props ? cli_read_file(props, &ptext, &psize) : EXIT_NOMEM; /* names the file that is missing */
    bool supported = false;
    char reason[SPVCOND_REASON_MAX];
    spvcond_result r = rc == EXIT_OK ? spvcond_image_supported(cli->ctx, ptext, psize, props, device, &supported,
                                                               reason, sizeof(reason))
                                     : SPVCOND_OK;
    if (r != SPVCOND_OK)
        rc = r == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(r);
    if (rc == EXIT_OK && supported) {
        memcpy(t->out + t->len, s, n);
        t->out[t->len + n] = '\n';
        t->len += n + 1;
        t->kept++;
    } else if (rc == EXIT_OK && !cli->quiet) {
        fprintf(stderr, "dropped %.*s: %s\n", (int)(bar1 - s), s, reason);
    }
    free(ptext);
    free(props);
    return rc;
}

/* The table's rows whose images the device takes, after its header. */
static int
filter_table(struct cli *cli, const spvcond_device_info *device, const char *text, size_t size, struct table *t)
{
    size_t line = 0, n;
    const char *s;
    int rc = EXIT_OK;
    for (size_t p = 0; rc == EXIT_OK && next_line(text, size, &p, &line, &s, &n);) {
        if (line == 1 && (n != strlen(HEADER) || memcmp(s, HEADER, n) != 0)) {
            cli_error("%s:1: not a file table (expected %s)", t->path, HEADER);
            return EXIT_INVALID;
        }
        if (line == 1) {
            memcpy(t->out, s, n);
            t->out[n] = '\n';
            t->len = n + 1;
        } else if (n != 0) {
            rc = filter_row(cli, device, t, s, n, line);
        }
    }
    if (rc == EXIT_OK && line == 0) {
        cli_error("%s: empty, not a file table", t->path);
        rc = EXIT_INVALID;
    }
    return rc;
}

static int
run_filter(struct cli *cli, void *args)
{
    struct filter_args *a = args;
    struct table t = {cli->inputs[0], NULL, 0, 0, 0};
    char *text = NULL;
    size_t size = 0;
    int rc = device_options_resolve(cli, &a->device);
    if (rc == EXIT_OK)
        rc = cli_read_file(t.path, (void **)&text, &size);
    if (rc == EXIT_OK && !(t.out = malloc(size + 2)))
        rc = EXIT_NOMEM;
    if (rc == EXIT_OK)
        rc = filter_table(cli, &a->device.info, text, size, &t);
    if (rc == EXIT_OK)
        rc = cli_write_file(cli, a->output, t.out, t.len);
    if (rc == EXIT_OK && !cli->quiet)
        fprintf(stderr, "filter: %zu of %zu images kept for %s\n", t.kept, t.rows, a->device.name);
    free(text);
    free(t.out);
    return rc;
}

static void
filter_fini(void *args)
{
    device_options_fini(&((struct filter_args *)args)->device);
}

static const struct cli_opt filter_options[] = {
    {.name = "device", .arg = "NAME", .kind = CLI_OPT_STRING, .offset = offsetof(struct filter_args, device.name),
     .required = true, .help = "The device (spvcond devices; dpcpp:NAME for DPC++'s own table)."},
    CLI_STRING("device-config", 0, "F", struct filter_args, device.config_path,
               "Devices in DPC++'s YAML schema, searched before the built-in table."),
    CLI_OUTPUT("FILE", struct filter_args, output, "The filtered table ('-' for standard output). Required."),
    CLI_QUIET("No summary on standard error."),
    CLI_SYNC,
    CLI_END,
};

const struct cli_command cli_filter = {
    .name = "filter",
    .summary = "Keep the rows of a file table whose device image a device can take (DPC++'s aspect\n"
               "filter).",
    .usage = filter_usage,
    .options = filter_options,
    .args_size = sizeof(struct filter_args),
    .min_inputs = 1,
    .max_inputs = 1,
    .inputs_error = "one table expected",
    .run = run_filter,
    .fini = filter_fini,
};
