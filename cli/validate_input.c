/* SPDX-License-Identifier: MIT */
/* --validate: a module judged by SPIRV-Tools' validator (Debian's spirv-tools, whose 2023.1 cannot read
 * SPV_INTEL_function_variants: annotate judges its input, a plain module; specialize its output, the plain
 * module a driver will get, which is invalid only where the input was). The universal environment of the
 * module's SPIR-V version: the tool does not know the device's OpenCL version.
 *
 * The validator is C++ and large: it lives in a module of its own (spirv_tools/validator.c built as
 * spvcond-validator.so, cli/meson.build), opened here when --validate is given, so that every other run
 * starts without the C++ runtime. Where it is looked for: SPVCOND_VALIDATOR (a path, and nowhere else when
 * set), beside the tool (the build tree), LIBDIR/spvcond reached from the tool's own folder (an installed
 * tool, moved with its prefix or under DESTDIR), LIBDIR/spvcond as configured. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef bool (*validate_fn)(const uint32_t *words, size_t count, char *env_name, size_t env_size, char *msg,
                            size_t msg_size);

/* The module's spvcond_validate_universal (spirv_tools/validator.h), or NULL with why in `why`. */
static validate_fn
open_validator(char *why, size_t why_size)
{
    char places[3][PATH_MAX + 64];
    size_t count = 0;
    const char *named = getenv("SPVCOND_VALIDATOR");
    if (named && *named) {
        snprintf(places[count++], sizeof(places[0]), "%s", named);
    } else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        char *slash = n > 0 ? (self[n] = '\0', strrchr(self, '/')) : NULL;
        if (slash) {
            *slash = '\0';
            snprintf(places[count++], sizeof(places[0]), "%s/%s", self, SPVCOND_VALIDATOR_MODULE);
            if (SPVCOND_VALIDATOR_FROM_BINDIR[0])
                snprintf(places[count++], sizeof(places[0]), "%s/%s/%s", self, SPVCOND_VALIDATOR_FROM_BINDIR,
                         SPVCOND_VALIDATOR_MODULE);
        }
        snprintf(places[count++], sizeof(places[0]), "%s/%s", SPVCOND_VALIDATOR_LIBDIR, SPVCOND_VALIDATOR_MODULE);
    }
    bool tried = false;
    for (size_t k = 0; k < count; k++) {
        if (access(places[k], F_OK) != 0 && !(named && *named))
            continue;
        tried = true;
        void *module = dlopen(places[k], RTLD_NOW | RTLD_LOCAL);
        void *address = module ? dlsym(module, "spvcond_validate_universal") : NULL;
        if (address) {
            validate_fn fn;
            memcpy(&fn, &address, sizeof(fn)); /* ISO C has no cast from void * to a function pointer */
            return fn;
        }
        const char *error = dlerror();
        snprintf(why, why_size, "%.1000s", error ? error : places[k]);
        if (module)
            dlclose(module);
    }
    if (!tried)
        snprintf(why, why_size, "%s is not beside the tool nor in %s", SPVCOND_VALIDATOR_MODULE,
                 SPVCOND_VALIDATOR_LIBDIR);
    return NULL;
}

int
cli_validate_module(const struct cli *cli, spvcond_module *module, const char *what)
{
    char why[PATH_MAX + 256];
    validate_fn validate = open_validator(why, sizeof(why));
    if (!validate) {
        cli_error("--validate: SPIRV-Tools' validator cannot be loaded (%s)", why);
        return EXIT_USAGE;
    }
    uint32_t *words;
    size_t count;
    spvcond_result r = spvcond_module_emit(module, &words, &count);
    if (r != SPVCOND_OK)
        return cli_exit_code(r);
    char rules[32], message[1024];
    bool valid = validate(words, count, rules, sizeof(rules), message, sizeof(message));
    spvcond_free(cli->ctx, words);
    if (valid)
        return EXIT_OK;
    cli_error("%s: %s is not valid %s (SPIRV-Tools' validator: %s)", cli->input_name, what, rules, message);
    return EXIT_INVALID;
}
