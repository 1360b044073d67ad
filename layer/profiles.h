/* SPDX-License-Identifier: MIT */
/* What each route's consumer takes (profiles.c). */
#ifndef SPVCOND_LAYER_PROFILES_H
#define SPVCOND_LAYER_PROFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "route.h"

/* Whether the route's consumer takes the module; when not, where and why in msg. */
bool layer_profile_check(enum layer_route route, const uint32_t *words, size_t count, char *msg, size_t msg_size);

#endif
