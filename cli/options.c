/* SPDX-License-Identifier: MIT */
/* Commands' option tables: parsing by getopt_long, and the --help texts (options.h). */
#include "options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "values.h"

/* Where descriptions start in a --help text, and the longest label that still shares their line. */
#define HELP_COLUMN 21
#define LABEL_SHARES_LINE 19
/* Long options a command may have, -h, --help included. */
#define MAX_OPTIONS 32

/* "--name" or "-l", as errors name an option. */
static void
option_name(const struct cli_opt *o, char *buf, size_t size)
{
    if (o->name)
        snprintf(buf, size, "--%s", o->name);
    else
        snprintf(buf, size, "-%c", o->letter);
}

static size_t
row_count(const struct cli_opt *rows)
{
    size_t n = 0;
    while (rows[n].name || rows[n].letter)
        n++;
    return n;
}

/* Applies row `o` with `arg` to the arguments. */
static int
take(struct cli *cli, const struct cli_opt *o, void *args, const char *arg)
{
    char *field = (char *)args + o->offset;
    switch (o->kind) {
    case CLI_OPT_FLAG: *(bool *)field = true; return EXIT_OK;
    case CLI_OPT_BITS: *(uint32_t *)field |= o->bits; return EXIT_OK;
    case CLI_OPT_STRING: *(const char **)field = arg; return EXIT_OK;
    case CLI_OPT_U32: {
        char name[64];
        option_name(o, name, sizeof(name));
        return parse_u32(arg, name, (uint32_t *)field);
    }
    case CLI_OPT_CALL: return o->call(cli, args, arg);
    case CLI_OPT_CLI: *(int *)((char *)cli + o->offset) = (int)o->bits; return EXIT_OK;
    }
    return EXIT_USAGE;
}

static bool
was_given(const struct cli_opt *rows, const bool *given, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++)
        if (rows[k].name && strcmp(rows[k].name, name) == 0)
            return given[k];
    return false;
}

/* After the options: each one's requirements, then the operands' count. */
static int
check_given(struct cli *cli, const struct cli_command *cmd, const bool *given, size_t rows)
{
    char name[64];
    for (size_t k = 0; k < rows; k++) {
        const struct cli_opt *o = &cmd->options[k];
        if (given[k] && o->excludes && was_given(cmd->options, given, rows, o->excludes)) {
            option_name(o, name, sizeof(name));
            cli_error("%s and --%s exclude each other", name, o->excludes);
            return EXIT_USAGE;
        }
        if (given[k] && o->needs && !was_given(cmd->options, given, rows, o->needs)) {
            option_name(o, name, sizeof(name));
            cli_error("%s needs --%s", name, o->needs);
            return EXIT_USAGE;
        }
    }
    for (size_t k = 0; k < rows; k++) {
        if (given[k] || !cmd->options[k].required)
            continue;
        option_name(&cmd->options[k], name, sizeof(name));
        cli_error("%s required", name);
        return EXIT_USAGE;
    }
    size_t n = cli->input_count;
    if (n < (size_t)cmd->min_inputs || (cmd->max_inputs >= 0 && n > (size_t)cmd->max_inputs)) {
        if (cmd->inputs_error)
            cli_error("%s", cmd->inputs_error);
        else
            cli_print_help(stderr, cmd);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int
cli_parse(struct cli *cli, const struct cli_command *cmd, int argc, char **argv, void *args)
{
    size_t rows = row_count(cmd->options);
    struct option longs[MAX_OPTIONS + 1];
    char shorts[2 * MAX_OPTIONS + 2];
    bool given[MAX_OPTIONS];
    size_t nl = 0, ns = 0;
    if (rows >= MAX_OPTIONS) {
        cli_error("spvcond %s: %zu options, more than %d", cmd->name, rows, MAX_OPTIONS - 1);
        return EXIT_USAGE;
    }
    /* A row is known to getopt_long by its letter, or by 256 + its index. */
    for (size_t k = 0; k < rows; k++) {
        const struct cli_opt *o = &cmd->options[k];
        int has_arg = o->arg ? required_argument : no_argument;
        given[k] = false;
        if (o->name)
            longs[nl++] = (struct option){o->name, has_arg, NULL, o->letter ? o->letter : 256 + (int)k};
        if (o->letter) {
            shorts[ns++] = o->letter;
            if (o->arg)
                shorts[ns++] = ':';
        }
    }
    longs[nl++] = (struct option){"help", no_argument, NULL, 'h'};
    longs[nl] = (struct option){NULL, 0, NULL, 0};
    shorts[ns++] = 'h';
    shorts[ns] = 0;
    int c;
    /* From the first argument, whatever an earlier parse in this process left (cli_main may run again):
     * GNU getopt forgets everything at 0, its place inside a group of short options included. */
#ifdef __GLIBC__
    optind = 0;
#else
    optind = 1;
#endif
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == 'h') {
            cli_print_help(stdout, cmd);
            return CLI_HELP_SHOWN;
        }
        size_t k = c >= 256 ? (size_t)(c - 256) : 0;
        while (c < 256 && k < rows && cmd->options[k].letter != c)
            k++;
        if (k >= rows) { /* '?': getopt_long said what */
            cli_print_help(stderr, cmd);
            return EXIT_USAGE;
        }
        given[k] = true;
        int rc = take(cli, &cmd->options[k], args, optarg);
        if (rc != EXIT_OK)
            return rc;
    }
    cli->inputs = argv + optind;
    cli->input_count = (size_t)(argc - optind);
    return check_given(cli, cmd, given, rows);
}

