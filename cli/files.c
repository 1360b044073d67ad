/* SPDX-License-Identifier: MIT */
/* The tool's files (cli.h): inputs read whole (a large module into huge pages), outputs written atomically
 * (a temporary file renamed into place, flushed with --sync), a module emitted into a file piece by piece. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Memory for a regular file of `size` bytes, plus one (so that a file that grew meanwhile is still read
 * to its end). A module of 1 MB or more goes into transparent huge pages, aligned to them: a 2.5 MB
 * module then costs two page faults instead of some 600. */
#define HUGE_PAGE ((size_t)2 << 20)

static void *
input_memory(size_t size, bool huge, size_t *mapped)
{
    *mapped = 0;
    if (!huge || size < HUGE_PAGE / 2)
        return malloc(size + 1);
    size_t len = (size + 1 + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    char *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return malloc(size + 1);
    char *start = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > p)
        munmap(p, (size_t)(start - p));
    munmap(start + len, (size_t)(p + HUGE_PAGE - start));
    madvise(start, len, MADV_HUGEPAGE);
    *mapped = len;
    return start;
}

void
cli_bytes_free(struct cli_bytes *b)
{
    if (b->mapped)
        munmap(b->data, b->mapped);
    else
        free(b->data);
    memset(b, 0, sizeof(*b));
}

/* A full buffer of `len` bytes that its input outgrew, twice the size (freed, NULL, if that fails). A
 * mapping is copied once into malloc's memory, which then grows. */
static char *
grow(char *buf, size_t len, size_t *cap, size_t *mapped)
{
    char *bigger = *cap <= SIZE_MAX / 2 ? (*mapped ? malloc(*cap * 2) : realloc(buf, *cap * 2)) : NULL;
    if (bigger && *mapped) {
        memcpy(bigger, buf, len);
        munmap(buf, *mapped);
        *mapped = 0;
    }
    if (!bigger) {
        struct cli_bytes gone = {buf, 0, *mapped};
        cli_bytes_free(&gone);
        *mapped = 0;
        return NULL;
    }
    *cap *= 2;
    return bigger;
}

static int
read_input(const char *path, bool huge, struct cli_bytes *out)
{
    memset(out, 0, sizeof(*out));
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        cli_error(errno == ENOENT ? "file does not exist '%s'" : "could not open file '%s': %s", path,
                  strerror(errno));
        return EXIT_IO;
    }
    /* A regular file is read at once into memory of its size; a pipe or standard input grows as it
     * comes. */
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
                   (uint64_t)st.st_size < SIZE_MAX / 4;
    size_t mapped = 0, len = 0;
    size_t cap = regular ? (size_t)st.st_size + 1 : (size_t)1 << 16;
    char *buf = regular ? input_memory((size_t)st.st_size, huge, &mapped) : malloc(cap);
    int failed = 0; /* the errno of a failed read */
    while (buf) {
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            failed = got < 0 ? errno : 0;
            break;
        }
        len += (size_t)got;
        if (len < cap)
            continue;
        buf = grow(buf, len, &cap, &mapped);
    }
    if (!is_stdin)
        close(fd);
    out->data = buf;
    out->size = len;
    out->mapped = mapped;
    if (!buf) {
        cli_error("out of memory reading '%s'", path);
        return EXIT_NOMEM;
    }
    if (failed) {
        cli_error("could not read file '%s': %s", path, strerror(failed));
        cli_bytes_free(out);
        return EXIT_IO;
    }
    return EXIT_OK;
}

int
cli_read_file(const char *path, void **data, size_t *size)
{
    struct cli_bytes b;
    int rc = read_input(path, false, &b);
    *data = b.data;
    *size = b.size;
    return rc;
}

int
cli_read_module_file(const char *path, struct cli_bytes *out)
{
    return read_input(path, true, out);
}

/* Writes go in pieces of this size, as cp's do: one write of a whole 8 MB module was a fifth slower
 * (docs/performance.md). */
#define WRITE_CHUNK ((size_t)256 << 10)

static int
write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size < WRITE_CHUNK ? size : WRITE_CHUNK);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int
cli_sync_directory(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    int err = fd < 0 || fsync(fd) != 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    if (err)
        cli_error("could not flush directory '%s': %s", dir, strerror(err));
    return err ? EXIT_IO : EXIT_OK;
}

int
cli_sync_directory_of(const char *path)
{
    /* The part before the last '/' that is not at the end ("a/b/" is in "a"); "." if none; "/" for "/a". */
    size_t end = strlen(path), n = 0;
    while (end > 1 && path[end - 1] == '/')
        end--;
    for (size_t k = 0; k < end; k++)
        if (path[k] == '/')
            n = k ? k : 1;
    bool here = n == 0;
    char *dir = malloc(here ? 2 : n + 1);
    if (!dir)
        return EXIT_NOMEM;
    n = here ? 1 : n;
    memcpy(dir, here ? "." : path, n);
    dir[n] = 0;
    int rc = cli_sync_directory(dir);
    free(dir);
    return rc;
}

/* An output being written: standard output, a temporary file beside the target, or a target that is no
 * regular file (a device such as /dev/null, a pipe), written in place: a rename would replace it. */
struct output {
    const char *path;
    char *tmp; /* NULL for standard output and in place */
    int fd;
    bool in_place;
};

