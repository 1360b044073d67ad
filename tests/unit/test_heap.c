/* SPDX-License-Identifier: MIT */
/* The default allocator's huge-page heap (src/support/heap.c). Sanitizer builds give contexts the C library's
 * allocator, so this suite drives the heap directly, and through whole passes as a caller's allocator. */
#define _GNU_SOURCE /* mincore */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "support/heap.h"
#include "helpers.h"

#if SPVCOND_HAVE_HEAP

#define KB 1024u
#define MB (1024u * 1024u)

static void
fill(uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t k = 0; k < n; k++)
        p[k] = (uint8_t)(seed + k * 7);
}

static bool
filled(const uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t k = 0; k < n; k++)
        if (p[k] != (uint8_t)(seed + k * 7))
            return false;
    return true;
}

static bool
zero(const uint8_t *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (p[k])
            return false;
    return true;
}

/* Small (malloc), slab and mapped sizes, and the edges between them. */
static const size_t sizes[] = {1, 100, 4 * KB - 17, 4 * KB - 16, 100 * KB, MB, 3 * MB + 5, 4 * MB - 16, 4 * MB - 15};

Test(heap, blocks_of_every_kind_are_aligned_writable_and_zeroed_on_request)
{
    spvcond_heap h = {0};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint8_t *a = spvcond_heap_alloc(&h, sizes[i]);
        cr_assert(a && (uintptr_t)a % 16 == 0, "size %zu", sizes[i]);
        fill(a, sizes[i], 1);
        spvcond_heap_free(&h, a);
        /* Slab space comes back dirty; a zeroed block must be cleared all the same. */
        uint8_t *z = spvcond_heap_calloc(&h, sizes[i], 1);
        cr_assert(z && zero(z, sizes[i]), "size %zu", sizes[i]);
        spvcond_heap_free(&h, z);
    }
    cr_assert_null(spvcond_heap_calloc(&h, SIZE_MAX / 2, 4));
    cr_assert_null(spvcond_heap_alloc(&h, SIZE_MAX - 100));
    spvcond_heap_release(&h);
    cr_assert_null(h.slab);
}

Test(heap, realloc_keeps_contents_across_every_kind)
{
    spvcond_heap h = {0};
    const size_t steps[] = {10, 50 * KB, 200 * KB, 900 * KB, 2 * MB, 9 * MB, 40 * MB, 5 * MB, 300 * KB, 20, 0};
    uint8_t *p = spvcond_heap_alloc(&h, steps[0]);
    fill(p, steps[0], 3);
    for (size_t i = 1; steps[i]; i++) {
        size_t kept = steps[i] < steps[i - 1] ? steps[i] : steps[i - 1];
        p = spvcond_heap_realloc(&h, p, steps[i]);
        cr_assert(p && filled(p, kept, 3), "step %zu -> %zu bytes", i, steps[i]);
        fill(p, steps[i], 3);
    }
    spvcond_heap_free(&h, p);
    spvcond_heap_release(&h);
}

Test(heap, a_slab_is_refilled_once_its_blocks_are_freed)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, 100 * KB), *b = spvcond_heap_alloc(&h, 100 * KB);
    cr_assert_eq(b, a + 100 * KB + 16, "blocks are carved in order");
    spvcond_heap_free(&h, a);
    spvcond_heap_free(&h, b);
    cr_assert_eq(h.hole_count, 0);
    cr_assert_eq(spvcond_heap_alloc(&h, 300 * KB), a, "an empty current slab starts again");
    spvcond_heap_free(&h, a);
    spvcond_heap_release(&h);
}

Test(heap, the_last_block_carved_gives_its_space_back)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, 100 * KB), *b = spvcond_heap_alloc(&h, 200 * KB);
    spvcond_heap_free(&h, b);
    cr_assert_eq(spvcond_heap_alloc(&h, 300 * KB), b);
    spvcond_heap_free(&h, b);
    spvcond_heap_free(&h, a);
    spvcond_heap_release(&h);
}

/* Blocks freed in the middle become holes; neighbouring holes merge; a block takes the smallest hole
 * it fits; the carved end retreats over a hole that comes to touch it. */
