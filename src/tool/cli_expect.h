/*
 * cli_expect.h - --expect N=FILE[,rtol=R,atol=A,type=T]: an output compared with a
 * reference file after the launch (cli_expect.c).
 */
#ifndef PTXI_CLI_EXPECT_H
#define PTXI_CLI_EXPECT_H

#include "cli_args.h"
#include "cli_dump.h"
#include "host/fill.h"

struct expect_spec {
	struct dump_spec d;     /* the buffer compared (d.path: the reference file)         */
	const struct elem_type *type; /* f32 unless type= says                             */
	double rtol, atol;      /* 0, 0: each element's bits must be equal                  */
};

/* "N[@OFF]=FILE[,rtol=R][,atol=A][,type=T]" or "SYMBOL[@OFF]=FILE[,...]"; the path is
 * kept in own. False if malformed. */
bool cli_parse_expect(const char *s, struct expect_spec *e, struct cli_owned *own);

/* Compare each --expect after run r: "N elements match" (stderr), or the count of
 * mismatches and the first one. Returns 0, 1 when any differ, 2 after another error. */
int cli_expect_all(ptxi_module *m, const ptxi_run *r, const struct expect_spec *e, unsigned n);

#endif
