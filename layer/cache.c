/* SPDX-License-Identifier: MIT */
/* The layer's program cache (docs/opencl-layer.md, "The cache"): what the layer hands each driver, kept in
 * a folder between runs of an application, as drivers keep what they compile (pocl's kernel cache, NVIDIA's
 * compute cache, Mesa's disk cache). One file per entry, named by its key; written whole under a temporary
 * name and renamed into place, so that a reader, in this process or another, sees a whole entry or none;
 * its modification time is its last use, and the folder is kept within its bound by removing the least
 * recently used entries after each store. Nothing here can fail a program: a cache that cannot be read or
 * written is no cache, said in the debug output. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "layer.h"

#define DEFAULT_MAX_SIZE (1ull << 30)
#define STALE_TEMPORARY_S 3600 /* a temporary file this old was left by a writer that died */
static const char suffix[] = ".entry";

/* "1G", "512M", "64K" or a number of bytes; 0 when not one. */
static unsigned long long
parse_size(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-')
        return 0;
    unsigned shift = 0;
    if (*end && end[1] == 0) {
        const char *units = "KMG", *u = strchr(units, *end == 'k' || *end == 'm' || *end == 'g' ? *end - 32 : *end);
        if (!u || !*u)
            return 0;
        shift = 10u * (unsigned)(u - units + 1);
        end++;
    }
    if (*end || v > (~0ull >> shift))
        return 0;
    return v << shift;
}

static bool
set(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0 && strcmp(v, "false") != 0;
}

void
layer_cache_open(struct layer_cache *cache)
{
    *cache = (struct layer_cache){.max_size = DEFAULT_MAX_SIZE};
    if (set("SPVCOND_LAYER_CACHE_DISABLE")) {
        layer_debug("cache: off (SPVCOND_LAYER_CACHE_DISABLE)");
        return;
    }
    const char *dir = getenv("SPVCOND_LAYER_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (dir && *dir)
        n = snprintf(cache->dir, sizeof(cache->dir), "%s", dir);
    else if (xdg && xdg[0] == '/') /* the XDG base directory rules: a relative path is ignored */
        n = snprintf(cache->dir, sizeof(cache->dir), "%s/spvcond", xdg);
    else if (home && home[0] == '/')
        n = snprintf(cache->dir, sizeof(cache->dir), "%s/.cache/spvcond", home);
    else {
        layer_debug("cache: off (neither SPVCOND_LAYER_CACHE_DIR, XDG_CACHE_HOME nor HOME names a folder)");
        return;
    }
    if (n < 0 || (size_t)n >= sizeof(cache->dir) - 80) { /* room for "/<key>.entry" and a temporary name */
        layer_debug("cache: off (the folder's name is too long)");
        return;
    }
    const char *max = getenv("SPVCOND_LAYER_CACHE_MAX_SIZE");
    if (max && *max) {
        unsigned long long v = parse_size(max);
        if (v)
            cache->max_size = v;
        else
            layer_debug("cache: SPVCOND_LAYER_CACHE_MAX_SIZE=%s is not a size (like 1G, 512M, 64K): %llu bytes", max,
                        cache->max_size);
    }
    cache->enabled = true;
}

void
layer_cache_module_digest(const void *il, size_t length, const spvcond_spec_value *values, size_t value_count,
                          unsigned arithmetic, unsigned char digest[LAYER_CACHE_KEY_SIZE])
{
    struct sha256_ctx h;
    sha256_init(&h);
    sha256_update(&h, length, il);
    /* The application's specialization constants, each as SpecId and value: none for most programs, whose
     * digest is then the module's alone. */
    for (size_t k = 0; k < value_count; k++) {
        uint8_t field[12];
        memcpy(field, &values[k].spec_id, 4);
        memcpy(field + 4, &values[k].value, 8);
        sha256_update(&h, sizeof(field), field);
    }
    /* The arithmetic the build options ask, where they ask any (a digest as before where they do not). */
    if (arithmetic) {
        uint8_t field[5] = {'a'};
        memcpy(field + 1, &arithmetic, 4);
        sha256_update(&h, sizeof(field), field);
    }
    sha256_digest(&h, SHA256_DIGEST_SIZE, digest);
}

/* Fields of the key, each with its length first, so that no two keys' fields run into each other. */
static void
add(struct sha256_ctx *h, const void *data, size_t size)
{
    uint64_t n = size;
    sha256_update(h, sizeof(n), (const uint8_t *)&n);
    sha256_update(h, size, data);
}

static void
add_string(struct sha256_ctx *h, const char *s)
{
    add(h, s ? s : "", s ? strlen(s) + 1 : 0); /* NULL and "" differ */
}

static void
add_number(struct sha256_ctx *h, uint64_t v)
{
    add(h, &v, sizeof(v));
}

/* The loaded object that holds `address`: its GNU build ID, else its file's identity. */
struct object_search {
    uintptr_t address;
    struct sha256_ctx *h;
    bool found;
};

static int
each_object(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    struct object_search *s = user;
    bool holds = false;
    for (int k = 0; k < info->dlpi_phnum && !holds; k++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[k];
        uintptr_t start = info->dlpi_addr + p->p_vaddr;
        holds = p->p_type == PT_LOAD && s->address >= start && s->address - start < p->p_memsz;
    }
    if (!holds)
        return 0;
    for (int k = 0; k < info->dlpi_phnum; k++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[k];
        if (p->p_type != PT_NOTE)
            continue;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + p->p_vaddr);
        for (size_t at = 0; at + sizeof(ElfW(Nhdr)) <= p->p_memsz;) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(note + at);
            size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;
            size_t body = at + sizeof(*n);
            if (name > p->p_memsz - body || desc > p->p_memsz - body - name)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(note + body, "GNU", 4) == 0) {
                add(s->h, note + body + name, n->n_descsz);
                s->found = true;
                return 1;
            }
            at = body + name + desc;
        }
    }
    return 1; /* the object, without a build ID */
}

