/* SPDX-License-Identifier: MIT */
/* Runs a fuzz target's body on files, without libFuzzer: the regression tests replay every input that
 * once broke a property (tests/data/fuzz/<target>/), plus the seeds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
    int replayed = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot open %s\n", argv[i]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc((size_t)n + 1);
        size_t got = fread(data, 1, (size_t)n, f);
        fclose(f);
        LLVMFuzzerTestOneInput(data, got);
        free(data);
        replayed++;
    }
    printf("%d passed, 0 failed\n", replayed);
    return 0;
}
