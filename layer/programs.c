/* SPDX-License-Identifier: MIT */
/* The programs the layer owns and the kernels made from them (docs/opencl-layer.md, "Program state" and
 * "Object lifetime"). A program from IL is the layer's own object, whose handle the driver never sees; every
 * call that takes a program answers for it here, the driver's program (made by a build) standing behind it.
 * Lifetimes are counted as the Khronos object-lifetime layer counts them: the application's references, and
 * the kernels, each of which holds its program; a program goes when both are gone, and its driver's program
 * and context with it. A driver kernel's handle that a creation gives again while still on record means the
 * driver freed the old one: that record goes first. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct layer_map programs; /* handle -> struct layer_program */
static struct layer_map kernels;  /* the driver's kernel -> struct kernel_record */

/* A kernel the application holds, made from one of the layer's programs. */
struct kernel_record {
    struct layer_program *program;
    cl_uint refs;
};

void
layer_objects_lock(void)
{
    pthread_mutex_lock(&lock);
}

void
layer_objects_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

struct layer_program *
layer_program_find(cl_program handle)
{
    return layer_map_get(&programs, handle);
}

size_t
layer_program_device_index(const struct layer_program *p, cl_device_id device)
{
    for (size_t k = 0; k < p->device_count; k++)
        if (p->per[k].id == device)
            return k;
    return SIZE_MAX;
}

struct layer_program *
layer_program_new(cl_context context, struct layer_device *devices, size_t count)
{
    struct layer_program *p = calloc(1, sizeof(*p));
    struct program_device *per = calloc(count ? count : 1, sizeof(*per));
    bool ok = p && per;
    for (size_t k = 0; ok && k < count; k++) {
        per[k] = (struct program_device){devices[k].id, CL_BUILD_NONE, CL_PROGRAM_BINARY_TYPE_NONE, strdup(""),
                                         {0}, NULL, false};
        ok = per[k].options != NULL;
    }
    if (ok) {
        *p = (struct layer_program){.dispatch = &layer_own, .refs = 1, .context = context, .device_count = count,
                                    .devices = devices, .per = per};
        layer_objects_lock();
        ok = layer_map_put(&programs, p, p);
        layer_objects_unlock();
    }
    if (!ok) {
        for (size_t k = 0; per && k < count; k++)
            free(per[k].options);
        for (size_t k = 0; k < count; k++)
            layer_device_free(&devices[k]);
        free(devices);
        free(per);
        free(p);
        return NULL;
    }
    layer_next.clRetainContext(context);
    return p;
}

/* Frees what is left of a program no one holds (called without the lock): the application's release
 * callbacks first, last registered first, then the driver's program and the context. */
static void
program_free(struct layer_program *p)
{
    for (size_t k = p->callback_count; k-- > 0;)
        p->callbacks[k].fn((cl_program)p, p->callbacks[k].user);
    if (p->driver)
        layer_next.clReleaseProgram(p->driver);
    layer_next.clReleaseContext(p->context);
    for (size_t k = 0; k < p->device_count; k++) {
        free(p->per[k].options);
        free(p->per[k].failure);
        layer_form_free(&p->per[k].form);
        layer_device_free(&p->devices[k]);
    }
    free(p->per);
    free(p->devices);
    free(p->module);
    free(p->specs);
    free(p->values);
    free(p->callbacks);
    free(p);
}

/* With the lock held: whether nothing holds the program any more (then it is off the record, to be freed). */
static bool
unheld(struct layer_program *p)
{
    if (p->refs || p->kernels)
        return false;
    layer_map_remove(&programs, p);
    return true;
}

void
layer_program_drop(struct layer_program *p)
{
    layer_objects_lock();
    p->refs = 0;
    bool gone = unheld(p);
    layer_objects_unlock();
    if (gone)
        program_free(p);
}

/* ---- references ---- */

cl_int CL_API_CALL
layer_retain_program(cl_program program)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    cl_int err = p && p->refs ? CL_SUCCESS : CL_INVALID_PROGRAM;
    if (p && p->refs)
        p->refs++;
    layer_objects_unlock();
    return p ? err : layer_next.clRetainProgram(program);
}

