/* SPDX-License-Identifier: MIT */
/* What makes the layer's programs (docs/opencl-layer.md, "Program state"): clCreateProgramWithIL keeps the
 * application's IL; clBuildProgram specializes it for each device named (the specialization constants set
 * applied), puts it in the form the device's driver takes, and makes and builds the driver's program from
 * those forms; clCompileProgram makes a compiled object of the IL, and clLinkProgram links such objects and
 * libraries in SPIR-V, then builds the result as clBuildProgram does. The long work runs without the
 * objects' lock; what it made is put in place under it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_link.h"
#include "program.h"

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

/* Each device's facts (calloc'd); NULL with *why when a device cannot be read or has no route. */
static struct layer_device *
devices_facts(const cl_device_id *ids, size_t n, char *why, size_t why_size)
{
    struct layer_device *devs = calloc(n ? n : 1, sizeof(*devs));
    for (size_t k = 0; devs && k < n; k++) {
        if (!layer_device_query(ids[k], &devs[k]) || devs[k].route == LAYER_ROUTE_NONE) {
            if (devs[k].no_route[0])
                snprintf(why, why_size, "%s", devs[k].no_route);
            for (size_t j = 0; j <= k; j++)
                layer_device_free(&devs[j]);
            free(devs);
            return NULL;
        }
    }
    return devs;
}

cl_program CL_API_CALL
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
    char msg[1024] = "";
    struct layer_device *devs = devices_facts(ids, n, msg, sizeof(msg));
    free(ids);
    if (!devs) { /* a device the layer cannot read, or one without SPIR-V: the driver's own answer */
        if (msg[0])
            fprintf(stderr, "spvcond layer: clCreateProgramWithIL: %s\n", msg);
        return layer_next.clCreateProgramWithIL(context, il, length, errcode_ret);
    }
    bool all_il = true, mixed = false, conditional = false;
    for (size_t k = 0; k < n; k++) {
        all_il &= devs[k].route == LAYER_ROUTE_IL;
        mixed |= (devs[k].route == LAYER_ROUTE_IL) != (devs[0].route == LAYER_ROUTE_IL);
    }
    struct layer_program *p = NULL;
    cl_program program = NULL;
    if (!layer_module_check(il, length, &conditional, msg, sizeof(msg))) {
        *err = CL_INVALID_VALUE;
    } else if (all_il && !conditional) { /* a plain module for drivers that read SPIR-V: theirs alone */
        program = layer_next.clCreateProgramWithIL(context, il, length, err);
    } else if (mixed) {
        snprintf(msg, sizeof(msg), "some devices of the context read SPIR-V and others take it as a binary: "
                 "create the program for fewer devices");
        *err = CL_INVALID_OPERATION;
    } else if (!(p = layer_program_new(context, devs, n))) {
        devs = NULL; /* freed with the program that could not be made */
        *err = CL_OUT_OF_HOST_MEMORY;
    } else {
        devs = NULL;
        p->words = length / 4; /* the library read it: whole words */
        if (!(p->module = malloc(length))) {
            layer_program_drop(p);
            *err = CL_OUT_OF_HOST_MEMORY;
        } else {
            memcpy(p->module, il, length);
            program = (cl_program)p;
            *err = CL_SUCCESS;
        }
    }
    if (msg[0])
        fprintf(stderr, "spvcond layer: clCreateProgramWithIL: %s\n", msg);
    for (size_t k = 0; devs && k < n; k++)
        layer_device_free(&devs[k]);
    free(devs);
    return program;
}

/* ---- building ---- */

/* What one build makes, before it is put in place. */
struct build {
    size_t n;
    bool *target;               /* the devices this build is for */
    bool *held;                 /* the devices the new driver's program holds */
    struct layer_form *forms;
    char **failures;
    cl_program driver;
};

static void
build_free(struct build *b)
{
    for (size_t k = 0; k < b->n; k++) {
        if (b->forms)
            layer_form_free(&b->forms[k]);
        if (b->failures)
            free(b->failures[k]);
    }
    free(b->target);
    free(b->held);
    free(b->forms);
    free(b->failures);
}

/* Why the layer could not build for a device: said on standard error, and a copy for its build log (NULL
 * when out of memory: the log then lacks it). */
