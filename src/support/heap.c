/* SPDX-License-Identifier: MIT */
/* The allocator a context uses when the caller gives none (on Linux; sanitizer and valgrind builds use
 * the C library's, which those tools watch).
 *
 * Why not plain malloc: our tables are fresh on every call, and a fresh 4 KB page costs a fault, which on
 * a virtual machine can cost more than the work itself (docs/performance.md has the figures). So:
 *  - blocks from 64 KB up (from 16 bytes once the context has a slab) are carved from slabs: 64 MB of
 *    address space in huge pages, touched as they fill. A freed block becomes a hole, merged with the
 *    holes beside it, or gives its space back to the slab's carved end; a block takes the smallest hole
 *    it fits, else space at the end, so that pages are reused as well as faulted few. When all of a
 *    slab's blocks are freed the current slab is refilled from the start (its pages stay until the
 *    context goes), another is unmapped. calloc clears only space used before.
 *  - blocks larger than 4 MB that no hole or end of the current slab holds (instruction and id tables
 *    of large modules, their output) are mappings of whole 2 MB transparent huge pages: one fault per
 *    2 MB; zero when fresh; grown in place by mremap when the address space allows.
 *  - a freed mapping stays mapped as a spare (up to 16), for the next large blocks: one of about its
 *    size takes it; one that none fits is a fresh mapping into which the spares' pages are moved by
 *    mremap (no copy, no fault); the slab, carving into pages it never touched, takes spare pages
 *    the same way. A context kept for module after module (a JIT compiler's) thus faults no fresh
 *    memory after the first. The whole pages of a zeroed block are given back rather than cleared
 *    (writing would make resident all of a table its pass fills sparsely), and a zeroed block takes no
 *    spare pages but has as many unmapped: the peak stays that of the largest module.
 *  - blocks under 64 KB are malloc's while the context has no slab (a small module's call opens none);
 *    once it has one, all but the tiniest come from it. So the growing arrays of one call are not
 *    trimmed from glibc's heap at its end and faulted back by the next, and a large module's call does
 *    not depend on the state another library left glibc's heap in: in a process where LLVM or
 *    SPIRV-Tools had left it in holes (the OpenCL layer's, a JIT compiler's), glibc's malloc of the
 *    blocks from 4 KB down made reading and specializing an 8 MB module take 3 to 5 times as long
 *    (docs/performance.md, "A heap another library used").
 * Every block carries a 16-byte header saying which kind it is and its size. The state (the current
 * slab, its holes, the spares) belongs to one context, so a context and its modules are used by one
 * thread at a time. */
#define _GNU_SOURCE /* mremap, MADV_HUGEPAGE */
#include "support/heap.h"

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
#define SLAB_FROM 32u          /* blocks this large (header included) share the current slab... */
#define SLAB_OPEN (64u << 10)  /* ...from this size they open one when there is none or no room... */
#define SLAB_MAX (4u << 20)    /* ...and larger ones do not (there: a mapping) */
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

static void
remove_spare(spvcond_heap *heap, size_t k)
{
    heap->spares[k] = heap->spares[--heap->spare_count];
}

/* A freed mapping keeps its pages for the next large blocks. With no slot left, the smallest of the
 * spares and it is unmapped. */
static void
keep_spare(spvcond_heap *heap, void *at, size_t len)
{
    struct spvcond_heap_spare *spares = heap->spares;
    if (heap->spare_count == SPVCOND_HEAP_SPARES) {
        size_t smallest = 0;
        for (size_t k = 1; k < heap->spare_count; k++)
            if (spares[k].len < spares[smallest].len)
                smallest = k;
        if (spares[smallest].len >= len) {
            munmap(at, len);
            return;
        }
        munmap(spares[smallest].at, spares[smallest].len);
        remove_spare(heap, smallest);
    }
    spares[heap->spare_count++] = (struct spvcond_heap_spare){at, len};
}

static struct spvcond_heap_spare *
largest_spare(spvcond_heap *heap)
{
    size_t k = 0;
    for (size_t j = 1; j < heap->spare_count; j++)
        if (heap->spares[j].len > heap->spares[k].len)
            k = j;
    return &heap->spares[k];
}

/* Moves the largest spare's pages, up to `len` bytes of them, to `to` (part of a fresh mapping): no
 * copy, no fault. The bytes moved, or 0 when none could be (the destination is mapped again). */
