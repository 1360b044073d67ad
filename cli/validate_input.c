/* SPDX-License-Identifier: MIT */
/* --validate: a module judged by SPIRV-Tools' validator (Debian's spirv-tools, whose 2023.1 cannot read
 * SPV_INTEL_function_variants: annotate judges its input, a plain module; specialize its output, the plain
 * module a driver will get, which is invalid only where the input was). The universal environment of the
 * module's SPIR-V version: the tool does not know the device's OpenCL version. */
#include "cli.h"
#include "spirv_tools/validator.h"


int
cli_validate_words(const struct cli *cli, const uint32_t *words, size_t count, const char *what)
{
    char message[1024];
    if (spvcond_validate_universal(words, count, message, sizeof(message)))
        return EXIT_OK;
    cli_error("%s: %s is not valid SPIR-V 1.%u (SPIRV-Tools' validator: %s)", cli->input_name, what,
              count > 1 ? (unsigned)((words[1] >> 8) & 0xff) : 0, message);
    return EXIT_INVALID;
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