cl_int CL_API_CALL
layer_release_program(cl_program program)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    cl_int err = p && p->refs ? CL_SUCCESS : CL_INVALID_PROGRAM;
    bool gone = false;
    if (p && p->refs) {
        p->refs--;
        gone = unheld(p);
    }
    layer_objects_unlock();
    if (!p)
        return layer_next.clReleaseProgram(program);
    if (gone)
        program_free(p);
    return err;
}

cl_int CL_API_CALL
layer_set_program_release_callback(cl_program program, void(CL_CALLBACK *fn)(cl_program, void *), void *user)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    cl_int err = CL_SUCCESS;
    if (p && !fn) {
        err = CL_INVALID_VALUE;
    } else if (p) {
        struct release_callback *more = realloc(p->callbacks, (p->callback_count + 1) * sizeof(*more));
        if (more) {
            p->callbacks = more;
            p->callbacks[p->callback_count++] = (struct release_callback){fn, user};
        }
        err = more ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    layer_objects_unlock();
    if (p)
        return err;
    return layer_next.clSetProgramReleaseCallback ? layer_next.clSetProgramReleaseCallback(program, fn, user)
                                                  : CL_INVALID_OPERATION;
}

/* ---- specialization constants ---- */

cl_int CL_API_CALL
layer_set_program_specialization_constant(cl_program program, cl_uint spec_id, size_t spec_size,
                                          const void *spec_value)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    if (!p) {
        layer_objects_unlock();
        return layer_next.clSetProgramSpecializationConstant
                   ? layer_next.clSetProgramSpecializationConstant(program, spec_id, spec_size, spec_value)
                   : CL_INVALID_OPERATION;
    }
    cl_int err = CL_SUCCESS;
    if (p->linked) {
        err = CL_INVALID_PROGRAM; /* not a program created from IL */
    } else if (!p->specs_read) {
        if (layer_spec_constants(p->module, p->words, &p->specs, &p->spec_count))
            p->specs_read = true;
        else
            err = CL_OUT_OF_HOST_MEMORY;
    }
    const struct layer_spec_constant *c = NULL;
    for (size_t k = 0; err == CL_SUCCESS && k < p->spec_count && !c; k++)
        c = p->specs[k].spec_id == spec_id ? &p->specs[k] : NULL;
    if (err == CL_SUCCESS && !c)
        err = CL_INVALID_SPEC_ID;
    else if (err == CL_SUCCESS && (!spec_value || spec_size != c->size))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS) {
        uint64_t value = 0;
        memcpy(&value, spec_value, spec_size); /* the host's order, little-endian here as SPIR-V's words */
        size_t k = 0;
        while (k < p->value_count && p->values[k].spec_id != spec_id)
            k++;
        if (k == p->value_count) {
            spvcond_spec_value *more = realloc(p->values, (k + 1) * sizeof(*more));
            if (more) {
                p->values = more;
                p->value_count++;
            } else {
                err = CL_OUT_OF_HOST_MEMORY;
            }
        }
        if (err == CL_SUCCESS)
            p->values[k] = (spvcond_spec_value){spec_id, value, false};
    }
    layer_objects_unlock();
    return err;
}

/* ---- queries ---- */

/* With the lock held: device k's build status, the driver's once its program holds the device. */
static cl_build_status
status_of(const struct layer_program *p, size_t k)
{
    cl_build_status status = p->per[k].status;
    if (p->busy && status == CL_BUILD_IN_PROGRESS)
        return status;
    if (p->per[k].in_driver && p->driver &&
        layer_next.clGetProgramBuildInfo(p->driver, p->per[k].id, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status,
                                         NULL) != CL_SUCCESS)
        status = CL_BUILD_ERROR;
    return status;
}

/* With the lock held: which devices have an executable (malloc'd; NULL when out of memory); *any: whether
 * one has. */