static void
add_object(struct sha256_ctx *h, const void *address)
{
    struct object_search s = {(uintptr_t)address, h, false};
    dl_iterate_phdr(each_object, &s);
    if (s.found)
        return;
    /* No build ID: the file's identity, which a rebuild changes. */
    Dl_info info;
    struct stat st;
    if (dladdr(address, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0) {
        add_string(h, info.dli_fname);
        add_number(h, (uint64_t)st.st_size);
        add_number(h, (uint64_t)st.st_mtim.tv_sec);
        add_number(h, (uint64_t)st.st_mtim.tv_nsec);
    } else {
        add_string(h, "unknown object");
    }
}

/* The builds that make entries, read once per process (the loaded objects do not change): [0] this layer's
 * and the library's, [1] those and LLVM's and the translator's. */
static pthread_once_t builds_once = PTHREAD_ONCE_INIT;
static unsigned char builds[2][SHA256_DIGEST_SIZE];

static void
read_builds(void)
{
    for (int k = 0; k < 2; k++) {
        struct sha256_ctx h;
        sha256_init(&h);
        add_object(&h, suffix);                   /* an address in this layer */
        add_string(&h, spvcond_version_string()); /* its text lies in the library */
        add_object(&h, spvcond_version_string());
        const void *anchors[4];
        size_t n = k ? layer_translator_anchors(anchors, 4) : 0;
        for (size_t j = 0; j < n; j++)
            add_object(&h, anchors[j]);
        sha256_digest(&h, SHA256_DIGEST_SIZE, builds[k]);
    }
}

void
layer_cache_key(const unsigned char module_digest[LAYER_CACHE_KEY_SIZE], const struct layer_device *d,
                unsigned char key[LAYER_CACHE_KEY_SIZE])
{
    struct sha256_ctx h;
    sha256_init(&h);
    add_string(&h, "spvcond layer cache key 1");
    add(&h, module_digest, LAYER_CACHE_KEY_SIZE);
    add_number(&h, (uint64_t)d->route);
    const spvcond_opencl_device *f = &d->facts;
    add_string(&h, d->name);
    add_string(&h, d->version);
    add_string(&h, d->profile);
    add_string(&h, d->extensions);
    add_string(&h, d->platform);
    add_number(&h, f->type);
    add_number(&h, f->half_fp_config);
    add_number(&h, f->double_fp_config);
    add_number(&h, (uint64_t)f->image_support << 4 | (uint64_t)f->compiler_available << 3 |
                       (uint64_t)f->linker_available << 2 | (uint64_t)f->queue_profiling << 1 |
                       (uint64_t)f->generic_address_space);
    add_number(&h, f->max_work_group_size);
    add_number(&h, f->sub_group_size_count);
    for (size_t k = 0; k < f->sub_group_size_count && f->sub_group_sizes; k++)
        add_number(&h, f->sub_group_sizes[k]);
    add_number(&h, (uint64_t)d->compute_capability_major << 32 | d->compute_capability_minor);
    add_number(&h, d->address_bits);
    /* What made the entry: this layer's build, the library's, and the translator's for its routes. */
    pthread_once(&builds_once, read_builds);
    add(&h, builds[d->route == LAYER_ROUTE_BITCODE || d->route == LAYER_ROUTE_PTX], SHA256_DIGEST_SIZE);
    if (d->route == LAYER_ROUTE_PTX) { /* files, which may change while the application runs */
        char inputs[8192];
        layer_ptx_inputs(inputs, sizeof(inputs));
        add_string(&h, inputs);
    }
    sha256_digest(&h, SHA256_DIGEST_SIZE, key);
}

static void
entry_path(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE], char *path, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    char name[2 * LAYER_CACHE_KEY_SIZE + 1];
    for (size_t k = 0; k < LAYER_CACHE_KEY_SIZE; k++) {
        name[2 * k] = hex[key[k] >> 4];
        name[2 * k + 1] = hex[key[k] & 15];
    }
    name[2 * LAYER_CACHE_KEY_SIZE] = 0;
    snprintf(path, size, "%s/%s%s", cache->dir, name, suffix);
}

