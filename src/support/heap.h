/* SPDX-License-Identifier: MIT */
/* The allocator a context uses when the caller gives none (see heap.c). Its state lives in the
 * context; the hooks take it as their `user` pointer. */
#ifndef SPVCOND_HEAP_H
#define SPVCOND_HEAP_H

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__)
#define SPVCOND_HAVE_HEAP 1
#else
#define SPVCOND_HAVE_HEAP 0
#endif

/* A free range of the current slab below its carved end, in bytes from the slab's start. */
struct spvcond_heap_hole {
    uint32_t at, len;
};

#define SPVCOND_HEAP_HOLES 64

/* The pages of a freed large block, kept mapped for the next ones: whole 2 MB huge pages. */
struct spvcond_heap_spare {
    void *at;
    size_t len;
};

#define SPVCOND_HEAP_SPARES 16

typedef struct spvcond_heap {
    struct slab *slab; /* where blocks of 4 KB and more are carved now, or NULL */
    struct spvcond_heap_hole holes[SPVCOND_HEAP_HOLES]; /* by address, never adjacent to each other */
    size_t hole_count;
    struct spvcond_heap_spare spares[SPVCOND_HEAP_SPARES]; /* in no order */
    size_t spare_count;
} spvcond_heap;

#if SPVCOND_HAVE_HEAP
void *spvcond_heap_alloc(void *heap, size_t size);
/* Zeroed, without clearing memory that is zero already. */
void *spvcond_heap_calloc(void *heap, size_t count, size_t size);
void *spvcond_heap_realloc(void *heap, void *ptr, size_t size);
void spvcond_heap_free(void *heap, void *ptr);
/* The block moved into the best-fitting hole below it, if the current slab has one; else ptr. */
void *spvcond_heap_move_down(spvcond_heap *heap, void *ptr);
/* Gives back what the heap keeps for reuse (spares, the current slab's free pages, the slab itself if
 * empty); blocks stay as they are. */
void spvcond_heap_trim(spvcond_heap *heap);
/* Unmaps what the heap keeps for reuse; every block must have been freed. */
void spvcond_heap_release(spvcond_heap *heap);
#endif

#endif