static bool *
executable_on(const struct layer_program *p, bool *any)
{
    bool *on = calloc(p->device_count ? p->device_count : 1, sizeof(*on));
    *any = false;
    for (size_t k = 0; on && k < p->device_count; k++) {
        on[k] = p->per[k].in_driver && p->driver && p->per[k].type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
                status_of(p, k) == CL_BUILD_SUCCESS;
        *any |= on[k];
    }
    return on;
}

static bool
keeps(const struct program_device *d, const char *name)
{
    for (const char *k = d->form.kernels; k && *k; k += strlen(k) + 1)
        if (strcmp(k, name) == 0)
            return true;
    return false;
}

/* Whether a device with an executable lacks `name`: a kernel is the program's on every device it was built
 * for, so it exists only where every such device keeps it. */
static bool
lacked(const struct layer_program *p, const bool *on, const char *name)
{
    for (size_t k = 0; k < p->device_count; k++)
        if (on[k] && !keeps(&p->per[k], name))
            return true;
    return false;
}

/* With the lock held: the kernels of the program ('\0'-separated, in module order, then an empty name;
 * malloc'd), or NULL with *err: CL_INVALID_PROGRAM_EXECUTABLE when no device has an executable. */
static char *
kernel_names(const struct layer_program *p, size_t *count, cl_int *err)
{
    bool any;
    bool *on = executable_on(p, &any);
    struct layer_text names = {0};
    *count = 0;
    *err = !on ? CL_OUT_OF_HOST_MEMORY : any ? CL_SUCCESS : CL_INVALID_PROGRAM_EXECUTABLE;
    size_t first = 0;
    while (on && any && !on[first])
        first++;
    for (const char *k = on && any ? p->per[first].form.kernels : NULL; k && *k; k += strlen(k) + 1) {
        if (!lacked(p, on, k)) {
            layer_text_add(&names, k, strlen(k) + 1);
            ++*count;
        }
    }
    if (*err == CL_SUCCESS)
        layer_text_add(&names, "", 1);
    free(on);
    if (*err == CL_SUCCESS && names.failed)
        *err = CL_OUT_OF_HOST_MEMORY;
    if (*err != CL_SUCCESS) {
        free(names.data);
        return NULL;
    }
    return names.data;
}

/* CL_PROGRAM_BINARY_SIZES and CL_PROGRAM_BINARIES: the driver's, for the devices its program holds; nothing
 * (size 0) for the others. */
static cl_int
binaries(const struct layer_program *p, cl_program_info param, size_t value_size, void *value, size_t *size_ret)
{
    size_t item = param == CL_PROGRAM_BINARY_SIZES ? sizeof(size_t) : sizeof(unsigned char *);
    size_t size = p->device_count * item;
    if (value && value_size < size)
        return CL_INVALID_VALUE;
    if (size_ret)
        *size_ret = size;
    if (!value)
        return CL_SUCCESS;
    if (param == CL_PROGRAM_BINARY_SIZES)
        memset(value, 0, size);
    cl_uint n = 0;
    if (!p->driver ||
        layer_next.clGetProgramInfo(p->driver, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n, NULL) != CL_SUCCESS || !n)
        return CL_SUCCESS;
    cl_device_id *ids = calloc(n, sizeof(*ids));
    void **theirs = calloc(n, sizeof(void *) > sizeof(size_t) ? sizeof(void *) : sizeof(size_t));
    cl_int err = ids && theirs ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = layer_next.clGetProgramInfo(p->driver, CL_PROGRAM_DEVICES, n * sizeof(*ids), ids, NULL);
    if (err == CL_SUCCESS && param == CL_PROGRAM_BINARY_SIZES) {
        size_t *sizes = (size_t *)theirs;
        err = layer_next.clGetProgramInfo(p->driver, param, n * sizeof(size_t), sizes, NULL);
        for (cl_uint j = 0; err == CL_SUCCESS && j < n; j++) {
            size_t k = layer_program_device_index(p, ids[j]);
            if (k != SIZE_MAX)
                ((size_t *)value)[k] = sizes[j];
        }
    } else if (err == CL_SUCCESS) {
        for (cl_uint j = 0; j < n; j++) {
            size_t k = layer_program_device_index(p, ids[j]);
            theirs[j] = k != SIZE_MAX ? ((unsigned char **)value)[k] : NULL;
        }
        err = layer_next.clGetProgramInfo(p->driver, param, n * sizeof(void *), theirs, NULL);
    }
    free(ids);
    free(theirs);
    return err;
}

