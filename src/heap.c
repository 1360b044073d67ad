/* The allocator a context uses when the caller gives none (on Linux; sanitizer and valgrind builds use
 * the C library's, which those tools watch).
 *
 * Why not plain malloc: a fresh 4 KB page costs a fault, 11 us on the virtual machines we measure on
 * (280 ms of faults against 14 ms of work for 100 MB), and our tables are fresh on every call. So:
 *  - blocks from 64 KB up are carved from slabs: 64 MB of address space in huge pages, touched as
 *    they fill. Through glibc each was a fresh small-page mapping (about 1,300 faults per annotate of
 *    libclc); a 2 MB slab, or a mapping each, rounded every block up to 2 MB (validate of an 8 MB
 *    module peaked at 35 MB, against 26 MB then). A freed block becomes a hole, merged with the holes
 *    beside it, or gives its space back to the slab's carved end; a block takes the smallest hole it
 *    fits, else space at the end. Reusing pages matters as much as faulting few: specializing a 10 MB
 *    module touched 22 MB of slab while at most 9 MB of it were live, and its output was a mapping of
 *    its own beside them. When all of a slab's blocks are freed the current slab is refilled from the
 *    start (its pages stay until the context goes), another is unmapped. calloc clears only space
 *    used before.
 *  - blocks larger than 4 MB that no hole or end of the current slab holds (instruction and id tables
 *    of large modules, their output) are mappings of whole 2 MB transparent huge pages: one fault per
 *    2 MB; zero when fresh; grown in place by mremap when the address space allows. (Through glibc,
 *    once a large block had been freed, blocks up to 32 MB came from its heap: calloc cleared them in
 *    small pages and realloc copied: 9,250 faults per specialize of the 100 MB synthetic module.)
 *  - smaller blocks are malloc's.
 * Every block carries a 16-byte header saying which kind it is and its size. The state (the current
 * slab and its holes) belongs to one context, so a context and its modules are used by one thread at a time. */
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
#define SLAB_MAX (4u << 20)    /* ...and larger ones do when there is room, never opening a slab */
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

static void
remove_hole(spvcond_heap *heap, size_t k)
{
    memmove(&heap->holes[k], &heap->holes[k + 1], (heap->hole_count - k - 1) * sizeof(heap->holes[0]));
    heap->hole_count--;
}

/* [at, at + len) of the current slab is free again: merged with the holes beside it, or, at the carved
 * end, given back to it (with the hole below, if they touch). A hole that finds no slot among the
 * SPVCOND_HEAP_HOLES is forgotten until the slab empties. */
static void
give_back(spvcond_heap *heap, size_t at, size_t len)
{
    struct slab *s = heap->slab;
    struct spvcond_heap_hole *holes = heap->holes;
    size_t n = heap->hole_count, k = 0;
    while (k < n && holes[k].at < at)
        k++;
    bool joins_below = k > 0 && holes[k - 1].at + holes[k - 1].len == at;
    if (at + len == s->used) {
        s->used = at;
        if (joins_below) {
            s->used = holes[k - 1].at;
            remove_hole(heap, k - 1);
        }
        return;
    }
    bool joins_above = k < n && at + len == holes[k].at;
    if (joins_below && joins_above) {
        holes[k - 1].len += (uint32_t)len + holes[k].len;
        remove_hole(heap, k);
    } else if (joins_below) {
        holes[k - 1].len += (uint32_t)len;
    } else if (joins_above) {
        holes[k].at = (uint32_t)at;
        holes[k].len += (uint32_t)len;
    } else if (n < SPVCOND_HEAP_HOLES) {
        memmove(&holes[k + 1], &holes[k], (n - k) * sizeof(holes[0]));
        holes[k] = (struct spvcond_heap_hole){(uint32_t)at, (uint32_t)len};
        heap->hole_count++;
    }
}

/* The smallest hole of at least `need` bytes starting below offset `below`, shrunk by them: their
 * offset in the slab, or 0. */
static size_t
take_hole(spvcond_heap *heap, size_t need, size_t below)
{
    size_t best = heap->hole_count;
    for (size_t k = 0; k < heap->hole_count && heap->holes[k].at < below; k++)
        if (heap->holes[k].len >= need && (best == heap->hole_count || heap->holes[k].len < heap->holes[best].len))
            best = k;
    if (best == heap->hole_count)
        return 0;
    size_t at = heap->holes[best].at;
    heap->holes[best].at += (uint32_t)need;
    heap->holes[best].len -= (uint32_t)need;
    if (heap->holes[best].len == 0)
        remove_hole(heap, best);
    return at;
}

/* A block from the current slab: the best-fitting hole, else its carved end. When neither has room,
 * a fresh slab if `may_open`, else NULL. */
