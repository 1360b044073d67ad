/* SPDX-License-Identifier: MIT */
/* --validate: a module judged by SPIRV-Tools' validator (Debian's spirv-tools, whose 2023.1 cannot read
 * SPV_INTEL_function_variants: annotate judges its input, a plain module; specialize its output, the plain
 * module a driver will get, which is invalid only where the input was). The universal environment of the
 * module's SPIR-V version: the tool does not know the device's OpenCL version. */
#include <spirv-tools/libspirv.h>
#include <string.h>

#include "cli.h"

/* The validator's message on one line: "MESSAGE\n  INSTRUCTION\n" -> "MESSAGE: INSTRUCTION". */
static void
one_line(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 3 < size; p++) {
        if (*p == '\n') {
            while (p[1] == ' ')
                p++;
            if (p[1] && n + 3 < size) {
                if (n && out[n - 1] == '.')
                    n--;
                out[n++] = ':';
                out[n++] = ' ';
            }
            continue;
        }
        out[n++] = *p;
    }
    out[n] = 0;
}

bool
cli_can_validate(void)
{
    return true;
}

int
cli_validate_words(const struct cli *cli, const uint32_t *words, size_t count, const char *what)
{
    unsigned minor = count > 1 ? (words[1] >> 8) & 0xff : 0;
    spv_target_env env = minor >= 6 ? SPV_ENV_UNIVERSAL_1_6 : minor == 5 ? SPV_ENV_UNIVERSAL_1_5
                         : minor == 4 ? SPV_ENV_UNIVERSAL_1_4 : minor == 3 ? SPV_ENV_UNIVERSAL_1_3
                         : minor == 2 ? SPV_ENV_UNIVERSAL_1_2 : minor == 1 ? SPV_ENV_UNIVERSAL_1_1
                                                                         : SPV_ENV_UNIVERSAL_1_0;
    spv_context context = spvContextCreate(env);
    if (!context)
        return EXIT_NOMEM;
    spv_const_binary_t binary = {words, count};
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvValidate(context, &binary, &diagnostic);
    if (result != SPV_SUCCESS) {
        char message[1024];
        one_line(diagnostic && diagnostic->error ? diagnostic->error : "no message", message, sizeof(message));
        cli_error("%s: %s is not valid SPIR-V 1.%u (SPIRV-Tools' validator: %s)", cli->input_name, what, minor,
                  message);
    }
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return result == SPV_SUCCESS ? EXIT_OK : EXIT_INVALID;
}
