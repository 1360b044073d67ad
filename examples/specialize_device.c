/* SPDX-License-Identifier: MIT */
/* The library in a page: read an annotated module, specialize it for a DPC++ device, write the result.
 * Usage: specialize_device DEVICE IN.spv OUT.spv */
#include <spvcond/spvcond.h>
#include <stdio.h>
#include <stdlib.h>

static char *
read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    return buf;
}

int
main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s DEVICE IN.spv OUT.spv\n", argv[0]);
        return 2;
    }
    const char *path = argv[2];
    size_t size;
    char *buf = read_file(path, &size);
    if (!buf)
        return 3;

    int rc = 1;
    spvcond_context *ctx;
    spvcond_module *module;
    spvcond_context_create(NULL, NULL, NULL, &ctx);          /* allocator, diagnostic callback, user data */
    if (spvcond_module_parse_bytes(ctx, buf, size, &module) != SPVCOND_OK) {
        const spvcond_diag *d = spvcond_context_first_error(ctx);
        if (d->word_offset != SPVCOND_NO_POSITION)       /* where in the words, when there is a where */
            fprintf(stderr, "error: %s:%zu: %s\n", path, d->word_offset, d->message);
        else
            fprintf(stderr, "error: %s: %s\n", path, d->message);
    } else {
        spvcond_device_info device = {.size = sizeof(spvcond_device_info)};
        spvcond_spec_value *values;
        size_t count;
        if (spvcond_builtin_device_find(argv[1], &device) &&
            spvcond_device_spec_values(module, &device, &values, &count) == SPVCOND_OK) {
            spvcond_specialize_options options = {sizeof(spvcond_specialize_options), values, count, NULL, 0};
            if (spvcond_specialize(module, &options, NULL) == SPVCOND_OK) {
                uint32_t *words;
                size_t word_count;
                FILE *out;
                if (spvcond_module_emit(module, &words, &word_count) == SPVCOND_OK) {
                    if ((out = fopen(argv[3], "wb")) != NULL) {
                        rc = fwrite(words, 4, word_count, out) == word_count ? 0 : 3;
                        fclose(out);
                    }
                    spvcond_free(ctx, words);
                }
            } else {
                fprintf(stderr, "error: %s\n", spvcond_context_first_error(ctx)->message);
            }
            spvcond_free(ctx, values);
        }
        spvcond_module_destroy(module);
    }
    spvcond_context_destroy(ctx);
    free(buf);
    return rc;
}