cl_int CL_API_CALL
layer_get_program_info(cl_program program, cl_program_info param, size_t value_size, void *value, size_t *size_ret)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    if (!p) {
        layer_objects_unlock();
        return layer_next.clGetProgramInfo(program, param, value_size, value, size_ret);
    }
    cl_int err;
    cl_uint n = (cl_uint)p->device_count;
    cl_bool no = CL_FALSE;
    switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT:
        err = layer_answer(&p->refs, sizeof(p->refs), value_size, value, size_ret);
        break;
    case CL_PROGRAM_CONTEXT:
        err = layer_answer(&p->context, sizeof(p->context), value_size, value, size_ret);
        break;
    case CL_PROGRAM_NUM_DEVICES:
        err = layer_answer(&n, sizeof(n), value_size, value, size_ret);
        break;
    case CL_PROGRAM_DEVICES: {
        cl_device_id *ids = calloc(n ? n : 1, sizeof(*ids));
        for (size_t k = 0; ids && k < n; k++)
            ids[k] = p->per[k].id;
        err = ids ? layer_answer(ids, n * sizeof(*ids), value_size, value, size_ret) : CL_OUT_OF_HOST_MEMORY;
        free(ids);
        break;
    }
    case CL_PROGRAM_SOURCE:
        err = layer_answer("", 1, value_size, value, size_ret);
        break;
    case CL_PROGRAM_IL: /* the IL as the application gave it; nothing for a program clLinkProgram made */
        err = layer_answer(p->module, p->linked ? 0 : p->words * 4, value_size, value, size_ret);
        break;
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES:
        err = binaries(p, param, value_size, value, size_ret);
        break;
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
        size_t count;
        char *names = kernel_names(p, &count, &err);
        if (names && param == CL_PROGRAM_NUM_KERNELS) {
            err = layer_answer(&count, sizeof(count), value_size, value, size_ret);
        } else if (names) { /* "a;b;c" */
            size_t length = 0;
            for (char *k = names; *k;) {
                size_t len = strlen(k);
                length += len + 1;
                if (k[len + 1])
                    k[len] = ';';
                k += len + 1;
            }
            err = layer_answer(names, length ? length : 1, value_size, value, size_ret);
        }
        free(names);
        break;
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        err = layer_answer(&no, sizeof(no), value_size, value, size_ret);
        break;
    default:
        err = CL_INVALID_VALUE;
    }
    layer_objects_unlock();
    return err;
}

