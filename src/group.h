/*
 * group.h - a warp's groups of lanes (group.c). The scheduler (sched.c) picks and merges
 * them; the dispatch loop and the handlers split them and retire exited lanes.
 */
#ifndef PTXI_GROUP_H
#define PTXI_GROUP_H

#include <stdint.h>

#include "launch.h"

/* Split `mask` off group g into a new group at pc, in the same frame; NULL when out of
 * memory. */
struct group *group_split(struct warp *w, struct group *g, uint32_t mask, uint32_t pc);
/* `mask` of group g exited: the rest of g goes on at the next instruction, and barriers
 * that waited for these threads are checked again. */
void group_exit(struct launch *L, struct warp *w, struct group *g, uint32_t mask);

#endif
