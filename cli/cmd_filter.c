/* SPDX-License-Identifier: MIT */
/* spvcond filter: DPC++'s AOT aspect filter over a file table (spec/split.md). */
#include <getopt.h>
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
    "named on standard error with the reason, in DPC++'s kernel_not_supported words.\n"
    "\n"
    "  --device NAME      The device (spvcond devices; dpcpp:NAME for DPC++'s own table).\n"
    "  --device-config F  Devices in DPC++'s YAML schema, searched before the built-in table.\n"
    "  -o FILE            The filtered table ('-' for standard output). Required.\n"
    "  -q, --quiet        No summary on standard error.\n"
    CLI_SYNC_HELP
    "  -h, --help         Print this help and exit.\n";

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

int
cmd_filter(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"device", required_argument, NULL, 'd'},
        {"device-config", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        CLI_SYNC_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct device_options d;
    memset(&d, 0, sizeof(d));
    const char *output = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
        switch (c) {
        case 'd': d.name = optarg; break;
        case 'c': d.config_path = optarg; break;
        case 'o': output = optarg; break;
        case 'q': cli->quiet = 1; break;
        CLI_SYNC_CASES;
        case 'h': fputs(filter_usage, stdout); return EXIT_OK;
        default: fputs(filter_usage, stderr); return EXIT_USAGE;
        }
    }
    if (!d.name || !output || argc - optind != 1) {
        cli_error(!d.name ? "--device required" : !output ? "-o required" : "one table expected");
        return EXIT_USAGE;
    }
    const char *path = argv[optind];
    int rc = device_options_resolve(cli, &d);
    char *text = NULL, *out = NULL;
    size_t size = 0, len = 0, kept = 0, rows = 0;
    if (rc == EXIT_OK)
        rc = cli_read_file(path, (void **)&text, &size);
    if (rc == EXIT_OK && !(out = malloc(size + 2)))
        rc = EXIT_NOMEM;
    size_t line = 0, n;
    const char *s;
    for (size_t p = 0; rc == EXIT_OK && next_line(text, size, &p, &line, &s, &n);) {
        if (line == 1) {
            if (n != strlen(HEADER) || memcmp(s, HEADER, n) != 0) {
                cli_error("%s:1: not a file table (expected %s)", path, HEADER);
                rc = EXIT_INVALID;
                break;
            }
            memcpy(out, s, n);
            out[n] = '\n';
            len = n + 1;
            continue;
        }
        if (n == 0)
            continue;
        const char *bar1 = memchr(s, '|', n), *bar2 = bar1 ? memchr(bar1 + 1, '|', (size_t)(s + n - bar1 - 1)) : NULL;
        if (!bar1 || !bar2 || bar1 == s || bar2 == bar1 + 1) {
            cli_error("%s:%zu: expected code|properties|symbols", path, line);
            rc = EXIT_INVALID;
            break;
        }
        char *props = beside(path, bar1 + 1, (size_t)(bar2 - bar1 - 1));
        void *ptext = NULL;
        size_t psize = 0;
        rows++;
        if (!props)
            rc = EXIT_NOMEM;
        else
            rc = cli_read_file(props, &ptext, &psize); /* names the file that is missing */
        bool supported = false;
        char reason[SPVCOND_REASON_MAX];
        spvcond_result r = rc == EXIT_OK
                               ? spvcond_image_supported(cli->ctx, ptext, psize, props, &d.info, &supported, reason,
                                                         sizeof(reason))
                               : SPVCOND_OK;
        if (r != SPVCOND_OK)
            rc = r == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(r);
        if (rc == EXIT_OK && supported) {
            memcpy(out + len, s, n);
            out[len + n] = '\n';
            len += n + 1;
            kept++;
        } else if (rc == EXIT_OK && !cli->quiet) {
            fprintf(stderr, "dropped %.*s: %s\n", (int)(bar1 - s), s, reason);
        }
        free(ptext);
        free(props);
    }
    if (rc == EXIT_OK && line == 0) {
        cli_error("%s: empty, not a file table", path);
        rc = EXIT_INVALID;
    }
    if (rc == EXIT_OK)
        rc = cli_write_file(cli, output, out, len);
    if (rc == EXIT_OK && !cli->quiet)
        fprintf(stderr, "filter: %zu of %zu images kept for %s\n", kept, rows, d.name);
    free(text);
    free(out);
    device_options_fini(&d);
    return rc;
}