/* The layer's lines of a device's build log, then the driver's. */
static cl_int
build_log(const struct layer_program *p, size_t k, size_t value_size, void *value, size_t *size_ret)
{
    struct layer_text log = {0};
    const struct program_device *d = &p->per[k];
    layer_text_add(&log, "", 0);
    if (d->form.log)
        layer_text_add(&log, d->form.log, strlen(d->form.log));
    if (d->failure)
        layer_text_printf(&log, "spvcond: %s\n", d->failure);
    size_t size = 0;
    if (d->in_driver && p->driver &&
        layer_next.clGetProgramBuildInfo(p->driver, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS &&
        size > 1) {
        char *theirs = calloc(size + 1, 1);
        if (theirs && layer_next.clGetProgramBuildInfo(p->driver, d->id, CL_PROGRAM_BUILD_LOG, size, theirs, NULL) ==
                          CL_SUCCESS)
            layer_text_add(&log, theirs, strlen(theirs));
        log.failed |= !theirs;
        free(theirs);
    }
    cl_int err = log.failed ? CL_OUT_OF_HOST_MEMORY : layer_answer(log.data, log.length + 1, value_size, value, size_ret);
    free(log.data);
    return err;
}

cl_int CL_API_CALL
layer_get_program_build_info(cl_program program, cl_device_id device, cl_program_build_info param, size_t value_size,
                             void *value, size_t *size_ret)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    if (!p) {
        layer_objects_unlock();
        return layer_next.clGetProgramBuildInfo(program, device, param, value_size, value, size_ret);
    }
    size_t k = layer_program_device_index(p, device);
    cl_int err = CL_INVALID_DEVICE;
    if (k != SIZE_MAX) {
        const struct program_device *d = &p->per[k];
        size_t none = 0;
        cl_build_status status;
        switch (param) {
        case CL_PROGRAM_BUILD_STATUS:
            status = status_of(p, k);
            err = layer_answer(&status, sizeof(status), value_size, value, size_ret);
            break;
        case CL_PROGRAM_BUILD_OPTIONS:
            err = layer_answer(d->options, strlen(d->options) + 1, value_size, value, size_ret);
            break;
        case CL_PROGRAM_BUILD_LOG:
            err = build_log(p, k, value_size, value, size_ret);
            break;
        case CL_PROGRAM_BINARY_TYPE:
            err = layer_answer(&d->type, sizeof(d->type), value_size, value, size_ret);
            break;
        default: /* CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE and what a driver adds: the driver's program */
            if (d->in_driver && p->driver)
                err = layer_next.clGetProgramBuildInfo(p->driver, device, param, value_size, value, size_ret);
            else if (param == CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE)
                err = layer_answer(&none, sizeof(none), value_size, value, size_ret);
            else
                err = CL_INVALID_VALUE;
        }
    }
    layer_objects_unlock();
    return err;
}

/* ---- kernels ---- */

/* With the lock held: the kernel is the application's, made from p (which the caller counted already).
 * A handle still on record was freed by the driver unseen: its record goes (and its program, if that was
 * all that held it, into *gone). False when out of memory. */
static bool
track(cl_kernel kernel, struct layer_program *p, struct layer_program **gone)
{
    struct kernel_record *r = malloc(sizeof(*r));
    *gone = NULL;
    if (!r)
        return false;
    *r = (struct kernel_record){p, 1};
    struct kernel_record *stale = layer_map_remove(&kernels, kernel);
    if (stale) {
        stale->program->kernels--;
        *gone = unheld(stale->program) ? stale->program : NULL;
        free(stale);
    }
    if (!layer_map_put(&kernels, kernel, r)) {
        free(r);
        return false;
    }
    return true;
}

/* With the lock held: a kernel the program counted but does not hold after all. */
static bool
uncount(struct layer_program *p)
{
    p->kernels--;
    return unheld(p);
}

/* A kernel of the driver's program on record, or released when it cannot be. */
static cl_kernel
kept(cl_kernel kernel, struct layer_program *p, cl_int *err)
{
    struct layer_program *gone = NULL, *stale = NULL;
    layer_objects_lock();
    bool tracked = kernel && track(kernel, p, &stale);
    if (!tracked && uncount(p))
        gone = p;
    layer_objects_unlock();
    if (stale)
        program_free(stale);
    if (kernel && !tracked) {
        layer_next.clReleaseKernel(kernel);
        *err = CL_OUT_OF_HOST_MEMORY;
        kernel = NULL;
    }
    if (gone)
        program_free(gone);
    return kernel;
}

cl_kernel CL_API_CALL
layer_create_kernel(cl_program program, const char *name, cl_int *errcode_ret)
{
    cl_int local;
    cl_int *err = errcode_ret ? errcode_ret : &local;
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    if (!p) {
        layer_objects_unlock();
        return layer_next.clCreateKernel(program, name, errcode_ret);
    }
    bool any = false;
    bool *on = name ? executable_on(p, &any) : NULL;
    *err = !name ? CL_INVALID_VALUE : !on ? CL_OUT_OF_HOST_MEMORY : !any ? CL_INVALID_PROGRAM_EXECUTABLE
           : lacked(p, on, name) ? CL_INVALID_KERNEL_NAME : CL_SUCCESS;
    free(on);
    cl_program driver = p->driver;
    if (*err == CL_SUCCESS)
        p->kernels++; /* held from here: the application may release the program on another thread */
    layer_objects_unlock();
    if (*err != CL_SUCCESS)
        return NULL;
    return kept(layer_next.clCreateKernel(driver, name, err), p, err);
}

