/* SPDX-License-Identifier: MIT */
/* SPV_INTEL_function_variants' device registry, version 0 (intel/llvm
 * sycl/doc/design/spirv-extensions/targets/: core.json is the authority; spec/devices.md "The device
 * registry"): targets and their features, architecture categories, families and architectures, by name
 * and by value. Each list below is written as the registry numbers it: the k-th word has value k, and
 * "alias=name" words give another name to a value. */
#include "registry/registry.h"

#include "registry/architectures.h"
#include "support/grammar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct named_list {
    uint32_t a, b;     /* what the list belongs to: a target; or a category and a family */
    const char *words; /* value k is the k-th word not of the form alias=name */
    const char *aliases;
};

/* Targets (core.json "targets"). */
static const struct named_list targets[] = {
    {0, 0, "unknown arm arm64 x86 x86_64 riscv32 riscv64 nvptx nvptx64 amdgcn", "arm32=arm aarch64=arm64"},
};

static const char x86_features[] = "none fma fma4 mmx sse sse2 sse3 sse4.1 sse4.2 sse4a avx avx2 avx512f";
static const char riscv_features[] =
    "32bit 64bit a auipc-addi-fusion b c conditional-cmv-fusion d dlen-factor-2 e experimental "
    "experimental-rva23s64 experimental-rva23u64 experimental-rvb23s64 experimental-rvb23u64 experimental-rvm23u32 "
    "experimental-smmpm experimental-smnpm experimental-ssnpm experimental-sspm experimental-ssqosid "
    "experimental-supm experimental-zacas experimental-zalasr experimental-zicfilp experimental-zicfiss f "
    "forced-atomics forced-sw-shadow-stack h i ld-add-fusion lui-addi-fusion m no-default-unroll no-rvc-hints "
    "no-sink-splat-operands no-trailing-seq-cst-fence optimized-zero-stride-load predictable-select-expensive "
    "prefer-w-inst relax reserve-x1 reserve-x10 reserve-x11 reserve-x12 reserve-x13 reserve-x14 reserve-x15 "
    "reserve-x16 reserve-x17 reserve-x18 reserve-x19 reserve-x2 reserve-x20 reserve-x21 reserve-x22 reserve-x23 "
    "reserve-x24 reserve-x25 reserve-x26 reserve-x27 reserve-x28 reserve-x29 reserve-x3 reserve-x30 reserve-x31 "
    "reserve-x4 reserve-x5 reserve-x6 reserve-x7 reserve-x8 reserve-x9 rva20s64 rva20u64 rva22s64 rva22u64 "
    "rvi20u32 rvi20u64 save-restore shcounterenw shgatpa shifted-zextw-fusion short-forward-branch-opt shtvala "
    "shvsatpa shvstvala shvstvecd sifive7 smaia smcdeleg smcsrind smepmp smstateen ssaia ssccfg ssccptr sscofpmf "
    "sscounterenw sscsrind ssstateen ssstrict sstc sstvala sstvecd ssu64xl svade svadu svbare svinval svnapot "
    "svpbmt tagged-globals unaligned-scalar-mem unaligned-vector-mem use-postra-scheduler v ventana-veyron xcvalu "
    "xcvbi xcvbitmanip xcvelw xcvmac xcvmem xcvsimd xsfcease xsfvcp xsfvfnrclipxfqf xsfvfwmaccqqq xsfvqmaccdod "
    "xsfvqmaccqoq xsifivecdiscarddlone xsifivecflushdlone xtheadba xtheadbb xtheadbs xtheadcmo xtheadcondmov "
    "xtheadfmemidx xtheadmac xtheadmemidx xtheadmempair xtheadsync xtheadvdot xventanacondops xwchc za128rs za64rs "
    "zaamo zabha zalrsc zama16b zawrs zba zbb zbc zbkb zbkc zbkx zbs zca zcb zcd zce zcf zcmop zcmp zcmt zdinx "
    "zexth-fusion zextw-fusion zfa zfbfmin zfh zfhmin zfinx zhinx zhinxmin zic64b zicbom zicbop zicboz ziccamoa "
    "ziccif zicclsm ziccrse zicntr zicond zicsr zifencei zihintntl zihintpause zihpm zimop zk zkn zknd zkne zknh "
    "zkr zks zksed zksh zkt zmmul ztso zvbb zvbc zve32f zve32x zve64d zve64f zve64x zvfbfmin zvfbfwma zvfh zvfhmin "
    "zvkb zvkg zvkn zvknc zvkned zvkng zvknha zvknhb zvks zvksc zvksed zvksg zvksh zvkt zvl1024b zvl128b "
    "zvl16384b zvl2048b zvl256b zvl32768b zvl32b zvl4096b zvl512b zvl64b zvl65536b zvl8192b";