static size_t
move_spare(spvcond_heap *heap, uint8_t *to, size_t len)
{
    struct spvcond_heap_spare *s = largest_spare(heap);
    size_t k = (size_t)(s - heap->spares), part = s->len < len ? s->len : len;
    if (mremap(s->at, part, part, MREMAP_MAYMOVE | MREMAP_FIXED, to) == MAP_FAILED) {
        /* A spare mremap will not move (older kernels refuse one spanning several kernel mappings,
         * as spares made of moved pages can) goes, and the destination, which the attempt may have
         * unmapped, is fresh again. */
        munmap(s->at, s->len);
        remove_spare(heap, k);
        if (mmap(to, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
            return SIZE_MAX;
        (void)madvise(to, len, MADV_HUGEPAGE);
        return 0;
    }
    if (part == s->len)
        remove_spare(heap, k);
    else
        *s = (struct spvcond_heap_spare){(uint8_t *)s->at + part, s->len - part};
    return part;
}

/* Unmaps up to `len` bytes of the largest spare: the bytes unmapped. */
static size_t
drop_spare(spvcond_heap *heap, size_t len)
{
    struct spvcond_heap_spare *s = largest_spare(heap);
    size_t part = s->len < len ? s->len : len;
    munmap(s->at, part);
    if (part == s->len)
        remove_spare(heap, (size_t)(s - heap->spares));
    else
        *s = (struct spvcond_heap_spare){(uint8_t *)s->at + part, s->len - part};
    return part;
}

/* The slab's carved space is to reach `end`: pages it never touched up to there are the spares' instead,
 * moved in, so that a context running module after module keeps to the pages it has (the spares hold
 * the last module's tables, which a pass's smaller blocks in the slab would otherwise add to); for a
 * zeroed block, as many spare pages are unmapped (see map_block). false if the slab lost pages (a move
 * failed and they could not be mapped again). */
static bool
feed_slab(spvcond_heap *heap, struct slab *s, size_t end, bool zero)
{
    size_t from = round_up(s->high, HUGE_PAGE), to = round_up(end, HUGE_PAGE);
    while (from < to && heap->spare_count) {
        if (zero) {
            from += drop_spare(heap, to - from);
            continue;
        }
        size_t moved = move_spare(heap, (uint8_t *)s + from, to - from);
        if (moved == SIZE_MAX)
            return false;
        from += moved;
        if (moved)
            s->high = from; /* written before: a zeroed block clears them */
    }
    return true;
}

/* The current slab is given up (it lost pages): its blocks stay until freed, and it goes with them. */
static void
retire_slab(spvcond_heap *heap)
{
    if (heap->slab->live == 0)
        munmap(heap->slab, SLAB_SIZE);
    heap->slab = NULL;
    heap->hole_count = 0;
}

/* Zeroes [from, to) of slab s: its whole huge pages are given back (they read as zero, and cost a fault
 * where touched, as fresh ones would: clearing them would touch all of a table its pass may fill
 * sparsely, validate's per-id tables), the rest is cleared. */
static void
clear(struct slab *s, size_t from, size_t to)
{
    size_t first = round_up(from, HUGE_PAGE), last = to & ~(size_t)(HUGE_PAGE - 1);
    if (first >= last || madvise((uint8_t *)s + first, last - first, MADV_DONTNEED) != 0) {
        memset((uint8_t *)s + from, 0, to - from);
        return;
    }
    memset((uint8_t *)s + from, 0, first - from);
    memset((uint8_t *)s + last, 0, to - last);
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
        if (at + need > s->high && !feed_slab(heap, s, at + need, zero)) {
            retire_slab(heap);
            return NULL;
        }
        s->used += need;
    }
    struct header *h = (struct header *)((uint8_t *)s + at);
    if (zero && at < s->high) /* only what an earlier block dirtied */
        clear(s, at, s->high < at + need ? s->high : at + need);
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

/* `len` bytes (whole huge pages) of the smallest spare that holds them and is at most a quarter larger
 * (the rest stays a spare), or NULL. Near fits only: a context running module after module asks for
 * the same blocks again, and a block that took part of a larger spare would leave its rest too small
 * for the block that spare was. Zeroed when `zero`: the pages are given back and read as zero
 * (clearing them would touch all of a table its pass may fill sparsely, validate's per-id tables;
 * given back, they cost faults where touched, as fresh ones would). */
static struct header *
take_spare(spvcond_heap *heap, size_t len, bool zero)
{
    size_t best = heap->spare_count;
    for (size_t k = 0; k < heap->spare_count; k++)
        if (heap->spares[k].len >= len && heap->spares[k].len - len <= len / 4 &&
            (best == heap->spare_count || heap->spares[k].len < heap->spares[best].len))
            best = k;
    if (best == heap->spare_count)
        return NULL;
    struct spvcond_heap_spare *s = &heap->spares[best];
    uint8_t *p = s->at;
    if (s->len > len)
        *s = (struct spvcond_heap_spare){p + len, s->len - len};
    else
        remove_spare(heap, best);
    if (zero && madvise(p, len, MADV_DONTNEED) != 0)
        memset(p, 0, len);
    return (struct header *)p;
}

/* A fresh mapping of `len` bytes (whole huge pages) for a large block that no spare holds. The spares'
 * pages are moved into it, largest first, so that only the rest costs faults: one per 2 MB page, at
 * the 1 GB scale more time than the work when the hypervisor backs the pages anew. A zeroed block is
 * left fresh (see take_spare) and as many spare pages are unmapped instead: either way, the pages it
 * will touch replace spares, and a context's peak stays that of its largest module. */
static struct header *
map_block(spvcond_heap *heap, size_t len, bool zero)
{
    release_free_pages(heap);
    uint8_t *p = map_huge(len, HUGE_PAGE);
    for (size_t done = 0; p && done < len && heap->spare_count;) {
        size_t moved = zero ? drop_spare(heap, len - done) : move_spare(heap, p + done, len - done);
        if (moved == SIZE_MAX) {
            munmap(p, len);
            return NULL;
        }
        done += moved;
    }
    return (struct header *)p;
}

/* Zeroed when `zero`. A fresh mapping is zero already; slab space is cleared where it was used before. */
static void *
block_alloc(spvcond_heap *heap, size_t size, bool zero)
{
    if (size > SIZE_MAX - HUGE_PAGE - HEADER)
        return NULL;
    if (size + HEADER >= SLAB_FROM) {
        /* A large block takes a spare mapping, else freed or unused space of the current slab, whose
         * pages may be there already (the output, after a pass's temporaries went), but never a slab
         * of its own; else a mapping. Spares first: in a context that runs module after module, they
         * hold the last module's tables and output, and the slab grows no further than before. A
         * block under SLAB_OPEN opens no slab either: a small module in a fresh context would touch
         * a 2 MB huge page (10 us to specialize one of 3 KB became 105). */
        bool large = size + HEADER > SLAB_MAX, opens = !large && size + HEADER >= SLAB_OPEN;
        size_t len = round_up(size + HEADER, HUGE_PAGE);
        struct header *h = large ? take_spare(heap, len, zero) : NULL;
        if (h)
            return user_part(h, len, MAPPED_BLOCK);
        void *p = slab_alloc(heap, size, zero, opens);
        if (p || opens)
            return p;
        if (large) {
            h = map_block(heap, len, zero);
            return h ? user_part(h, len, MAPPED_BLOCK) : NULL;
        }
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
        keep_spare(heap, h, h->bytes);
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
    if (h->kind == MALLOC_BLOCK && size + HEADER < (heap->slab ? SLAB_FROM : SLAB_OPEN)) {
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
            if (s == heap->slab && at + need > s->high && !feed_slab(heap, s, at + need, false)) {
                retire_slab(heap); /* its pages up to `high`, this block's among them, stay */
            } else {
                s->used = at + need;
                if (s->high < s->used)
                    s->high = s->used;
                return user_part(h, size, SLAB_BLOCK);
            }
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
spvcond_heap_trim(spvcond_heap *heap)
{
    for (size_t k = 0; k < heap->spare_count; k++)
        munmap(heap->spares[k].at, heap->spares[k].len);
    heap->spare_count = 0;
    if (heap->slab && heap->slab->live == 0)
        retire_slab(heap);
    else
        release_free_pages(heap);
}

void
spvcond_heap_release(spvcond_heap *heap)
{
    spvcond_heap_trim(heap);
    heap->slab = NULL;
    heap->hole_count = 0;
}

#endif
