/* SPDX-License-Identifier: MIT */
/* The device registry's architectures (architectures.h): intel/llvm
 * sycl/doc/design/spirv-extensions/targets/architectures.asciidoc, registry version 0. A name of the
 * form <vendor>_<category> (intel_gpu, nvidia_gpu...) is the family's "any" value 0. */
#include "registry/architectures.h"

#include <stddef.h>
#include <string.h>

static const struct entry {
    const char *name;
    uint32_t category, family, architecture;
} table[] = {
    {"intel_gpu", 2, 1, 0},
    {"intel_gpu_bdw", 2, 1, 1},
    {"intel_gpu_skl", 2, 1, 2},
    {"intel_gpu_kbl", 2, 1, 3},
    {"intel_gpu_cfl", 2, 1, 4},
    {"intel_gpu_apl", 2, 1, 5},
    {"intel_gpu_glk", 2, 1, 6},
    {"intel_gpu_whl", 2, 1, 7},
    {"intel_gpu_aml", 2, 1, 8},
    {"intel_gpu_cml", 2, 1, 9},
    {"intel_gpu_icllp", 2, 1, 10},
    {"intel_gpu_ehl", 2, 1, 11},
    {"intel_gpu_tgllp", 2, 1, 12},
    {"intel_gpu_rkl", 2, 1, 13},
    {"intel_gpu_adl_s", 2, 1, 14},
    {"intel_gpu_adl_p", 2, 1, 15},
    {"intel_gpu_adl_n", 2, 1, 16},
    {"intel_gpu_dg1", 2, 1, 17},
    {"intel_gpu_acm_g10", 2, 1, 18},
    {"intel_gpu_acm_g11", 2, 1, 19},
    {"intel_gpu_acm_g12", 2, 1, 20},
    {"intel_gpu_pvc", 2, 1, 21},
    {"intel_gpu_pvc_vg", 2, 1, 22},
    {"intel_gpu_mtl_u", 2, 1, 23},
    {"intel_gpu_mtl_h", 2, 1, 24},
    {"intel_gpu_arl_h", 2, 1, 25},
    {"intel_gpu_bmg_g21", 2, 1, 26},
    {"intel_gpu_lnl_m", 2, 1, 27},
    {"intel_gpu_ptl_h", 2, 1, 28},
    {"intel_gpu_ptl_u", 2, 1, 29},
    {"intel_gpu_mtl_s", 2, 1, 23},
    {"intel_gpu_arl_u", 2, 1, 23},
    {"intel_gpu_arl_s", 2, 1, 23},
    {"intel_gpu_dg2_g10", 2, 1, 18},
    {"intel_gpu_dg2_g11", 2, 1, 19},
    {"intel_gpu_dg2_g12", 2, 1, 20},
    {"intel_gpu_icl", 2, 1, 10},
    {"intel_gpu_tgl", 2, 1, 12},
    {"intel_gpu_jsl", 2, 1, 11},
    {"intel_gpu_rpl_s", 2, 1, 14},
    {"intel_gpu_bxt", 2, 1, 5},
    {"amd_gpu", 2, 2, 0},
    {"amd_gpu_gfx700", 2, 2, 1},
    {"amd_gpu_gfx701", 2, 2, 1},
    {"amd_gpu_gfx702", 2, 2, 1},
    {"amd_gpu_gfx703", 2, 2, 1},
    {"amd_gpu_gfx704", 2, 2, 1},
    {"amd_gpu_gfx705", 2, 2, 1},
    {"amd_gpu_gfx801", 2, 2, 2},
    {"amd_gpu_gfx802", 2, 2, 2},
    {"amd_gpu_gfx803", 2, 2, 3},
    {"amd_gpu_gfx805", 2, 2, 4},
    {"amd_gpu_gfx810", 2, 2, 4},
    {"amd_gpu_gfx900", 2, 2, 5},
    {"amd_gpu_gfx902", 2, 2, 5},
    {"amd_gpu_gfx904", 2, 2, 5},
    {"amd_gpu_gfx906", 2, 2, 6},
    {"amd_gpu_gfx908", 2, 2, 7},
    {"amd_gpu_gfx909", 2, 2, 8},
    {"amd_gpu_gfx90a", 2, 2, 9},
    {"amd_gpu_gfx90c", 2, 2, 10},
    {"amd_gpu_gfx940", 2, 2, 11},
    {"amd_gpu_gfx941", 2, 2, 11},
    {"amd_gpu_gfx942", 2, 2, 11},
    {"amd_gpu_gfx1010", 2, 2, 12},
    {"amd_gpu_gfx1011", 2, 2, 12},
    {"amd_gpu_gfx1012", 2, 2, 12},
    {"amd_gpu_gfx1013", 2, 2, 12},
    {"amd_gpu_gfx1030", 2, 2, 13},
    {"amd_gpu_gfx1031", 2, 2, 13},
    {"amd_gpu_gfx1032", 2, 2, 13},
    {"amd_gpu_gfx1033", 2, 2, 13},
    {"amd_gpu_gfx1034", 2, 2, 13},
    {"amd_gpu_gfx1035", 2, 2, 13},
    {"amd_gpu_gfx1036", 2, 2, 13},
    {"amd_gpu_gfx1100", 2, 2, 14},
    {"amd_gpu_gfx1101", 2, 2, 14},
    {"amd_gpu_gfx1102", 2, 2, 14},
    {"amd_gpu_gfx1103", 2, 2, 14},
    {"amd_gpu_gfx1150", 2, 2, 15},
    {"amd_gpu_gfx1151", 2, 2, 15},
    {"amd_gpu_gfx1200", 2, 2, 16},
    {"amd_gpu_gfx1201", 2, 2, 16},
    {"nvidia_gpu", 2, 3, 0},
    {"nvidia_gpu_sm_50", 2, 3, 1},
    {"nvidia_gpu_sm_52", 2, 3, 2},
    {"nvidia_gpu_sm_53", 2, 3, 3},
    {"nvidia_gpu_sm_60", 2, 3, 4},
    {"nvidia_gpu_sm_61", 2, 3, 5},
    {"nvidia_gpu_sm_62", 2, 3, 6},
    {"nvidia_gpu_sm_70", 2, 3, 6},
    {"nvidia_gpu_sm_72", 2, 3, 7},
    {"nvidia_gpu_sm_75", 2, 3, 8},
    {"nvidia_gpu_sm_80", 2, 3, 9},
    {"nvidia_gpu_sm_86", 2, 3, 10},
    {"nvidia_gpu_sm_87", 2, 3, 11},
    {"nvidia_gpu_sm_89", 2, 3, 12},
    {"nvidia_gpu_sm_90", 2, 3, 13},
    {"nvidia_gpu_sm_90a", 2, 3, 13},
    {"cpu", 1, 0, 0},
    {"intel_cpu", 1, 1, 0},
    {"gpu", 2, 0, 0},
    {"npu", 3, 0, 0},
    {"intel_npu", 3, 1, 0},
};

