/*
 * devrt.c - the device runtime calls of CUDA C++ that nvcc leaves as .extern functions:
 *   vprintf(fmt, args)   printf: args points at nvcc's argument buffer, each value at the
 *                        next offset aligned to its size (int/char 4, long long, double and
 *                        pointers 8; floats are promoted to double); one lane's output is
 *                        written whole, lanes in order, on stdout. Returns the number of
 *                        arguments read (-1 for a NULL format), as CUDA's printf does.
 *   __assertfail(expr, file, line, function, char_size)
 *                        assert: CUDA's message per failing thread on stdout, then rule
 *                        device-assert stops the launch.
 *   malloc(n), free(p)   a device heap of cfg.heap_size bytes (8 MiB, like
 *                        cudaLimitMallocHeapSize): NULL once exhausted; each block is its
 *                        own allocation, so running off its end is reported; a freed block
 *                        becomes unreachable (a later access is out of bounds). With
 *                        --jobs the clusters' threads share the heap, under its lock;
 *                        it lives with the memory, so under ptxi exec a later launch
 *                        frees what an earlier one allocated, as in a CUDA context.
 * Anything else without a body stops the launch with an error naming it.
 */
#include "devrt.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "support/demangle.h"
#include "frame.h"
#include "launch.h"
#include "memory.h"
#include "report/rules.h"

#define MAX_STRING (1u << 16) /* longest %s or format string read from device memory */
#define MAX_FIELD 65536       /* largest printf width or precision ptxi formats          */
#define MAX_PRINT (1u << 20)  /* one call's output (cudaLimitPrintfFifoSize's default)   */
#define HEAP_ALIGN 16         /* CUDA's malloc returns 16-byte aligned blocks          */

struct block {
	uint64_t addr, size;
	bool freed;
};

struct devrt {
	pthread_mutex_t lock;         /* the fields below, and making heap regions (mem_alloc) */
	uint64_t heap_used;
	struct block *blocks;         /* in increasing address order (mem_alloc's order)    */
	uint32_t nblocks, cap;
};

typedef void devrt_fn(struct launch *L, struct warp *w, struct frame *f,
		      const struct dinsn *di, const struct dfunc *callee, uint32_t lane);

static devrt_fn do_vprintf, do_malloc, do_free;

/* name, parameters, results, handler (one lane at a time) */
static const struct {
	const char *name;
	uint32_t nparams, nrets;
	devrt_fn *fn;
} models[] = {
	{"vprintf", 2, 1, do_vprintf},
	{"__assertfail", 5, 0, NULL}, /* all failing lanes at once: assert_fail */
	{"malloc", 1, 1, do_malloc},
	{"free", 1, 0, do_free},
};

/* ---- device memory reads --------------------------------------------------------------- */

/* One byte at a generic address; a bad address is reported as by any load. */
static bool read_byte(struct launch *L, struct warp *w, uint32_t lane, uint64_t addr,
		      uint8_t *out)
{
	struct access a;
	if (!access_lane(L, w, lane, MS_GENERIC, addr, 1, false, &a))
		return false;
	*out = *a.p;
	return true;
}

static bool read_le(struct launch *L, struct warp *w, uint32_t lane, uint64_t addr,
		    uint32_t size, uint64_t *out)
{
	uint64_t v = 0;
	for (uint32_t i = 0; i < size; i++) {
		uint8_t b;
		if (!read_byte(L, w, lane, addr + i, &b))
			return false;
		v |= (uint64_t)b << (8 * i);
	}
	*out = v;
	return true;
}

/* A NUL-terminated string (cut at MAX_STRING bytes) into b. */
static bool read_string(struct launch *L, struct warp *w, uint32_t lane, uint64_t addr,
			struct strbuf *b)
{
	sb_printf(b, "%s", "");
	for (uint32_t i = 0; i < MAX_STRING; i++) {
		uint8_t c;
		if (!read_byte(L, w, lane, addr + i, &c))
			return false;
		if (!c)
			break;
		sb_printf(b, "%c", (char)c);
	}
	return true;
}

