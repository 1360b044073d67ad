/* The allocator a context uses when the caller gives none (on Linux; sanitizer and valgrind builds use
 * the C library's, which those tools watch).
 *
 * Why not plain malloc: a fresh 4 KB page costs a fault, 11 us on the virtual machines we measure on
 * (280 ms of faults against 14 ms of work for 100 MB), and our tables are fresh on every call. So:
 *  - blocks larger than 4 MB (instruction and id tables of large modules, the output) are mappings
 *    of whole 2 MB transparent huge pages: one fault per 2 MB; zero when fresh; grown in place by
 *    mremap when the address space allows. (Through glibc, once a large block had been freed, blocks
 *    up to 32 MB came from its heap: calloc cleared them in small pages and realloc copied: 9,250
 *    faults per specialize of the 100 MB synthetic module.)
 *  - blocks from 64 KB to 4 MB are carved in order from slabs: 64 MB of address space in huge pages,
 *    touched as they fill. Through glibc each was a fresh small-page mapping (about 1,300 faults per
 *    annotate of libclc); a 2 MB slab, or a mapping each, rounded every block up to 2 MB (validate of
 *    an 8 MB module peaked at 35 MB, against 26 MB now). Space comes back when the last block carved
 *    is freed, and when all of a slab's blocks are: the current slab is then refilled from the start
 *    (its pages stay until the context goes), another is unmapped. calloc clears only space used before.
 *  - smaller blocks are malloc's.
 * Every block carries a 16-byte header saying which kind it is and its size. The state (the current
 * slab) belongs to one context, so a context and its modules are used by one thread at a time. */
#define _GNU_SOURCE /* mremap, MADV_HUGEPAGE */
#include "heap.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if SPVCOND_HAVE_HEAP

#define HUGE_PAGE (2u << 20)
#define SLAB_SIZE ((size_t)64 << 20) /* address space a slab reserves; pages are touched as it fills */
#define SLAB_FROM (64u << 10)  /* blocks this large (header included) share slabs... */
#define SLAB_MAX (4u << 20)    /* ...up to this; larger ones are mappings of their own */
#define SLAB_START 32u         /* the slab's own header, rounded to HEADER */
#define HEADER 16u             /* keeps malloc's 16-byte alignment */
enum { MALLOC_BLOCK = 0x4d4cu, SLAB_BLOCK = 0x5342u, MAPPED_BLOCK = 0x4d50u };

struct header {
    size_t bytes; /* a mapping's length, header included; otherwise the size asked for */
    size_t kind;
};

/* At the start of its SLAB_SIZE-aligned mapping, so a block finds its slab by rounding down. */
struct slab { /* SLAB_START bytes at most */
    size_t live; /* blocks not yet freed */
    size_t used; /* bytes carved, this header included */
    size_t high; /* bytes ever carved: past them the mapping is still zero */
};

static size_t
round_up(size_t bytes, size_t to)
{
    return (bytes + to - 1) & ~(to - 1);
}

/* An `align`-aligned anonymous mapping of `len` bytes (multiples of 2 MB) in huge pages, or NULL. */
static void *
map_huge(size_t len, size_t align)
{
    if (len > SIZE_MAX - align)
        return NULL;
    uint8_t *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    size_t lead = (size_t)(-(uintptr_t)p & (align - 1));
    if (lead)
        munmap(p, lead);
    munmap(p + lead + len, align - lead);
    (void)madvise(p + lead, len, MADV_HUGEPAGE); /* advice only: failure changes nothing */
    return p + lead;
}

static void *
user_part(struct header *h, size_t bytes, size_t kind)
{
    h->bytes = bytes;
    h->kind = kind;
    return (uint8_t *)h + HEADER;
}

static struct header *
header_of(void *ptr)
{
    return (struct header *)((uint8_t *)ptr - HEADER);
}

static struct slab *
slab_of(struct header *h)
{
    return (struct slab *)((uintptr_t)h & ~(uintptr_t)(SLAB_SIZE - 1));
}

static void *
slab_alloc(spvcond_heap *heap, size_t size, bool zero)
{
    size_t need = round_up(size + HEADER, HEADER);
    struct slab *s = heap->slab;
    if (!s || s->used + need > SLAB_SIZE) {
        if (!(s = map_huge(SLAB_SIZE, SLAB_SIZE)))
            return NULL;
        s->used = s->high = SLAB_START;
        if (heap->slab && heap->slab->live == 0)
            munmap(heap->slab, SLAB_SIZE);
        heap->slab = s;
    }
    struct header *h = (struct header *)((uint8_t *)s + s->used);
    if (zero && s->used < s->high) /* only what an earlier block dirtied */
        memset(h, 0, (s->high < s->used + need ? s->high : s->used + need) - s->used);
    s->used += need;
    if (s->high < s->used)
        s->high = s->used;
    s->live++;
    return user_part(h, size, SLAB_BLOCK);
}