Test(heap, freed_blocks_are_holes_that_merge_and_are_reused_best_fit)
{
    spvcond_heap h = {0};
    const size_t n[6] = {100 * KB, 300 * KB, 100 * KB, 150 * KB, 100 * KB, 64 * KB};
    uint8_t *p[6];
    for (int i = 0; i < 6; i++)
        p[i] = spvcond_heap_alloc(&h, n[i]);
    spvcond_heap_free(&h, p[1]); /* holes: 300 KB, then 150 KB */
    spvcond_heap_free(&h, p[3]);
    cr_assert_eq(h.hole_count, 2);
    uint8_t *q = spvcond_heap_alloc(&h, 140 * KB);
    cr_assert_eq(q, p[3], "the smallest hole that fits");
    uint8_t *r = spvcond_heap_alloc(&h, 200 * KB);
    cr_assert_eq(r, p[1], "the only hole that fits");
    cr_assert_eq(h.hole_count, 2, "both holes keep their rest");
    spvcond_heap_free(&h, r);
    spvcond_heap_free(&h, p[2]); /* merges with the hole before it... */
    spvcond_heap_free(&h, q);    /* ...and this joins both */
    cr_assert_eq(h.hole_count, 1);
    cr_assert_eq(h.holes[0].len, 300 * KB + 100 * KB + 150 * KB + 3 * 16);
    uint8_t *big = spvcond_heap_alloc(&h, 500 * KB);
    cr_assert_eq(big, p[1], "the merged hole holds what none of its parts could");
    spvcond_heap_free(&h, big);
    spvcond_heap_free(&h, p[5]); /* the end retreats over p[5], not yet over p[4] */
    spvcond_heap_free(&h, p[4]); /* now over p[4] and the hole below it */
    cr_assert_eq(h.hole_count, 0);
    cr_assert_eq(spvcond_heap_alloc(&h, 700 * KB), p[1], "carved right after the one live block");
    spvcond_heap_free(&h, p[1]);
    spvcond_heap_free(&h, p[0]);
    spvcond_heap_release(&h);
}

/* A block over 4 MB takes room in the current slab (pages a pass's temporaries touched) rather than
 * a mapping; one that does not fit there is a mapping, and opens no slab. */
Test(heap, large_blocks_use_the_current_slab_when_it_has_room)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, 100 * KB);
    uint8_t *t = spvcond_heap_alloc(&h, 8 * MB), *keep = spvcond_heap_alloc(&h, 100 * KB);
    cr_assert_eq(t, a + 100 * KB + 16);
    spvcond_heap_free(&h, t);
    uint8_t *out = spvcond_heap_alloc(&h, 6 * MB);
    cr_assert_eq(out, t, "the hole the temporary left");
    fill(out, 6 * MB, 4);
    uint8_t *huge = spvcond_heap_alloc(&h, 70 * MB);
    cr_assert(huge && (huge < a || huge >= a + 64 * MB), "a mapping of its own");
    fill(huge, 70 * MB, 8);
    cr_assert(filled(out, 6 * MB, 4));
    uint8_t *slab = (uint8_t *)h.slab;
    uint8_t *end = spvcond_heap_alloc(&h, 60 * MB);
    cr_assert(end && (end < slab || end >= slab + 64 * MB), "no room left at the slab's end: a mapping");
    cr_assert_eq((uint8_t *)h.slab, slab, "no slab opened for it");
    spvcond_heap_free(&h, end);
    spvcond_heap_free(&h, huge);
    uint8_t *z = spvcond_heap_realloc(&h, out, 1 * MB); /* shrinking in place frees the tail */
    cr_assert_eq(z, out);
    cr_assert(filled(z, 1 * MB, 4));
    cr_assert_eq(spvcond_heap_alloc(&h, 4 * MB), out + 1 * MB + 16, "the tail is a hole");
    spvcond_heap_free(&h, out + 1 * MB + 16);
    spvcond_heap_free(&h, z);
    spvcond_heap_free(&h, keep);
    spvcond_heap_free(&h, a);
    spvcond_heap_release(&h);
}

/* An array that grew while temporaries lived sits above the space they left: moved down into it, the
 * carved end retreats, and a large block fits where they were. Blocks with no hole below stay. */
