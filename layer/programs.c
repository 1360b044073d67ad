/* SPDX-License-Identifier: MIT */
/* Programs made from IL through the layer: one module specialized for each device of the context (what
 * that device reports deciding every condition), handed to the driver in the form it takes, and what the
 * layer remembers of each program: per device, the kernels it keeps and the lines it adds to the build log.
 * docs/opencl-layer.md states the rules. */
#include <pthread.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "driver_checks.h"

/* What the layer knows of a program on one device. */
struct program_device {
    cl_device_id device;
    char *log;       /* its lines of the build log ("" when none) */
    char *kernels;   /* the kernel names the device keeps, each ending with '\0', then an empty one */
};

struct program {
    cl_program handle;
    size_t device_count;
    struct program_device *devices;
    unsigned char **binaries; /* each device's binary, when the driver took binaries (NULL: IL) */
    bool ptx;                 /* a device got PTX (libclc's nvptx64 get_global_id adds no global offset) */
    size_t *lengths;
    struct program *next;
};

/* The programs the layer made; the loader may call from any thread. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct program *programs;

/* A growing text. */
struct text {
    char *data;
    size_t length, capacity;
    bool failed;
};

static void
text_add(struct text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->length + n + 1 > t->capacity) {
        size_t capacity = (t->length + n + 1) * 2;
        char *data = realloc(t->data, capacity);
        if (!data) {
            t->failed = true;
            return;
        }
        t->data = data;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, s, n);
    t->length += n;
    t->data[t->length] = 0;
}