static char *
failure(const char *device, const char *msg)
{
    fprintf(stderr, "spvcond layer: %s: %s\n", device ? device : "?", msg);
    return strdup(msg);
}

/* The driver's program from the forms of the devices b->held marks: one IL for drivers that read it (the
 * same for every device), else each device's binary. */
static cl_int
driver_program(const struct layer_program *p, struct build *b, const struct layer_form *forms)
{
    size_t count = 0, first = SIZE_MAX;
    for (size_t k = 0; k < b->n; k++)
        if (b->held[k]) {
            count++;
            first = first == SIZE_MAX ? k : first;
        }
    if (!count)
        return CL_SUCCESS;
    cl_int err;
    if (p->devices[first].route == LAYER_ROUTE_IL) {
        for (size_t k = first + 1; k < b->n; k++)
            if (b->held[k] && (forms[k].size != forms[first].size ||
                               memcmp(forms[k].bytes, forms[first].bytes, forms[first].size) != 0)) {
                char why[512];
                snprintf(why, sizeof(why), "the devices need different modules (%s and %s), and a driver that "
                         "reads SPIR-V holds one: build the program for fewer devices",
                         p->devices[first].name ? p->devices[first].name : "?",
                         p->devices[k].name ? p->devices[k].name : "?");
                for (size_t j = 0; j < b->n; j++)
                    if (b->held[j] && b->target[j] && !b->failures[j])
                        b->failures[j] = failure(p->devices[j].name, why);
                return CL_BUILD_PROGRAM_FAILURE;
            }
        b->driver = layer_next.clCreateProgramWithIL(p->context, forms[first].bytes, forms[first].size, &err);
        return err;
    }
    cl_device_id *ids = calloc(count, sizeof(*ids));
    size_t *sizes = calloc(count, sizeof(*sizes));
    const unsigned char **bytes = calloc(count, sizeof(*bytes));
    err = ids && sizes && bytes ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (size_t k = 0, j = 0; err == CL_SUCCESS && k < b->n; k++)
        if (b->held[k]) {
            ids[j] = p->per[k].id;
            sizes[j] = forms[k].size;
            bytes[j++] = forms[k].bytes;
        }
    if (err == CL_SUCCESS)
        b->driver = layer_next.clCreateProgramWithBinary(p->context, (cl_uint)count, ids, sizes, bytes, NULL, &err);
    free(ids);
    free(sizes);
    free(bytes);
    return err;
}

/* Builds the program for the devices b->target marks, with `options`: each device's form (or why there is
 * none), then the driver's program of these and of the devices built before, built with the options. The
 * program is busy meanwhile; b is put in place by the caller. */
/* What the build options ask of the arithmetic that the driver's own compiler would heed (LAYER_CORRECTLY_...). */
static unsigned
arithmetic_asked(const char *options)
{
    static const char correctly_rounded[] = "-cl-fp32-correctly-rounded-divide-sqrt";
    unsigned asked = 0;
    for (const char *at = options; at && (at = strstr(at, correctly_rounded)) != NULL; at += sizeof(correctly_rounded) - 1) {
        char after = at[sizeof(correctly_rounded) - 1];
        if ((at == options || isspace((unsigned char)at[-1])) && (after == '\0' || isspace((unsigned char)after)))
            asked |= LAYER_CORRECTLY_ROUNDED_DIVIDE;
    }
    return asked;
}

