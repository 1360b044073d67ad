/* SPDX-License-Identifier: MIT */
/* spvcond split: device images as DPC++'s post-link tool makes them, with their property and symbol files
 * and the file table (spec/split.md). The directory appears whole or not at all. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char split_usage[] =
    "USAGE: spvcond split [options] [<input>] -o <directory>\n"
    "\n"
    "Split the module into device images as DPC++'s post-link tool does: kernels and exported functions\n"
    "with the same used aspects, required work-group size and required sub-group size share an image,\n"
    "which holds them, what they call and what they use, and nothing of SPV_INTEL_function_variants.\n"
    "Writes image_N.spv, its property file image_N.prop ([SYCL/device requirements]) and symbol file\n"
    "image_N.sym, and the file table split.table ([Code|Properties|Symbols]); the directory appears whole\n"
    "or not at all.\n"
    "\n"
    "  --mode M           per-requirements (default) or per-kernel (one image per kernel or export).\n"
    "  --requirements F   Requirements stated per function, as for annotate (spec/requirements.md).\n"
    "  --force            Replace a directory that exists and is not empty.\n"
    "  -o DIR             Output directory. Required.\n"
    "  -q, --quiet        No summary on standard error.\n"
    CLI_SYNC_HELP
    "  -h, --help         Print this help and exit.\n";

struct out {
    const struct cli *cli;
    const char *dir; /* the temporary directory */
    char *table;
    size_t len, cap;
    int rc;
};

static int
write_in(const struct out *o, const char *name, const void *data, size_t size)
{
    size_t n = strlen(o->dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path)
        return EXIT_NOMEM;
    snprintf(path, n, "%s/%s", o->dir, name);
    int rc = cli_write_new_file(o->cli, path, data, size);
    free(path);
    return rc;
}

static spvcond_result
take_image(void *user, size_t index, const spvcond_split_image *img)
{
    struct out *o = user;
    char name[3][48];
    snprintf(name[0], sizeof(name[0]), "image_%zu.spv", index);
    snprintf(name[1], sizeof(name[1]), "image_%zu.prop", index);
    snprintf(name[2], sizeof(name[2]), "image_%zu.sym", index);
    if ((o->rc = write_in(o, name[0], img->words, img->word_count * 4)) != EXIT_OK ||
        (o->rc = write_in(o, name[1], img->properties, strlen(img->properties))) != EXIT_OK ||
        (o->rc = write_in(o, name[2], img->symbols, strlen(img->symbols))) != EXIT_OK)
        return SPVCOND_ERROR_INVALID_ARGUMENT; /* stops the split; rc says why */
    size_t need = o->len + 3 * 48 + 4;
    if (need > o->cap) {
        char *t = realloc(o->table, need * 2);
        if (!t) {
            o->rc = EXIT_NOMEM;
            return SPVCOND_ERROR_OUT_OF_MEMORY;
        }
        o->table = t;
        o->cap = need * 2;
    }
    o->len += (size_t)sprintf(o->table + o->len, "%s|%s|%s\n", name[0], name[1], name[2]);
    return SPVCOND_OK;
}

static int
remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void
remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether `dir` exists with something in it. */
static bool
has_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    bool any = false;
    while (!any && (e = readdir(d)) != NULL)
        any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return any;
}