/* ---- printf ---------------------------------------------------------------------------- */

/* The argument buffer as nvcc lays it out: each value at the next multiple of its size. */
struct argbuf {
	uint64_t base, off;
	unsigned count;
};

static bool next_arg(struct launch *L, struct warp *w, uint32_t lane, struct argbuf *a,
		     uint32_t size, uint64_t *v)
{
	a->off = (a->off + size - 1) & ~(uint64_t)(size - 1);
	if (!read_le(L, w, lane, a->base + a->off, size, v))
		return false;
	a->off += size;
	a->count++;
	return true;
}

/* One conversion: spec holds "%" and the flags, width and precision as written (a '*' is
 * replaced by its value); len is the length modifier, conv the conversion character. */
static bool convert(struct launch *L, struct warp *w, uint32_t lane, struct argbuf *a,
		    const char *spec, const char *len, char conv, struct strbuf *out)
{
	char f[64];
	uint64_t v;
	uint32_t ptr = L->P->m->address_size == 32 ? 4 : 8;
	bool wide = len[0] == 'l' || len[0] == 'j' || len[0] == 'z' || len[0] == 't';
	switch (conv) {
	case 'd': case 'i': {
		if (!next_arg(L, w, lane, a, wide ? 8 : 4, &v))
			return false;
		long long x = wide ? (long long)(int64_t)v : (long long)(int32_t)v;
		if (!strcmp(len, "h"))
			x = (short)x;
		else if (!strcmp(len, "hh"))
			x = (signed char)x;
		snprintf(f, sizeof f, "%sll%c", spec, conv);
		sb_printf(out, f, x);
		return true;
	}
	case 'u': case 'o': case 'x': case 'X': {
		if (!next_arg(L, w, lane, a, wide ? 8 : 4, &v))
			return false;
		unsigned long long x = wide ? v : (uint32_t)v;
		if (!strcmp(len, "h"))
			x = (unsigned short)x;
		else if (!strcmp(len, "hh"))
			x = (unsigned char)x;
		snprintf(f, sizeof f, "%sll%c", spec, conv);
		sb_printf(out, f, x);
		return true;
	}
	case 'c':
		if (!next_arg(L, w, lane, a, 4, &v))
			return false;
		snprintf(f, sizeof f, "%sc", spec);
		sb_printf(out, f, (int)(unsigned char)v);
		return true;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
		if (!next_arg(L, w, lane, a, 8, &v))
			return false;
		double d;
		memcpy(&d, &v, 8);
		snprintf(f, sizeof f, "%s%c", spec, conv);
		sb_printf(out, f, d);
		return true;
	}
	case 's': {
		if (!next_arg(L, w, lane, a, ptr, &v))
			return false;
		struct strbuf s = {0};
		bool ok = v ? read_string(L, w, lane, v, &s) : (sb_printf(&s, "(null)"), true);
		snprintf(f, sizeof f, "%ss", spec);
		if (ok)
			sb_printf(out, f, s.s);
		sb_free(&s);
		return ok;
	}
	case 'p':
		if (!next_arg(L, w, lane, a, ptr, &v))
			return false;
		snprintf(f, sizeof f, "%s#llx", spec);
		sb_printf(out, f, (unsigned long long)v);
		return true;
	default: /* not a conversion CUDA knows (%n too): printed as written */
		sb_printf(out, "%s%s%c", spec, len, conv);
		return true;
	}
}

/* A width or precision at *p ('*': the next int argument; digits) onto spec (of SPEC_SIZE
 * bytes) at *n, as a number; a negative precision is none (its '.' taken back). One past
 * MAX_FIELD stops the launch: the host's printf would take that much memory and time (or
 * fail, past INT_MAX) for one conversion. */
