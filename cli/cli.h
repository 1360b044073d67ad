/* SPDX-License-Identifier: MIT */
/* Shared pieces of the spvcond command-line tool. */
#ifndef SPVCOND_CLI_H
#define SPVCOND_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
};

/* --validate (annotate, specialize): the module judged by SPIRV-Tools' validator (validate_input.c). */
enum { CLI_OPT_VALIDATE = 1010 };
#define CLI_VALIDATE_OPTIONS {"validate", no_argument, NULL, CLI_OPT_VALIDATE}
/* EXIT_OK when the module, as it would be written, is valid SPIR-V for the universal environment of its
 * version; else EXIT_INVALID with "error: NAME: WHAT is not valid SPIR-V 1.x (SPIRV-Tools' validator:
 * MESSAGE)" (EXIT_USAGE, saying so, in a tool built without the validator). */
int cli_validate_module(const struct cli *cli, spvcond_module *module, const char *what);

/* --sync and --no-sync, taken by every command that writes files. */
enum { CLI_OPT_SYNC = 1000, CLI_OPT_NO_SYNC };
#define CLI_SYNC_OPTIONS {"sync", no_argument, NULL, CLI_OPT_SYNC}, {"no-sync", no_argument, NULL, CLI_OPT_NO_SYNC}
#define CLI_SYNC_CASES                                                                                              \
    case CLI_OPT_SYNC:                                                                                              \
    case CLI_OPT_NO_SYNC: cli->sync = c == CLI_OPT_SYNC; break
#define CLI_SYNC_HELP                                                                                               \
    "  --sync             Flush each output to the disk (the file, then its directory) before exiting.\n"         \
    "  --no-sync          Leave that to the system, as cp and compilers do (the default). Either way an\n"      \
    "                     output replaces the old file whole, by rename, or not at all (a device or a\n"  \
    "                     pipe, such as /dev/null, is written in place).\n"


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
/* Read and parse a module; prints diagnostics. */
int cli_load_module(struct cli *cli, const char *path, spvcond_module **out);
/* The same with spvcond_module_parse flags (SPVCOND_PARSE_FOR_ANNOTATE). */
int cli_load_module_flags(struct cli *cli, const char *path, uint32_t flags, spvcond_module **out);

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int cmd_annotate(struct cli *cli, int argc, char **argv);
int cmd_check(struct cli *cli, int argc, char **argv);
int cmd_devices(struct cli *cli, int argc, char **argv);
int cmd_info(struct cli *cli, int argc, char **argv);
int cmd_reqs(struct cli *cli, int argc, char **argv);
int cmd_validate(struct cli *cli, int argc, char **argv);
int cmd_repair(struct cli *cli, int argc, char **argv);
int cmd_split(struct cli *cli, int argc, char **argv);
int cmd_filter(struct cli *cli, int argc, char **argv);
int cmd_specialize(struct cli *cli, int argc, char **argv);

#endif