cl_int CL_API_CALL
layer_create_kernels_in_program(cl_program program, cl_uint num_kernels, cl_kernel *out, cl_uint *num_kernels_ret)
{
    layer_objects_lock();
    struct layer_program *p = layer_program_find(program);
    if (!p) {
        layer_objects_unlock();
        return layer_next.clCreateKernelsInProgram(program, num_kernels, out, num_kernels_ret);
    }
    size_t count = 0;
    cl_int err;
    char *names = kernel_names(p, &count, &err);
    if (names && out && num_kernels < count)
        err = CL_INVALID_VALUE;
    cl_program driver = p->driver;
    if (err == CL_SUCCESS && out)
        p->kernels += (cl_uint)count;
    layer_objects_unlock();
    size_t made = 0;
    const char *k = names;
    for (; err == CL_SUCCESS && out && made < count; k += strlen(k) + 1, made++)
        out[made] = kept(layer_next.clCreateKernel(driver, k, &err), p, &err);
    if (err != CL_SUCCESS && out && made) { /* none is made when one cannot be */
        made -= out[made - 1] == NULL;
        for (size_t j = 0; j < made; j++)
            layer_release_kernel(out[j]);
        layer_objects_lock();
        bool gone = false;
        for (size_t j = made + 1; j < count; j++) /* counted, never made */
            gone = uncount(p);
        layer_objects_unlock();
        if (gone)
            program_free(p);
    }
    if (err == CL_SUCCESS && num_kernels_ret)
        *num_kernels_ret = (cl_uint)count;
    free(names);
    return err;
}

cl_kernel CL_API_CALL
layer_clone_kernel(cl_kernel source, cl_int *errcode_ret)
{
    cl_int local;
    cl_int *err = errcode_ret ? errcode_ret : &local;
    layer_objects_lock();
    struct kernel_record *r = layer_map_get(&kernels, source);
    struct layer_program *p = r ? r->program : NULL;
    if (p)
        p->kernels++;
    layer_objects_unlock();
    cl_kernel clone = layer_next.clCloneKernel(source, err);
    return p ? kept(clone, p, err) : clone;
}

cl_int CL_API_CALL
layer_retain_kernel(cl_kernel kernel)
{
    cl_int err = layer_next.clRetainKernel(kernel);
    if (err == CL_SUCCESS) {
        layer_objects_lock();
        struct kernel_record *r = layer_map_get(&kernels, kernel);
        if (r)
            r->refs++;
        layer_objects_unlock();
    }
    return err;
}

cl_int CL_API_CALL
layer_release_kernel(cl_kernel kernel)
{
    struct layer_program *gone = NULL;
    layer_objects_lock();
    struct kernel_record *r = layer_map_get(&kernels, kernel);
    if (r && --r->refs == 0) { /* the last: off the record before the driver may give the handle again */
        layer_map_remove(&kernels, kernel);
        gone = uncount(r->program) ? r->program : NULL;
        free(r);
    }
    layer_objects_unlock();
    cl_int err = layer_next.clReleaseKernel(kernel);
    if (gone)
        program_free(gone);
    return err;
}

cl_int CL_API_CALL
layer_get_kernel_info(cl_kernel kernel, cl_kernel_info param, size_t value_size, void *value, size_t *size_ret)
{
    if (param == CL_KERNEL_PROGRAM) {
        layer_objects_lock();
        struct kernel_record *r = layer_map_get(&kernels, kernel);
        cl_program program = r ? (cl_program)r->program : NULL;
        layer_objects_unlock();
        if (program)
            return layer_answer(&program, sizeof(program), value_size, value, size_ret);
    }
    return layer_next.clGetKernelInfo(kernel, param, value_size, value, size_ret);
}

