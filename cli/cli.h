/* SPDX-License-Identifier: MIT */
/* Shared pieces of the spvcond command-line tool. */
#ifndef SPVCOND_CLI_H
#define SPVCOND_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "spvcond/spvcond.h"

/* Exit codes (documented in README.md). */
enum {
    EXIT_OK = 0,
    EXIT_INVALID = 1, /* invalid input or failed processing */
    EXIT_USAGE = 2,
    EXIT_IO = 3,      /* a file could not be read or written */
    EXIT_NOMEM = 4,
};

/* A file's bytes; `mapped` is the length of the mapping that holds them, or 0 when they are malloc's. */
struct cli_bytes {
    void *data;
    size_t size, mapped;
};

struct cli {
    spvcond_context *ctx;
    const char *input_name; /* for diagnostics: the path, or "stdin" */
    int quiet;
    int sync;           /* --sync: outputs are flushed to the disk before the command returns */
    struct cli_bytes module_bytes; /* the loaded module's words, which it borrows; freed by cli_fini */
    char **inputs;      /* the operands after the options (cli_parse) */
    size_t input_count;
};

/* The module, as it would be written, judged by SPIRV-Tools' validator (validate_input.c; --validate of
 * annotate and specialize): EXIT_OK when it is valid SPIR-V for the universal environment of its version;
 * else EXIT_INVALID with "error: NAME: WHAT is not valid SPIR-V 1.x (SPIRV-Tools' validator: MESSAGE)"
 * (EXIT_USAGE, saying so, in a tool built without the validator). */
int cli_validate_module(const struct cli *cli, spvcond_module *module, const char *what);

/* The tool: one command line (argv[1] the command), its exit status. It keeps nothing between calls: a
 * process may run one command line after another (batch.c). */
int cli_main(int argc, char **argv);

int cli_init(struct cli *cli);
void cli_fini(struct cli *cli);
/* Map a library result to an exit code. */
int cli_exit_code(spvcond_result r);

/* Read a whole file ("-" is stdin) into malloc's memory. On failure prints the error and returns an
 * exit code. */
int cli_read_file(const char *path, void **data, size_t *size);
/* The same for a module: a large one in huge pages. Freed by cli_bytes_free. */
int cli_read_module_file(const char *path, struct cli_bytes *out);
void cli_bytes_free(struct cli_bytes *b);
/* Write atomically: a temporary file in the same directory, renamed over `path` on success
 * ("-" is stdout). An error leaves any existing file untouched. With cli->sync the file is flushed
 * before the rename and its directory after. */
int cli_write_file(const struct cli *cli, const char *path, const void *data, size_t size);
/* Emit the module into a file as cli_write_file writes one, with no copy of it in memory (to standard
 * output, emitted whole first: what was written there cannot be taken back). */
int cli_write_module(const struct cli *cli, const char *path, spvcond_module *module);
/* A new file in a directory of the command's own that appears whole by rename (split's): written in
 * place, and with cli->sync flushed; the caller flushes the directory. */
int cli_write_new_file(const struct cli *cli, const char *path, const void *data, size_t size);
/* fsync a directory; prints the error. */
int cli_sync_directory(const char *dir);
/* fsync the directory that holds `path` (after a rename into it); prints the error. */
int cli_sync_directory_of(const char *path);
/* Read and parse a requirements file (--requirements of annotate and split); prints diagnostics, and
 * returns EXIT_INVALID for a file that is not one. */
int cli_load_requirements(struct cli *cli, const char *path, spvcond_requirements_file **out);
/* The one input a command reads: its operand, or "-" (standard input) when it has none. */
const char *cli_input(const struct cli *cli);
/* Read and parse a module; prints diagnostics. */
int cli_load_module(struct cli *cli, const char *path, spvcond_module **out);
/* The same with spvcond_module_parse flags (SPVCOND_PARSE_FOR_ANNOTATE). */
int cli_load_module_flags(struct cli *cli, const char *path, uint32_t flags, spvcond_module **out);

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The commands, in the order `spvcond --help` lists them (cmd_*.c). */
extern const struct cli_command cli_annotate, cli_check, cli_devices, cli_filter, cli_info, cli_opencl, cli_repair, cli_reqs,
    cli_specialize, cli_split, cli_validate;

#endif