#define SPEC_SIZE 48
static bool field(struct launch *L, struct warp *w, uint32_t lane, struct argbuf *a,
		  bool precision, const char **p, char *spec, size_t *n)
{
	int64_t x = 0;
	const char *s = *p;
	char shown[40];
	if (*s == '*') {
		uint64_t v;
		if (!next_arg(L, w, lane, a, 4, &v))
			return false;
		x = (int32_t)v;
		s++;
		snprintf(shown, sizeof shown, "%lld (its '*' argument)", (long long)x);
	} else if (*s >= '0' && *s <= '9') {
		for (; *s >= '0' && *s <= '9'; s++)
			x = x > MAX_FIELD ? x : x * 10 + (*s - '0');
		snprintf(shown, sizeof shown, "%.*s", (int)(s - *p), *p);
	} else {
		return true; /* none written */
	}
	if (x > MAX_FIELD || x < -MAX_FIELD) {
		runtime_error(L, 2, "printf: a width or precision of %s is past the %d ptxi formats",
			      shown, MAX_FIELD);
		return false;
	}
	*p = s;
	if (precision && x < 0) { /* C: a negative precision is as if none were given */
		spec[--*n] = '\0';
		return true;
	}
	*n += (size_t)snprintf(spec + *n, SPEC_SIZE - *n, "%d", (int)x);
	return true;
}

/* Format one lane's call into out. Returns false if a read faulted (already reported). */
static bool format_lane(struct launch *L, struct warp *w, uint32_t lane, const char *fmt,
			struct argbuf *a, struct strbuf *out)
{
	for (const char *p = fmt; *p;) {
		if (*p != '%') {
			const char *q = strchr(p, '%');
			size_t n = q ? (size_t)(q - p) : strlen(p);
			sb_printf(out, "%.*s", (int)n, p);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			sb_printf(out, "%%");
			p += 2;
			continue;
		}
		char spec[SPEC_SIZE] = "%";
		size_t n = 1;
		p++;
		while (*p && strchr("-+ #0", *p) && n < 8)
			spec[n++] = *p++;
		for (int part = 0; part < 2; part++) { /* width, then .precision */
			if (part == 1) {
				if (*p != '.')
					break;
				spec[n++] = *p++;
			}
			if (!field(L, w, lane, a, part == 1, &p, spec, &n))
				return false;
		}
		spec[n] = '\0';
		char len[3] = "";
		if (*p && strchr("hlLjzt", *p)) {
			len[0] = *p++;
			if ((len[0] == 'h' || len[0] == 'l') && *p == len[0])
				len[1] = *p++;
		}
		if (!*p) { /* a lone '%' at the end */
			sb_printf(out, "%s%s", spec, len);
			break;
		}
		if (!convert(L, w, lane, a, spec, len, *p++, out))
			return false;
		if (out->len > MAX_PRINT) {
			runtime_error(L, 2, "printf: one call's output is past the %u bytes ptxi prints "
				      "(CUDA's printf buffer is 1 MiB by default)", MAX_PRINT);
			return false;
		}
	}
	return true;
}

static void do_vprintf(struct launch *L, struct warp *w, struct frame *f,
		       const struct dinsn *di, const struct dfunc *callee, uint32_t lane)
{
	uint64_t fmt_addr = call_arg(L, w, f, di, callee, 0, lane);
	struct argbuf a = {.base = call_arg(L, w, f, di, callee, 1, lane)};
	if (!fmt_addr) {
		call_result(f, di, callee, lane, (uint64_t)-1);
		return;
	}
	struct strbuf fmt = {0}, out = {0};
	if (read_string(L, w, lane, fmt_addr, &fmt) &&
	    format_lane(L, w, lane, fmt.s, &a, &out)) {
		FILE *o = L->cfg.out ? L->cfg.out : stdout;
		fwrite(out.s ? out.s : "", 1, out.len, o);
		fflush(o);
		call_result(f, di, callee, lane, a.count);
	}
	sb_free(&fmt);
	sb_free(&out);
}

