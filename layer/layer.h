/* SPDX-License-Identifier: MIT */
/* The OpenCL layer's parts (docs/opencl-layer.md): the dispatch table of what lies below (the next layer or
 * the driver), the devices and how each takes SPIR-V, and the programs the layer made. */
#ifndef SPVCOND_LAYER_H
#define SPVCOND_LAYER_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl_icd.h>
#include <spvcond/spvcond.h>

#include "builtin_names.h"
#include "cache_entry.h"
#include "route.h"
#include "spec_constants.h"
#include <stdbool.h>
#include <stddef.h>

/* The entries below the layer, set once by clInitLayer. */
extern struct _cl_icd_dispatch layer_next;

/* ---- devices (devices.c) ---- */

/* A device's facts as the driver reports them. */
struct layer_device {
    cl_device_id id;
    enum layer_route route;
    char *name, *version, *profile, *extensions, *platform;
    size_t *sub_group_sizes;
    unsigned compute_capability_major, compute_capability_minor; /* NVIDIA's; 0 for other devices */
    unsigned address_bits;                                         /* CL_DEVICE_ADDRESS_BITS (0: unknown) */
    char no_route[640]; /* why a device of a known driver has no route ("" when it has one, or is unknown) */
    spvcond_opencl_device facts; /* points into the strings above */
};

/* The route alone (what clGetDeviceInfo needs). */
enum layer_route layer_device_route(cl_device_id device);
/* Every fact; false when the driver does not answer what a device must. Release with layer_device_free. */
bool layer_device_query(cl_device_id device, struct layer_device *out);
void layer_device_free(struct layer_device *device);
/* The route's name, for logs. */
const char *layer_route_name(enum layer_route route);
/* Whether the blank-separated list has the word. */
bool layer_has_word(const char *list, const char *word);
/* A string query of clGetDeviceInfo / clGetPlatformInfo, malloc'd; NULL when refused. */
char *layer_device_string(cl_device_id device, cl_device_info param);
char *layer_platform_string(cl_platform_id platform, cl_platform_info param);

/* ---- the IL a device is given (translate.c/.cpp) ---- */

/* Whether LLVM bitcode can be made here (the layer was built with LLVMSPIRVLib). */
bool layer_can_translate(void);
/* SPIR-V words -> LLVM bitcode, malloc'd; on failure false with the translator's message in msg. For_pocl:
 * refused what pocl's kernel library would end the process on. */
bool layer_translate(const uint32_t *words, size_t count, bool for_pocl, unsigned char **bitcode, size_t *size,
                     char *msg, size_t msg_size);

/* Whether PTX can be made here (the layer was built with LLVM's NVPTX back end and libclc's nvptx64 library
 * can be read); when not, why in msg. */
bool layer_can_lower_ptx(char *msg, size_t msg_size);
/* What the application's build options ask of the arithmetic, where the driver's own compiler would heed it. */
#define LAYER_CORRECTLY_ROUNDED_DIVIDE 1u /* -cl-fp32-correctly-rounded-divide-sqrt */
/* SPIR-V words -> PTX for a device of compute capability major.minor (ptx.cpp), with the arithmetic asked
 * (LAYER_CORRECTLY_ROUNDED_DIVIDE...), malloc'd, NUL-terminated, *size counting the NUL; on failure false
 * with the reason in msg. */
bool layer_lower_ptx(const uint32_t *words, size_t count, unsigned major, unsigned minor, unsigned arithmetic,
                     char **ptx, size_t *size, char *msg, size_t msg_size);

/* ---- what the layer says of itself (debug.c) ---- */

