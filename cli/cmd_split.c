/* SPDX-License-Identifier: MIT */
/* spvcond split: device images as DPC++'s post-link tool makes them, with their property and symbol files
 * and the file table (spec/split.md). The directory appears whole or not at all. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
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
    "or not at all.\n";

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

struct split_args {
    uint32_t flags;
    const char *requirements, *output;
    bool force;
};

static int
take_mode(struct cli *cli, void *args, const char *arg)
{
    (void)cli;
    struct split_args *a = args;
    if (strcmp(arg, "per-kernel") == 0) {
        a->flags = SPVCOND_SPLIT_PER_KERNEL;
    } else if (strcmp(arg, "per-requirements") == 0) {
        a->flags = 0;
    } else {
        cli_error("--mode takes per-requirements or per-kernel, not '%s'", arg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* `output` (n bytes of it, no trailing '/') with `suffix` (12 bytes with its 0) in malloc's memory. */
static char *
beside_output(const char *output, size_t n, const char *suffix)
{
    char *p = malloc(n + 16);
    if (p) {
        memcpy(p, output, n);
        memcpy(p + n, suffix, 12);
    }
    return p;
}

/* The finished directory `tmp` takes the place of `output` (n bytes); one that existed goes aside first,
 * and away once the new one is in place. */
static int
put_in_place(const struct cli *cli, const char *tmp, const char *output, size_t n)
{
    char *old = beside_output(output, n, ".old.XXXXXX");
    if (!old)
        return EXIT_NOMEM;
    int rc = EXIT_OK;
    bool existed = access(output, F_OK) == 0;
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
    free(old);
    return rc;
}

/* The images, their files and the table, into `tmp`. */
static int
split_into(struct cli *cli, const struct split_args *a, const struct cli_bytes *module,
           const spvcond_annotate_options *opts, char *tmp, size_t *images)
{
    /* The file table, its header first, a row per image as take_image writes it. */
    static const char header[] = "[Code|Properties|Symbols]\n";
    struct out o = {cli, tmp, malloc(sizeof(header)), sizeof(header) - 1, sizeof(header), EXIT_OK};
    if (!o.table)
        return EXIT_NOMEM;
    memcpy(o.table, header, sizeof(header));
    spvcond_result r = module->size % 4 ? SPVCOND_ERROR_INVALID_BINARY : SPVCOND_OK;
    if (r != SPVCOND_OK)
        cli_error("%s: the size is not a multiple of 4 bytes", cli->input_name);
    if (r == SPVCOND_OK)
        r = spvcond_split(cli->ctx, module->data, module->size / 4, opts, a->flags, take_image, &o, images);
    int rc = o.rc != EXIT_OK ? o.rc : r != SPVCOND_OK ? cli_exit_code(r) : EXIT_OK;
    if (rc == EXIT_OK)
        rc = write_in(&o, "split.table", o.table, o.len);
    if (rc == EXIT_OK && cli->sync)
        rc = cli_sync_directory(tmp); /* its entries, before it takes the target's place */
    free(o.table);
    return rc;
}

static int
run_split(struct cli *cli, void *args)
{
    const struct split_args *a = args;
    if (has_entries(a->output) && !a->force) {
        cli_error("'%s' exists and is not empty; --force replaces it", a->output);
        return EXIT_INVALID;
    }
    spvcond_requirements_file *reqfile = NULL;
    spvcond_annotate_options opts = {.size = sizeof(spvcond_annotate_options)};
    int rc = a->requirements ? cli_load_requirements(cli, a->requirements, &reqfile) : EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    if (reqfile)
        opts.requirements = spvcond_requirements_file_entries(reqfile, &opts.requirement_count);
    const char *input = cli_input(cli);
    cli->input_name = strcmp(input, "-") == 0 ? "stdin" : input;
    struct cli_bytes module = {NULL, 0, 0};
    rc = cli_read_module_file(input, &module);
    /* Beside the target, renamed into place at the end ("out/" is beside "out" too). */
    size_t n = strlen(a->output), images = 0;
    while (n > 1 && a->output[n - 1] == '/')
        n--;
    char *tmp = rc == EXIT_OK ? beside_output(a->output, n, ".tmp.XXXXXX") : NULL;
    if (rc == EXIT_OK && (!tmp || !mkdtemp(tmp))) {
        cli_error("could not create a directory next to '%s': %s", a->output, strerror(errno));
        free(tmp);
        tmp = NULL;
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK)
        rc = split_into(cli, a, &module, &opts, tmp, &images);
    if (rc == EXIT_OK)
        rc = put_in_place(cli, tmp, a->output, n);
    if (rc != EXIT_OK && tmp)
        remove_tree(tmp);
    if (rc == EXIT_OK && !cli->quiet)
        fprintf(stderr, "split: %zu image%s in %s\n", images, images == 1 ? "" : "s", a->output);
    cli_bytes_free(&module);
    free(tmp);
    spvcond_requirements_file_destroy(reqfile);
    return rc;
}

static const struct cli_opt split_options[] = {
    CLI_CALL("mode", 0, "M", take_mode, "per-requirements (default) or per-kernel (one image per kernel or export)."),
    CLI_STRING("requirements", 0, "F", struct split_args, requirements,
               "Requirements stated per function, as for annotate (spec/requirements.md)."),
    CLI_FLAG("force", 0, struct split_args, force, "Replace a directory that exists and is not empty."),
    CLI_OUTPUT("DIR", struct split_args, output, "Output directory. Required."),
    CLI_QUIET("No summary on standard error."),
    CLI_SYNC,
    CLI_END,
};

const struct cli_command cli_split = {
    .name = "split",
    .summary = "Split a module into device images by requirements, with property and symbol files\n"
               "and a file table (DPC++'s design).",
    .usage = split_usage,
    .options = split_options,
    .args_size = sizeof(struct split_args),
    CLI_ONE_INPUT,
    .run = run_split,
};