/* ---- assert ---------------------------------------------------------------------------- */

/* CUDA's message for one failing lane into line; its expression, file, line and function
 * into what (for the report). */
static bool assert_lane(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, const struct dfunc *callee, uint32_t lane,
			struct strbuf *line, struct strbuf *what)
{
	struct strbuf expr = {0}, file = {0}, func = {0};
	uint32_t at = (uint32_t)call_arg(L, w, f, di, callee, 2, lane);
	bool ok = read_string(L, w, lane, call_arg(L, w, f, di, callee, 0, lane), &expr) &&
		  read_string(L, w, lane, call_arg(L, w, f, di, callee, 1, lane), &file) &&
		  read_string(L, w, lane, call_arg(L, w, f, di, callee, 3, lane), &func);
	if (ok) {
		struct cta *c = w->cta;
		uint32_t t = w->id * LANES + lane, bx = L->cfg.block[0], by = L->cfg.block[1];
		sb_printf(line, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` "
			  "failed.\n", file.s, at, func.s, c->ctaid[0], c->ctaid[1], c->ctaid[2],
			  t % bx, t / bx % by, t / (bx * by), expr.s);
		if (!what->len)
			sb_printf(what, "assertion `%s` failed in '%s' (%s:%u)", expr.s, func.s,
				  file.s, at);
	}
	sb_free(&expr);
	sb_free(&file);
	sb_free(&func);
	return ok;
}

/* Every failing lane prints CUDA's message; then one report for them all, which stops the
 * launch (the kernel traps). */
static void assert_fail(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, const struct dfunc *callee, uint32_t mask)
{
	struct strbuf what = {0};
	FILE *o = L->cfg.assert_out ? L->cfg.assert_out : L->cfg.out ? L->cfg.out : stdout;
	for (uint32_t m = mask; m && !L->stop; m &= m - 1) {
		struct strbuf line = {0};
		if (assert_lane(L, w, f, di, callee, (uint32_t)__builtin_ctz(m), &line, &what))
			fputs(line.s, o);
		sb_free(&line);
	}
	fflush(o);
	if (!L->stop)
		rule_break(L, RULE_DEVICE_ASSERT, mask, "%s", what.s);
	L->stop = true;
	sb_free(&what);
}

/* ---- heap ------------------------------------------------------------------------------ */

static void heap_destroy(void *heap)
{
	struct devrt *rt = heap;
	pthread_mutex_destroy(&rt->lock);
	free(rt->blocks);
	free(rt);
}

/* The heap, made at the memory's first launch that calls malloc or free. */
static struct devrt *state(struct launch *L)
{
	struct memory *m = L->mem;
	if (!m->heap && (m->heap = calloc(1, sizeof(struct devrt)))) {
		pthread_mutex_init(&((struct devrt *)m->heap)->lock, NULL);
		m->heap_free = heap_destroy;
	}
	return m->heap;
}

bool devrt_uses_heap(const struct launch *L)
{
	for (uint32_t i = 0; i < L->P->nfuncs; i++)
		if (!strcmp(L->P->funcs[i].name, "malloc") || !strcmp(L->P->funcs[i].name, "free"))
			return true;
	return false;
}

bool devrt_begin(struct launch *L)
{
	return !devrt_uses_heap(L) || state(L) != NULL;
}

/* A block of n bytes from the heap: its address, 0 when the heap cannot hold it; false
 * when the block list cannot grow (rt->lock held). */
static bool heap_take(struct launch *L, struct devrt *rt, uint64_t n, uint64_t *addr)
{
	uint64_t limit = L->cfg.heap_size ? L->cfg.heap_size : DEVRT_HEAP_DEFAULT;
	uint64_t need = (n + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
	*addr = 0;
	if (!n || need < n || need > limit - rt->heap_used)
		return true;
	if (rt->nblocks == rt->cap) {
		uint32_t cap = rt->cap ? rt->cap * 2 : 16;
		struct block *b = realloc(rt->blocks, cap * sizeof *b);
		if (!b)
			return false;
		rt->blocks = b;
		rt->cap = cap;
	}
	*addr = mem_alloc(L->mem, n, "malloc block");
	if (*addr) {
		rt->blocks[rt->nblocks++] = (struct block){*addr, need, false};
		rt->heap_used += need;
	}
	return true;
}

static void do_malloc(struct launch *L, struct warp *w, struct frame *f,
		      const struct dinsn *di, const struct dfunc *callee, uint32_t lane)
{
	uint64_t n = call_arg(L, w, f, di, callee, 0, lane), addr = 0;
	struct devrt *rt = state(L);
	if (rt) {
		pthread_mutex_lock(&rt->lock);
		bool ok = heap_take(L, rt, n, &addr);
		pthread_mutex_unlock(&rt->lock);
		if (!ok) {
			runtime_error(L, 2, "out of memory for the device heap");
			return;
		}
	}
	call_result(f, di, callee, lane, addr);
}

static struct block *find_block(struct devrt *rt, uint64_t addr)
{
	uint32_t lo = 0, hi = rt->nblocks;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (rt->blocks[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rt->nblocks && rt->blocks[lo].addr == addr ? &rt->blocks[lo] : NULL;
}

enum give { GIVEN, NO_BLOCK, FREED_BEFORE };

/* Give the block at p back to the heap (rt->lock held). Its region keeps its address, and
 * its bytes until the memory goes: a later access is out of bounds. */
static enum give heap_give(struct launch *L, struct devrt *rt, uint64_t p)
{
	struct block *b = find_block(rt, p);
	if (!b)
		return NO_BLOCK;
	if (b->freed)
		return FREED_BEFORE;
	b->freed = true;
	rt->heap_used -= b->size;
	struct region *r = mem_find(L->mem, p, 1);
	if (r)
		mem_region_free(r);
	return GIVEN;
}

static void do_free(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		    const struct dfunc *callee, uint32_t lane)
{
	uint64_t p = call_arg(L, w, f, di, callee, 0, lane);
	struct devrt *rt = L->mem->heap;
	if (!p)
		return;
	enum give g = NO_BLOCK;
	if (rt) {
		pthread_mutex_lock(&rt->lock);
		g = heap_give(L, rt, p);
		pthread_mutex_unlock(&rt->lock);
	}
	if (g == NO_BLOCK)
		rule_break(L, RULE_HEAP_BAD_FREE, 1u << lane, "free(0x%" PRIx64 "): no block of "
			   "the device heap starts there", p);
	else if (g == FREED_BEFORE)
		rule_break(L, RULE_HEAP_DOUBLE_FREE, 1u << lane, "free(0x%" PRIx64 "): the block "
			   "was freed before", p);
}

/* ---- dispatch -------------------------------------------------------------------------- */

void devrt_call(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		const struct dfunc *callee, uint32_t mask)
{
	const struct ir_func *irf = callee->ir;
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
		if (strcmp(callee->name, models[i].name) != 0)
			continue;
		if (irf->nparams != models[i].nparams || irf->nrets != models[i].nrets)
			break; /* a function of that name but not CUDA's: not modelled */
		if (!models[i].fn) {
			assert_fail(L, w, f, di, callee, mask);
			return;
		}
		for (uint32_t m = mask; m && !L->stop; m &= m - 1)
			models[i].fn(L, w, f, di, callee, (uint32_t)__builtin_ctz(m));
		return;
	}
	char buf[256];
	runtime_error(L, 2, "call of external function '%s', which has no body in this module "
		      "and no model in ptxi", demangle_name(callee->name, buf, sizeof buf));
}
