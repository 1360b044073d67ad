/* SPDX-License-Identifier: MIT */
/* The tool built without SPIRV-Tools' validator (meson option `validator`): --validate is refused. */
#include "cli.h"

bool
cli_can_validate(void)
{
    return false;
}

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