/* Features per target (core.json "features"); nvptx, nvptx64 and amdgcn have none listed. */
static const struct named_list features[] = {
    {0, 0, "none", ""},
    {1, 0, "none neon", ""},
    {2, 0, "none fp8 fp8dot2 fp8dot4 neon sve", ""},
    {3, 0, x86_features, ""},
    {4, 0, x86_features, ""},
    {5, 0, riscv_features, ""},
    {6, 0, riscv_features, ""},
};

static const struct named_list categories[] = {{0, 0, "unknown cpu gpu npu", ""}};

/* Families per category (core.json "architecture_families"). */
static const struct named_list families[] = {
    {0, 0, "generic", ""},
    {1, 0,
     "generic intel intel_atom amd arm_a arm_m arm_r codasip_lp codasip_hp codasip_ap sifive_e2 sifive_e6 sifive_e7 "
     "sifive_x200 sifive_x300 sifive_xm sifive_p400 sifive_p500 sifive_p600 sifive_p800 sifive_e6a sifive_e7a "
     "sifive_s7a",
     ""},
    {2, 0, "generic intel amd nvidia", ""},
    {3, 0, "generic intel amd_xdna", ""},
};

/* Architectures per category and family (core.json "architectures"); a family the list leaves out has
 * "any" (0) alone. */
