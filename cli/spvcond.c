/* SPDX-License-Identifier: MIT */
/* spvcond: the command-line front end. Subcommands live in cmd_*.c, the tool's files in files.c, its own
 * error messages in report.c; main (main.c) hands its arguments to cli_main. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_before[] =
    "USAGE: spvcond <command> [options] [<input>]\n"
    "\n"
    "Rewrite SPIR-V modules guarded by SPV_INTEL_function_variants conditions.\n"
    "\n"
    "Commands:\n";
static const char usage_after[] =
    "\n"
    "Options:\n"
    "  -h, --help     Print this help and exit.\n"
    "  --version      Print the version and exit.\n"
    "\n"
    "A missing <input> or '-' reads standard input. 'spvcond <command> --help' describes a command.\n"
    "Exit status: 0 success, 1 invalid input or failed processing, 2 usage error, 3 I/O error,\n"
    "4 out of memory. The manual: man spvcond. Unmodified OpenCL applications get the consumer from the\n"
    "OpenCL layer libspvcond-opencl-layer.so, installed beside the library (OPENCL_LAYERS; man spvcond,\n"
    "section OPENCL LAYER).\n";

/* The commands, as `spvcond --help` lists them. */
static const struct cli_command *const commands[] = {
    &cli_annotate, &cli_check, &cli_devices, &cli_filter, &cli_info,
    &cli_opencl,   &cli_repair, &cli_reqs,  &cli_specialize, &cli_split, &cli_validate,
};
#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

/* Diagnostics in SPIRV-Tools' shape: "error: <file>:<word offset>: message". */
static void
print_diag(void *user, const spvcond_diag *d)
{
    const struct cli *cli = user;
    const char *sev = d->severity == SPVCOND_SEVERITY_ERROR ? "error" :
                      d->severity == SPVCOND_SEVERITY_WARNING ? "warning" : "note";
    if (d->severity != SPVCOND_SEVERITY_ERROR && cli->quiet)
        return;
    const char *file = cli->input_name ? cli->input_name : "spvcond";
    if (d->word_offset != SPVCOND_NO_POSITION) {
        fprintf(stderr, "%s: %s:%zu: %s", sev, file, d->word_offset, d->message);
        /* A place in the words may have no instruction (a header too short, say). */
        bool instruction = d->instruction_index != SPVCOND_NO_POSITION;
        if (instruction && d->opcode_name[0])
            fprintf(stderr, " [%s, instruction %zu]", d->opcode_name, d->instruction_index);
        else if (instruction)
            fprintf(stderr, " [opcode %u, instruction %zu]", d->opcode, d->instruction_index);
        fputc('\n', stderr);
    } else {
        fprintf(stderr, "%s: %s: %s\n", sev, file, d->message);
    }
}

int
cli_init(struct cli *cli)
{
    memset(cli, 0, sizeof(*cli));
    spvcond_result r = spvcond_context_create(NULL, print_diag, cli, &cli->ctx);
    if (r != SPVCOND_OK) {
        cli_error("cannot create a context: %s", spvcond_result_string(r));
        return EXIT_NOMEM;
    }
    return EXIT_OK;
}

void
cli_fini(struct cli *cli)
{
    spvcond_context_destroy(cli->ctx);
    cli_bytes_free(&cli->module_bytes);
}

int
cli_load_requirements(struct cli *cli, const char *path, spvcond_requirements_file **out)
{
    void *text;
    size_t size;
    *out = NULL;
    int rc = cli_read_file(path, &text, &size);
    if (rc != EXIT_OK)
        return rc;
    spvcond_result r = spvcond_requirements_file_parse(cli->ctx, text, size, path, out);
    free(text);
    return r == SPVCOND_ERROR_INVALID_ARGUMENT ? EXIT_INVALID : cli_exit_code(r);
}

int
cli_load_module(struct cli *cli, const char *path, spvcond_module **out)
{
    return cli_load_module_flags(cli, path, 0, out);
}

int
cli_load_module_flags(struct cli *cli, const char *path, uint32_t flags, spvcond_module **out)
{
    struct cli_bytes bytes;
    int rc = cli_read_module_file(path, &bytes);
    if (rc != EXIT_OK)
        return rc;
    cli->input_name = strcmp(path, "-") == 0 ? "stdin" : path;
    if (bytes.size % 4 != 0) {
        cli_error("file size should be a multiple of 4; file '%s' corrupt", cli->input_name);
        cli_bytes_free(&bytes);
        return EXIT_INVALID;
    }
    /* The file's bytes are words in either order (the reader swaps); the memory is aligned for them.
     * The module borrows them (no copy), so they stay until cli_fini, after the command has destroyed it
     * (a command loads one module). */
    spvcond_result r = spvcond_module_parse(cli->ctx, bytes.data, bytes.size / 4, flags | SPVCOND_PARSE_BORROW, out);
    if (r != SPVCOND_OK) {
        cli_bytes_free(&bytes);
        return cli_exit_code(r);
    }
    cli_bytes_free(&cli->module_bytes);
    cli->module_bytes = bytes;
    return EXIT_OK;
}

const char *
cli_input(const struct cli *cli)
{
    return cli->input_count ? cli->inputs[0] : "-";
}

/* One command, from its arguments to its exit code. */
static int
run_command(const struct cli_command *cmd, int argc, char **argv)
{
    struct cli cli;
    int rc = cli_init(&cli);
    if (rc != EXIT_OK)
        return rc;
    /* Arguments of any command, aligned for any of their fields. */
    void *args = calloc(1, cmd->args_size);
    if (!args) {
        cli_fini(&cli);
        return EXIT_NOMEM;
    }
    rc = cli_parse(&cli, cmd, argc, argv, args);
    if (rc == EXIT_OK)
        rc = cmd->run(&cli, args);
    else if (rc == CLI_HELP_SHOWN)
        rc = EXIT_OK;
    if (cmd->fini)
        cmd->fini(args);
    free(args);
    cli_fini(&cli);
    return rc;
}

int
cli_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        cli_print_commands(argc < 2 ? stderr : stdout, usage_before, commands, COMMAND_COUNT, usage_after);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("spvcond %s (libspvcond %s)\n", SPVCOND_VERSION_STRING, spvcond_version_string());
        return EXIT_OK;
    }
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(argv[1], commands[i]->name) == 0)
            return run_command(commands[i], argc - 1, argv + 1);
    cli_error("unknown command '%s'. Use --help for a list of commands", argv[1]);
    return EXIT_USAGE;
}