static void text_printf(struct text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void
text_printf(struct text *t, const char *format, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, sizeof(buf), format, ap);
    va_end(ap);
    if (n > 0)
        text_add(t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* What one device keeps and why it lacks the rest (and, for SPVCOND_LAYER_DEBUG, both as lists). */
struct verdicts {
    struct text log, kernels, kept, removed;
};

static void
verdict(void *user, const char *kernel, bool supported, const char *reason)
{
    struct verdicts *v = user;
    if (supported) {
        text_add(&v->kernels, kernel, strlen(kernel) + 1);
        if (layer_debug_enabled())
            text_printf(&v->kept, "%s%s", v->kept.length ? " " : "", kernel);
    } else {
        text_printf(&v->log, "spvcond: kernel %s is not available on this device: %s\n", kernel, reason);
        if (layer_debug_enabled())
            text_printf(&v->removed, "%s%s", v->removed.length ? " " : "", kernel);
    }
}

/* SPVCOND_LAYER_DEBUG: what the library made of the device's report. */
static void
debug_facts(const struct layer_device *d, const spvcond_device_info *info)
{
    if (!layer_debug_enabled())
        return;
    struct text t = {0};
    for (size_t k = 0; k < info->aspect_count; k++)
        text_printf(&t, "%s%s", k ? " " : "",
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

/* The module for one device: parsed, the kernels judged, specialized with the device's values and
 * function-variants facts, emitted into malloc'd *words. False with the library's message in msg. */
static bool
specialize_for(const struct layer_device *d, const void *il, size_t length, uint32_t **words, size_t *count,
               struct program_device *out, char *msg, size_t msg_size)
{
    spvcond_context *sc = NULL;
    spvcond_module *m = NULL;
    spvcond_device_info *info = NULL;
    spvcond_spec_value *values = NULL;
    uint32_t *emitted = NULL;
    struct verdicts v = {0};
    size_t nv = 0;
    bool ok = false;
    *words = NULL;
    if (spvcond_context_create(NULL, NULL, NULL, &sc) != SPVCOND_OK) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    spvcond_fnvar_device fnvar = SPVCOND_SIZED(spvcond_fnvar_device);
    spvcond_specialize_options options = SPVCOND_SIZED(spvcond_specialize_options);
    if (spvcond_module_parse_bytes(sc, il, length, &m) != SPVCOND_OK ||
        spvcond_opencl_device_info(sc, &d->facts, &info) != SPVCOND_OK)
        goto done;
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
    if (spvcond_specialize(m, &options, NULL) != SPVCOND_OK || spvcond_module_emit(m, &emitted, count) != SPVCOND_OK)
        goto done;
    text_add(&v.kernels, "", 1);
    text_add(&v.log, "", 0); /* a log, empty when the layer has nothing to say to the application */
    if (v.log.failed || v.kernels.failed || !(*words = malloc(*count * 4 + 1))) {
        spvcond_free(sc, emitted);
        snprintf(msg, msg_size, "out of memory");
        goto done;
    }
    memcpy(*words, emitted, *count * 4);
    spvcond_free(sc, emitted);
    out->device = d->id;
    out->log = v.log.data;
    out->kernels = v.kernels.data;
    v.log.data = v.kernels.data = NULL;
    ok = true;
done:
    if (!ok && !msg[0]) {
        const spvcond_diag *e = sc ? spvcond_context_first_error(sc) : NULL;
        if (e && e->instruction_index != SIZE_MAX)
            snprintf(msg, msg_size, "%s (instruction %zu at word %zu)", e->message, e->instruction_index,
                     e->word_offset);
        else if (e && e->word_offset != SIZE_MAX)
            snprintf(msg, msg_size, "%s (word %zu)", e->message, e->word_offset);
        else if (e) /* of the module as a whole (its size, its header) */
            snprintf(msg, msg_size, "%s", e->message);
        else
            snprintf(msg, msg_size, "the module was refused");
    }
    free(v.log.data);
    free(v.kernels.data);
    free(v.kept.data);
    free(v.removed.data);
    spvcond_free(sc, values);
    spvcond_free(sc, info);
    spvcond_module_destroy(m);
    spvcond_context_destroy(sc);
    return ok;
}

/* Whether the module uses SPV_INTEL_function_variants (then the layer specializes it even for a driver
 * that reads SPIR-V itself; a plain module goes to such a driver untouched). */
static bool
is_conditional(const void *il, size_t length)
{
    spvcond_context *sc = NULL;
    spvcond_module *m = NULL;
    bool conditional = false;
    if (spvcond_context_create(NULL, NULL, NULL, &sc) == SPVCOND_OK &&
        spvcond_module_parse_bytes(sc, il, length, &m) == SPVCOND_OK) {
        spvcond_item item = SPVCOND_SIZED(spvcond_item);
        size_t cursor = 0;
        while (!conditional && spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &item))
            conditional = item.value == 6245 /* SpecConditionalINTEL */ || item.value == 6246 /* FunctionVariantsINTEL */;
    } else {
        conditional = true; /* not readable: the layer's own message says why */
    }
    spvcond_module_destroy(m);
    spvcond_context_destroy(sc);
    return conditional;
}

static void
program_free(struct program *p)
{
    for (size_t k = 0; p && k < p->device_count; k++) {
        free(p->devices[k].log);
        free(p->devices[k].kernels);
        if (p->binaries)
            free(p->binaries[k]);
    }
    if (p) {
        free(p->devices);
        free(p->binaries);
        free(p->lengths);
    }
    free(p);
}

/* Remember a program (a handle the driver reuses replaces what the layer knew of it). */
static void
remember(struct program *p)
{
    pthread_mutex_lock(&lock);
    for (struct program **q = &programs; *q; q = &(*q)->next)
        if ((*q)->handle == p->handle) {
            struct program *old = *q;
            *q = old->next;
            program_free(old);
            break;
        }
    p->next = programs;
    programs = p;
    pthread_mutex_unlock(&lock);
}

/* What a driver that does not read SPIR-V itself takes of the specialized module (malloc'd), once judged:
 * rusticl's program binary, LLVM bitcode (pocl) or PTX (NVIDIA). */
static bool
binary_form(const struct layer_device *d, const uint32_t *words, size_t count, unsigned char **form, size_t *size,
            cl_int *err, char *msg, size_t msg_size)
{
    const char *name = d->name ? d->name : "?";
    double started = layer_now_ms();
    *err = CL_INVALID_VALUE;
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
            *err = CL_OUT_OF_HOST_MEMORY;
            return false;
        }
        memcpy(*form, header, 12);
        memcpy(*form + 12, words, count * 4);
    } else if (d->route == LAYER_ROUTE_PTX) {
        if (!layer_lower_ptx(words, count, d->compute_capability_major, d->compute_capability_minor, (char **)form,
                             size, msg, msg_size))
            return false;
    } else if (!layer_translate(words, count, form, size, msg, msg_size)) {
        return false;
    }
    layer_debug("device %s: %s made in %.2f ms (%zu bytes)", name,
                d->route == LAYER_ROUTE_PTX       ? "PTX"
                : d->route == LAYER_ROUTE_BITCODE ? "LLVM bitcode"
                                                  : "the binary",
                layer_elapsed_ms(started), *size);
    return true;
}

/* What device number k's driver takes (*form, malloc'd) and what the layer remembers of it (*pd): from the
 * cache, else made (specialized; for a driver that reads SPIR-V, the specialized module; else its binary
 * form) and stored. */
static bool
device_form(const struct layer_cache *cache, const unsigned char *digest, const struct layer_device *d, size_t k,
            unsigned dump, const void *il, size_t length, struct program_device *pd, unsigned char **form,
            size_t *size, cl_int *err, char *msg, size_t msg_size)
{
    const char *name = d->name ? d->name : "?";
    unsigned char key[LAYER_CACHE_KEY_SIZE] = {0};
    struct layer_cache_entry entry;
    if (cache->enabled) {
        layer_cache_key(digest, d, key);
        if (layer_cache_load(cache, key, d->route, name, &entry)) {
            *pd = (struct program_device){d->id, entry.log, entry.kernels};
            *form = entry.form;
            *size = entry.form_size;
            layer_dump(dump, k, d, true, *form, *size);
            return true;
        }
    }
    double started = layer_now_ms();
    uint32_t *words = NULL;
    size_t count = 0;
    if (!specialize_for(d, il, length, &words, &count, pd, msg, msg_size)) {
        *err = CL_INVALID_VALUE;
        return false;
    }
    if (layer_debug_enabled()) {
        size_t kept = 0;
        for (const char *kernel = pd->kernels; *kernel; kernel += strlen(kernel) + 1)
            kept++;
        layer_debug("device %s: module specialized in %.2f ms (%zu words), %zu kernels kept", name,
                    layer_elapsed_ms(started), count, kept);
    }
    layer_dump(dump, k, d, false, words, count * 4);
    if (d->route == LAYER_ROUTE_IL) {
        *form = (unsigned char *)words;
        *size = count * 4;
    } else {
        bool made = binary_form(d, words, count, form, size, err, msg, msg_size);
        free(words);
        if (!made)
            return false;
    }
    layer_dump(dump, k, d, true, *form, *size);
    if (cache->enabled)
        layer_cache_store(cache, key, d->route, name,
                          &(struct layer_cache_entry){pd->log, pd->kernels, *form, *size});
    return true;
}

/* The driver's program from each device's form: one IL for drivers that read it (the same for every
 * device), else each device's binary (kept in `record`, which clLinkProgram makes the program again from). */
static cl_program
driver_program(cl_context context, const struct layer_device *devs, size_t n, unsigned char **forms, size_t *sizes,
               struct program *record, cl_int *err, char *msg, size_t msg_size)
{
    if (devs[0].route == LAYER_ROUTE_IL) {
        for (size_t k = 1; k < n; k++)
            if (sizes[k] != sizes[0] || memcmp(forms[k], forms[0], sizes[0]) != 0) {
                snprintf(msg, msg_size, "the devices of the context need different modules (%s and %s), and a "
                         "program from IL holds one: create the program for fewer devices",
                         devs[0].name ? devs[0].name : "?", devs[k].name ? devs[k].name : "?");
                *err = CL_INVALID_OPERATION;
                return NULL;
            }
        return layer_next.clCreateProgramWithIL(context, forms[0], sizes[0], err);
    }
    cl_device_id *ids = calloc(n, sizeof(*ids));
    if (!ids) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    for (size_t k = 0; k < n; k++)
        ids[k] = devs[k].id;
    cl_program program =
        layer_next.clCreateProgramWithBinary(context, (cl_uint)n, ids, sizes, (const unsigned char **)forms, NULL, err);
    free(ids);
    if (program) {
        for (size_t k = 0; k < n; k++)
            record->ptx |= devs[k].route == LAYER_ROUTE_PTX;
    }
    return program;
}

/* The devices of a context; NULL with *err set when the driver does not say. */
static cl_device_id *
context_devices(cl_context context, size_t *n, cl_int *err)
{
    cl_uint count = 0;
    *err = layer_next.clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof(count), &count, NULL);
    if (*err != CL_SUCCESS)
        return NULL;
    cl_device_id *ids = count ? calloc(count, sizeof(*ids)) : NULL;
    if (!ids) {
        *err = count ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_CONTEXT;
        return NULL;
    }
    *err = layer_next.clGetContextInfo(context, CL_CONTEXT_DEVICES, count * sizeof(*ids), ids, NULL);
    if (*err != CL_SUCCESS) {
        free(ids);
        return NULL;
    }
    *n = count;
    return ids;
}

