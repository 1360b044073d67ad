/* SPDX-License-Identifier: MIT */
/* What each device's driver is given of a module (docs/opencl-layer.md, "Routes"): the module specialized
 * for the device (what it reports deciding every condition, the application's specialization constants
 * applied), judged, and put in the form the driver takes: the module itself, rusticl's program binary, LLVM
 * bitcode or PTX; from the cache when it holds the same, else made and stored there. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conditions.h"
#include "driver_checks.h"
#include "layer.h"
#include "profiles.h"

/* What one device keeps and why it lacks the rest (and, for SPVCOND_LAYER_DEBUG, both as lists). */
struct verdicts {
    struct layer_text log, kernels, kept, removed;
};

static void
verdict(void *user, const char *kernel, bool supported, const char *reason)
{
    struct verdicts *v = user;
    if (supported) {
        layer_text_add(&v->kernels, kernel, strlen(kernel) + 1);
        if (layer_debug_enabled())
            layer_text_printf(&v->kept, "%s%s", v->kept.length ? " " : "", kernel);
    } else {
        layer_text_printf(&v->log, "spvcond: kernel %s is not available on this device: %s\n", kernel, reason);
        if (layer_debug_enabled())
            layer_text_printf(&v->removed, "%s%s", v->removed.length ? " " : "", kernel);
    }
}

/* SPVCOND_LAYER_DEBUG: what the library made of the device's report. */
static void
debug_facts(const struct layer_device *d, const spvcond_device_info *info)
{
    if (!layer_debug_enabled())
        return;
    struct layer_text t = {0};
    for (size_t k = 0; k < info->aspect_count; k++)
        layer_text_printf(&t, "%s%s", k ? " " : "",
                          spvcond_aspect_name(info->aspects[k]) ? spvcond_aspect_name(info->aspects[k]) : "?");
    char target[64] = "none";
    if (info->has_target)
        spvcond_registry_target_name(info->target, target, sizeof(target));
    char cc[48] = "";
    if (d->compute_capability_major)
        snprintf(cc, sizeof(cc), "; compute capability %u.%u", d->compute_capability_major,
                 d->compute_capability_minor);
    layer_debug("device %s: aspects %s; %zu SPIR-V capabilities; target %s%s", d->name ? d->name : "?",
                t.data ? t.data : "none", info->capability_count, target, cc);
    free(t.data);
}

/* The library's first error as one line. */
static void
library_message(spvcond_context *sc, char *msg, size_t msg_size)
{
    const spvcond_diag *e = sc ? spvcond_context_first_error(sc) : NULL;
    if (e && e->instruction_index != SIZE_MAX)
        snprintf(msg, msg_size, "%s (instruction %zu at word %zu)", e->message, e->instruction_index, e->word_offset);
    else if (e && e->word_offset != SIZE_MAX)
        snprintf(msg, msg_size, "%s (word %zu)", e->message, e->word_offset);
    else if (e) /* of the module as a whole (its size, its header) */
        snprintf(msg, msg_size, "%s", e->message);
    else
        snprintf(msg, msg_size, "the module was refused");
}

/* The device's requirement values after the application's (a SpecId both give takes the device's: the
 * requirement constants are the layer's to set). malloc'd; NULL when out of memory. */
static spvcond_spec_value *
all_values(const spvcond_spec_value *device, size_t nd, const spvcond_spec_value *app, size_t na, size_t *n)
{
    spvcond_spec_value *v = malloc((nd + na + 1) * sizeof(*v));
    if (!v)
        return NULL;
    *n = 0;
    for (size_t k = 0; k < na; k++) {
        bool shadowed = false;
        for (size_t j = 0; j < nd && !shadowed; j++)
            shadowed = device[j].spec_id == app[k].spec_id;
        if (!shadowed)
            v[(*n)++] = (spvcond_spec_value){app[k].spec_id, app[k].value, false};
    }
    memcpy(v + *n, device, nd * sizeof(*v));
    *n += nd;
    return v;
}

/* A plain module annotated in memory, as `spvcond annotate` annotates it (docs/opencl-layer.md, "Plain
 * modules"): a kernel that needs what the device lacks is then absent with its reason and the rest are
 * built, as for an annotated module. *m becomes the annotated module when annotation made a kernel or an
 * exported function conditional; otherwise, or when the library cannot annotate it, the module as it came. */
