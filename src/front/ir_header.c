/*
 * ir_header.c - the module header (.version, .target, .address_size) and the directives
 * that carry source locations (.file, .loc, .section, .pragma).
 */

#include "ir_priv.h"

#include <string.h>

void ir_version(struct parser *p, struct src_span num)
{
	const char *t = txt(p, num);
	uint32_t i = 0, major = 0, minor = 0;
	bool ok = num.len > 0 && num.len < 12;
	for (; ok && i < num.len && t[i] != '.'; i++)
		ok = t[i] >= '0' && t[i] <= '9', major = major * 10 + (uint32_t)(t[i] - '0');
	if (ok && i < num.len) {
		ok = i > 0 && i + 1 < num.len;
		for (i++; ok && i < num.len; i++)
			ok = t[i] >= '0' && t[i] <= '9', minor = minor * 10 + (uint32_t)(t[i] - '0');
	}
	if (!ok) {
		irp_err(p, CHECK_MODULE_HEADER, num,
			"invalid .version '" NAME_FMT "' (expected major.minor)", NAME_ARG(t, num.len));
		return;
	}
	if (p->m->version_major || p->m->version_minor) {
		irp_err(p, CHECK_MODULE_HEADER, num, "duplicate .version directive");
		return;
	}
	p->m->version_major = major;
	p->m->version_minor = minor;
}

void ir_header(struct parser *p, struct src_span at, enum header_state next)
{
	static const char *const what[] = {"", "'.version'", "'.target'", "'.address_size'"};
	enum header_state h = p->header;
	if (next == HDR_VERSION && !p->m->version_span.len)
		p->m->version_span = at;
	if (next == HDR_TARGET && !p->m->target_span.len)
		p->m->target_span = at;
	if (next == HDR_VERSION) {
		if (h == HDR_NONE)
			p->header = HDR_VERSION;
		else if (!p->m->version_major && !p->m->version_minor)
			irp_err(p, CHECK_MODULE_HEADER, at,
				"'.version' must be the first directive of the module");
		return; /* a second .version is reported by ir_version */
	}
	if (h == HDR_NONE)
		irp_err(p, CHECK_MODULE_HEADER, at,
			"missing .version directive before %s (a module starts with .version, "
			"then .target)", what[next]);
	else if (h == HDR_VERSION && next == HDR_ADDRESS_SIZE)
		irp_err(p, CHECK_MODULE_HEADER, at, "missing .target directive before '.address_size'");
	else if (h == HDR_ADDRESS_SIZE && next == HDR_ADDRESS_SIZE)
		irp_err(p, CHECK_MODULE_HEADER, at, "duplicate .address_size directive");
	else if (h > next)
		irp_err(p, CHECK_MODULE_HEADER, at, "%s must come before %s", what[next],
			h == HDR_DONE ? "any declaration" : "'.address_size'");
	if (h < next)
		p->header = next;
}

/* The first declaration or function (or the end of the file): the header must be whole. */
void irp_header_done(struct parser *p, struct src_span at)
{
	if (p->header == HDR_NONE)
		irp_err(p, CHECK_MODULE_HEADER, at,
			"missing .version directive at the start of the module");
	else if (p->header == HDR_VERSION)
		irp_err(p, CHECK_MODULE_HEADER, at, "missing .target directive after .version");
	p->header = HDR_DONE;
}