static const struct named_list architectures[] = {
    {1, 1, "any nhm wsm sdb ivb hsw bdw skl pmc snc wlc cpc gdc rpc rdc lnc", ""},
    {1, 2, "any bnl slw svm aim gdm gdm_p trm gcm csm skm", ""},
    {1, 3, "any zen zenp zen2 zen3 zen3p zen4 zen4c zen5 zen5c", ""},
    {1, 4,
     "any a8 a9 a5 a15 a7 a53 a57 a12 a17 a32 a34 a73 a55 a75 a65 a76 a77 a78 a78ae a510 a710 a510r a715 a520 "
     "a720 a520ae a720ae a725 a320 a530 a730",
     ""},
    {1, 5, "any m3 m1 m0 m4 m0p m7 m23 m33 m35p m55 m85 m52", ""},
    {1, 6, "any r4 r5 r7 r8 r52 r82 r52p", ""},
    {1, 7, "any l110 l150 l31", ""},
    {1, 8, "any l730", ""},
    {1, 9, "any a70 a730 x730", ""},
    {2, 1,
     "any bdw skl kbl cfl apl glk whl aml cml icllp ehl tgllp rkl adl_s adl_p adl_n dg1 acm_g10 acm_g11 acm_g12 pvc "
     "pvc_vg mtl_u mtl_h arl_h bmg_g21 lnl_m ptl_h ptl_u",
     "v8_0_0=bdw v9_0_9=skl v9_1_9=kbl v9_2_9=cfl v9_3_0=apl bxt=apl v9_4_0=glk v9_5_0=whl v9_6_0=aml v9_7_0=cml "
     "icl=icllp v11_0_0=icllp v11_2_0=ehl jsl=ehl tgl=tgllp v12_0_0=tgllp v12_1_0=rkl v12_2_0=adl_s rpl_s=adl_s "
     "v12_3_0=adl_p v12_4_0=adl_n v12_10_0=dg1 dg2_g10=acm_g10 v12_55_8=acm_g10 dg2_g11=acm_g11 v12_56_5=acm_g11 "
     "dg2_g12=acm_g12 v12_57_0=acm_g12 v12_60_7=pvc v12_61_7=pvc_vg mtl_s=mtl_u arl_u=mtl_u arl_s=mtl_u "
     "v12_70_4=mtl_u v12_71_4=mtl_h v12_74_4=arl_h v20_1_4=bmg_g21 v20_4_4=lnl_m v30_0_4=ptl_h v30_1_1=ptl_u"},
    {2, 2,
     "any gfx700 gfx801 gfx803 gfx805 gfx900 gfx906 gfx908 gfx909 gfx90a gfx90c gfx940 gfx1010 gfx1030 gfx1100 "
     "gfx1150 gfx1200",
     "gfx701=gfx700 gfx702=gfx700 gfx703=gfx700 gfx704=gfx700 gfx705=gfx700 gfx802=gfx801 gfx810=gfx805 "
     "gfx902=gfx900 gfx904=gfx900 gfx941=gfx940 gfx942=gfx940 gfx1011=gfx1010 gfx1012=gfx1010 gfx1013=gfx1010 "
     "gfx1031=gfx1030 gfx1032=gfx1030 gfx1033=gfx1030 gfx1034=gfx1030 gfx1035=gfx1030 gfx1036=gfx1030 "
     "gfx1101=gfx1100 gfx1102=gfx1100 gfx1103=gfx1100 gfx1151=gfx1150 gfx1201=gfx1200"},
    /* The registry gives sm70 the value of sm62 (core.json, registry version 0). */
    {2, 3, "any sm50 sm52 sm53 sm60 sm61 sm62 sm72 sm75 sm80 sm86 sm87 sm89 sm90", "sm70=sm62 sm90a=sm90"},
    {3, 1, "any mtl lnl", ""},
};

#define COUNT(a) (sizeof(a) / sizeof(a[0]))

/* The length of the word at p (up to a blank or the end). */
static size_t
word_len(const char *p)
{
    return strcspn(p, " ");
}

static bool
word_is(const char *p, size_t len, const char *name, size_t name_len)
{
    return len == name_len && memcmp(p, name, len) == 0;
}

/* The value of `name` in a list (words, then aliases), or false. */
static bool
list_value(const char *words, const char *aliases, const char *name, size_t name_len, uint32_t *value)
{
    uint32_t k = 0;
    for (const char *p = words; *p; k++) {
        size_t len = word_len(p);
        if (word_is(p, len, name, name_len)) {
            *value = k;
            return true;
        }
        p += len;
        while (*p == ' ')
            p++;
    }
    for (const char *p = aliases; *p;) {
        size_t len = word_len(p);
        const char *eq = memchr(p, '=', len);
        if (eq && word_is(p, (size_t)(eq - p), name, name_len))
            return list_value(words, "", eq + 1, len - (size_t)(eq + 1 - p), value);
        p += len;
        while (*p == ' ')
            p++;
    }
    return false;
}

/* The value-th word of a list into buf (NUL-terminated); NULL past the end or when it does not fit. */
static const char *
list_name(const char *words, uint32_t value, char *buf, size_t size)
{
    const char *p = words;
    for (uint32_t k = 0; *p; k++) {
        size_t len = word_len(p);
        if (k == value) {
            if (len >= size)
                return NULL;
            memcpy(buf, p, len);
            buf[len] = 0;
            return buf;
        }
        p += len;
        while (*p == ' ')
            p++;
    }
    return NULL;
}

static const struct named_list *
find_list(const struct named_list *lists, size_t n, uint32_t a, uint32_t b)
{
    for (size_t k = 0; k < n; k++)
        if (lists[k].a == a && lists[k].b == b)
            return &lists[k];
    return NULL;
}

