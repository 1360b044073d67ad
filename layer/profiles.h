/* SPDX-License-Identifier: MIT */
/* What each route's consumer takes (profiles.c). */
#ifndef SPVCOND_LAYER_PROFILES_H
#define SPVCOND_LAYER_PROFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spvcond/spvcond.h>

#include "route.h"

/* What the library lowers for the route's consumer before the profile judges the module: SPVCOND_LOWER_*
 * flags, 0 when nothing (a walk of the words, no more). */
uint32_t layer_profile_lowering(enum layer_route route, const uint32_t *words, size_t count);

/* Whether the route's consumer takes the module (lowered as above); when not, where and why in msg. */
bool layer_profile_check(enum layer_route route, const uint32_t *words, size_t count, char *msg, size_t msg_size);

#endif