int
cmd_split(struct cli *cli, int argc, char **argv)
{
    static const struct option options[] = {
        {"mode", required_argument, NULL, 'm'},
        {"requirements", required_argument, NULL, 'r'},
        {"force", no_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},
        CLI_SYNC_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *requirements = NULL;
    uint32_t flags = 0;
    bool force = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (strcmp(optarg, "per-kernel") == 0) {
                flags = SPVCOND_SPLIT_PER_KERNEL;
            } else if (strcmp(optarg, "per-requirements") != 0) {
                cli_error("--mode takes per-requirements or per-kernel, not '%s'", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'r': requirements = optarg; break;
        case 'f': force = true; break;
        case 'o': output = optarg; break;
        case 'q': cli->quiet = 1; break;
        CLI_SYNC_CASES;
        case 'h': fputs(split_usage, stdout); return EXIT_OK;
        default: fputs(split_usage, stderr); return EXIT_USAGE;
        }
    }
    if (!output || argc - optind > 1) {
        cli_error(!output ? "-o required" : "More than one input file specified");
        return EXIT_USAGE;
    }
    if (has_entries(output) && !force) {
        cli_error("'%s' exists and is not empty; --force replaces it", output);
        return EXIT_INVALID;
    }
    spvcond_requirements_file *reqfile = NULL;
    spvcond_annotate_options opts = {.size = sizeof(spvcond_annotate_options)};
    void *data = NULL;
    size_t size = 0;
    int rc = EXIT_OK;
    if (requirements && (rc = cli_read_file(requirements, &data, &size)) == EXIT_OK) {
        spvcond_result pr = spvcond_requirements_file_parse(cli->ctx, data, size, requirements, &reqfile);
        free(data);
        if (pr != SPVCOND_OK)
            return pr == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(pr);
        opts.requirements = spvcond_requirements_file_entries(reqfile, &opts.requirement_count);
    }
    const char *input = optind < argc ? argv[optind] : "-";
    cli->input_name = strcmp(input, "-") == 0 ? "stdin" : input;
    struct cli_bytes module = {NULL, 0, 0};
    if (rc == EXIT_OK)
        rc = cli_read_module_file(input, &module);
    if (rc != EXIT_OK) {
        spvcond_requirements_file_destroy(reqfile);
        return rc;
    }
    /* Beside the target, renamed into place at the end ("out/" is beside "out" too). */
    size_t n = strlen(output);
    while (n > 1 && output[n - 1] == '/')
        n--;
    char *tmp = malloc(n + 16), *old = malloc(n + 16);
    /* The file table, its header first, a row per image as take_image writes it. */
    static const char header[] = "[Code|Properties|Symbols]\n";
    struct out o = {cli, tmp, malloc(sizeof(header)), sizeof(header) - 1, sizeof(header), EXIT_OK};
    if (o.table)
        memcpy(o.table, header, sizeof(header));
    if (!tmp || !old || !o.table || (memcpy(tmp, output, n), memcpy(tmp + n, ".tmp.XXXXXX", 12), !mkdtemp(tmp))) {
        cli_error("could not create a directory next to '%s': %s", output, strerror(errno));
        cli_bytes_free(&module);
        free(o.table);
        free(tmp);
        free(old);
        spvcond_requirements_file_destroy(reqfile);
        return EXIT_IO;
    }
    size_t images = 0;
    spvcond_result r = module.size % 4 ? SPVCOND_ERROR_INVALID_BINARY : SPVCOND_OK;
    if (r != SPVCOND_OK)
        cli_error("%s: the size is not a multiple of 4 bytes", cli->input_name);
    if (r == SPVCOND_OK)
        r = spvcond_split(cli->ctx, module.data, module.size / 4, &opts, flags, take_image, &o, &images);
    rc = o.rc != EXIT_OK ? o.rc : r != SPVCOND_OK ? cli_exit_code(r) : EXIT_OK;
    if (rc == EXIT_OK)
        rc = write_in(&o, "split.table", o.table, o.len);
    if (rc == EXIT_OK && cli->sync)
        rc = cli_sync_directory(tmp); /* its entries, before it takes the target's place */
    if (rc == EXIT_OK) {
        /* An existing directory goes aside first, and away once the new one is in place. */
        bool existed = access(output, F_OK) == 0;
        memcpy(old, output, n);
        memcpy(old + n, ".old.XXXXXX", 12);
        if (existed && (!mkdtemp(old) || rmdir(old) != 0 || rename(output, old) != 0)) {
            cli_error("could not move '%s' aside: %s", output, strerror(errno));
            rc = EXIT_IO;
        } else if (rename(tmp, output) != 0) {
            cli_error("could not rename '%s' to '%s': %s", tmp, output, strerror(errno));
            if (existed)
                rename(old, output);
            rc = EXIT_IO;
        } else {
            if (existed)
                remove_tree(old);
            if (cli->sync)
                rc = cli_sync_directory_of(output);
        }
    }
    if (rc != EXIT_OK)
        remove_tree(tmp);
    if (rc == EXIT_OK && !cli->quiet)
        fprintf(stderr, "split: %zu image%s in %s\n", images, images == 1 ? "" : "s", output);
    free(o.table);
    cli_bytes_free(&module);
    free(tmp);
    free(old);
    spvcond_requirements_file_destroy(reqfile);
    return rc;
}