/* Reads exactly `n` bytes of file `*source` (a layer_cache_entry_source: false with errno set, EIO at an
 * early end). */
static bool
read_exactly(void *source, void *buf, size_t n)
{
    int fd = *(int *)source;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            errno = r == 0 ? EIO : errno;
            return false;
        }
        got += (size_t)r;
    }
    return true;
}

/* The entry in file `fd`: its header read and checked first, then its form read straight into memory of its
 * own (no copy of megabytes). False with why in `why` (empty: errno says) when it cannot be read, is not a
 * regular file, is larger than `limit` (no entry is: the bound keeps them out) or is refused. */
static bool
read_entry(int fd, unsigned long long limit, const unsigned char key[LAYER_CACHE_KEY_SIZE], enum layer_route route,
           struct layer_cache_entry *out, char *why, size_t why_size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > limit || (unsigned long long)st.st_size > SIZE_MAX / 2) {
        errno = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
        return false;
    }
    size_t size = (size_t)st.st_size;
    unsigned char header[LAYER_CACHE_ENTRY_HEADER];
    struct layer_cache_entry_sizes sizes;
    return read_exactly(&fd, header, size < sizeof(header) ? size : sizeof(header)) &&
           layer_cache_entry_header(header, size, key, route, &sizes, why, why_size) &&
           layer_cache_entry_parts(header, &sizes, read_exactly, &fd, out, why, why_size);
}

bool
layer_cache_load(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                 enum layer_route route, const char *device_name, struct layer_cache_entry *out)
{
    *out = (struct layer_cache_entry){0};
    if (!cache->enabled)
        return false;
    double started = layer_now_ms();
    char path[sizeof(cache->dir) + 80];
    entry_path(cache, key, path, sizeof(path));
    /* Not through a link, and not waiting on a FIFO someone put in its place: such an entry is damaged. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0 && errno == ENOENT) {
        layer_debug("device %s: cache miss (%s)", device_name, path);
        return false;
    }
    char why[256] = "";
    bool ok = fd >= 0 && read_entry(fd, cache->max_size, key, route, out, why, sizeof(why));
    if (ok)
        futimens(fd, NULL); /* its last use, for the bound (a folder we cannot write still serves) */
    if (fd >= 0)
        close(fd);
    if (ok)
        layer_debug("device %s: cache hit %s (%zu bytes) in %.2f ms", device_name, path, out->form_size,
                    layer_elapsed_ms(started));
    else
        layer_debug("device %s: cache entry %s ignored, made again: %s", device_name, path,
                    why[0] ? why : strerror(errno));
    return ok;
}

struct entry_file {
    char name[2 * LAYER_CACHE_KEY_SIZE + sizeof(suffix)];
    unsigned long long size;
    struct timespec used;
};

static int
older_first(const void *a, const void *b)
{
    const struct entry_file *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec)
        return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

static bool
is_entry_name(const char *name)
{
    size_t n = strlen(name), hex = 2 * LAYER_CACHE_KEY_SIZE;
    return n == hex + sizeof(suffix) - 1 && strspn(name, "0123456789abcdef") == hex && strcmp(name + hex, suffix) == 0;
}