static cl_int
build_devices(struct layer_program *p, struct build *b, const char *options)
{
    layer_objects_lock();
    size_t nv = p->value_count;
    spvcond_spec_value *values = nv ? malloc(nv * sizeof(*values)) : NULL;
    if (values)
        memcpy(values, p->values, nv * sizeof(*values));
    /* the devices built before keep their forms in the new driver's program */
    for (size_t k = 0; k < b->n; k++)
        b->held[k] = !b->target[k] && p->per[k].in_driver && p->per[k].form.bytes;
    layer_objects_unlock();
    if (nv && !values)
        return CL_OUT_OF_HOST_MEMORY;
    struct layer_form_source src;
    layer_form_source_init(&src, p->module, p->words * 4, values, nv, arithmetic_asked(options), layer_dump_program());
    cl_int err = CL_SUCCESS;
    for (size_t k = 0; k < b->n; k++) {
        if (!b->target[k])
            continue;
        char msg[1024] = "";
        if (layer_device_form(&src, &p->devices[k], k, &b->forms[k], msg, sizeof(msg)))
            b->held[k] = true;
        else
            b->failures[k] = failure(p->devices[k].name, msg);
    }
    free(values);
    /* the new driver's program: this build's forms, and the others' as they were */
    struct layer_form *forms = calloc(b->n ? b->n : 1, sizeof(*forms));
    if (!forms)
        return CL_OUT_OF_HOST_MEMORY;
    layer_objects_lock();
    for (size_t k = 0; k < b->n; k++)
        forms[k] = b->target[k] ? b->forms[k] : p->per[k].form;
    layer_objects_unlock();
    err = driver_program(p, b, forms);
    free(forms);
    if (err != CL_SUCCESS && err != CL_BUILD_PROGRAM_FAILURE) {
        char why[96];
        snprintf(why, sizeof(why), "the driver refused the program (OpenCL error %d)", err);
        for (size_t k = 0; k < b->n; k++)
            if (b->target[k] && !b->failures[k])
                b->failures[k] = failure(p->devices[k].name, why);
        memset(b->held, 0, b->n * sizeof(*b->held));
        err = CL_BUILD_PROGRAM_FAILURE;
    }
    if (b->driver) {
        size_t count = 0;
        cl_device_id *ids = calloc(b->n ? b->n : 1, sizeof(*ids));
        for (size_t k = 0; ids && k < b->n; k++)
            if (b->held[k])
                ids[count++] = p->per[k].id;
        cl_int built = ids ? layer_next.clBuildProgram(b->driver, (cl_uint)count, ids, options, NULL, NULL)
                           : CL_OUT_OF_HOST_MEMORY;
        free(ids);
        if (built != CL_SUCCESS)
            err = built;
    }
    for (size_t k = 0; k < b->n && err == CL_SUCCESS; k++)
        if (b->target[k] && b->failures[k])
            err = CL_BUILD_PROGRAM_FAILURE;
    return err;
}

/* Puts what a build made in place (under the lock) and releases what it replaced. */
static void
build_commit(struct layer_program *p, struct build *b, const char *options, cl_int err)
{
    layer_objects_lock();
    cl_program old = p->driver;
    p->driver = b->driver;
    for (size_t k = 0; k < b->n; k++) {
        struct program_device *d = &p->per[k];
        d->in_driver = b->held[k] && b->driver;
        if (!b->target[k])
            continue;
        layer_form_free(&d->form);
        d->form = b->forms[k];
        b->forms[k] = (struct layer_form){0};
        free(d->failure);
        d->failure = b->failures[k];
        b->failures[k] = NULL;
        char *copy = strdup(options ? options : "");
        if (copy) {
            free(d->options);
            d->options = copy;
        }
        cl_build_status status = CL_BUILD_ERROR;
        if (d->in_driver)
            layer_next.clGetProgramBuildInfo(p->driver, d->id, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status,
                                             NULL);
        d->status = d->failure || err == CL_OUT_OF_HOST_MEMORY ? CL_BUILD_ERROR : status;
        d->type = d->status == CL_BUILD_SUCCESS ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
    }
    p->busy = false;
    layer_objects_unlock();
    if (old)
        layer_next.clReleaseProgram(old);
}

/* The devices a build, compile or link names, as marks over the program's (malloc'd into *target); an error
 * when one is not the program's. */
static cl_int
targets(const struct layer_program *p, cl_uint num_devices, const cl_device_id *device_list, bool **target)
{
    *target = calloc(p->device_count ? p->device_count : 1, sizeof(**target));
    if (!*target)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t k = 0; k < p->device_count; k++)
        (*target)[k] = !device_list;
    for (cl_uint j = 0; device_list && j < num_devices; j++) {
        size_t k = layer_program_device_index(p, device_list[j]);
        if (k == SIZE_MAX)
            return CL_INVALID_DEVICE;
        (*target)[k] = true;
    }
    return CL_SUCCESS;
}

