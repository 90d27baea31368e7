/*
 * ctasel.h - --ctas: the clusters of a grid that a launch runs (ctasel.c).
 */
#ifndef PTXI_CTASEL_H
#define PTXI_CTASEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ctasel {
	uint64_t *clusters;     /* the clusters to run, by linear index, ascending (malloc'd) */
	uint64_t nclusters;
	uint64_t ctas, total;   /* CTAs that run (whole clusters), of the grid's            */
};

/* Parse --ctas SPEC for a grid of clusters: 0, or -1 with why (for "ptxi: error: "). */
int ctasel_parse(const char *spec, const uint32_t grid[3], const uint32_t cluster[3],
		 struct ctasel *out, char *why, size_t whylen);
/* The CTAs that run, for a note: "0-3, 8, 12-15, ...". */
void ctasel_describe(const struct ctasel *s, const uint32_t grid[3], const uint32_t cluster[3],
		     char *buf, size_t size);

#endif