#define TABLE_SIZE (sizeof(table) / sizeof(table[0]))

bool
spvcond_architecture_by_name(const char *name, struct spvcond_architecture *out)
{
    for (size_t k = 0; k < TABLE_SIZE; k++) {
        if (strcmp(table[k].name, name) == 0) {
            *out = (struct spvcond_architecture){table[k].category, table[k].family, table[k].architecture};
            return true;
        }
    }
    return false;
}

const char *
spvcond_architecture_name(struct spvcond_architecture a)
{
    for (size_t k = 0; k < TABLE_SIZE; k++)
        if (table[k].category == a.category && table[k].family == a.family && table[k].architecture == a.architecture)
            return table[k].name;
    return NULL;
}

/* GPU architectures are listed one by one; of CPUs and NPUs the table has the families only. */
bool
spvcond_architecture_known(struct spvcond_architecture a)
{
    struct spvcond_architecture family = {a.category, a.family, 0};
    if (!spvcond_architecture_name(family))
        return false;
    return a.category != SPVCOND_ARCH_CATEGORY_GPU || spvcond_architecture_name(a) != NULL;
}

bool
spvcond_architecture_at(size_t index, const char **name, struct spvcond_architecture *out)
{
    if (index >= TABLE_SIZE)
        return false;
    *name = table[index].name;
    *out = (struct spvcond_architecture){table[index].category, table[index].family, table[index].architecture};
    return true;
}
