/*
 * checks.h - the table of static checks (checks.def): ids, names, levels and manual
 * sections, and the one way a check reports ("<message> [name]").
 */
#ifndef PTXI_CHECKS_H
#define PTXI_CHECKS_H

#include <stdarg.h>

#include "support/diag.h"

enum check_id {
#define CHECK(id, name, level, section, text) CHECK_##id,
#include "checks.def"
#undef CHECK
	CHECK__COUNT
};

struct check_info {
	const char *name, *section, *text;
	enum diag_level level;
};

const struct check_info *check_info(enum check_id k);
/* The check named `name` (case-insensitive), or -1. */
int check_find(const char *name);

/* Report a break of check k at `span` of `file`, at the check's level, as
 * "<message> [name]". Returns 1 if that level is an error, else 0. */
__attribute__((format(printf, 5, 6)))
int check_report(struct diag *d, struct src_file *file, enum check_id k, struct src_span span,
		 const char *fmt, ...);
/* check_vreport with notes under the message (NULL: none) */
int check_vreport_notes(struct diag *d, struct src_file *file, enum check_id k,
			struct src_span span, const char *notes, const char *fmt, va_list ap);
int check_vreport(struct diag *d, struct src_file *file, enum check_id k, struct src_span span,
		  const char *fmt, va_list ap);

#endif