/* Text whose lines are separated by '\n', each after the first indented to `column`. */
static void
print_lines(FILE *out, const char *text, int column)
{
    for (const char *s = text;;) {
        const char *nl = strchr(s, '\n');
        fprintf(out, "%.*s\n", nl ? (int)(nl - s) : (int)strlen(s), s);
        if (!nl || !nl[1])
            return;
        s = nl + 1;
        fprintf(out, "%*s", column, "");
    }
}

/* "-q, --quiet", "--spec-file FILE", "-o FILE". */
static size_t
label_of(const struct cli_opt *o, char *buf, size_t size)
{
    int n;
    if (o->letter && o->name)
        n = snprintf(buf, size, "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else if (o->name)
        n = snprintf(buf, size, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        n = snprintf(buf, size, "-%c%s%s", o->letter, o->arg ? " " : "", o->arg ? o->arg : "");
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

static void
print_option(FILE *out, const char *label, const char *help)
{
    if (strlen(label) <= LABEL_SHARES_LINE)
        fprintf(out, "  %-*s  ", HELP_COLUMN - 4, label);
    else
        fprintf(out, "  %s\n%*s", label, HELP_COLUMN, "");
    print_lines(out, help, HELP_COLUMN);
}

void
cli_print_help(FILE *out, const struct cli_command *cmd)
{
    fprintf(out, "%s\n", cmd->usage);
    size_t rows = row_count(cmd->options);
    for (size_t k = 0; k < rows; k++) {
        const struct cli_opt *o = &cmd->options[k];
        if (!o->help)
            continue;
        /* The label, with those of the rows after it that it describes too. */
        char label[160];
        size_t len = label_of(o, label, sizeof(label));
        for (size_t j = k + 1; j < rows && !cmd->options[j].help && len + 3 < sizeof(label); j++) {
            memcpy(label + len, ", ", 3);
            len += 2 + label_of(&cmd->options[j], label + len + 2, sizeof(label) - len - 2);
        }
        print_option(out, label, o->help);
    }
    print_option(out, "-h, --help", "Print this help and exit.");
}

void
cli_print_commands(FILE *out, const char *before, const struct cli_command *const *cmds, size_t count,
                   const char *after)
{
    fputs(before, out);
    for (size_t k = 0; k < count; k++) {
        fprintf(out, "  %-13s  ", cmds[k]->name);
        print_lines(out, cmds[k]->summary, 17);
    }
    fputs(after, out);
}
