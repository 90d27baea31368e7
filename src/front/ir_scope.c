/*
 * ir_scope.c - scopes and symbol tables: short scopes are searched linearly, sealed ones
 * through a hash table; lookups walk out to the module scope.
 */

#include "ir_priv.h"

#include <string.h>

/*
 * A scope keeps its symbols on a list (newest first while the scope is open, reversed into
 * declaration order when it closes) and, once it holds more than a few, in an open-addressing
 * table. Register ranges (%r<N>) are keyed by their prefix but live apart from plain names:
 * `%r` and `%r<4>` are different declarations.
 */
enum { SCOPE_LINEAR = 8 };

static inline bool sym_is(const struct ir_sym *y, const char *name, uint32_t len, bool range)
{
	if (y->name_len != len || (y->kind == SYM_REGRANGE) != range)
		return false;
	for (uint32_t i = 0; i < len; i++) /* names are short: no call to memcmp */
		if (y->name[i] != name[i])
			return false;
	return true;
}

struct ir_sym *irp_scope_find(const struct ir_scope *s, const char *name, uint32_t len,
			      uint32_t h, bool range)
{
	if (!s->table) {
		for (struct ir_sym *y = s->syms; y; y = y->next_in_scope)
			if (sym_is(y, name, len, range))
				return y;
		return NULL;
	}
	for (uint32_t i = h & (s->tsize - 1);; i = (i + 1) & (s->tsize - 1)) {
		struct ir_sym *y = s->table[i];
		if (!y)
			return NULL;
		if (sym_is(y, name, len, range))
			return y;
	}
}

static void table_put(struct ir_sym **table, uint32_t tsize, struct ir_sym *y)
{
	uint32_t h = name_hash(y->name, y->name_len, y->kind == SYM_REGRANGE);
	uint32_t i = h & (tsize - 1);
	while (table[i])
		i = (i + 1) & (tsize - 1);
	table[i] = y;
}

void irp_scope_add(struct arena *a, struct ir_scope *s, struct ir_sym *y)
{
	y->next_in_scope = s->syms;
	s->syms = y;
	s->count++;
	if (s->count < SCOPE_LINEAR)
		return;
	if (!s->table || s->count * 2 > s->tsize) {
		uint32_t tsize = s->tsize ? s->tsize * 2 : 32;
		struct ir_sym **t = arena_alloc(a, sizeof *t * tsize);
		for (struct ir_sym *z = s->syms; z; z = z->next_in_scope)
			table_put(t, tsize, z);
		s->table = t;
		s->tsize = tsize;
		return;
	}
	table_put(s->table, s->tsize, y);
}

struct ir_scope *irp_scope_new(struct arena *a, struct ir_scope *parent)
{
	struct ir_scope *s = arena_alloc(a, sizeof *s);
	s->parent = parent;
	return s;
}

/* Put the symbol list into declaration order (it was built newest first). */
void irp_scope_seal(struct ir_scope *s)
{
	struct ir_sym *prev = NULL, *y = s->syms;
	while (y) {
		struct ir_sym *next = y->next_in_scope;
		y->next_in_scope = prev;
		prev = y;
		y = next;
	}
	s->syms = prev;
}

/* The element number of `%r57` (57), or -1 when the name does not end in a plain number. */
int64_t irp_trailing_index(const char *name, uint32_t len, uint32_t *prefix_len)
{
	uint32_t k = len;
	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	uint32_t nd = len - k;
	if (nd == 0 || k == 0 || nd > 10 || (nd > 1 && name[k] == '0'))
		return -1;
	int64_t v = 0;
	for (uint32_t i = k; i < len; i++)
		v = v * 10 + (name[i] - '0');
	*prefix_len = k;
	return v;
}

/* Look `name` up from scope `s` outward. In each scope a register-range element comes first
 * (the common case in compiler output: %r57 in %r<100>), then the plain name, whose hash is
 * computed only when some scope needs it. */
struct ir_sym *ir_lookup(struct ir_module *m, struct ir_scope *s, const char *name, uint32_t len,
			 uint32_t *index)
{
	uint32_t dummy, plen = 0, hfull = 0, hpre = 0;
	bool have_full = false;
	if (!index)
		index = &dummy;
	int64_t idx = irp_trailing_index(name, len, &plen);
	if (idx >= 0)
		hpre = name_hash(name, plen, true);
	for (s = s ? s : m->scope; s; s = s->parent) {
		if (!s->count)
			continue;
		if (idx >= 0) {
			struct ir_sym *r = irp_scope_find(s, name, plen, hpre, true);
			if (r && (uint64_t)idx < r->range_n) {
				*index = (uint32_t)idx;
				return r;
			}
		}
		if (!have_full) {
			hfull = name_hash(name, len, false);
			have_full = true;
		}
		struct ir_sym *y = irp_scope_find(s, name, len, hfull, false);
		if (y) {
			*index = 0;
			return y;
		}
	}
	return NULL;
}

struct ir_func *ir_find_entry(struct ir_module *m, const char *name)
{
	if (!m || !name)
		return NULL;
	uint32_t len = (uint32_t)strlen(name);
	struct ir_sym *y = irp_scope_find(m->scope, name, len, name_hash(name, len, false), false);
	if (y && y->kind == SYM_FUNC && y->func && y->func->is_entry && y->func->has_body)
		return y->func;
	return NULL;
}