static void
annotate_plain(spvcond_context *sc, const struct layer_form_source *src, spvcond_module **m)
{
    spvcond_annotate_options options = SPVCOND_SIZED(spvcond_annotate_options);
    spvcond_annotate_stats stats = SPVCOND_SIZED(spvcond_annotate_stats);
    uint32_t *words = NULL;
    size_t count = 0;
    spvcond_module *again = NULL;
    if (spvcond_annotate(*m, &options, &stats) == SPVCOND_OK && stats.conditional_roots > 0 &&
        spvcond_module_emit(*m, &words, &count) == SPVCOND_OK &&
        spvcond_module_parse(sc, words, count, 0, &again) == SPVCOND_OK) {
        layer_debug("a plain module annotated in memory: %zu of its %zu kernels and exported functions conditional",
                    stats.conditional_roots, stats.roots);
    } else {
        spvcond_module_destroy(again); /* the module as it came, without the edits annotation recorded */
        again = NULL;
        if (spvcond_module_parse_bytes(sc, src->il, src->length, &again) != SPVCOND_OK)
            again = NULL;
    }
    if (again) {
        spvcond_module_destroy(*m);
        *m = again;
    }
    spvcond_free(sc, words);
    spvcond_context_clear_diag(sc);
}

/* The module for one device: parsed, the kernels judged, specialized with the device's values, the
 * application's and the device's function-variants facts, emitted into malloc'd *words. False with the
 * library's message in msg. */
static bool
specialize_for(const struct layer_device *d, const struct layer_form_source *src, uint32_t **words, size_t *count,
               struct layer_form *out, char *msg, size_t msg_size)
{
    spvcond_context *sc = NULL;
    spvcond_module *m = NULL;
    spvcond_device_info *info = NULL;
    spvcond_spec_value *values = NULL, *merged = NULL;
    uint32_t *emitted = NULL;
    struct verdicts v = {0};
    size_t nv = 0, nm = 0;
    bool ok = false;
    *words = NULL;
    if (spvcond_context_create(NULL, NULL, NULL, &sc) != SPVCOND_OK) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    spvcond_fnvar_device fnvar = SPVCOND_SIZED(spvcond_fnvar_device);
    spvcond_specialize_options options = SPVCOND_SIZED(spvcond_specialize_options);
    if (spvcond_module_parse_bytes(sc, src->il, src->length, &m) != SPVCOND_OK ||
        spvcond_opencl_device_info(sc, &d->facts, &info) != SPVCOND_OK)
        goto done;
    if (!layer_has_conditions(m))
        annotate_plain(sc, src, &m);
    debug_facts(d, info);
    if (spvcond_kernels_supported(m, info, verdict, &v) != SPVCOND_OK ||
        spvcond_device_spec_values(m, info, &values, &nv) != SPVCOND_OK)
        goto done;
    layer_debug("device %s: kernels kept: %s; removed: %s", d->name ? d->name : "?",
                v.kept.data ? v.kept.data : "none", v.removed.data ? v.removed.data : "none");
    spvcond_device_info_facts(info, SPVCOND_UNSPECIFIED_UNKNOWN, &fnvar);
    options.values = values;
    options.value_count = nv;
    options.device = &fnvar;
    if (src->value_count) { /* clSetProgramSpecializationConstant: every spec constant becomes a constant */
        if (!(merged = all_values(values, nv, src->values, src->value_count, &nm))) {
            snprintf(msg, msg_size, "out of memory");
            goto done;
        }
        options.values = merged;
        options.value_count = nm;
        options.flags |= SPVCOND_SPECIALIZE_FREEZE_ALL;
    }
    if (spvcond_specialize(m, &options, NULL) != SPVCOND_OK || spvcond_module_emit(m, &emitted, count) != SPVCOND_OK)
        goto done;
    layer_text_add(&v.kernels, "", 1);
    layer_text_add(&v.log, "", 0); /* a log, empty when the layer has nothing to say to the application */
    if (v.log.failed || v.kernels.failed || !(*words = malloc(*count * 4 + 1))) {
        spvcond_free(sc, emitted);
        snprintf(msg, msg_size, "out of memory");
        goto done;
    }
    memcpy(*words, emitted, *count * 4);
    spvcond_free(sc, emitted);
    out->log = v.log.data;
    out->kernels = v.kernels.data;
    v.log.data = v.kernels.data = NULL;
    ok = true;
done:
    if (!ok && !msg[0])
        library_message(sc, msg, msg_size);
    free(v.log.data);
    free(v.kernels.data);
    free(v.kept.data);
    free(v.removed.data);
    free(merged);
    spvcond_free(sc, values);
    spvcond_free(sc, info);
    spvcond_module_destroy(m);
    spvcond_context_destroy(sc);
    return ok;
}

