/* SPDX-License-Identifier: MIT */
/* --validate: a module judged by SPIRV-Tools' validator (Debian's spirv-tools, whose 2023.1 cannot read
 * SPV_INTEL_function_variants: annotate judges its input, a plain module; specialize its output, the plain
 * module a driver will get, which is invalid only where the input was). The universal environment of the
 * module's SPIR-V version: the tool does not know the device's OpenCL version. */
#include "cli.h"
#include "spirv_tools/validator.h"

int
cli_validate_module(const struct cli *cli, spvcond_module *module, const char *what)
{
    uint32_t *words;
    size_t count;
    spvcond_result r = spvcond_module_emit(module, &words, &count);
    if (r != SPVCOND_OK)
        return cli_exit_code(r);
    char rules[32], message[1024];
    bool valid = spvcond_validate_universal(words, count, rules, sizeof(rules), message, sizeof(message));
    spvcond_free(cli->ctx, words);
    if (valid)
        return EXIT_OK;
    cli_error("%s: %s is not valid %s (SPIRV-Tools' validator: %s)", cli->input_name, what, rules, message);
    return EXIT_INVALID;
}
