/*
 * ir_priv.h - what the ir_*.c builders share (private to the front end): reports, the
 * operand stack, expression helpers, scopes, and the table set-up.
 */
#ifndef PTXI_IR_PRIV_H
#define PTXI_IR_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks.h"
#include "ir.h"
#include "parse.h"

#define FNV_BASIS 2166136261u

static inline uint32_t fnv(uint32_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static inline uint32_t name_hash(const char *s, uint32_t len, bool range)
{
	return fnv(range ? 0x9e3779b9u : FNV_BASIS, s, len);
}

static inline const char *txt(struct parser *p, struct src_span s)
{
	return p->file->text + s.off;
}

/* Names in messages: long ones are cut, so one message stays readable. */
#define NAME_FMT "%.*s%s"

#define NAME_ARG(s, n) (int)((n) > 200 ? 200 : (n)), (s), ((n) > 200 ? "..." : "")

#define xrealloc arena_xrealloc /* out of memory jumps to the library's entry point */

#define EX_NONE UINT32_MAX /* no expression (an absent guard or initializer) */

/* Internal markers in ref.comp, gone once names are resolved. */
enum { COMP_NONE = -1, COMP_GENERIC = -2, COMP_INDEXED = -3 };

/* ir.c */
__attribute__((format(printf, 4, 5)))
void irp_err(struct parser *p, enum check_id k, struct src_span s, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
void irp_note(struct parser *p, struct src_span s, const char *fmt, ...);

/* ir_tables.c */
void irp_tables_init(void);

/* ir_scope.c */
struct ir_sym *irp_scope_find(const struct ir_scope *s, const char *name, uint32_t len,
			      uint32_t h, bool range);
void irp_scope_add(struct arena *a, struct ir_scope *s, struct ir_sym *y);
struct ir_scope *irp_scope_new(struct arena *a, struct ir_scope *parent);
void irp_scope_seal(struct ir_scope *s);
int64_t irp_trailing_index(const char *name, uint32_t len, uint32_t *prefix_len);

/* ir_expr.c */
struct ir_operand *irp_opop(struct parser *p, struct plist l, uint8_t *has);
void irp_unparen(struct parser *p, struct pexpr *e);
bool irp_parse_u32(struct parser *p, struct src_span s, uint32_t *out);
struct pexpr irp_e_name(struct parser *p, struct src_span s);
uint32_t irp_ex_push(struct parser *p, const struct pexpr *e);

/* ir_header.c */
void irp_header_done(struct parser *p, struct src_span at);

/* ir_decl.c */
struct ir_sym *irp_sym_new(struct parser *p, enum ir_sym_kind kind, struct src_span name);
bool irp_declare(struct parser *p, struct ir_scope *s, struct ir_sym *y);
void irp_pending_add(struct parser *p, struct ir_sym *y);

/* ir_func.c */
void irp_resolve_pending(struct parser *p, uint32_t from);
void irp_func_finish(struct parser *p, bool resolve_names);
bool irp_in_body(struct parser *p, struct src_span s, const char *what);

#endif