bool
layer_module_check(const void *il, size_t length, bool *conditional, char *msg, size_t msg_size)
{
    spvcond_context *sc = NULL;
    spvcond_module *m = NULL;
    bool ok = false;
    *conditional = false;
    if (spvcond_context_create(NULL, NULL, NULL, &sc) != SPVCOND_OK) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    if (spvcond_module_parse_bytes(sc, il, length, &m) == SPVCOND_OK) {
        *conditional = layer_has_conditions(m);
        ok = true;
    } else {
        library_message(sc, msg, msg_size);
    }
    spvcond_module_destroy(m);
    spvcond_context_destroy(sc);
    return ok;
}

/* What a driver that does not read SPIR-V itself takes of the module (malloc'd), once judged: rusticl's
 * program binary, LLVM bitcode (pocl) or PTX (NVIDIA). */
static bool
judged_form(const struct layer_device *d, unsigned arithmetic, const uint32_t *words, size_t count, unsigned char **form,
            size_t *size, char *msg, size_t msg_size)
{
    const char *name = d->name ? d->name : "?";
    double started = layer_now_ms();
    /* Each of these drivers trusts what it gets: nothing the validator rejects reaches one, nor a module
     * whose pointers are not the device's size (pocl fails on it and frees its module twice). */
    if (!layer_validate(words, count, d, msg, msg_size))
        return false;
    char why[512];
    unsigned bits;
    if (!layer_driver_check(words, count, &bits, why, sizeof(why))) {
        snprintf(msg, msg_size, "the module is refused before the driver: %s", why);
        return false;
    }
    if (bits && d->address_bits && bits != d->address_bits) {
        snprintf(msg, msg_size, "the module's pointers are %u bits (its addressing model), %s's are %u", bits,
                 d->name ? d->name : "the device's", d->address_bits);
        return false;
    }
    if (!layer_profile_check(d->route, words, count, why, sizeof(why))) {
        snprintf(msg, msg_size, "the module is beyond what the route takes: %s", why);
        return false;
    }
    layer_debug("device %s: the module validated in %.2f ms", name, layer_elapsed_ms(started));
    started = layer_now_ms();
    if (d->route == LAYER_ROUTE_SPIRV_BINARY) {
        /* rusticl's binary: {version 1, SPIR-V size, binary type}, then the SPIR-V */
        if (count > (UINT32_MAX - 12) / 4) {
            snprintf(msg, msg_size, "the module is too large for a program binary (%zu words)", count);
            return false;
        }
        uint32_t header[3] = {1, (uint32_t)(count * 4), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT};
        *size = 12 + count * 4;
        if (!(*form = malloc(*size))) {
            snprintf(msg, msg_size, "out of memory");
            return false;
        }
        memcpy(*form, header, 12);
        memcpy(*form + 12, words, count * 4);
    } else if (d->route == LAYER_ROUTE_PTX) {
        if (!layer_lower_ptx(words, count, d->compute_capability_major, d->compute_capability_minor, arithmetic,
                             (char **)form, size, msg, msg_size))
            return false;
    } else if (!layer_translate(words, count, true, form, size, msg, msg_size)) {
        return false;
    }
    layer_debug("device %s: %s made in %.2f ms (%zu bytes)", name,
                d->route == LAYER_ROUTE_PTX       ? "PTX"
                : d->route == LAYER_ROUTE_BITCODE ? "LLVM bitcode"
                                                  : "the binary",
                layer_elapsed_ms(started), *size);
    return true;
}

/* The module with what the route's consumer cannot read lowered by the library (malloc'd into *out), or
 * false with the library's message. */