Test(heap, a_block_moved_down_leaves_room_at_the_end)
{
    spvcond_heap h = {0};
    uint8_t *keep = spvcond_heap_alloc(&h, 100 * KB), *temp = spvcond_heap_alloc(&h, 300 * KB);
    uint8_t *grown = spvcond_heap_alloc(&h, 200 * KB);
    fill(grown, 200 * KB, 7);
    cr_assert_eq(spvcond_heap_move_down(&h, grown), grown, "no hole below it");
    cr_assert_eq(spvcond_heap_move_down(&h, keep), keep);
    spvcond_heap_free(&h, temp);
    uint8_t *moved = spvcond_heap_move_down(&h, grown);
    cr_assert_eq(moved, temp);
    cr_assert(filled(moved, 200 * KB, 7));
    cr_assert_eq(h.hole_count, 0, "the rest of the hole joined the carved end");
    cr_assert_eq(spvcond_heap_alloc(&h, 5 * MB), moved + 200 * KB + 16);
    spvcond_heap_free(&h, moved + 200 * KB + 16);
    spvcond_heap_free(&h, moved);
    spvcond_heap_free(&h, keep);
    spvcond_heap_release(&h);
}

/* Before a block too large for the slab is mapped, the slab's free huge pages go back to the system:
 * they read as zero afterwards (a freed block's contents would otherwise stay resident), and a zeroed
 * block from that space is still all zero. */
Test(heap, free_slab_pages_are_released_before_a_large_mapping)
{
    spvcond_heap h = {0};
    uint8_t *keep = spvcond_heap_alloc(&h, 100 * KB), *temp = spvcond_heap_alloc(&h, 8 * MB);
    uint8_t *after = spvcond_heap_alloc(&h, 100 * KB);
    memset(temp, 0xab, 8 * MB);
    spvcond_heap_free(&h, temp);
    uint8_t *whole = (uint8_t *)(((uintptr_t)temp + 2 * MB - 1) & ~(uintptr_t)(2 * MB - 1)); /* a huge page inside */
    cr_assert_eq(whole[0], 0xab, "a hole keeps its pages until then");
    uint8_t *big = spvcond_heap_alloc(&h, 80 * MB);
    cr_assert(big);
    cr_assert(zero(whole, 4 * MB), "the hole's whole pages were released");
    spvcond_heap_free(&h, big);
    uint8_t *z = spvcond_heap_calloc(&h, 8 * MB, 1);
    cr_assert_eq(z, temp);
    cr_assert(zero(z, 8 * MB));
    spvcond_heap_free(&h, z);
    spvcond_heap_free(&h, after);
    spvcond_heap_free(&h, keep);
    spvcond_heap_release(&h);
}

/* The mapping under a mapped block (which starts after a 16-byte header). */
static uint8_t *
mapping_of(void *block)
{
    return (uint8_t *)block - 16;
}

/* A block size whose mapping is exactly `mb` megabytes. */
#define MAPPED(mb) ((size_t)(mb) * MB - 16)

/* Whether all of [p, p + n) (page-aligned) is resident: pages written and not given back. */
static bool
resident(const void *p, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (n + page - 1) / page;
    unsigned char *vec = malloc(pages);
    bool all = vec && mincore((void *)p, n, vec) == 0;
    for (size_t k = 0; all && k < pages; k++)
        all = vec[k] & 1;
    free(vec);
    return all;
}

/* Whether p is a block of the heap's current slab (slabs are 64 MB, aligned to their size). */
static bool
in_slab(const spvcond_heap *h, const void *p)
{
    return h->slab && (uintptr_t)p - (uintptr_t)h->slab < ((size_t)64 << 20);
}

/* Blocks from 16 bytes up (32 with the header) are the heap's once it has a slab, not malloc's: a pass's
 * growing arrays, freed at the end of a call, keep their pages for the next call instead of letting
 * malloc trim them away, and no call depends on what another library left of glibc's heap. Below 64 KB
 * they open no slab (a small module would touch a huge page). */
