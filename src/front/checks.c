/*
 * checks.c - the static check table and how a static check reports: the message, then the
 * check's name in brackets, so that text, JSON and SARIF name it as they name run-time rules.
 */
#include "checks.h"

#include <stdio.h>
#include <strings.h>

static const struct check_info checks[CHECK__COUNT] = {
#define CHECK(id, name, level, section, text) [CHECK_##id] = {name, section, text, level},
#include "checks.def"
#undef CHECK
};

const struct check_info *check_info(enum check_id k)
{
	return &checks[k];
}

int check_find(const char *name)
{
	for (int k = 0; k < CHECK__COUNT; k++)
		if (strcasecmp(checks[k].name, name) == 0)
			return k;
	return -1;
}

int check_vreport(struct diag *d, struct src_file *file, enum check_id k, struct src_span span,
		  const char *fmt, va_list ap)
{
	return check_vreport_notes(d, file, k, span, NULL, fmt, ap);
}

int check_vreport_notes(struct diag *d, struct src_file *file, enum check_id k,
			struct src_span span, const char *notes, const char *fmt, va_list ap)
{
	char msg[1024];
	size_t room = sizeof msg - 64; /* a long message is cut, never its name */
	int n = vsnprintf(msg, room, fmt, ap);
	size_t at = n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
	snprintf(msg + at, sizeof msg - at, " [%s]", checks[k].name);
	enum diag_level level = checks[k].level;
	uint8_t s = d->check_sev ? d->check_sev[k] : SEV_DEFAULT;
	if (s == SEV_OFF)
		return 0;
	if (s == SEV_ERROR || s == SEV_WARNING)
		level = s == SEV_ERROR ? DIAG_ERROR : DIAG_WARNING;
	diag_emit(d, level, file, span, notes, msg);
	return level == DIAG_ERROR;
}

int check_report(struct diag *d, struct src_file *file, enum check_id k, struct src_span span,
		 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int e = check_vreport(d, file, k, span, fmt, ap);
	va_end(ap);
	return e;
}
