/* The library in a few lines: parse a module, report errors with their position, emit it again. */
#include <spvcond/spvcond.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s IN.spv OUT.spv\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 3;
    static char buf[64 << 20];
    size_t size = fread(buf, 1, sizeof(buf), f);
    fclose(f);

    spvcond_context *ctx;
    spvcond_module *module;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 4;
    if (spvcond_module_parse_bytes(ctx, buf, size, &module) != SPVCOND_OK) {
        const spvcond_diag *d = spvcond_context_first_error(ctx);
        fprintf(stderr, "error: %s:%zu: %s\n", argv[1], d->word_offset, d->message);
        spvcond_context_destroy(ctx);
        return 1;
    }
    uint32_t *words;
    size_t count;
    int rc = spvcond_module_emit(module, &words, &count) == SPVCOND_OK ? 0 : 1;
    if (rc == 0 && (f = fopen(argv[2], "wb")) != NULL) {
        rc = fwrite(words, 4, count, f) == count ? 0 : 3;
        fclose(f);
    }
    spvcond_free(ctx, words);
    spvcond_module_destroy(module);
    spvcond_context_destroy(ctx);
    return rc;
}
