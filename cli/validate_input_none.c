/* SPDX-License-Identifier: MIT */
/* The tool built without SPIRV-Tools' validator (meson option `validator`): --validate is refused. */
#include "cli.h"

int
cli_validate_module(const struct cli *cli, spvcond_module *module, const char *what)
{
    (void)cli;
    (void)module;
    (void)what;
    cli_error("--validate: this spvcond was built without SPIRV-Tools' validator (meson option validator)");
    return EXIT_USAGE;
}
