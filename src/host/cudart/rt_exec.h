/*
 * rt_exec.h - CUDA graphs' instances (rt_exec.c).
 */
#ifndef PTXI_RT_EXEC_H
#define PTXI_RT_EXEC_H

#include "rt_graph.h"

/* cudaGraphDestroy of g: its instances no longer count against it (a graph with alloc or
 * free nodes may have one at a time). */
void rt_graph_forget(const struct rt_graph *g);

#endif