/* The folder within its bound: the least recently used entries removed (another process may remove
 * them at the same time: a file already gone is not an error), and temporary files a dead writer left. */
static void
keep_bound(const struct layer_cache *cache)
{
    DIR *dir = opendir(cache->dir);
    if (!dir)
        return;
    struct entry_file *files = NULL;
    size_t count = 0, capacity = 0;
    unsigned long long total = 0;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(dir));) {
        struct stat st;
        if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (strncmp(e->d_name, ".tmp-", 5) == 0 && now - st.st_mtim.tv_sec > STALE_TEMPORARY_S) {
            unlinkat(dirfd(dir), e->d_name, 0);
            continue;
        }
        if (!is_entry_name(e->d_name))
            continue;
        if (count == capacity) {
            size_t c = capacity ? capacity * 2 : 64;
            struct entry_file *f = realloc(files, c * sizeof(*f));
            if (!f)
                break;
            files = f;
            capacity = c;
        }
        files[count] = (struct entry_file){.size = (unsigned long long)st.st_size, .used = st.st_mtim};
        snprintf(files[count].name, sizeof(files[count].name), "%s", e->d_name);
        total += files[count++].size;
    }
    if (total > cache->max_size && files) {
        qsort(files, count, sizeof(*files), older_first);
        size_t removed = 0;
        for (size_t k = 0; k < count && total > cache->max_size; k++) {
            if (unlinkat(dirfd(dir), files[k].name, 0) == 0 || errno == ENOENT) {
                total -= files[k].size;
                removed++;
            }
        }
        layer_debug("cache: %zu least recently used entries removed, %llu bytes kept (bound %llu)", removed, total,
                    cache->max_size);
    }
    free(files);
    closedir(dir);
}

/* mkdir -p, the folders the layer makes readable by their owner alone. */
static bool
make_folder(const char *path)
{
    char p[sizeof(((struct layer_cache *)0)->dir)];
    snprintf(p, sizeof(p), "%s", path);
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            return false;
        *s = c;
        if (!c)
            break;
    }
    struct stat st;
    if (stat(p, &st) != 0)
        return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

void
layer_cache_store(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                  enum layer_route route, const char *device_name, const struct layer_cache_entry *entry)
{
    if (!cache->enabled)
        return;
    unsigned char header[LAYER_CACHE_ENTRY_HEADER];
    struct layer_cache_entry_sizes sizes;
    if (!layer_cache_entry_head(key, route, entry, header, &sizes))
        return;
    size_t size = sizeof(header) + sizes.log + sizes.kernels + sizes.form;
    char path[sizeof(cache->dir) + 80], temporary[sizeof(cache->dir) + 80];
    entry_path(cache, key, path, sizeof(path));
    snprintf(temporary, sizeof(temporary), "%s/.tmp-XXXXXX", cache->dir);
    const char *failed = NULL;
    int error = 0;
    if (size > cache->max_size) {
        layer_debug("device %s: not cached: its %zu bytes exceed the bound of %llu", device_name, size,
                    cache->max_size);
    } else if (!make_folder(cache->dir)) {
        failed = "the folder cannot be made";
        error = errno;
    } else {
        int fd = mkostemp(temporary, O_CLOEXEC);
        if (fd < 0) {
            failed = "the folder cannot be written";
            error = errno;
        } else {
            /* The parts written from where they are: no copy of the form. */
            bool written = layer_write_whole(fd, header, sizeof(header)) &&
                           layer_write_whole(fd, entry->log, sizes.log) &&
                           layer_write_whole(fd, entry->kernels, sizes.kernels) &&
                           layer_write_whole(fd, entry->form, sizes.form);
            error = errno;
            if (close(fd) != 0 && written) {
                written = false;
                error = errno;
            }
            if (!written)
                failed = "the entry cannot be written";
            else if (rename(temporary, path) != 0) {
                failed = "the entry cannot be put in place";
                error = errno;
            }
            if (failed)
                unlink(temporary);
        }
    }
    if (failed) {
        layer_debug("device %s: not cached: %s (%s: %s)", device_name, failed, cache->dir, strerror(error));
    } else if (size <= cache->max_size) {
        layer_debug("device %s: cache stored %s (%zu bytes)", device_name, path, size);
        keep_bound(cache);
    }
}