Test(heap, blocks_with_a_slab_keep_their_pages_for_the_next_call)
{
    spvcond_heap h = {0};
    uint8_t *before = spvcond_heap_alloc(&h, 64 * KB - 17);
    cr_assert(before && !h.slab, "no slab opened below 64 KB");
    uint8_t *opens = spvcond_heap_alloc(&h, 64 * KB - 16);
    cr_assert(in_slab(&h, opens), "64 KB opens one");
    uint8_t *small = spvcond_heap_alloc(&h, 15), *first = spvcond_heap_alloc(&h, 16);
    uint8_t *paged = spvcond_heap_alloc(&h, 4 * KB - 17);
    cr_assert(in_slab(&h, first) && in_slab(&h, paged) && !in_slab(&h, small), "from 16 bytes, blocks share it");
    uint8_t *last[2];
    for (int call = 0; call < 2; call++) {
        uint8_t *p = NULL;
        for (size_t n = 64; n <= 64 * KB; n *= 2) { /* an array doubling as a pass fills it */
            p = spvcond_heap_realloc(&h, p, n);
            cr_assert(p);
            fill(p, n, (uint8_t)call);
        }
        cr_assert(in_slab(&h, p) && filled(p, 64 * KB, (uint8_t)call));
        last[call] = p;
        spvcond_heap_free(&h, p);
        uintptr_t page = (uintptr_t)p & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
        cr_assert(resident((void *)page, 64 * KB), "call %d: its pages stay", call);
    }
    cr_assert_eq(last[1], last[0], "the next call's array takes the same space");
    spvcond_heap_free(&h, small);
    spvcond_heap_free(&h, first);
    spvcond_heap_free(&h, paged);
    spvcond_heap_free(&h, opens);
    spvcond_heap_free(&h, before);
    spvcond_heap_release(&h);
}

/* Whether none of [p, p + n) (page-aligned) is mapped. */
static bool
unmapped(const void *p, size_t n)
{
    unsigned char vec[1];
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (size_t off = 0; off < n; off += page)
        if (mincore((uint8_t *)p + off, page, vec) == 0 || errno != ENOMEM)
            return false;
    return true;
}

/* A freed mapping keeps its pages as a spare: a block of about its size takes them (the rest stays a
 * spare), zeroed if asked by giving them back (they read as zero); the heap's release unmaps spares. */
Test(heap, a_freed_mapping_is_a_spare_for_the_next_large_block)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, MAPPED(10));
    cr_assert(a && !h.slab, "no slab: a mapping");
    fill(a, MAPPED(10), 1);
    spvcond_heap_free(&h, a);
    cr_assert(h.spare_count == 1 && h.spares[0].len == 10 * MB);
    uint8_t *b = spvcond_heap_alloc(&h, MAPPED(8));
    cr_assert_eq(b, a, "a near fit takes the spare");
    cr_assert(resident(mapping_of(b), 8 * MB), "with its pages");
    cr_assert(h.spare_count == 1 && h.spares[0].len == 2 * MB, "its rest stays a spare");
    spvcond_heap_free(&h, b);
    uint8_t *z = spvcond_heap_calloc(&h, MAPPED(8), 1);
    cr_assert_eq(z, a, "the smallest spare that fits");
    cr_assert(zero(z, MAPPED(8)), "a zeroed block from a spare is zero");
    spvcond_heap_free(&h, z);
    spvcond_heap_release(&h);
    cr_assert_eq(h.spare_count, 0);
    cr_assert(unmapped(mapping_of(a), 10 * MB), "released with the heap");
}

/* A block no spare nearly fits is a fresh mapping into which the spares' pages move (no copy, no
 * fault): their old addresses are gone, the new block is resident where they went. A zeroed block
 * stays fresh and as many spare pages are unmapped: either way the heap holds no more pages after. */
Test(heap, spare_pages_move_into_a_block_none_fits)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, MAPPED(8)), *b = spvcond_heap_alloc(&h, MAPPED(12));
    fill(a, MAPPED(8), 1);
    fill(b, MAPPED(12), 2);
    spvcond_heap_free(&h, a);
    spvcond_heap_free(&h, b);
    uint8_t *c = spvcond_heap_alloc(&h, MAPPED(30));
    cr_assert(c);
    cr_assert_eq(h.spare_count, 0);
    cr_assert(unmapped(mapping_of(a), 8 * MB) && unmapped(mapping_of(b), 12 * MB), "their pages moved away");
    cr_assert(resident(mapping_of(c), 20 * MB), "into the new block");
    fill(c, MAPPED(30), 3);
    cr_assert(filled(c, MAPPED(30), 3));
    spvcond_heap_free(&h, c);
    uint8_t *d = spvcond_heap_alloc(&h, MAPPED(6));
    cr_assert(d && h.spare_count == 1 && h.spares[0].len == 24 * MB,
              "a much smaller block takes the front of the largest spare's pages, not all of it");
    spvcond_heap_free(&h, d);
    uint8_t *z = spvcond_heap_calloc(&h, MAPPED(60), 1);
    cr_assert(z && zero(z, MAPPED(60)));
    cr_assert_eq(h.spare_count, 0, "unmapped for the zeroed block's pages");
    spvcond_heap_free(&h, z);
    spvcond_heap_release(&h);
}