/* Whether SPVCOND_LAYER_DEBUG asks the layer to say what it does. */
bool layer_debug_enabled(void);
/* One line "spvcond layer: ..." on standard error when it does. */
void layer_debug(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* A monotonic clock in milliseconds, and the time since one of its readings, for those lines. */
double layer_now_ms(void);
double layer_elapsed_ms(double since);

/* ---- a look inside (dump.c) ---- */

/* A number for the next program when SPVCOND_LAYER_DUMP names a folder, 0 when it does not. */
unsigned layer_dump_program(void);
/* Writes into that folder, for program `program` (0: nothing) and its device number `device`, the module
 * specialized for it or (driver_form) what the driver was given: <pid>-<program>-<device>-<route>.<ext>.
 * Failures are said on standard error and change nothing else. */
void layer_dump(unsigned program, size_t device, const struct layer_device *d, bool driver_form, const void *data,
                size_t size);
/* Writes all of `data` to fd (retrying short and interrupted writes); false, errno set, when it cannot. */
bool layer_write_whole(int fd, const void *data, size_t size);

/* ---- validation (validate.c, validate_none.c) ---- */

/* Whether the specialized module is valid SPIR-V for the device's OpenCL environment (SPIRV-Tools'
 * validator); when not, why in msg. Always true when the layer was built without the validator. */
bool layer_validate(const uint32_t *words, size_t count, const struct layer_device *d, char *msg, size_t msg_size);

/* ---- the program cache (cache.c, cache_entry.c; cache_none.c without nettle) ---- */

/* Where what the layer hands each driver is kept between runs of an application (docs/opencl-layer.md,
 * "The cache"): SPVCOND_LAYER_CACHE_DIR, else $XDG_CACHE_HOME/spvcond, else ~/.cache/spvcond;
 * SPVCOND_LAYER_CACHE_DISABLE turns it off, SPVCOND_LAYER_CACHE_MAX_SIZE bounds it (least recently used
 * entries go first). Read from the environment once per program. */
struct layer_cache {
    bool enabled;
    char dir[4096];
    unsigned long long max_size; /* bytes */
};
void layer_cache_open(struct layer_cache *cache);
/* The module's digest with the application's specialization constants and the arithmetic its options ask, for
 * the keys of its devices' entries. */
void layer_cache_module_digest(const void *il, size_t length, const spvcond_spec_value *values, size_t value_count,
                               unsigned arithmetic, unsigned char digest[LAYER_CACHE_KEY_SIZE]);
/* The key of one device's entry: the module's digest, the device's facts as the layer read them, its route,
 * and what made the entry (the layer's and the library's builds; for bitcode and PTX, LLVM's and the
 * translator's; for PTX, libclc's and libdevice's files). */
void layer_cache_key(const unsigned char module_digest[LAYER_CACHE_KEY_SIZE], const struct layer_device *d,
                     unsigned char key[LAYER_CACHE_KEY_SIZE]);
/* The entry, malloc'd into *out; false when the cache has none that is whole and of this build (a damaged
 * one is said in the debug output and left to be replaced). */
bool layer_cache_load(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                      enum layer_route route, const char *device_name, struct layer_cache_entry *out);
/* Stores the entry (written whole, then renamed into place), then keeps the folder within its bound.
 * Failures are said in the debug output and change nothing else. */
void layer_cache_store(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                       enum layer_route route, const char *device_name, const struct layer_cache_entry *entry);

/* What else decides the translator's output, for the key (translate.cpp: an address in LLVM's library and
 * one in the translator's, whose builds are read; none without the translator). */
size_t layer_translator_anchors(const void **anchors, size_t max);
/* The files the PTX route links, for the key: each candidate path with its size and time (ptx_builtins.cpp;
 * "" without the route). */
void layer_ptx_inputs(char *out, size_t size);

/* ---- text (text.c) ---- */

/* A growing text; `failed` once memory ran out (then nothing more is added). */
struct layer_text {
    char *data;
    size_t length, capacity;
    bool failed;
};
void layer_text_add(struct layer_text *t, const char *s, size_t n);
void layer_text_printf(struct layer_text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* ---- what each device's driver is given (forms.c) ---- */

/* One device's part of a build. */
struct layer_form {
    char *log;            /* the layer's lines of the build log ("" when none) */
    char *kernels;        /* the kernel names the device keeps, each ending with '\0', then an empty one */
    unsigned char *bytes; /* what the driver takes: the specialized module, rusticl's binary, bitcode or PTX */
    size_t size;
};
void layer_form_free(struct layer_form *form);

/* What every device of one build is made from: the module, the application's specialization constants, the
 * arithmetic its build options ask (LAYER_CORRECTLY_ROUNDED_DIVIDE...), the cache and the module's digest for
 * its keys, and the dump's program number. */
struct layer_form_source {
    const void *il;
    size_t length;
    const spvcond_spec_value *values;
    size_t value_count;
    unsigned arithmetic;
    unsigned dump;
    struct layer_cache cache;
    unsigned char digest[LAYER_CACHE_KEY_SIZE];
};
void layer_form_source_init(struct layer_form_source *src, const void *il, size_t length,
                            const spvcond_spec_value *values, size_t value_count, unsigned arithmetic, unsigned dump);
/* Device number k's form, from the cache or made (specialized, judged, lowered) and stored; false with the
 * reason in msg. */
bool layer_device_form(const struct layer_form_source *src, const struct layer_device *d, size_t k,
                       struct layer_form *out, char *msg, size_t msg_size);
/* Whether the library reads the module (else why in msg); *conditional: whether it uses
 * SPV_INTEL_function_variants. */
bool layer_module_check(const void *il, size_t length, bool *conditional, char *msg, size_t msg_size);

/* ---- handles to records (handle_map.c) ---- */

struct layer_map {
    const void **keys;
    void **values;
    size_t capacity, count, used; /* used: slots ever taken since the last rehash, removed ones included */
};
void *layer_map_get(const struct layer_map *map, const void *key);
bool layer_map_put(struct layer_map *map, const void *key, void *value); /* false when out of memory */
void *layer_map_remove(struct layer_map *map, const void *key);

/* ---- programs and kernels (programs.c, program_build.c) ---- */

/* A query's answer by the usual rules of clGet*Info (layer.c): `size` bytes of `data` into `value` when it
 * has room (CL_INVALID_VALUE when not), the size into *size_ret. */
cl_int layer_answer(const void *data, size_t size, size_t value_size, void *value, size_t *size_ret);

/* The layer's own dispatch table (layer.c), which the layer's objects point to as OpenCL objects do. */
extern struct _cl_icd_dispatch layer_own;

cl_program CL_API_CALL layer_create_program_with_il(cl_context context, const void *il, size_t length,
                                                    cl_int *errcode_ret);
cl_int CL_API_CALL layer_retain_program(cl_program program);
cl_int CL_API_CALL layer_release_program(cl_program program);
cl_int CL_API_CALL layer_set_program_release_callback(cl_program program, void(CL_CALLBACK *fn)(cl_program, void *),
                                                      void *user);
cl_int CL_API_CALL layer_set_program_specialization_constant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                             const void *spec_value);
cl_int CL_API_CALL layer_get_program_info(cl_program program, cl_program_info param, size_t value_size, void *value,
                                          size_t *size_ret);
cl_int CL_API_CALL layer_get_program_build_info(cl_program program, cl_device_id device, cl_program_build_info param,
                                                size_t value_size, void *value, size_t *size_ret);
cl_int CL_API_CALL layer_build_program(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                       const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                       void *user_data);
cl_int CL_API_CALL layer_compile_program(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                         const char *options, cl_uint num_input_headers,
                                         const cl_program *input_headers, const char **header_include_names,
                                         void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data);
cl_program CL_API_CALL layer_link_program(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                          const char *options, cl_uint num_input_programs,
                                          const cl_program *input_programs,
                                          void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                                          cl_int *errcode_ret);
cl_kernel CL_API_CALL layer_create_kernel(cl_program program, const char *name, cl_int *errcode_ret);
cl_int CL_API_CALL layer_create_kernels_in_program(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                                   cl_uint *num_kernels_ret);
cl_kernel CL_API_CALL layer_clone_kernel(cl_kernel source, cl_int *errcode_ret);
cl_int CL_API_CALL layer_retain_kernel(cl_kernel kernel);
cl_int CL_API_CALL layer_release_kernel(cl_kernel kernel);
cl_int CL_API_CALL layer_get_kernel_info(cl_kernel kernel, cl_kernel_info param, size_t value_size, void *value,
                                         size_t *size_ret);

#endif
