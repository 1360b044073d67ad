/* SPDX-License-Identifier: MIT */
/* The layer built without nettle (its SHA-256 names the cache's entries): no cache; every program is made
 * again, as the debug output says (docs/opencl-layer.md, "The cache"). */
#include <string.h>

#include "layer.h"

void
layer_cache_open(struct layer_cache *cache)
{
    *cache = (struct layer_cache){0};
    layer_debug("cache: off (the layer was built without nettle)");
}

void
layer_cache_module_digest(const void *il, size_t length, const spvcond_spec_value *values, size_t value_count,
                          unsigned arithmetic, unsigned char digest[LAYER_CACHE_KEY_SIZE])
{
    (void)arithmetic;
    (void)il;
    (void)length;
    (void)values;
    (void)value_count;
    memset(digest, 0, LAYER_CACHE_KEY_SIZE);
}

void
layer_cache_key(const unsigned char module_digest[LAYER_CACHE_KEY_SIZE], const struct layer_device *d,
                unsigned char key[LAYER_CACHE_KEY_SIZE])
{
    (void)module_digest;
    (void)d;
    memset(key, 0, LAYER_CACHE_KEY_SIZE);
}

bool
layer_cache_load(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                 enum layer_route route, const char *device_name, struct layer_cache_entry *out)
{
    (void)cache;
    (void)key;
    (void)route;
    (void)device_name;
    *out = (struct layer_cache_entry){0};
    return false;
}

void
layer_cache_store(const struct layer_cache *cache, const unsigned char key[LAYER_CACHE_KEY_SIZE],
                  enum layer_route route, const char *device_name, const struct layer_cache_entry *entry)
{
    (void)cache;
    (void)key;
    (void)route;
    (void)device_name;
    (void)entry;
}