/* When the slab carves into pages it never touched, the spares' pages are moved in instead (a context
 * running module after module stays on the pages its last module had); for a zeroed block, as many
 * spare pages are unmapped. */
Test(heap, the_slab_grows_onto_spare_pages)
{
    spvcond_heap h = {0};
    uint8_t *m = spvcond_heap_alloc(&h, MAPPED(10));
    fill(m, MAPPED(10), 1);
    spvcond_heap_free(&h, m);
    uint8_t *first = spvcond_heap_alloc(&h, 100 * KB);
    cr_assert(h.slab);
    cr_assert_eq(h.spare_count, 1, "within the slab's first huge page: nothing moved");
    uint8_t *a = spvcond_heap_alloc(&h, 3 * MB);
    cr_assert(h.spare_count == 1 && h.spares[0].len == 8 * MB, "one huge page moved in");
    cr_assert(resident((uint8_t *)h.slab + 2 * MB, 2 * MB), "resident before a block wrote to it");
    uint8_t *z = spvcond_heap_calloc(&h, 3 * MB, 1);
    cr_assert(zero(z, 3 * MB), "moved pages are cleared for a zeroed block");
    cr_assert(h.spare_count == 1 && h.spares[0].len == 4 * MB, "its fresh pages replace spare pages");
    fill(a, 3 * MB, 2);
    fill(z, 3 * MB, 3);
    uint8_t *g = spvcond_heap_realloc(&h, z, 8 * MB);
    cr_assert_eq(g, z, "the last block grows in place...");
    cr_assert_eq(h.spare_count, 0, "...onto the rest of the spare");
    cr_assert(filled(g, 3 * MB, 3) && filled(a, 3 * MB, 2));
    fill(g, 8 * MB, 4);
    spvcond_heap_free(&h, g);
    spvcond_heap_free(&h, a);
    spvcond_heap_free(&h, first);
    spvcond_heap_release(&h);
}

/* A spare the kernel will not move (here: part of it unmapped behind the heap's back) is dropped, and
 * the block has fresh pages there instead. */
Test(heap, a_spare_that_cannot_move_is_dropped)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, MAPPED(8));
    spvcond_heap_free(&h, a);
    cr_assert_eq(munmap(mapping_of(a) + 2 * MB, 2 * MB), 0);
    uint8_t *b = spvcond_heap_alloc(&h, MAPPED(20));
    cr_assert(b);
    cr_assert_eq(h.spare_count, 0);
    cr_assert(unmapped(mapping_of(a), 8 * MB));
    fill(b, MAPPED(20), 5);
    cr_assert(filled(b, MAPPED(20), 5));
    spvcond_heap_free(&h, b);
    spvcond_heap_release(&h);
}

/* Trimming gives back spares and the slab's free pages, and keeps live blocks; an empty slab goes. */
Test(heap, trimming_gives_back_what_is_kept_for_reuse)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, MAPPED(8)), *keep = spvcond_heap_alloc(&h, 100 * KB);
    uint8_t *temp = spvcond_heap_alloc(&h, 5 * MB), *after = spvcond_heap_alloc(&h, 100 * KB);
    cr_assert_eq(temp, keep + 100 * KB + 16, "in the slab");
    fill(keep, 100 * KB, 1);
    fill(temp, 5 * MB, 2);
    fill(after, 100 * KB, 3);
    spvcond_heap_free(&h, a);
    spvcond_heap_free(&h, temp);
    uint8_t *page = (uint8_t *)h.slab + 2 * MB; /* a whole huge page of temp's */
    cr_assert(h.spare_count == 1 && resident(page, 2 * MB));
    spvcond_heap_trim(&h);
    cr_assert_eq(h.spare_count, 0);
    cr_assert(unmapped(mapping_of(a), 8 * MB));
    cr_assert(!resident(page, 2 * MB) && zero(page, 2 * MB), "the hole's whole pages are given back");
    cr_assert(filled(keep, 100 * KB, 1) && filled(after, 100 * KB, 3), "live blocks stay");
    spvcond_heap_free(&h, keep);
    spvcond_heap_free(&h, after);
    uint8_t *slab = (uint8_t *)h.slab;
    spvcond_heap_trim(&h);
    cr_assert(!h.slab && unmapped(slab, 64 * MB), "the empty slab is unmapped");
    uint8_t *again = spvcond_heap_alloc(&h, 100 * KB);
    cr_assert(again && h.slab, "and a new one opened when needed");
    spvcond_heap_free(&h, again);
    spvcond_heap_release(&h);
}

