/*
 * debug_hook.h - where a debugger (ptxi debug, src/tool/debug*.c) sees a launch: before each
 * instruction a group runs, and when a cluster has ended (finished, deadlocked or stopped)
 * while its CTAs and warps still stand. The hooks run on the launch's thread (the launch
 * runs on one thread under a debugger) and may read any state, stop the launch (L->stop)
 * or block while the user looks. With no debugger (L->dbg NULL) nothing is called.
 */
#ifndef PTXI_DEBUG_HOOK_H
#define PTXI_DEBUG_HOOK_H

struct launch;
struct warp;
struct group;
struct cluster;

struct dbg_hooks {
	void *ctx;
	/* Group g of w is about to run the instruction at its pc. */
	void (*before)(void *ctx, struct launch *L, struct warp *w, struct group *g);
	/* Cluster cl has ended: nothing of it runs any more, its state is still there. */
	void (*cluster_end)(void *ctx, struct launch *L, struct cluster *cl);
};

#endif