static void *
slab_alloc(spvcond_heap *heap, size_t size, bool zero, bool may_open)
{
    size_t need = round_up(size + HEADER, HEADER);
    if (need > SLAB_SIZE - SLAB_START)
        return NULL;
    struct slab *s = heap->slab;
    size_t at = s ? take_hole(heap, need, SIZE_MAX) : 0;
    if (!at) {
        if (!s || s->used + need > SLAB_SIZE) {
            if (!may_open || !(s = map_huge(SLAB_SIZE, SLAB_SIZE)))
                return NULL;
            s->used = s->high = SLAB_START;
            if (heap->slab && heap->slab->live == 0)
                munmap(heap->slab, SLAB_SIZE);
            heap->slab = s;
            heap->hole_count = 0;
        }
        at = s->used;
        s->used += need;
    }
    struct header *h = (struct header *)((uint8_t *)s + at);
    if (zero && at < s->high) /* only what an earlier block dirtied */
        memset(h, 0, (s->high < at + need ? s->high : at + need) - at);
    if (s->high < at + need)
        s->high = at + need;
    s->live++;
    return user_part(h, size, SLAB_BLOCK);
}

static void
slab_free(spvcond_heap *heap, struct header *h)
{
    struct slab *s = slab_of(h);
    if (--s->live == 0) {
        if (s != heap->slab) {
            munmap(s, SLAB_SIZE);
            return;
        }
        s->used = SLAB_START; /* refilled from the start: its pages stay */
        heap->hole_count = 0;
        return;
    }
    /* The holes of earlier slabs are not kept: they are unmapped when their last block goes. */
    if (s == heap->slab)
        give_back(heap, (size_t)((uint8_t *)h - (uint8_t *)s), round_up(h->bytes + HEADER, HEADER));
}

/* madvise(MADV_DONTNEED) the whole huge pages of [from, to) in slab s: they read as zero afterwards. */
static void
release_pages(struct slab *s, size_t from, size_t to)
{
    from = round_up(from, HUGE_PAGE);
    to &= ~(size_t)(HUGE_PAGE - 1);
    if (from < to)
        (void)madvise((uint8_t *)s + from, to - from, MADV_DONTNEED); /* failure keeps them: no harm */
}

/* Before a large block is mapped beside the current slab: the slab's free pages (its holes, and what
 * lies past its carved end) go back to the system. The output of a 100 MB module, mapped while 35 MB
 * of a pass's freed temporaries stayed resident, made the peak 3.2x the module. */
static void
release_free_pages(spvcond_heap *heap)
{
    struct slab *s = heap->slab;
    if (!s)
        return;
    for (size_t k = 0; k < heap->hole_count; k++)
        release_pages(s, heap->holes[k].at, (size_t)heap->holes[k].at + heap->holes[k].len);
    if (s->high > s->used) {
        release_pages(s, s->used, round_up(s->high, HUGE_PAGE));
        size_t clean = round_up(s->used, HUGE_PAGE); /* past it, zero again */
        if (clean < s->high)
            s->high = clean;
    }
}

/* Zeroed when `zero`. A fresh mapping is zero already; slab space is cleared where it was used before. */
static void *
block_alloc(spvcond_heap *heap, size_t size, bool zero)
{
    if (size > SIZE_MAX - HUGE_PAGE - HEADER)
        return NULL;
    if (size + HEADER >= SLAB_FROM) {
        /* A large block takes freed or unused space of the current slab, whose pages may be there
         * already (the output, after a pass's temporaries went), but never a slab of its own. */
        bool large = size + HEADER > SLAB_MAX;
        void *p = slab_alloc(heap, size, zero, !large);
        if (p || !large)
            return p;
        release_free_pages(heap);
        size_t len = round_up(size + HEADER, HUGE_PAGE);
        struct header *h = map_huge(len, HUGE_PAGE);
        return h ? user_part(h, len, MAPPED_BLOCK) : NULL;
    }
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
spvcond_heap_move_down(spvcond_heap *heap, void *ptr)
{
    struct header *h = ptr ? header_of(ptr) : NULL;
    if (!h || h->kind != SLAB_BLOCK || slab_of(h) != heap->slab)
        return ptr;
    struct slab *s = heap->slab;
    size_t at = (size_t)((uint8_t *)h - (uint8_t *)s), need = round_up(h->bytes + HEADER, HEADER);
    size_t to = take_hole(heap, need, at); /* holes lie below the carved end: `high` covers them */
    if (!to)
        return ptr;
    struct header *n = (struct header *)((uint8_t *)s + to);
    memcpy(n, h, need); /* header included */
    give_back(heap, at, need);
    return (uint8_t *)n + HEADER;
}

void *
spvcond_heap_realloc(void *user, void *ptr, size_t size)
{
    spvcond_heap *heap = user;
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
    if (h->kind == SLAB_BLOCK && size + HEADER >= SLAB_FROM) {
        struct slab *s = slab_of(h);
        size_t at = (size_t)((uint8_t *)h - (uint8_t *)s);
        size_t old = round_up(h->bytes + HEADER, HEADER), need = round_up(size + HEADER, HEADER);
        if (need <= old) { /* the tail is free again */
            if (need < old && s == heap->slab)
                give_back(heap, at + need, old - need);
            return user_part(h, size, SLAB_BLOCK);
        }
        if (at + old == s->used && at + need <= SLAB_SIZE) { /* the slab's last block grows in place */
            s->used = at + need;
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
    heap->hole_count = 0;
}

#endif
