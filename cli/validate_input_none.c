/* SPDX-License-Identifier: MIT */
/* The tool built without SPIRV-Tools' validator (meson option `validator`): --validate is refused. */
#include "cli.h"


int
cli_validate_words(const struct cli *cli, const uint32_t *words, size_t count, const char *what)
{
    (void)cli;
    (void)words;
    (void)count;
    (void)what;
    cli_error("--validate: this spvcond was built without SPIRV-Tools' validator (meson option validator)");
    return EXIT_USAGE;
}

int
cli_validate_module(const struct cli *cli, spvcond_module *module, const char *what)
{
    uint32_t *words;
    size_t count;
    spvcond_result r = spvcond_module_emit(module, &words, &count);
    if (r != SPVCOND_OK)
        return cli_exit_code(r);
    int rc = cli_validate_words(cli, words, count, what);
    spvcond_free(cli->ctx, words);
    return rc;
}