static int
output_open(const char *path, struct output *out)
{
    *out = (struct output){path, NULL, STDOUT_FILENO, false};
    if (strcmp(path, "-") == 0)
        return EXIT_OK;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        if ((out->fd = open(path, O_WRONLY)) < 0) {
            cli_error("could not open '%s': %s", path, strerror(errno));
            return EXIT_IO;
        }
        out->in_place = true;
        return EXIT_OK;
    }
    size_t n = strlen(path);
    if (!(out->tmp = malloc(n + 16)))
        return EXIT_NOMEM;
    memcpy(out->tmp, path, n);
    memcpy(out->tmp + n, ".tmp.XXXXXX", 12);
    if ((out->fd = mkstemp(out->tmp)) < 0) {
        cli_error("could not create a temporary file next to '%s': %s", path, strerror(errno));
        free(out->tmp);
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* Puts the output in place if `err` is 0 (an errno, or -1 for a failure already reported), else removes
 * it; prints what failed. */
static int
output_close(const struct cli *cli, struct output *out, int err)
{
    if (out->in_place) {
        if (close(out->fd) != 0 && !err)
            err = errno;
        if (err > 0)
            cli_error("could not write '%s': %s", out->path, strerror(err));
        return err ? (err > 0 ? EXIT_IO : EXIT_INVALID) : EXIT_OK;
    }
    if (!out->tmp) {
        if (err > 0)
            cli_error("could not write to standard output: %s", strerror(err));
        return err ? EXIT_IO : EXIT_OK;
    }
    /* mkstemp creates 0600; the file gets the usual permissions. */
    mode_t mask = umask(0);
    umask(mask);
    if (!err && fchmod(out->fd, 0666 & ~mask) != 0)
        err = errno;
    if (!err && cli->sync && fsync(out->fd) != 0)
        err = errno;
    if (close(out->fd) != 0 && !err)
        err = errno;
    if (!err && rename(out->tmp, out->path) != 0)
        err = errno;
    if (err)
        unlink(out->tmp);
    if (err > 0)
        cli_error("could not write '%s': %s", out->path, strerror(err));
    free(out->tmp);
    if (err)
        return err > 0 ? EXIT_IO : EXIT_INVALID;
    return cli->sync ? cli_sync_directory_of(out->path) : EXIT_OK;
}

int
cli_write_new_file(const struct cli *cli, const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        cli_error("could not create '%s': %s", path, strerror(errno));
        return EXIT_IO;
    }
    int err = write_all(fd, data, size) != 0 ? errno : 0;
    if (!err && cli->sync && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (err) {
        unlink(path);
        cli_error("could not write '%s': %s", path, strerror(err));
    }
    return err ? EXIT_IO : EXIT_OK;
}

int
cli_write_file(const struct cli *cli, const char *path, const void *data, size_t size)
{
    struct output out;
    int rc = output_open(path, &out);
    if (rc != EXIT_OK)
        return rc;
    return output_close(cli, &out, write_all(out.fd, data, size) != 0 ? errno : 0);
}

/* The pieces of a module as spvcond_module_emit_to gives them: small ones are gathered into a buffer
 * written when full, large ones (runs of untouched instructions, mostly) written from where they are. */
#define STAGE_BYTES WRITE_CHUNK
#define DIRECT_BYTES ((size_t)64 << 10)

struct stage {
    int fd;
    int err; /* errno of a failed write */
    char *buf;
    size_t len;
};

static int
stage_flush(struct stage *st)
{
    if (st->len && write_all(st->fd, st->buf, st->len) != 0)
        return st->err = errno;
    st->len = 0;
    return 0;
}

static int
stage_piece(void *user, const uint32_t *words, size_t count)
{
    struct stage *st = user;
    size_t size = count * sizeof(uint32_t);
    if (size >= DIRECT_BYTES) {
        if (stage_flush(st) != 0)
            return 1;
        return write_all(st->fd, words, size) != 0 ? (st->err = errno, 1) : 0;
    }
    if (size > STAGE_BYTES - st->len && stage_flush(st) != 0)
        return 1;
    memcpy(st->buf + st->len, words, size);
    st->len += size;
    return 0;
}

int
cli_write_module(const struct cli *cli, const char *path, spvcond_module *module)
{
    if (strcmp(path, "-") == 0) {
        /* Standard output cannot be taken back: the module is emitted whole before any of it is written. */
        uint32_t *words;
        size_t count;
        spvcond_result r = spvcond_module_emit(module, &words, &count);
        if (r != SPVCOND_OK)
            return cli_exit_code(r);
        int rc = cli_write_file(cli, path, words, count * sizeof(uint32_t));
        spvcond_free(cli->ctx, words);
        return rc;
    }
    struct stage st = {-1, 0, malloc(STAGE_BYTES), 0};
    struct output out;
    int rc = st.buf ? output_open(path, &out) : EXIT_NOMEM;
    if (rc != EXIT_OK) {
        free(st.buf);
        return rc;
    }
    st.fd = out.fd;
    spvcond_result r = spvcond_module_emit_to(module, stage_piece, &st, NULL);
    if (r == SPVCOND_OK)
        stage_flush(&st);
    free(st.buf);
    /* A failed write is the file's (exit 3); a failed emission the library's, already reported. */
    rc = output_close(cli, &out, st.err ? st.err : r != SPVCOND_OK ? -1 : 0);
    return r != SPVCOND_OK && !st.err ? cli_exit_code(r) : rc;
}