void ir_target(struct parser *p, struct src_span name)
{
	const char *t = txt(p, name);
	uint32_t n = name.len, pre = 0;
	if (n > 3 && memcmp(t, "sm_", 3) == 0)
		pre = 3;
	else if (n > 8 && memcmp(t, "compute_", 8) == 0)
		pre = 8;
	if (pre) {
		uint32_t i = pre, sm = 0;
		while (i < n && t[i] >= '0' && t[i] <= '9' && sm < 100000)
			sm = sm * 10 + (uint32_t)(t[i++] - '0');
		bool ok = i > pre && (i == n || (i + 1 == n && (t[i] == 'a' || t[i] == 'f')));
		if (!ok) {
			irp_err(p, CHECK_MODULE_HEADER, name, "unknown target '" NAME_FMT "'",
				NAME_ARG(t, n));
			return;
		}
		if (!p->m->sm) {
			p->m->sm = sm;
			p->m->sm_arch_specific = i < n && t[i] == 'a';
			p->m->sm_family_specific = i < n && t[i] == 'f';
			size_t c = n < sizeof p->m->target - 1 ? n : sizeof p->m->target - 1;
			memcpy(p->m->target, t, c);
			p->m->target[c] = '\0';
		}
		return;
	}
	static const char *const others[] = {"texmode_unified", "texmode_independent", "debug",
					     "map_f64_to_f32"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		if (strlen(others[i]) == n && memcmp(others[i], t, n) == 0)
			return;
	irp_err(p, CHECK_MODULE_HEADER, name, "unknown target '" NAME_FMT "'", NAME_ARG(t, n));
}

void ir_address_size(struct parser *p, struct src_span num)
{
	uint32_t v;
	if (!irp_parse_u32(p, num, &v))
		return;
	if (v != 32 && v != 64) {
		irp_err(p, CHECK_MODULE_HEADER, num, "address size must be 32 or 64");
		return;
	}
	p->m->address_size = v;
}

void ir_file(struct parser *p, struct src_span idx, struct src_span path)
{
	uint32_t v;
	struct ir_module *m = p->m;
	if (!irp_parse_u32(p, idx, &v) || path.len < 2)
		return;
	if (m->nfiles == m->files_cap) {
		uint32_t cap = m->files_cap ? m->files_cap * 2 : 8;
		m->files = arena_grow(m->arena, m->files, sizeof *m->files, m->nfiles, cap);
		m->files_cap = cap;
	}
	m->files[m->nfiles++] = (struct ir_srcfile){
		v, arena_strndup(m->arena, p->file->text + path.off + 1, path.len - 2)};
}

static bool span_is(struct parser *p, struct src_span s, const char *word)
{
	return s.len == strlen(word) && memcmp(p->file->text + s.off, word, s.len) == 0;
}

void ir_loc_func(struct parser *p, struct src_span key, struct src_span label)
{
	if (span_is(p, key, "function_name"))
		p->loc_func = label;
}

void ir_loc_inlined(struct parser *p, struct src_span key, struct src_span file,
		    struct src_span line, struct src_span col)
{
	if (span_is(p, key, "inlined_at") && irp_parse_u32(p, file, &p->loc_inl[0]) &&
	    irp_parse_u32(p, line, &p->loc_inl[1]) && irp_parse_u32(p, col, &p->loc_inl[2]))
		p->loc_has_inl = true;
}

/* The call site an inlined .loc names: the latest .loc at that position (it carries the
 * rest of the chain), or a bare position. */
static const struct ir_loc *inlined_site(struct parser *p)
{
	uint32_t n = p->nlocs < 64 ? p->nlocs : 64;
	for (uint32_t i = 0; i < n; i++) {
		const struct ir_loc *r = p->locs[(p->nlocs - 1 - i) % 64];
		if (r->file == p->loc_inl[0] && r->line == p->loc_inl[1] && r->col == p->loc_inl[2])
			return r;
	}
	struct ir_loc *r = arena_alloc(p->a, sizeof *r);
	*r = (struct ir_loc){p->loc_inl[0], p->loc_inl[1], p->loc_inl[2], {0, 0}, NULL};
	return r;
}

void ir_loc(struct parser *p, struct src_span file, struct src_span line, struct src_span col)
{
	uint32_t f = 0, l = 0, c = 0;
	if (irp_parse_u32(p, file, &f) && irp_parse_u32(p, line, &l) && irp_parse_u32(p, col, &c) &&
	    p->in_body) {
		struct ir_loc *r = arena_alloc(p->a, sizeof *r);
		*r = (struct ir_loc){f, l, c, p->loc_func, p->loc_has_inl ? inlined_site(p) : NULL};
		p->locs[p->nlocs++ % 64] = r;
		p->loc = r;
	}
	p->loc_func = (struct src_span){0, 0};
	p->loc_has_inl = false;
}

void ir_section(struct parser *p, struct src_span s)
{
	(void)p;
	(void)s;
}

void ir_pragma(struct parser *p, struct src_span str)
{
	(void)p;
	(void)str;
}
