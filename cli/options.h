/* SPDX-License-Identifier: MIT */
/* A command of spvcond as one table: its name, summary, usage text, options and inputs. The table parses
 * the command line (getopt_long underneath), prints `spvcond COMMAND --help`, and through that feeds the
 * manual (tools/gen_manpage.py), so that the three cannot disagree. In the manner of libgit2's
 * cli_opt_spec. */
#ifndef SPVCOND_CLI_OPTIONS_H
#define SPVCOND_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli;

enum cli_opt_kind {
    CLI_OPT_FLAG,   /* a bool in the command's arguments becomes true */
    CLI_OPT_BITS,   /* a uint32_t in them takes `bits` */
    CLI_OPT_STRING, /* a const char * in them points at the argument */
    CLI_OPT_U32,    /* a uint32_t in them takes the argument, a number (decimal or 0x hex) */
    CLI_OPT_CALL,   /* `call` takes the argument (NULL for an option without one) */
    CLI_OPT_CLI,    /* an int of struct cli (not of the command's arguments) takes `bits` */
};

/* One option: a row of a command's table. The table ends with a row of neither name nor letter. */
struct cli_opt {
    const char *name; /* the long name, without "--"; NULL for a letter alone */
    char letter;      /* the short form, or 0 */
    const char *arg;  /* the argument as --help names it ("FILE"); NULL when the option takes none */
    enum cli_opt_kind kind;
    size_t offset; /* where in the command's arguments (FLAG, BITS, STRING, U32), or in struct cli (CLI) */
    uint32_t bits; /* BITS: the bits set; CLI: the value */
    /* CALL: takes the argument; returns an exit code, said when not EXIT_OK. `args` is the command's. */
    int (*call)(struct cli *cli, void *args, const char *arg);
    bool required;        /* "NAME required" (exit 2) when absent */
    const char *needs;    /* the long name of an option without which this one is refused */
    const char *excludes; /* the long name of an option that may not come with this one */
    /* The help, lines separated by '\n' (the printer indents them); NULL: the row is described with the
     * one before it, its label joined to that row's ("--target T, --features F1,F2"). */
    const char *help;
};

/* Rows of the common kinds; a row with `required`, `needs` or `excludes` is written out. */
#define CLI_FLAG(NAME, LETTER, TYPE, FIELD, HELP)                                                                     \
    {.name = NAME, .letter = LETTER, .kind = CLI_OPT_FLAG, .offset = offsetof(TYPE, FIELD), .help = HELP}
#define CLI_BITS(NAME, TYPE, FIELD, BITS, HELP)                                                                       \
    {.name = NAME, .kind = CLI_OPT_BITS, .offset = offsetof(TYPE, FIELD), .bits = BITS, .help = HELP}
#define CLI_STRING(NAME, LETTER, ARG, TYPE, FIELD, HELP)                                                              \
    {.name = NAME, .letter = LETTER, .arg = ARG, .kind = CLI_OPT_STRING, .offset = offsetof(TYPE, FIELD), .help = HELP}
#define CLI_U32(NAME, ARG, TYPE, FIELD, HELP)                                                                         \
    {.name = NAME, .arg = ARG, .kind = CLI_OPT_U32, .offset = offsetof(TYPE, FIELD), .help = HELP}
#define CLI_CALL(NAME, LETTER, ARG, CALL, HELP)                                                                       \
    {.name = NAME, .letter = LETTER, .arg = ARG, .kind = CLI_OPT_CALL, .call = CALL, .help = HELP}
/* -o ARG, required. */
#define CLI_OUTPUT(ARG, TYPE, FIELD, HELP)                                                                            \
    {.letter = 'o', .arg = ARG, .kind = CLI_OPT_STRING, .offset = offsetof(TYPE, FIELD), .required = true, .help = HELP}
#define CLI_END {.name = NULL}

/* -q, --quiet (the help says what it silences), and --sync / --no-sync: struct cli's. */
#define CLI_OF_CLI(NAME, LETTER, FIELD, VALUE, HELP)                                                                  \
    {.name = NAME, .letter = LETTER, .kind = CLI_OPT_CLI, .offset = offsetof(struct cli, FIELD), .bits = VALUE,       \
     .help = HELP}
#define CLI_QUIET(HELP) CLI_OF_CLI("quiet", 'q', quiet, 1, HELP)
#define CLI_SYNC                                                                                                     \
    CLI_OF_CLI("sync", 0, sync, 1, "Flush each output to the disk (the file, then its directory) before exiting."), \
        CLI_OF_CLI("no-sync", 0, sync, 0,                                                                          \
                   "Leave that to the system, as cp and compilers do (the default). Either way an\n"                \
                   "output replaces the old file whole, by rename, or not at all (a device or a\n"                  \
                   "pipe, such as /dev/null, is written in place).")

/* A command. Every command takes -h, --help, printed last, without a row of its own. */
struct cli_command {
    const char *name;
    const char *summary; /* `spvcond --help`'s line for it; '\n' continues it */
    const char *usage;   /* the USAGE line(s) and the description `spvcond NAME --help` opens with */
    const struct cli_opt *options;
    size_t args_size; /* the command's arguments, zeroed before the options are read */
    /* How many operands it takes (max -1: any number), and what is said when they are more or fewer (NULL:
     * the usage is printed). With max 1 and min 0, a missing input is standard input. */
    int min_inputs, max_inputs;
    const char *inputs_error;
    /* Runs the command on its read arguments. */
    int (*run)(struct cli *cli, void *args);
    /* Frees what the options' calls kept in the arguments, whether or not `run` ran; may be NULL. */
    void (*fini)(void *args);
};

/* The operands of most commands: one input, or none for standard input. */
#define CLI_ONE_INPUT .min_inputs = 0, .max_inputs = 1, .inputs_error = "More than one input file specified"

/* Sentinel of cli_parse: the help was printed, the command is done. */
#define CLI_HELP_SHOWN (-1)

/* Read argv (argv[0] the command's name) into `args` and cli->inputs by the command's table. Returns
 * EXIT_OK, CLI_HELP_SHOWN, or an exit code with the error said (and the usage on standard error for an
 * option the table does not know). */
int cli_parse(struct cli *cli, const struct cli_command *cmd, int argc, char **argv, void *args);
/* `spvcond NAME --help`. */
void cli_print_help(FILE *out, const struct cli_command *cmd);
/* `spvcond --help`: the usage, then the commands' summaries between `before` and `after`. */
void cli_print_commands(FILE *out, const char *before, const struct cli_command *const *cmds, size_t count,
                        const char *after);

#endif