/* With the lock held: whether the program can start a build, compile or link now; marks it busy if so. */
static cl_int
start(struct layer_program *p, const bool *target)
{
    if (p->busy || p->kernels) /* kernels are attached, or another thread builds it */
        return CL_INVALID_OPERATION;
    p->busy = true;
    for (size_t k = 0; k < p->device_count; k++)
        if (target[k])
            p->per[k].status = CL_BUILD_IN_PROGRESS;
    return CL_SUCCESS;
}

/* Builds p (busy, `target` marked, which it frees) for its targets: the build's result. */
static cl_int
build(struct layer_program *p, bool *target, const char *options)
{
    size_t n = p->device_count ? p->device_count : 1;
    struct build b = {p->device_count, target, calloc(n, sizeof(bool)), calloc(n, sizeof(struct layer_form)),
                      calloc(n, sizeof(char *)), NULL};
    cl_int err = b.held && b.forms && b.failures ? build_devices(p, &b, options) : CL_OUT_OF_HOST_MEMORY;
    if (!b.held || !b.forms || !b.failures) {
        build_free(&b);
        layer_objects_lock();
        for (size_t k = 0; k < p->device_count; k++)
            if (target[k])
                p->per[k].status = CL_BUILD_ERROR;
        p->busy = false;
        layer_objects_unlock();
        return err;
    }
    build_commit(p, &b, options, err);
    build_free(&b); /* frees target */
    return err;
}