cl_program
layer_create_program_with_il(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
{
    cl_int err_local;
    cl_int *err = errcode_ret ? errcode_ret : &err_local;
    if (!il || length == 0)
        return layer_next.clCreateProgramWithIL(context, il, length, errcode_ret); /* the driver's own answer */
    size_t n = 0;
    cl_device_id *ids = context_devices(context, &n, err);
    if (!ids)
        return NULL;
    struct layer_device *devs = calloc(n, sizeof(*devs));
    unsigned char **forms = calloc(n, sizeof(*forms));
    size_t *sizes = calloc(n, sizeof(*sizes));
    struct program *p = calloc(1, sizeof(*p));
    struct program_device *pd = calloc(n, sizeof(*pd));
    cl_program program = NULL;
    char msg[1024] = "";
    *err = CL_OUT_OF_HOST_MEMORY;
    if (!devs || !forms || !sizes || !p || !pd)
        goto done;
    bool all_il = true, mixed = false;
    for (size_t k = 0; k < n; k++) {
        /* A device the layer cannot read, or one without SPIR-V: the driver's own answer. */
        if (!layer_device_query(ids[k], &devs[k]) || devs[k].route == LAYER_ROUTE_NONE) {
            if (devs[k].no_route[0])
                snprintf(msg, sizeof(msg), "%s", devs[k].no_route);
            program = layer_next.clCreateProgramWithIL(context, il, length, err);
            goto done;
        }
        all_il &= devs[k].route == LAYER_ROUTE_IL;
        mixed |= (devs[k].route == LAYER_ROUTE_IL) != (devs[0].route == LAYER_ROUTE_IL);
    }
    if (all_il && !is_conditional(il, length)) {
        program = layer_next.clCreateProgramWithIL(context, il, length, err);
        goto done;
    }
    if (mixed) {
        snprintf(msg, sizeof(msg), "some devices of the context read SPIR-V and others take it as a binary: "
                 "create the program for fewer devices");
        *err = CL_INVALID_OPERATION;
        goto done;
    }
    unsigned dump = layer_dump_program();
    struct layer_cache cache;
    unsigned char digest[LAYER_CACHE_KEY_SIZE];
    layer_cache_open(&cache);
    if (cache.enabled)
        layer_cache_module_digest(il, length, digest);
    for (size_t k = 0; k < n; k++)
        if (!device_form(&cache, digest, &devs[k], k, dump, il, length, &pd[k], &forms[k], &sizes[k], err, msg,
                         sizeof(msg)))
            goto done;
    program = driver_program(context, devs, n, forms, sizes, p, err, msg, sizeof(msg));
    if (program) {
        p->handle = program;
        p->device_count = n;
        p->devices = pd;
        pd = NULL;
        if (devs[0].route != LAYER_ROUTE_IL) { /* kept: clLinkProgram makes the program again from them */
            p->binaries = forms;
            p->lengths = sizes;
            forms = NULL;
            sizes = NULL;
        }
        remember(p);
        p = NULL;
    }
done:
    if (msg[0])
        fprintf(stderr, "spvcond layer: clCreateProgramWithIL: %s\n", msg);
    for (size_t k = 0; k < n && devs; k++)
        layer_device_free(&devs[k]);
    for (size_t k = 0; k < n && forms; k++)
        free(forms[k]);
    for (size_t k = 0; k < n && pd; k++) {
        free(pd[k].log);
        free(pd[k].kernels);
    }
    free(pd);
    free(p);
    free(devs);
    free(forms);
    free(sizes);
    free(ids);
    if (!program && *err == CL_SUCCESS)
        *err = CL_INVALID_VALUE;
    return program;
}

static struct program *
find(cl_program handle)
{
    for (struct program *p = programs; p; p = p->next)
        if (p->handle == handle)
            return p;
    return NULL;
}

bool
layer_program_ptx(cl_program program)
{
    pthread_mutex_lock(&lock);
    struct program *p = find(program);
    bool ptx = p && p->ptx;
    pthread_mutex_unlock(&lock);
    return ptx;
}

bool
layer_program_compiled(cl_program program)
{
    pthread_mutex_lock(&lock);
    struct program *p = find(program);
    bool compiled = p && p->binaries;
    pthread_mutex_unlock(&lock);
    return compiled;
}

/* A copy of what the layer knows of a program, for another handle; NULL when out of memory. */
static struct program *
program_copy(const struct program *p)
{
    struct program *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->device_count = p->device_count;
    c->devices = calloc(p->device_count, sizeof(*c->devices));
    c->binaries = calloc(p->device_count, sizeof(*c->binaries));
    c->lengths = calloc(p->device_count, sizeof(*c->lengths));
    bool ok = c->devices && c->binaries && c->lengths;
    for (size_t k = 0; ok && k < p->device_count; k++) {
        const struct program_device *d = &p->devices[k];
        size_t names = 1;
        for (const char *n = d->kernels; *n; n += strlen(n) + 1)
            names += strlen(n) + 1;
        c->devices[k] = (struct program_device){d->device, strdup(d->log), malloc(names)};
        c->ptx = p->ptx;
        c->lengths[k] = p->lengths[k];
        c->binaries[k] = malloc(p->lengths[k]);
        ok = c->devices[k].log && c->devices[k].kernels && c->binaries[k];
        if (c->devices[k].kernels)
            memcpy(c->devices[k].kernels, d->kernels, names);
        if (c->binaries[k])
            memcpy(c->binaries[k], p->binaries[k], p->lengths[k]);
    }
    if (!ok) {
        program_free(c);
        return NULL;
    }
    return c;
}

cl_program
layer_link_program(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                   cl_program input, void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                   cl_int *errcode_ret)
{
    cl_int err_local;
    cl_int *err = errcode_ret ? errcode_ret : &err_local;
    pthread_mutex_lock(&lock);
    struct program *p = find(input);
    struct program *copy = p && p->binaries ? program_copy(p) : NULL;
    pthread_mutex_unlock(&lock);
    cl_device_id *ids = copy ? calloc(copy->device_count, sizeof(*ids)) : NULL;
    if (!ids) {
        program_free(copy);
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    for (size_t k = 0; k < copy->device_count; k++)
        ids[k] = copy->devices[k].device;
    cl_program program = layer_next.clCreateProgramWithBinary(context, (cl_uint)copy->device_count, ids,
                                                              copy->lengths,
                                                              (const unsigned char **)copy->binaries, NULL, err);
    free(ids);
    if (!program) {
        program_free(copy);
        return NULL;
    }
    copy->handle = program;
    remember(copy);
    cl_int built = layer_next.clBuildProgram(program, num_devices, device_list, options, NULL, NULL);
    *err = built == CL_BUILD_PROGRAM_FAILURE ? CL_LINK_PROGRAM_FAILURE : built;
    if (pfn_notify)
        pfn_notify(program, user_data);
    if (*err != CL_SUCCESS && *err != CL_LINK_PROGRAM_FAILURE) {
        layer_program_release(program);
        layer_next.clReleaseProgram(program);
        return NULL;
    }
    return program;
}

char *
layer_program_log(cl_program program, cl_device_id device)
{
    char *log = NULL;
    pthread_mutex_lock(&lock);
    struct program *p = find(program);
    for (size_t k = 0; p && k < p->device_count; k++)
        if (p->devices[k].device == device && p->devices[k].log[0])
            log = strdup(p->devices[k].log);
    pthread_mutex_unlock(&lock);
    return log;
}

static bool
built(cl_program program, cl_device_id device)
{
    cl_build_status status = CL_BUILD_NONE;
    return layer_next.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status,
                                            NULL) == CL_SUCCESS &&
           status == CL_BUILD_SUCCESS;
}

static bool
keeps(const struct program_device *d, const char *name)
{
    for (const char *k = d->kernels; *k; k += strlen(k) + 1)
        if (strcmp(k, name) == 0)
            return true;
    return false;
}

/* Call with the lock held: which of the program's devices it was built for (malloc'd; NULL when out of
 * memory), asked of the driver once per call. */
static bool *
built_devices(const struct program *p)
{
    bool *on = calloc(p->device_count, sizeof(*on));
    for (size_t k = 0; on && k < p->device_count; k++)
        on[k] = built(p->handle, p->devices[k].device);
    return on;
}

/* Whether a device the program was built for lacks `name`. */
static bool
lacked(const struct program *p, const bool *built_on, const char *name)
{
    for (size_t k = 0; k < p->device_count; k++)
        if (built_on[k] && !keeps(&p->devices[k], name))
            return true;
    return false;
}

bool
layer_program_lacks(cl_program program, const char *name)
{
    bool lacks = false;
    pthread_mutex_lock(&lock);
    struct program *p = name ? find(program) : NULL;
    bool *built_on = p ? built_devices(p) : NULL;
    if (built_on)
        lacks = lacked(p, built_on, name);
    pthread_mutex_unlock(&lock);
    free(built_on);
    return lacks;
}

char *
layer_program_kernels(cl_program program, size_t *count)
{
    struct text names = {0};
    *count = 0;
    pthread_mutex_lock(&lock);
    struct program *p = find(program);
    bool *built_on = p ? built_devices(p) : NULL;
    size_t first = 0;
    while (built_on && first < p->device_count && !built_on[first])
        first++;
    if (built_on && first < p->device_count) {
        for (const char *k = p->devices[first].kernels; *k; k += strlen(k) + 1) {
            if (!lacked(p, built_on, k)) {
                text_add(&names, k, strlen(k) + 1);
                ++*count;
            }
        }
        text_add(&names, "", 1);
    }
    pthread_mutex_unlock(&lock);
    free(built_on);
    if (names.failed) {
        free(names.data);
        return NULL;
    }
    return names.data;
}

void
layer_program_release(cl_program program)
{
    pthread_mutex_lock(&lock);
    for (struct program **q = &programs; *q; q = &(*q)->next) {
        if ((*q)->handle != program)
            continue;
        cl_uint references = 0;
        if (layer_next.clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof(references), &references,
                                        NULL) == CL_SUCCESS &&
            references <= 1) {
            struct program *old = *q;
            *q = old->next;
            program_free(old);
        }
        break;
    }
    pthread_mutex_unlock(&lock);
}