/* A number written in decimal, alone: what the options take besides names. */
static bool
parse_number(const char *s, size_t len, uint32_t *value)
{
    if (!len || len > 10)
        return false;
    uint64_t v = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[k] - '0');
    }
    if (v > UINT32_MAX)
        return false;
    *value = (uint32_t)v;
    return true;
}

/* A name (or number) in the list of `lists` that belongs to (a, b). */
static bool
lookup_in(const struct named_list *lists, size_t n, uint32_t a, uint32_t b, const char *name, uint32_t *value)
{
    if (!name || !value)
        return false;
    size_t len = strlen(name);
    if (parse_number(name, len, value))
        return true;
    const struct named_list *l = find_list(lists, n, a, b);
    return l && list_value(l->words, l->aliases, name, len, value);
}

/* The name of `value` in the list of `lists` that belongs to (a, b), into buf. */
static const char *
name_in(const struct named_list *lists, size_t n, uint32_t a, uint32_t b, uint32_t value, char *buf, size_t size)
{
    const struct named_list *l = find_list(lists, n, a, b);
    return l && buf ? list_name(l->words, value, buf, size) : NULL;
}

bool
spvcond_registry_target(const char *name, uint32_t *value)
{
    return lookup_in(targets, COUNT(targets), 0, 0, name, value);
}

const char *
spvcond_registry_target_name(uint32_t value, char *buf, size_t size)
{
    return name_in(targets, COUNT(targets), 0, 0, value, buf, size);
}

bool
spvcond_registry_feature(uint32_t target, const char *name, uint32_t *value)
{
    return lookup_in(features, COUNT(features), target, 0, name, value);
}

const char *
spvcond_registry_feature_name(uint32_t target, uint32_t value, char *buf, size_t size)
{
    return name_in(features, COUNT(features), target, 0, value, buf, size);
}

bool
spvcond_registry_category(const char *name, uint32_t *value)
{
    return lookup_in(categories, COUNT(categories), 0, 0, name, value);
}

const char *
spvcond_registry_category_name(uint32_t value, char *buf, size_t size)
{
    return name_in(categories, COUNT(categories), 0, 0, value, buf, size);
}

bool
spvcond_registry_family(uint32_t category, const char *name, uint32_t *value)
{
    return lookup_in(families, COUNT(families), category, 0, name, value);
}

const char *
spvcond_registry_family_name(uint32_t category, uint32_t family, char *buf, size_t size)
{
    return name_in(families, COUNT(families), category, 0, family, buf, size);
}

/* A family the registry knows has "any" (0) at least. */
static bool
family_known(uint32_t category, uint32_t family)
{
    char buf[32];
    return spvcond_registry_family_name(category, family, buf, sizeof(buf)) != NULL;
}

bool
spvcond_registry_architecture(uint32_t category, uint32_t family, const char *name, uint32_t *value)
{
    if (find_list(architectures, COUNT(architectures), category, family) || !name || !value)
        return lookup_in(architectures, COUNT(architectures), category, family, name, value);
    if (parse_number(name, strlen(name), value))
        return true;
    if (family_known(category, family) && strcmp(name, "any") == 0) { /* a family without a list: "any" */
        *value = 0;
        return true;
    }
    return false;
}

const char *
spvcond_registry_architecture_name(uint32_t category, uint32_t family, uint32_t architecture, char *buf, size_t size)
{
    const struct named_list *l = find_list(architectures, COUNT(architectures), category, family);
    if (l)
        return buf ? list_name(l->words, architecture, buf, size) : NULL;
    return buf && architecture == 0 && family_known(category, family) ? list_name("any", 0, buf, size) : NULL;
}