cl_int CL_API_CALL
layer_build_program(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    if (!p) {
        layer_objects_unlock();
        return layer_next.clBuildProgram(program, num_devices, device_list, options, pfn_notify, user_data);
    }
    bool *target = NULL;
    cl_int err = (num_devices == 0) != (device_list == NULL) || (!pfn_notify && user_data) ? CL_INVALID_VALUE
                 : p->linked ? CL_INVALID_OPERATION /* not made from IL, source or binaries */
                             : targets(p, num_devices, device_list, &target);
    if (err == CL_SUCCESS)
        err = start(p, target);
    layer_objects_unlock();
    if (err != CL_SUCCESS) {
        free(target);
        return err;
    }
    err = build(p, target, options);
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

/* ---- compile and link ---- */

/* Whether any of the programs is the layer's; *all: whether all are. */
static bool
any_ours(cl_uint n, const cl_program *list, bool *all)
{
    bool any = false;
    *all = n > 0;
    layer_objects_lock();
    for (cl_uint k = 0; list && k < n; k++) {
        bool ours = layer_program_find(list[k]) != NULL;
        any |= ours;
        *all &= ours;
    }
    layer_objects_unlock();
    return any;
}

cl_int CL_API_CALL
layer_compile_program(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                      cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
                      void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    bool all;
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    layer_objects_unlock();
    if (!p) {
        if (any_ours(num_input_headers, input_headers, &all)) { /* the driver cannot read the layer's programs */
            fprintf(stderr, "spvcond layer: clCompileProgram: a program from IL cannot be a header of OpenCL C\n");
            return CL_INVALID_OPERATION;
        }
        return layer_next.clCompileProgram(program, num_devices, device_list, options, num_input_headers,
                                           input_headers, header_include_names, pfn_notify, user_data);
    }
    bool *target = NULL;
    layer_objects_lock();
    cl_int err = (num_devices == 0) != (device_list == NULL) || (num_input_headers == 0) != (input_headers == NULL) ||
                         (input_headers && !header_include_names) || (!pfn_notify && user_data)
                     ? CL_INVALID_VALUE
                 : p->linked ? CL_INVALID_OPERATION /* no IL to compile */
                             : targets(p, num_devices, device_list, &target);
    if (err == CL_SUCCESS)
        err = start(p, target);
    cl_program old = NULL;
    if (err == CL_SUCCESS) { /* headers have nothing to give SPIR-V: the object is the IL, linked later */
        bool held = false;
        for (size_t k = 0; k < p->device_count; k++) {
            struct program_device *d = &p->per[k];
            if (target[k]) {
                char *copy = strdup(options ? options : "");
                if (copy) {
                    free(d->options);
                    d->options = copy;
                }
                d->status = CL_BUILD_SUCCESS;
                d->type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
                d->in_driver = false;
                free(d->failure);
                d->failure = NULL;
                layer_form_free(&d->form);
            }
            held |= d->in_driver;
        }
        if (!held) {
            old = p->driver;
            p->driver = NULL;
        }
        p->busy = false;
    }
    layer_objects_unlock();
    free(target);
    if (old)
        layer_next.clReleaseProgram(old);
    if (err == CL_SUCCESS && pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

/* Link options: -create-library is the layer's to act on, -enable-link-options needs nothing; the rest go to
 * the driver's build. *rest is malloc'd. */
static bool
link_options(const char *options, bool *library, char **rest)
{
    const char *s = options ? options : "";
    *library = false;
    *rest = calloc(strlen(s) + 1, 1);
    if (!*rest)
        return false;
    while (*s) {
        size_t skip = strspn(s, " \t\n"), n = strcspn(s + skip, " \t\n");
        const char *word = s + skip;
        if (n == strlen("-create-library") && !strncmp(word, "-create-library", n))
            *library = true;
        else if (n && !(n == strlen("-enable-link-options") && !strncmp(word, "-enable-link-options", n)))
            strncat(strcat(*rest, **rest ? " " : ""), word, n);
        s = word + n;
    }
    return true;
}

/* Each input's module as it is linked (compiled objects with their specialization constants as defaults;
 * *owned marks the copies, to free). */
static cl_int
inputs_modules(cl_uint n, const cl_program *inputs, const uint32_t **modules, size_t *counts, bool *owned)
{
    cl_int err = CL_SUCCESS;
    layer_objects_lock();
    for (cl_uint k = 0; k < n && err == CL_SUCCESS; k++) {
        struct layer_program *p = layer_program_find(inputs[k]);
        modules[k] = p->module;
        counts[k] = p->words;
        if (!p->linked && p->value_count) {
            uint32_t *copy = layer_spec_defaults(p->module, p->words, p->specs, p->spec_count, p->values,
                                                 p->value_count);
            modules[k] = copy;
            owned[k] = copy != NULL;
            err = copy ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        }
    }
    layer_objects_unlock();
    return err;
}

/* The inputs can be linked for the devices: each of the context, and a compiled object or a library on every
 * device linked for. */
static cl_int
inputs_ready(cl_context context, cl_uint n, const cl_program *inputs, const cl_device_id *ids, size_t count)
{
    cl_int err = CL_SUCCESS;
    layer_objects_lock();
    for (cl_uint k = 0; k < n && err == CL_SUCCESS; k++) {
        struct layer_program *p = layer_program_find(inputs[k]);
        if (p->context != context)
            err = CL_INVALID_CONTEXT;
        for (size_t j = 0; j < count && err == CL_SUCCESS; j++) {
            size_t d = layer_program_device_index(p, ids[j]);
            if (d == SIZE_MAX)
                err = CL_INVALID_DEVICE;
            else if (p->busy || (p->per[d].type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                                 p->per[d].type != CL_PROGRAM_BINARY_TYPE_LIBRARY))
                err = CL_INVALID_OPERATION;
        }
    }
    layer_objects_unlock();
    return err;
}

/* The inputs' modules linked (malloc'd *out); a single module is taken as it is (linking it alone resolves
 * nothing, and a module with SPV_INTEL_function_variants, which Debian's linker cannot read, links so).
 * Imports that no input exports are left to the driver, whose built-ins they may be. */
static bool
link_modules(cl_uint n, const cl_program *inputs, bool library, uint32_t **out, size_t *words, cl_int *err,
             char *msg, size_t msg_size)
{
    const uint32_t **modules = calloc(n, sizeof(*modules));
    size_t *counts = calloc(n, sizeof(*counts));
    bool *owned = calloc(n, sizeof(*owned));
    *err = modules && counts && owned ? inputs_modules(n, inputs, modules, counts, owned) : CL_OUT_OF_HOST_MEMORY;
    bool ok = false;
    if (*err == CL_SUCCESS && n == 1) {
        ok = (*out = malloc(counts[0] * 4)) != NULL;
        if (ok) {
            memcpy(*out, modules[0], counts[0] * 4);
            *words = counts[0];
        }
        *err = ok ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    } else if (*err == CL_SUCCESS) {
        ok = layer_link_spirv(modules, counts, n, library, out, words, msg, msg_size);
    }
    for (cl_uint k = 0; owned && k < n; k++)
        if (owned[k])
            free((void *)modules[k]);
    free(modules);
    free(counts);
    free(owned);
    return ok;
}

cl_program CL_API_CALL
layer_link_program(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                   cl_uint num_input_programs, const cl_program *input_programs,
                   void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, cl_int *errcode_ret)
{
    cl_int err_local;
    cl_int *err = errcode_ret ? errcode_ret : &err_local;
    bool all;
    if (!any_ours(num_input_programs, input_programs, &all))
        return layer_next.clLinkProgram(context, num_devices, device_list, options, num_input_programs,
                                        input_programs, pfn_notify, user_data, errcode_ret);
    if (!all) {
        fprintf(stderr, "spvcond layer: clLinkProgram: programs from IL link only with programs from IL\n");
        *err = CL_INVALID_OPERATION;
        return NULL;
    }
    if ((num_devices == 0) != (device_list == NULL) || (!pfn_notify && user_data)) {
        *err = CL_INVALID_VALUE;
        return NULL;
    }
    size_t n = num_devices;
    cl_device_id *ids = NULL;
    if (device_list && (ids = calloc(n, sizeof(*ids))))
        memcpy(ids, device_list, n * sizeof(*ids));
    else if (!device_list)
        ids = context_devices(context, &n, err);
    if (!ids) {
        *err = device_list ? CL_OUT_OF_HOST_MEMORY : *err;
        return NULL;
    }
    bool library;
    char *rest = NULL, msg[1024] = "";
    uint32_t *module = NULL;
    size_t words = 0;
    struct layer_device *devs = NULL;
    struct layer_program *p = NULL;
    *err = inputs_ready(context, num_input_programs, input_programs, ids, n);
    if (*err == CL_SUCCESS && !link_options(options, &library, &rest))
        *err = CL_OUT_OF_HOST_MEMORY;
    if (*err == CL_SUCCESS && !(devs = devices_facts(ids, n, msg, sizeof(msg))))
        *err = CL_INVALID_DEVICE;
    if (*err == CL_SUCCESS && !(p = layer_program_new(context, devs, n)))
        *err = CL_OUT_OF_HOST_MEMORY;
    free(ids);
    if (*err != CL_SUCCESS) {
        free(rest);
        return NULL;
    }
    p->linked = true;
    bool linked = link_modules(num_input_programs, input_programs, library, &module, &words, err, msg, sizeof(msg));
    p->module = module;
    p->words = words;
    if (*err != CL_SUCCESS) { /* out of memory */
        layer_program_drop(p);
        free(rest);
        return NULL;
    }
    bool *target = calloc(n ? n : 1, sizeof(*target));
    for (size_t k = 0; target && k < n; k++)
        target[k] = true;
    if (!linked || library || !target) {
        layer_objects_lock();
        for (size_t k = 0; k < n; k++) {
            struct program_device *d = &p->per[k];
            char *copy = strdup(options ? options : "");
            if (copy) {
                free(d->options);
                d->options = copy;
            }
            d->status = linked && target ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
            d->type = linked && target ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_NONE;
            if (!linked)
                d->failure = failure(p->devices[k].name, msg);
        }
        layer_objects_unlock();
        *err = !target ? CL_OUT_OF_HOST_MEMORY : linked ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
        free(target);
    } else {
        p->busy = true;
        *err = build(p, target, rest);
        *err = *err == CL_BUILD_PROGRAM_FAILURE ? CL_LINK_PROGRAM_FAILURE
               : *err == CL_INVALID_BUILD_OPTIONS ? CL_INVALID_LINKER_OPTIONS : *err;
        layer_objects_lock();
        for (size_t k = 0; k < n; k++) { /* the options the application linked with */
            char *copy = strdup(options ? options : "");
            if (copy) {
                free(p->per[k].options);
                p->per[k].options = copy;
            }
        }
        layer_objects_unlock();
    }
    free(rest);
    if (*err != CL_SUCCESS && *err != CL_LINK_PROGRAM_FAILURE) {
        layer_program_drop(p);
        return NULL;
    }
    if (pfn_notify)
        pfn_notify((cl_program)p, user_data);
    return (cl_program)p;
}