/* More freed mappings than the heap keeps: the smallest are unmapped. */
Test(heap, the_largest_spares_are_kept)
{
    spvcond_heap h = {0};
    enum { N = SPVCOND_HEAP_SPARES + 4 };
    uint8_t *p[N];
    for (int i = 0; i < N; i++) /* 6, 8, ... MB in a scrambled order */
        p[i] = spvcond_heap_alloc(&h, MAPPED(2 * (3 + (i * 7) % N)));
    for (int i = 0; i < N; i++)
        spvcond_heap_free(&h, p[i]);
    cr_assert_eq(h.spare_count, SPVCOND_HEAP_SPARES);
    for (size_t k = 0; k < h.spare_count; k++)
        cr_assert_geq(h.spares[k].len, 14 * MB, "spare %zu: %zu bytes", k, h.spares[k].len);
    for (int i = 0; i < N; i++)
        if ((size_t)(2 * (3 + (i * 7) % N)) < 14)
            cr_assert(unmapped(mapping_of(p[i]), 2 * MB), "block %d", i);
    spvcond_heap_release(&h);
}

/* More holes than the heap keeps: the ones it cannot keep are forgotten, never handed out twice. */
Test(heap, holes_past_the_limit_are_forgotten_safely)
{
    spvcond_heap h = {0};
    enum { N = 2 * SPVCOND_HEAP_HOLES + 10 };
    uint8_t *p[N];
    for (int i = 0; i < N; i++) {
        p[i] = spvcond_heap_alloc(&h, 64 * KB);
        fill(p[i], 64 * KB, (uint8_t)i);
    }
    for (int i = 0; i < N; i += 2)
        spvcond_heap_free(&h, p[i]);
    cr_assert_eq(h.hole_count, SPVCOND_HEAP_HOLES);
    for (int i = 0; i < N; i += 2)
        p[i] = spvcond_heap_alloc(&h, 64 * KB);
    for (int i = 0; i < N; i += 2)
        fill(p[i], 64 * KB, (uint8_t)i);
    for (int i = 0; i < N; i++)
        cr_assert(filled(p[i], 64 * KB, (uint8_t)i), "block %d", i);
    for (int i = 0; i < N; i++)
        spvcond_heap_free(&h, p[i]);
    spvcond_heap_release(&h);
}

/* A zeroed block is cleared where earlier blocks wrote, and only there: the rest is fresh. */
Test(heap, a_zeroed_block_over_used_and_fresh_space_is_all_zero)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, 100 * KB);
    fill(a, 100 * KB, 5);
    spvcond_heap_free(&h, a);
    uint8_t *z = spvcond_heap_calloc(&h, 300 * KB, 1);
    cr_assert_eq(z, a);
    cr_assert(zero(z, 300 * KB));
    fill(z, 300 * KB, 6);
    spvcond_heap_free(&h, z);
    uint8_t *y = spvcond_heap_calloc(&h, 50 * KB, 2);
    cr_assert(zero(y, 100 * KB));
    spvcond_heap_free(&h, y);
    spvcond_heap_release(&h);
}

Test(heap, the_last_block_of_a_slab_grows_in_place)
{
    spvcond_heap h = {0};
    uint8_t *a = spvcond_heap_alloc(&h, 70 * KB);
    fill(a, 70 * KB, 9);
    uint8_t *b = spvcond_heap_realloc(&h, a, 600 * KB);
    cr_assert_eq(a, b);
    cr_assert(filled(b, 70 * KB, 9));
    spvcond_heap_free(&h, b);
    spvcond_heap_release(&h);
}

/* Many blocks over several slabs, freed in a scrambled order: every slab but the current one is
 * unmapped when its last block goes (ASan would report a block handed out twice as corruption of
 * its neighbour's pattern). */
Test(heap, blocks_over_many_slabs_keep_their_contents)
{
    spvcond_heap h = {0};
    enum { N = 200 };
    uint8_t *p[N];
    size_t n[N];
    for (int i = 0; i < N; i++) {
        n[i] = 64 * KB + (size_t)(i * 7919 % 900) * KB;
        p[i] = spvcond_heap_alloc(&h, n[i]);
        cr_assert(p[i]);
        fill(p[i], n[i], (uint8_t)i);
    }
    for (int k = 0; k < N; k++) {
        int i = k * 37 % N;
        cr_assert(filled(p[i], n[i], (uint8_t)i), "block %d", i);
        spvcond_heap_free(&h, p[i]);
    }
    spvcond_heap_release(&h);
}

