// SPDX-License-Identifier: MIT
// SPIRV-Tools' optimizer and validator libraries, called the way spirv-opt and spirv-val call them, for
// the benchmark's in-process comparison (bench/reference.h).
#include "reference.h"

#include <new>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <string>
#include <vector>

struct bench_reference_state {
    enum bench_reference which;
    // spirv-opt's and spirv-val's default target environments (SPIRV-Tools 2023.1).
    spvtools::Optimizer optimizer{SPV_ENV_UNIVERSAL_1_5};
    spvtools::SpirvTools validator{SPV_ENV_UNIVERSAL_1_6};
    spv_optimizer_options options = nullptr;
    std::vector<uint32_t> output;
};

extern "C" bench_reference_state *
bench_reference_create(enum bench_reference which)
{
    bench_reference_state *s = new (std::nothrow) bench_reference_state;
    if (!s)
        return nullptr;
    s->which = which;
    // Messages (there are none on success) go nowhere, as the benchmark prints its own.
    s->optimizer.SetMessageConsumer([](spv_message_level_t, const char *, const spv_position_t &, const char *) {});
    s->validator.SetMessageConsumer([](spv_message_level_t, const char *, const spv_position_t &, const char *) {});
    if (which == BENCH_REFERENCE_SPECIALIZE &&
        !s->optimizer.RegisterPassesFromFlags(
            {"--freeze-spec-const", "--fold-spec-const-op-composite", "--eliminate-dead-functions"})) {
        delete s;
        return nullptr;
    }
    s->options = spvOptimizerOptionsCreate();
    spvOptimizerOptionsSetRunValidator(s->options, false); // spirv-opt --skip-validation
    return s;
}

extern "C" int
bench_reference_run(bench_reference_state *s, const uint32_t *words, size_t count)
{
    try {
        if (s->which == BENCH_REFERENCE_VALIDATE)
            return s->validator.Validate(words, count) ? 0 : 1;
        return s->optimizer.Run(words, count, &s->output, s->options) && !s->output.empty() ? 0 : 1;
    } catch (const std::bad_alloc &) {
        return 1;
    }
}

extern "C" void
bench_reference_destroy(bench_reference_state *s)
{
    if (s)
        spvOptimizerOptionsDestroy(s->options);
    delete s;
}
