/* SPDX-License-Identifier: MIT */
/* The programs the layer owns (docs/opencl-layer.md, "Program state"): what programs.c keeps of each and what
 * program_build.c makes of it. A program from IL is the layer's object, not the driver's: it holds the
 * application's IL, the specialization constants set, per device its build status, options, log and binary
 * type, and the driver's program once a build makes one. */
#ifndef SPVCOND_LAYER_PROGRAM_H
#define SPVCOND_LAYER_PROGRAM_H

#include "layer.h"

/* What the program is on one of its devices. */
struct program_device {
    cl_device_id id;
    cl_build_status status;      /* the layer's; once the driver's program holds the device, the driver's */
    cl_program_binary_type type; /* NONE, COMPILED_OBJECT, LIBRARY or EXECUTABLE */
    char *options;               /* the last build's, compile's or link's ("" when none) */
    struct layer_form form;      /* of the last build: the layer's log lines, the kernels kept, the driver's form */
    char *failure;               /* why the layer could not build for the device (a line of the log), or NULL */
    bool in_driver;              /* the driver's program holds the device */
};

struct layer_program {
    const struct _cl_icd_dispatch *dispatch; /* first, as in every OpenCL object: the layer's own table */
    cl_uint refs;                            /* the application's references */
    cl_uint kernels;                         /* kernels of it the application holds (each holds the program) */
    bool busy;                               /* a build, compile or link runs */
    cl_context context;                      /* retained while the program lives */
    bool linked;                             /* made by clLinkProgram: no IL of the application's, no constants */
    uint32_t *module;                        /* the IL (a copy, aligned) or the linked module */
    size_t words;
    struct layer_spec_constant *specs;       /* the module's SpecIds, read at the first constant set */
    size_t spec_count;
    bool specs_read;
    spvcond_spec_value *values;              /* clSetProgramSpecializationConstant's */
    size_t value_count;
    size_t device_count;
    struct layer_device *devices;            /* each device's facts */
    struct program_device *per;
    cl_program driver;                       /* made by the last build; NULL before */
    struct release_callback {
        void(CL_CALLBACK *fn)(cl_program, void *);
        void *user;
    } *callbacks;
    size_t callback_count;
};

/* The lock of every record below; the loader may call from any thread. */
void layer_objects_lock(void);
void layer_objects_unlock(void);
/* With the lock held: the layer's program behind a handle, or NULL when it is the driver's (or none). */
struct layer_program *layer_program_find(cl_program handle);
/* A new program of the context for these devices (facts given, taken over), referenced once and on record;
 * NULL when out of memory (the facts are then freed). */
struct layer_program *layer_program_new(cl_context context, struct layer_device *devices, size_t count);
/* The application's last reference went: off the record, and freed unless kernels hold it. Call without
 * the lock. */
void layer_program_drop(struct layer_program *p);
/* The device's index in the program, or SIZE_MAX. */
size_t layer_program_device_index(const struct layer_program *p, cl_device_id device);

#endif