static uint64_t
next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

struct live_block {
    uint8_t *p;
    size_t n;
    uint8_t seed;
};

static int
by_address(const void *a, const void *b)
{
    const struct live_block *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p;
}

/* Random allocations, frees, reallocs and moves of every kind of block against a model: live blocks
 * never overlap and keep their contents, zeroed ones come zeroed. */
Test(heap, random_operations_keep_blocks_apart_and_intact)
{
    spvcond_heap h = {0};
    enum { MAX_LIVE = 32, STEPS = 2000 };
    struct live_block live[MAX_LIVE], sorted[MAX_LIVE];
    size_t count = 0;
    uint64_t seed = 42;
    for (int step = 0; step < STEPS; step++) {
        uint64_t what = next_random(&seed) % 10;
        /* Mostly slab sizes, some small and some over 4 MB. */
        size_t kind = next_random(&seed) % 10;
        size_t n = kind == 0 ? 1 + next_random(&seed) % (60 * KB)
                 : kind == 1 ? 4 * MB + next_random(&seed) % (6 * MB)
                             : 64 * KB + next_random(&seed) % (2 * MB);
        if ((what < 4 && count < MAX_LIVE) || count == 0) {
            bool zeroed = what == 0;
            uint8_t *p = zeroed ? spvcond_heap_calloc(&h, n, 1) : spvcond_heap_alloc(&h, n);
            cr_assert(p, "step %d", step);
            if (zeroed)
                cr_assert(zero(p, n), "step %d: a zeroed block of %zu bytes is not zero", step, n);
            live[count] = (struct live_block){p, n, (uint8_t)step};
            fill(p, n, live[count].seed);
            count++;
        } else {
            size_t k = next_random(&seed) % count;
            cr_assert(filled(live[k].p, live[k].n, live[k].seed), "step %d: block %zu changed", step, k);
            if (what < 7) {
                spvcond_heap_free(&h, live[k].p);
                live[k] = live[--count];
            } else if (what < 9) {
                uint8_t *p = spvcond_heap_realloc(&h, live[k].p, n);
                cr_assert(p && filled(p, n < live[k].n ? n : live[k].n, live[k].seed), "step %d", step);
                live[k] = (struct live_block){p, n, (uint8_t)step};
                fill(p, n, live[k].seed);
            } else {
                live[k].p = spvcond_heap_move_down(&h, live[k].p);
                cr_assert(filled(live[k].p, live[k].n, live[k].seed), "step %d: a moved block changed", step);
            }
        }
        if (step % 250 == 0 || step == STEPS - 1) {
            memcpy(sorted, live, count * sizeof(live[0]));
            qsort(sorted, count, sizeof(sorted[0]), by_address);
            for (size_t k = 0; k + 1 < count; k++)
                cr_assert(sorted[k].p + sorted[k].n <= sorted[k + 1].p, "step %d: blocks overlap", step);
            for (size_t k = 0; k < count; k++)
                cr_assert(filled(live[k].p, live[k].n, live[k].seed), "step %d: block %zu changed", step, k);
        }
    }
    for (size_t k = 0; k < count; k++)
        spvcond_heap_free(&h, live[k].p);
    spvcond_heap_release(&h);
}

static void *
heap_alloc(void *user, size_t size)
{
    return spvcond_heap_alloc(user, size);
}

/* The public call is safe with live modules, with either allocator, and on NULL. */
Test(heap, a_context_trimmed_between_calls_keeps_its_modules)
{
    size_t count, out_count;
    uint32_t *words = read_words("/usr/lib/clc/spirv64-mesa3d-.spv", &count);
    spvcond_heap h = {0};
    spvcond_allocator on_heap = {heap_alloc, spvcond_heap_realloc, spvcond_heap_free, &h};
    for (int k = 0; k < 2; k++) {
        spvcond_context *ctx;
        cr_assert_eq(spvcond_context_create(k ? &on_heap : NULL, NULL, NULL, &ctx), SPVCOND_OK);
        spvcond_module *m = parse_or_die(ctx, words, count);
        spvcond_context_trim(ctx);
        uint32_t *out;
        cr_assert_eq(spvcond_module_emit(m, &out, &out_count), SPVCOND_OK);
        cr_assert(out_count == count && !memcmp(out, words, count * 4));
        spvcond_free(ctx, out);
        spvcond_module_destroy(m);
        spvcond_context_trim(ctx);
        spvcond_context_destroy(ctx);
    }
    spvcond_context_trim(NULL);
    spvcond_heap_release(&h);
    free(words);
}

