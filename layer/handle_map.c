/* SPDX-License-Identifier: MIT */
/* A table from handles to the layer's records: open addressing on the handle's bits, linear probing, slots
 * of removed entries reused. The caller holds the objects' lock. */
#include <stdint.h>
#include <stdlib.h>

#include "layer.h"

#define REMOVED ((const void *)1)

static size_t
slot_of(const void *key, size_t capacity)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (size_t)h & (capacity - 1);
}

void *
layer_map_get(const struct layer_map *map, const void *key)
{
    if (!map->capacity || !key)
        return NULL;
    for (size_t i = slot_of(key, map->capacity);; i = (i + 1) & (map->capacity - 1)) {
        if (map->keys[i] == key)
            return map->values[i];
        if (!map->keys[i])
            return NULL;
    }
}

static bool
rehash(struct layer_map *map, size_t capacity)
{
    const void **keys = calloc(capacity, sizeof(*keys));
    void **values = calloc(capacity, sizeof(*values));
    if (!keys || !values) {
        free(keys);
        free(values);
        return false;
    }
    for (size_t k = 0; k < map->capacity; k++) {
        if (!map->keys[k] || map->keys[k] == REMOVED)
            continue;
        size_t i = slot_of(map->keys[k], capacity);
        while (keys[i])
            i = (i + 1) & (capacity - 1);
        keys[i] = map->keys[k];
        values[i] = map->values[k];
    }
    free(map->keys);
    free(map->values);
    map->keys = keys;
    map->values = values;
    map->capacity = capacity;
    map->used = map->count;
    return true;
}

bool
layer_map_put(struct layer_map *map, const void *key, void *value)
{
    if ((map->used + 1) * 2 > map->capacity) { /* at half full: twice the room, or the same without the removed */
        size_t capacity = !map->capacity ? 64 : (map->count + 1) * 4 > map->capacity ? map->capacity * 2 : map->capacity;
        if (!rehash(map, capacity))
            return false;
    }
    size_t free_slot = SIZE_MAX;
    for (size_t i = slot_of(key, map->capacity);; i = (i + 1) & (map->capacity - 1)) {
        if (map->keys[i] == key) {
            map->values[i] = value;
            return true;
        }
        if (map->keys[i] == REMOVED && free_slot == SIZE_MAX)
            free_slot = i;
        if (!map->keys[i]) {
            if (free_slot == SIZE_MAX) {
                free_slot = i;
                map->used++;
            }
            break;
        }
    }
    map->keys[free_slot] = key;
    map->values[free_slot] = value;
    map->count++;
    return true;
}

void *
layer_map_remove(struct layer_map *map, const void *key)
{
    if (!map->capacity || !key)
        return NULL;
    for (size_t i = slot_of(key, map->capacity);; i = (i + 1) & (map->capacity - 1)) {
        if (map->keys[i] == key) {
            void *value = map->values[i];
            map->keys[i] = REMOVED;
            map->values[i] = NULL;
            map->count--;
            return value;
        }
        if (!map->keys[i])
            return NULL;
    }
}