static bool
lowered_for(const struct layer_device *d, const uint32_t *words, size_t count, uint32_t flags, uint32_t **out,
            size_t *out_count, char *msg, size_t msg_size)
{
    spvcond_context *sc = NULL;
    spvcond_module *m = NULL;
    uint32_t *emitted = NULL;
    size_t lowered = 0;
    bool ok = spvcond_context_create(NULL, NULL, NULL, &sc) == SPVCOND_OK &&
              spvcond_module_parse(sc, words, count, 0, &m) == SPVCOND_OK &&
              spvcond_lower(m, flags, &lowered) == SPVCOND_OK &&
              spvcond_module_emit(m, &emitted, out_count) == SPVCOND_OK && (*out = malloc(*out_count * 4 + 1));
    if (ok) {
        memcpy(*out, emitted, *out_count * 4);
        layer_debug("device %s: %zu instructions lowered for the route", d->name ? d->name : "?", lowered);
    } else {
        library_message(sc, msg, msg_size);
    }
    spvcond_free(sc, emitted);
    spvcond_module_destroy(m);
    spvcond_context_destroy(sc);
    return ok;
}

/* The same, once what the route's consumer cannot read is lowered for it. */
static bool
binary_form(const struct layer_device *d, unsigned arithmetic, const uint32_t *words, size_t count, unsigned char **form,
            size_t *size, char *msg, size_t msg_size)
{
    uint32_t lower = layer_profile_lowering(d->route, words, count), *lowered = NULL;
    if (lower) {
        if (!lowered_for(d, words, count, lower, &lowered, &count, msg, msg_size))
            return false;
        words = lowered;
    }
    bool made = judged_form(d, arithmetic, words, count, form, size, msg, msg_size);
    free(lowered);
    return made;
}

void
layer_form_source_init(struct layer_form_source *src, const void *il, size_t length,
                       const spvcond_spec_value *values, size_t value_count, unsigned arithmetic, unsigned dump)
{
    *src = (struct layer_form_source){il, length, values, value_count, arithmetic, dump, {0}, {0}};
    layer_cache_open(&src->cache);
    if (src->cache.enabled)
        layer_cache_module_digest(il, length, values, value_count, arithmetic, src->digest);
}

bool
layer_device_form(const struct layer_form_source *src, const struct layer_device *d, size_t k, struct layer_form *out,
                  char *msg, size_t msg_size)
{
    const char *name = d->name ? d->name : "?";
    unsigned char key[LAYER_CACHE_KEY_SIZE] = {0};
    struct layer_cache_entry entry;
    *out = (struct layer_form){0};
    if (src->cache.enabled) {
        layer_cache_key(src->digest, d, key);
        if (layer_cache_load(&src->cache, key, d->route, name, &entry)) {
            *out = (struct layer_form){entry.log, entry.kernels, entry.form, entry.form_size};
            layer_dump(src->dump, k, d, true, out->bytes, out->size);
            return true;
        }
    }
    double started = layer_now_ms();
    uint32_t *words = NULL;
    size_t count = 0;
    if (!specialize_for(d, src, &words, &count, out, msg, msg_size))
        return false;
    if (layer_debug_enabled()) {
        size_t kept = 0;
        for (const char *kernel = out->kernels; *kernel; kernel += strlen(kernel) + 1)
            kept++;
        layer_debug("device %s: module specialized in %.2f ms (%zu words), %zu kernels kept", name,
                    layer_elapsed_ms(started), count, kept);
    }
    layer_dump(src->dump, k, d, false, words, count * 4);
    if (d->route == LAYER_ROUTE_IL) {
        out->bytes = (unsigned char *)words;
        out->size = count * 4;
    } else {
        bool made = binary_form(d, src->arithmetic, words, count, &out->bytes, &out->size, msg, msg_size);
        free(words);
        if (!made) {
            layer_form_free(out);
            return false;
        }
    }
    layer_dump(src->dump, k, d, true, out->bytes, out->size);
    if (src->cache.enabled)
        layer_cache_store(&src->cache, key, d->route, name,
                          &(struct layer_cache_entry){out->log, out->kernels, out->bytes, out->size});
    return true;
}

void
layer_form_free(struct layer_form *f)
{
    free(f->log);
    free(f->kernels);
    free(f->bytes);
    *f = (struct layer_form){0};
}