/* Annotates `words`, emits, parses that and specializes it with its SpecId 65536 (the first requirement
 * annotate makes) false, in ctx: the words, malloc'd. */
static uint32_t *
annotate_then_specialize(spvcond_context *ctx, const uint32_t *words, size_t count, size_t *out_count)
{
    spvcond_module *m = parse_or_die(ctx, words, count);
    spvcond_annotate_options ao = {.size = sizeof(spvcond_annotate_options)};
    uint32_t *annotated, *emitted;
    size_t annotated_count;
    cr_assert_eq(spvcond_annotate(m, &ao, NULL), SPVCOND_OK);
    cr_assert_eq(spvcond_module_emit(m, &annotated, &annotated_count), SPVCOND_OK);
    spvcond_module_destroy(m);
    m = parse_or_die(ctx, annotated, annotated_count);
    spvcond_spec_value v = {65536, 0, false};
    spvcond_specialize_options so = {sizeof(spvcond_specialize_options), &v, 1, NULL, 0};
    cr_assert_eq(spvcond_specialize(m, &so, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
    cr_assert_eq(spvcond_module_emit(m, &emitted, out_count), SPVCOND_OK);
    uint32_t *out = malloc(*out_count * 4);
    cr_assert(out);
    memcpy(out, emitted, *out_count * 4);
    spvcond_free(ctx, emitted);
    spvcond_free(ctx, annotated);
    spvcond_module_destroy(m);
    return out;
}

/* The whole library on the heap: libclc annotated and specialized gives the same words as with
 * the C library's allocator. */
Test(heap, passes_on_the_heap_match_passes_on_malloc)
{
    size_t count;
    uint32_t *words = read_words("/usr/lib/clc/spirv64-mesa3d-.spv", &count);
    uint32_t *out[2];
    size_t out_count[2];
    spvcond_heap h = {0};
    spvcond_allocator on_heap = {heap_alloc, spvcond_heap_realloc, spvcond_heap_free, &h};
    for (int k = 0; k < 2; k++) {
        spvcond_context *ctx;
        cr_assert_eq(spvcond_context_create(k ? &on_heap : NULL, NULL, NULL, &ctx), SPVCOND_OK);
        out[k] = annotate_then_specialize(ctx, words, count, &out_count[k]);
        spvcond_context_destroy(ctx);
    }
    cr_assert_eq(out_count[0], out_count[1]);
    cr_assert(memcmp(out[0], out[1], out_count[0] * 4) == 0);
    cr_assert_lt(out_count[0], count, "fp64 false removed the fp64 functions (%zu words of %zu)", out_count[0], count);
    spvcond_heap_release(&h);
    free(out[0]);
    free(out[1]);
    free(words);
}

/* A context kept for module after module, as a JIT compiler keeps one: on a 24 MB synthetic module,
 * whose tables and output are mappings, later rounds run on the spares and the slab the earlier ones
 * left, and give the same words as the C library's allocator. */
Test(heap, a_context_reused_module_after_module_gives_the_same_words)
{
    size_t count, expected_count, out_count;
    uint32_t *words = synth_words("24M", &count);
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    uint32_t *expected = annotate_then_specialize(ctx, words, count, &expected_count);
    spvcond_context_destroy(ctx);
    spvcond_heap h = {0};
    spvcond_allocator on_heap = {heap_alloc, spvcond_heap_realloc, spvcond_heap_free, &h};
    cr_assert_eq(spvcond_context_create(&on_heap, NULL, NULL, &ctx), SPVCOND_OK);
    for (int round = 0; round < 3; round++) {
        uint32_t *out = annotate_then_specialize(ctx, words, count, &out_count);
        cr_assert(out_count == expected_count && !memcmp(out, expected, out_count * 4), "round %d", round);
        cr_assert_gt(h.spare_count, 0, "round %d left spares for the next", round);
        free(out);
    }
    spvcond_context_destroy(ctx);
    spvcond_heap_release(&h);
    free(expected);
    free(words);
}

#endif