bool
spvcond_registry_architecture_path(const char *path, uint32_t *category, uint32_t *family, uint32_t *architecture)
{
    if (!path || !category || !family || !architecture)
        return false;
    struct spvcond_architecture dpcpp;
    if (spvcond_architecture_by_name(path, &dpcpp)) {
        *category = dpcpp.category;
        *family = dpcpp.family;
        *architecture = dpcpp.architecture;
        return true;
    }
    char part[3][48];
    size_t n = 0;
    for (const char *p = path;; n++) {
        size_t len = strcspn(p, "/");
        if (n == 3 || len == 0 || len >= sizeof(part[0]))
            return false;
        memcpy(part[n], p, len);
        part[n][len] = 0;
        p += len;
        if (!*p++) {
            n++;
            break;
        }
    }
    if (n < 2)
        return false;
    uint32_t c, f, a = 0;
    if (!spvcond_registry_category(part[0], &c) || !spvcond_registry_family(c, part[1], &f))
        return false;
    if (n == 3 && !spvcond_registry_architecture(c, f, part[2], &a))
        return false;
    *category = c;
    *family = f;
    *architecture = a;
    return true;
}

size_t
spvcond_registry_describe_architecture(uint32_t category, uint32_t family, uint32_t architecture, char *buf,
                                       size_t size)
{
    char c[16], f[32], a[32];
    if (!buf || !size)
        return 0;
    bool cn = spvcond_registry_category_name(category, c, sizeof(c)) != NULL;
    bool fn = cn && spvcond_registry_family_name(category, family, f, sizeof(f)) != NULL;
    bool an = fn && spvcond_registry_architecture_name(category, family, architecture, a, sizeof(a)) != NULL;
    int w;
    if (an)
        w = snprintf(buf, size, "%s/%s/%s", c, f, a);
    else if (fn)
        w = snprintf(buf, size, "%s/%s/%u", c, f, architecture);
    else
        w = snprintf(buf, size, "%u/%u/%u", category, family, architecture);
    return w < 0 ? 0 : (size_t)w;
}

/* Append prefix and s (or n, when s is NULL) to buf at *len; *len may pass size, nothing is written past
 * it (snprintf's way). */
static void
add(char *buf, size_t size, size_t *len, const char *prefix, const char *s, uint32_t n)
{
    char num[16];
    if (!s) {
        snprintf(num, sizeof(num), "%u", n);
        s = num;
    }
    if (*len < size) {
        int w = snprintf(buf + *len, size - *len, "%s%s", prefix, s);
        *len += w < 0 ? 0 : (size_t)w;
    }
}

const char *
spvcond_device_constant_text(const uint32_t *w, char *buf, size_t size)
{
    uint32_t wc = spvcond_word_count_of(w[0]);
    size_t len = 0;
    char name[64];
    if (!size)
        return buf;
    buf[0] = 0;
    switch (spvcond_opcode_of(w[0])) {
    case SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL: {
        uint32_t target = wc > 3 ? w[3] : 0;
        add(buf, size, &len, "target ", spvcond_registry_target_name(target, name, sizeof(name)), target);
        for (uint32_t k = 4; k < wc; k++)
            add(buf, size, &len, k == 4 ? " features " : "/",
                spvcond_registry_feature_name(target, w[k], name, sizeof(name)), w[k]);
        break;
    }
    case SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL: {
        const char *cmp = wc > 5 ? spvcond_grammar_opcode_name(w[5]) : NULL;
        add(buf, size, &len, "architecture ", cmp && strncmp(cmp, "Op", 2) == 0 ? cmp + 2 : cmp, wc > 5 ? w[5] : 0);
        spvcond_registry_describe_architecture(wc > 3 ? w[3] : 0, wc > 4 ? w[4] : 0, wc > 6 ? w[6] : 0, name,
                                               sizeof(name));
        add(buf, size, &len, " ", name, 0);
        break;
    }
    case SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL:
        add(buf, size, &len, "", "capabilities", 0);
        for (uint32_t k = 3; k < wc; k++)
            add(buf, size, &len, k == 3 ? " " : ",", spvcond_grammar_enumerant_name(SPVCOND_KIND_Capability, w[k]),
                w[k]);
        break;
    default:
        break;
    }
    return buf;
}