static void
slab_free(spvcond_heap *heap, struct header *h)
{
    struct slab *s = slab_of(h);
    if (--s->live > 0) {
        /* The last block carved gives its space back (temporaries are often freed in reverse order). */
        if ((uint8_t *)h + round_up(h->bytes + HEADER, HEADER) == (uint8_t *)s + s->used)
            s->used = (size_t)((uint8_t *)h - (uint8_t *)s);
        return;
    }
    if (s == heap->slab)
        s->used = SLAB_START; /* refilled from the start: its pages stay */
    else
        munmap(s, SLAB_SIZE);
}

/* Zeroed when `zero`. A fresh mapping is zero already; slab space is cleared where it was used before. */
static void *
block_alloc(spvcond_heap *heap, size_t size, bool zero)
{
    if (size > SIZE_MAX - HUGE_PAGE - HEADER)
        return NULL;
    if (size + HEADER > SLAB_MAX) {
        size_t len = round_up(size + HEADER, HUGE_PAGE);
        struct header *h = map_huge(len, HUGE_PAGE);
        return h ? user_part(h, len, MAPPED_BLOCK) : NULL;
    }
    if (size + HEADER >= SLAB_FROM)
        return slab_alloc(heap, size, zero);
    struct header *h = zero ? calloc(1, size + HEADER) : malloc(size + HEADER);
    return h ? user_part(h, size, MALLOC_BLOCK) : NULL;
}

void *
spvcond_heap_alloc(void *heap, size_t size)
{
    return block_alloc(heap, size, false);
}

void *
spvcond_heap_calloc(void *heap, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return block_alloc(heap, count * size, true);
}

void
spvcond_heap_free(void *heap, void *ptr)
{
    if (!ptr)
        return;
    struct header *h = header_of(ptr);
    if (h->kind == MAPPED_BLOCK)
        munmap(h, h->bytes);
    else if (h->kind == SLAB_BLOCK)
        slab_free(heap, h);
    else
        free(h);
}

void *
spvcond_heap_realloc(void *heap, void *ptr, size_t size)
{
    if (!ptr)
        return spvcond_heap_alloc(heap, size);
    if (size > SIZE_MAX - HUGE_PAGE - HEADER)
        return NULL;
    struct header *h = header_of(ptr);
    if (h->kind == MALLOC_BLOCK && size + HEADER < SLAB_FROM) {
        struct header *n = realloc(h, size + HEADER);
        return n ? user_part(n, size, MALLOC_BLOCK) : NULL;
    }
    if (h->kind == MAPPED_BLOCK && size + HEADER > SLAB_MAX) {
        size_t len = round_up(size + HEADER, HUGE_PAGE);
        if (len <= h->bytes)
            return ptr; /* shrinking keeps the mapping: its pages are there already */
        /* In place when the address space after it is free: no copy, no new faults. */
        if (mremap(h, h->bytes, len, 0) != MAP_FAILED) {
            (void)madvise((uint8_t *)h + h->bytes, len - h->bytes, MADV_HUGEPAGE);
            return user_part(h, len, MAPPED_BLOCK);
        }
    }
    if (h->kind == SLAB_BLOCK && size + HEADER <= SLAB_MAX) {
        struct slab *s = slab_of(h);
        size_t old = round_up(h->bytes + HEADER, HEADER), need = round_up(size + HEADER, HEADER);
        bool last = (uint8_t *)h + old == (uint8_t *)s + s->used; /* the slab's last block grows in place */
        if (need <= old || (last && s->used - old + need <= SLAB_SIZE)) {
            if (last)
                s->used = s->used - old + need;
            if (s->high < s->used)
                s->high = s->used;
            return user_part(h, size, SLAB_BLOCK);
        }
    }
    /* Between kinds, or no room where it is: a new block and a copy. */
    void *n = block_alloc(heap, size, false);
    if (!n)
        return NULL;
    size_t old = h->kind == MAPPED_BLOCK ? h->bytes - HEADER : h->bytes;
    memcpy(n, ptr, old < size ? old : size);
    spvcond_heap_free(heap, ptr);
    return n;
}

void
spvcond_heap_release(spvcond_heap *heap)
{
    if (heap->slab && heap->slab->live == 0)
        munmap(heap->slab, SLAB_SIZE);
    heap->slab = NULL;
}

#endif
