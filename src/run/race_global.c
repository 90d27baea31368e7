/*
 * race_global.c - the data-race detector with --jobs. A worker's cluster judges its shared
 * memory as with one thread, but logs its accesses of global memory (race_gacc), with the
 * vector clocks they were made under; its report log (gather_log) replays them between its
 * entries, in cluster order, against the launch's one shadow of global memory: each access
 * is judged as one thread would judge it, after every access of the clusters before. What a
 * cluster acquired from the clusters before (a strong read of a location they released to)
 * it holds as a marker of the location, which the replay turns into what they released
 * there (race_resolve); the releases of the cluster to global locations join the launch's
 * once it is shown. The bytes stored are kept as one thread leaves them (the image), so
 * that two stores of the same value are told as one thread tells them.
 */
#include "race_priv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "report/gather.h"
#include "memory.h"
#include "support/pages.h"

#define GLOG_DRAIN 16384u  /* accesses a cluster logs before it shows them early (a log
			    * this long is replayed from the caches: longer ones, which
			    * let the clusters beside the oldest run further, cost more
			    * than they gained on the 2-core VM)                       */
#define IMG_PAGE 4096u     /* bytes per page of the image                                 */
#define LANE_CHUNK 49152u  /* bytes of GA_LANES entries' arrays per chunk of the log     */
#define SPARE_STORES 16u   /* logs' arrays kept (a window of clusters' and the workers') */

/* A log's arrays, kept for the next cluster's log when one is let go (fresh memory is
 * slow: the kernel clears each page a log first touches). */
struct glog_store {
	struct race_gacc *e;        /* `have` entries allocated                                */
	size_t have;
	uint8_t **chunk;            /* `nchunks` chunks allocated                              */
	uint32_t nchunks;
};

struct race_glog {
	struct race_gacc *e;
	size_t n, cap, next;        /* next: the first not replayed yet; cap: those charged    */
	struct glog_store st;       /* what e and chunk have allocated                         */
	struct race_jobs *J;        /* the launch's: where st goes when the log is let go      */
	struct memory *mem;
	uint64_t charged;
	uint64_t *keys;             /* marker index -> location key                            */
	uint32_t nkeys, kcap;
	uint32_t *slot;             /* open addressing over keys: index + 1                    */
	uint32_t scap;
	struct { uint32_t tid; const struct dinsn *insn; } *ph;
	uint32_t nph, phcap;
	const uint64_t *steps_shown;/* the launch's steps before this cluster (jobs.c)         */
	uint64_t cluster_from;      /* the worker's steps when it began                        */
	struct { uint64_t key; struct vc *wide; } *locs;
	uint32_t nlocs, loccap;
	bool done, merged;
	bool head;                  /* every cluster before has been shown                     */
	struct vc *memo_from, *memo_to;
	/* GA_LANES entries' arrays: st.chunk, LANE_CHUNK bytes a chunk (they stay where they
	 * are: no copy as the log grows) */
	uint32_t nchunk, cur, used; /* chunks charged; the one filled; its bytes used          */
	size_t waiting;             /* accesses logged and not replayed (a GA_LANES entry's
				     * lanes each count)                                       */
};

/* The launch's part: the image of global memory as one thread leaves it, a region's in one
 * mapping (its bytes at their offsets, then a valid bit a byte), made a page at a time as
 * --max-memory counts it: pages are touched (zeroed by the kernel) only where stores land,
 * and no allocation or heap growth (a system call the other worker's CPU pays too) is made
 * per page. */
struct img_region {
	uint8_t *b, *valid;         /* NULL: not mapped yet                                     */
	uint8_t *made;              /* a byte per page: charged                                 */
	uint64_t npages;
	size_t map;                 /* bytes mapped                                             */
};
struct race_jobs {
	struct img_region *img;     /* by region index                                          */
	uint32_t nregions;
	uint64_t charged;
	struct memory *mem;
	struct cta cta;             /* race_jobs_scaffold's                                    */
	struct warp warp;
	pthread_mutex_t spare_lock; /* the logs' arrays kept for the next logs, and the slabs  */
	struct glog_store spare[SPARE_STORES];
	uint32_t nspare;
	struct race_slabs slab;     /* where chunks are cut from (chunk_take)                 */
};

/* ---- fresh memory ---------------------------------------------------------------------- */

/* *size bytes (rounded up: *size) of fresh zero memory at a huge page's boundary (NULL:
 * none), in huge pages where they are many: a small page's fault costs ~50 us on the 2-core
 * VM, and a dense image (saxpy's stores) touches every page, as the logs' chunks do. */
static uint8_t *huge_map(size_t *size)
{
	size_t bytes = *size;
	if (bytes >= PAGES_HUGE / 2) /* (the last huge page whole: the valid bits' too) */
		*size = bytes = (bytes + PAGES_HUGE - 1) & ~(size_t)(PAGES_HUGE - 1);
	uint8_t *a = pages_map(bytes, PAGES_HUGE, true);
	if (a && bytes >= PAGES_HUGE / 2)
		pages_advise_huge(a, bytes);
	return a;
}

/* A chunk for a log's GA_LANES arrays, cut from the slabs (first touched in huge pages,
 * not 12 small pages each; a chunk stays with the logs' arrays, kept, until the launch
 * ends: glog_free); NULL: out of memory. */
static uint8_t *chunk_take(struct race_jobs *J)
{
	pthread_mutex_lock(&J->spare_lock);
	uint8_t *c = race_slab_cut(&J->slab, LANE_CHUNK);
	pthread_mutex_unlock(&J->spare_lock);
	return c;
}

/* ---- a worker's log ------------------------------------------------------------------- */

static void glog_free(void *ctx);
static bool between(struct launch *L, void *ctx, struct gather_log *g, FILE *out,
		    size_t upto);

/* ---- a worker's log ------------------------------------------------------------------- */

/* The log of S's cluster, handed to its report log, which replays it between its entries
 * (`between`) and frees it. */
struct race_glog *race_glog_new(struct launch *S)
{
	struct race_glog *G = S->log ? calloc(1, sizeof *G) : NULL;
	if (!G)
		return NULL;
	G->mem = S->mem;
	G->J = S->race->whole->jobs;
	pthread_mutex_lock(&G->J->spare_lock);
	if (G->J->nspare)
		G->st = G->J->spare[--G->J->nspare];
	pthread_mutex_unlock(&G->J->spare_lock);
	G->e = G->st.e;
	G->steps_shown = S->steps_shown;
	G->cluster_from = S->cluster_from;
	S->log->between = between;
	S->log->between_ctx = G;
	S->log->between_free = glog_free;
	return G;
}

/* The log's references to the vectors of e (a GA_LANES entry's lanes from its k-th; its one
 * vector, when its lanes share it, whatever k). */
static void put_vcs(struct race_glog *G, const struct race_gacc *e, uint32_t k)
{
	if (e->what != GA_LANES || !(e->lay & GL_VC)) {
		race_vc_put(G->mem, e->vc);
		return;
	}
	struct vc **vc = race_glanes_at(e).vc;
	for (uint32_t i = k, n = (uint32_t)__builtin_popcount(e->lanes); i < n; i++)
		race_vc_put(G->mem, vc[i]);
}

static void store_free(struct glog_store *st)
{
	free(st->e);
	free(st->chunk); /* (the chunks are the slabs') */
}

/* st let go with the spares full (J->spare_lock held): its chunks join the last spare's, so
 * that every chunk cut stays some log's to use. */
static void store_fold(struct race_jobs *J, struct glog_store *st)
{
	struct glog_store *k = &J->spare[J->nspare - 1];
	uint8_t **c = realloc(k->chunk, (k->nchunks + st->nchunks) * sizeof *c);
	if (c) { /* (else they stay unused in their slabs until the launch ends) */
		memcpy(c + k->nchunks, st->chunk, st->nchunks * sizeof *c);
		k->chunk = c;
		k->nchunks += st->nchunks;
	}
	store_free(st);
}

static void glog_free(void *ctx)
{
	struct race_glog *G = ctx;
	for (size_t i = G->next; i < G->n; i++)
		put_vcs(G, &G->e[i], 0);
	race_vc_put(G->mem, G->memo_from);
	race_vc_put(G->mem, G->memo_to);
	for (uint32_t i = 0; i < G->nlocs; i++)
		race_vc_put(G->mem, G->locs[i].wide);
	mem_release(G->mem, G->charged);
	pthread_mutex_lock(&G->J->spare_lock);
	if (G->J->nspare < SPARE_STORES)
		G->J->spare[G->J->nspare++] = G->st;
	else /* (the arrays of entries kept are enough) */
		store_fold(G->J, &G->st);
	pthread_mutex_unlock(&G->J->spare_lock);
	free(G->keys);
	free(G->slot);
	free(G->ph);
	free(G->locs);
	free(G);
}

/* Room for n more bytes of the log, charged to S (a store kept from an earlier log first
 * holds it); false: past --max-memory (reported). */
static bool glog_charge(struct launch *S, struct race_glog *G, size_t n)
{
	if (!launch_charge(S, n, "the data-race detector's log (--jobs)"))
		return false;
	G->charged += n;
	return true;
}

void *race_glog_lanes(struct launch *S, struct race_glog *G, uint32_t n, uint8_t lay,
		      bool store)
{
	struct glog_store *st = &G->st;
	size_t want = race_glanes_bytes(n, lay, store);
	if (G->nchunk && G->used + want <= LANE_CHUNK)
		return st->chunk[G->cur] + G->used;
	if (G->nchunk && G->cur + 1 < G->nchunk) { /* one a replay let go */
		G->used = 0;
		return st->chunk[++G->cur];
	}
	if (G->nchunk == st->nchunks) {
		uint8_t **c = realloc(st->chunk, (st->nchunks + 1) * sizeof *c);
		if (!c)
			return NULL;
		st->chunk = c;
		if (!(c[st->nchunks] = chunk_take(G->J)))
			return NULL;
		st->nchunks++;
	}
	if (!glog_charge(S, G, LANE_CHUNK))
		return NULL;
	G->cur = G->nchunk++;
	G->used = 0;
	return st->chunk[G->cur];
}

/* The accesses e stands for. */
static uint32_t accesses(const struct race_gacc *e)
{
	return e->what == GA_LANES ? (uint32_t)__builtin_popcount(e->lanes) : 1;
}

bool race_glog_add(struct launch *S, struct race_glog *G, const struct race_gacc *e)
{
	if (G->n == G->cap) {
		size_t cap = G->cap ? G->cap * 2 : 64;
		if (cap > G->st.have) {
			struct race_gacc *n = realloc(G->st.e, cap * sizeof *n);
			if (!n)
				return false;
			G->st.e = G->e = n;
			G->st.have = cap;
		}
		if (!glog_charge(S, G, (cap - G->cap) * sizeof *G->e))
			return false;
		G->cap = cap;
	}
	struct race_gacc *d = &G->e[G->n++];
	*d = *e;
	d->at = gather_log_entries(S->log);
	d->out_at = gather_log_out_pos(S->log);
	uint32_t n = accesses(e);
	if (e->what == GA_LANES) {
		struct vc **vc = race_glanes_at(e).vc;
		for (uint32_t i = 0; vc && i < n; i++)
			race_vc_ref(vc[i]);
		G->used += (uint32_t)race_glanes_bytes(n, e->lay, e->kind == RACE_WRITE);
	}
	if (e->what != GA_LANES || !(e->lay & GL_VC))
		race_vc_ref(d->vc);
	G->waiting += n;
	/* (never inside an atomic: race_glog_wait_head made the cluster the head first) */
	if (G->waiting >= GLOG_DRAIN && S->log_full && !S->in_rmw) { /* shown once oldest, */
		S->log->want_drain = true;      /* and then judged at once (race.c: head) */
		S->log_full(S);
		G->head = !S->stop;
	}
	return true;
}

bool race_glog_head(const struct race_glog *G)
{
	return G->head;
}

bool race_glog_marker(struct race_glog *G, uint64_t key, uint32_t *idx)
{
	if ((G->nkeys + 1) * 2 > G->scap) {
		uint32_t cap = G->scap ? G->scap * 2 : 64;
		uint32_t *s = calloc(cap, sizeof *s);
		if (!s)
			return false;
		for (uint32_t i = 0; i < G->nkeys; i++) {
			uint32_t h = (uint32_t)(G->keys[i] * 0x9E3779B97F4A7C15ull >> 32) & (cap - 1);
			while (s[h])
				h = (h + 1) & (cap - 1);
			s[h] = i + 1;
		}
		free(G->slot);
		G->slot = s;
		G->scap = cap;
	}
	uint32_t h = (uint32_t)(key * 0x9E3779B97F4A7C15ull >> 32) & (G->scap - 1);
	while (G->slot[h] && G->keys[G->slot[h] - 1] != key)
		h = (h + 1) & (G->scap - 1);
	if (G->slot[h]) {
		*idx = G->slot[h] - 1;
		return true;
	}
	if (G->nkeys == G->kcap) {
		uint32_t cap = G->kcap ? G->kcap * 2 : 16;
		uint64_t *k = realloc(G->keys, cap * sizeof *k);
		if (!k)
			return false;
		G->keys = k;
		G->kcap = cap;
	}
	G->keys[G->nkeys] = key;
	G->slot[h] = ++G->nkeys;
	*idx = G->nkeys - 1;
	return true;
}

void race_glog_loc(struct race_glog *G, uint64_t key, struct vc *wide)
{
	if (G->nlocs == G->loccap) {
		uint32_t cap = G->loccap ? G->loccap * 2 : 16;
		void *p = realloc(G->locs, cap * sizeof *G->locs);
		if (!p)
			return; /* (out of memory: the cluster's releases are lost to later ones) */
		G->locs = p;
		G->loccap = cap;
	}
	G->locs[G->nlocs].key = key;
	G->locs[G->nlocs++].wide = race_vc_ref(wide);
}

void race_glog_done(struct race_glog *G)
{
	G->done = true;
}

const struct dinsn *race_glog_phantom(const struct race_glog *G, uint32_t tid)
{
	for (uint32_t i = 0; G && i < G->nph; i++)
		if (G->ph[i].tid == tid)
			return G->ph[i].insn;
	return NULL;
}

bool race_glog_phantoms(const struct race_glog *G)
{
	return G->nph != 0;
}

static void set_phantom(struct race_glog *G, uint32_t tid, const struct dinsn *insn)
{
	for (uint32_t i = 0; i < G->nph; i++)
		if (G->ph[i].tid == tid) {
			G->ph[i].insn = insn;
			return;
		}
	if (G->nph == G->phcap) {
		uint32_t cap = G->phcap ? G->phcap * 2 : 8;
		void *p = realloc(G->ph, cap * sizeof *G->ph);
		if (!p)
			return;
		G->ph = p;
		G->phcap = cap;
	}
	G->ph[G->nph].tid = tid;
	G->ph[G->nph++].insn = insn;
}

/* ---- the image ------------------------------------------------------------------------ */

/* What one page of the image is charged (its bytes and their valid bits). */
#define IMG_PAGE_COST (IMG_PAGE + IMG_PAGE / 8)

/* Region r's image, mapped if make (NULL: not mapped; out of memory). */
static struct img_region *img_region(struct launch *L, const struct region *r, bool make)
{
	struct race_jobs *J = race_jobs_state(L);
	uint32_t i = r->index;
	if (i >= J->nregions) {
		if (!make)
			return NULL;
		uint32_t n = i + 8;
		struct img_region *p = realloc(J->img, n * sizeof *p);
		if (!p)
			return NULL;
		memset(p + J->nregions, 0, (n - J->nregions) * sizeof *p);
		J->img = p;
		J->nregions = n;
	}
	struct img_region *ir = &J->img[i];
	if (!ir->b && make) {
		uint64_t n = (r->size + IMG_PAGE - 1) / IMG_PAGE;
		size_t map = (size_t)(n ? n : 1) * IMG_PAGE_COST;
		uint8_t *m = huge_map(&map);
		if (!m)
			return NULL;
		if (!(ir->made = calloc(n ? n : 1, 1))) {
			munmap(m, map);
			return NULL;
		}
		ir->b = m;
		ir->valid = ir->b + (n ? n : 1) * IMG_PAGE;
		ir->npages = n;
		ir->map = map;
	}
	return ir->b ? ir : NULL;
}

/* Whether page p of ir holds stores (NULL: none). */
static inline bool img_has(const struct img_region *ir, uint64_t p)
{
	return ir && p < ir->npages && ir->made[p];
}

/* Page p of ir charged as made; false: past --max-memory or outside the region. */
static bool img_make(struct launch *L, struct img_region *ir, uint64_t p)
{
	if (p >= ir->npages)
		return false;
	if (!ir->made[p]) {
		if (!launch_charge(L, IMG_PAGE_COST, "the data-race detector's log (--jobs)"))
			return false;
		race_jobs_state(L)->charged += IMG_PAGE_COST;
		ir->made[p] = 1;
	}
	return true;
}

/* Region r's image, when mapped (img_region's lookup, inline). */
static inline struct img_region *img_of(struct launch *L, const struct region *r)
{
	const struct race_jobs *J = L->race->jobs;
	return r->index < J->nregions && J->img[r->index].b ? &J->img[r->index] : NULL;
}

/* n bytes of ir's image from offset o into out, where they are valid (one page). */
static inline void img_part_read(const struct img_region *ir, uint64_t o, uint32_t n,
				 uint8_t *out)
{
	const uint8_t *b = ir->b, *valid = ir->valid;
	if (o % 8 + n <= 8) { /* one byte of valid bits (an aligned access) */
		uint32_t v = (uint32_t)(valid[o / 8] >> (o % 8)) & ((1u << n) - 1);
		if (v == (1u << n) - 1)
			copy_small(out, b + o, n);
		for (uint32_t i = 0; v && v != (1u << n) - 1 && i < n; i++)
			if (v >> i & 1)
				out[i] = b[o + i];
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		if (valid[(o + i) / 8] >> ((o + i) % 8) & 1)
			out[i] = b[o + i];
}

/* n bytes into ir's image at offset o (new: NULL: not known; one page). */
static inline void img_part_write(struct img_region *ir, uint64_t o, uint32_t n,
				  const uint8_t *new)
{
	uint8_t *b = ir->b, *valid = ir->valid;
	if (o % 8 + n <= 8) { /* one byte of valid bits (an aligned access) */
		uint8_t m = (uint8_t)(((1u << n) - 1) << (o % 8));
		if (new) {
			copy_small(b + o, new, n);
			valid[o / 8] |= m;
		} else {
			valid[o / 8] &= (uint8_t)~m;
		}
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t y = o + i;
		if (new) {
			b[y] = new[i];
			valid[y / 8] |= (uint8_t)(1u << (y % 8));
		} else {
			valid[y / 8] &= (uint8_t) ~(1u << (y % 8));
		}
	}
}

/* (a page's part at a time) */
void race_img_read(struct launch *L, const struct region *r, uint64_t addr, uint32_t size,
		   const uint8_t *found, uint8_t *out)
{
	uint64_t off = addr - r->base;
	const struct img_region *ir = img_of(L, r);
	copy_small(out, found, size);
	for (uint32_t k = 0; ir && k < size;) {
		uint32_t b = (uint32_t)((off + k) % IMG_PAGE);
		uint32_t n = size - k < IMG_PAGE - b ? size - k : IMG_PAGE - b;
		if (img_has(ir, (off + k) / IMG_PAGE))
			img_part_read(ir, off + k, n, out + k);
		k += n;
	}
}

void race_img_write(struct launch *L, const struct region *r, uint64_t addr, uint32_t size,
		    const uint8_t *new)
{
	uint64_t off = addr - r->base;
	struct img_region *ir = img_of(L, r);
	if (!ir && new)
		ir = img_region(L, r, true);
	for (uint32_t k = 0; ir && k < size;) {
		uint32_t b = (uint32_t)((off + k) % IMG_PAGE);
		uint32_t n = size - k < IMG_PAGE - b ? size - k : IMG_PAGE - b;
		uint64_t p = (off + k) / IMG_PAGE;
		if (img_has(ir, p) || (new && img_make(L, ir, p)))
			img_part_write(ir, off + k, n, new ? new + k : NULL);
		k += n;
	}
}

void race_img_row(struct launch *L, const struct region *r, uint64_t addr, const uint64_t *v)
{
	uint64_t off = addr - r->base, p = off / IMG_PAGE;
	struct img_region *ir = img_of(L, r);
	if (!ir)
		ir = img_region(L, r, true);
	if (!ir || !(img_has(ir, p) || img_make(L, ir, p)))
		return;
	_Static_assert(GRAN == 4, "a row's words are 4 bytes, its valid bits 16 bytes from 0 or 4");
	uint8_t *b = ir->b + off, *valid = ir->valid + off / 8;
	for (uint32_t l = 0; l < LANES; l++)
		memcpy(b + l * GRAN, &v[l], GRAN);
	uint32_t sh = (uint32_t)(off % 8);
	valid[0] |= (uint8_t)(0xffu << sh);
	memset(valid + 1, 0xff, LANES * GRAN / 8 - 1);
	if (sh)
		valid[LANES * GRAN / 8] |= (uint8_t)(0xffu >> (8 - sh));
}

void race_jobs_free(struct race_jobs *J)
{
	if (!J)
		return;
	for (uint32_t i = 0; i < J->nregions; i++)
		if (J->img[i].b) {
			munmap(J->img[i].b, J->img[i].map);
			free(J->img[i].made);
		}
	free(J->img);
	for (uint32_t i = 0; i < J->nspare; i++)
		store_free(&J->spare[i]);
	race_slabs_free(&J->slab);
	pthread_mutex_destroy(&J->spare_lock);
	mem_release(J->mem, J->charged);
	free(J);
}

/* ---- the replay ----------------------------------------------------------------------- */

/* The cluster's releases to global locations join the launch's: each resolved against the
 * launch's before any joins, as the cluster saw them all along. */
static void merge_locs(struct launch *L, struct race_glog *G)
{
	struct vc **r = calloc(G->nlocs ? G->nlocs : 1, sizeof *r);
	if (!r)
		return;
	for (uint32_t i = 0; i < G->nlocs; i++)
		r[i] = race_resolve(L, G->locs[i].wide, G->keys, G->nkeys);
	for (uint32_t i = 0; i < G->nlocs; i++) {
		if (r[i])
			race_merge_loc(L, G->locs[i].key, r[i]);
		race_vc_put(G->mem, r[i]);
	}
	free(r);
	G->merged = true;
}

struct vc *race_glog_resolved(struct launch *L, struct race_glog *G, struct vc *v)
{
	if (v != G->memo_from) {
		race_vc_put(G->mem, G->memo_from);
		race_vc_put(G->mem, G->memo_to);
		G->memo_from = race_vc_ref(v);
		G->memo_to = race_resolve(L, v, G->keys, G->nkeys);
	}
	return G->memo_to;
}

void race_glog_old(struct launch *L, const struct race_gacc *e, uint8_t *old)
{
	race_img_read(L, e->region, e->addr, e->size, e->old, old);
}

void race_glog_stored(struct launch *L, const struct race_gacc *e)
{
	if (e->kind != RACE_READ)
		race_img_write(L, e->region, e->addr, e->size,
			       e->has_newv && e->plain ? e->newv : NULL);
}

uint32_t race_glog_step(const struct race_glog *G, uint32_t step)
{
	uint64_t base = __atomic_load_n(G->steps_shown, __ATOMIC_RELAXED) - G->cluster_from;
	return (uint32_t)(step + base);
}

/* The access e replayed (after what the cluster printed before it) and its log's reference
 * to its vector let go; true: it stopped the launch. */
static bool replay(struct launch *L, struct race_glog *G, struct race_gacc *e,
		   struct gather_log *g, FILE *out)
{
	gather_log_put_out(g, out, e->out_at);
	struct vc *v = race_glog_resolved(L, G, e->vc);
	uint8_t old[sizeof e->old];
	if (e->has_newv)
		race_glog_old(L, e, old);
	if (v)
		race_replay_access(L, G, e, v, old, race_glog_step(G, e->step),
				   race_glog_step(G, e->issued), NULL);
	race_vc_put(G->mem, e->vc);
	if (L->stop)
		return true;
	race_glog_stored(L, e);
	return false;
}

/* A GA_LANES entry's lanes replayed in order, each as the GA_ACCESS it stands for (at once
 * by race_replay_lanes where it can); true: one stopped the launch (the rest let go). */
static bool replay_lanes(struct launch *L, struct race_glog *G, const struct race_gacc *e,
			 struct gather_log *g, FILE *out)
{
	gather_log_put_out(g, out, e->out_at);
	if (race_replay_lanes(L, G, e)) {
		put_vcs(G, e, 0);
		return L->stop;
	}
	struct race_glanes x = race_glanes_at(e);
	struct race_gacc one = *e;
	one.what = GA_ACCESS;
	one.has_newv = one.plain = e->kind == RACE_WRITE;
	uint32_t k = 0;
	for (uint32_t m = e->lanes; m; m &= m - 1, k++) {
		one.lane = (uint32_t)__builtin_ctz(m);
		one.tid = one.owner = e->tid + one.lane;
		one.addr = x.addr[k];
		one.vc = x.vc ? x.vc[k] : race_vc_ref(e->vc); /* (replay lets one go) */
		one.clock = x.clock ? x.clock[k] : e->clock;
		one.seen_cp = x.seen ? x.seen[2 * k] : e->seen_cp;
		one.seen_bulk = x.seen ? x.seen[2 * k + 1] : e->seen_bulk;
		if (x.newv) { /* (read only as a store's) */
			memcpy(one.newv, &x.newv[k], e->size);
			memcpy(one.old, &x.old[k], e->size);
		}
		if (replay(L, G, &one, g, out)) {
			put_vcs(G, e, k + 1);
			return true;
		}
	}
	if (!x.vc)
		race_vc_put(G->mem, e->vc);
	return false;
}

static bool between(struct launch *L, void *ctx, struct gather_log *g, FILE *out, size_t upto)
{
	struct race_glog *G = ctx;
	bool stopped = false;
	for (; G->next < G->n && (upto == SIZE_MAX || G->e[G->next].at <= upto); G->next++) {
		struct race_gacc *e = &G->e[G->next];
		G->waiting -= accesses(e);
		if (e->what == GA_PHANTOM) {
			set_phantom(G, e->tid, e->insn);
			continue;
		}
		stopped = e->what == GA_LANES ? replay_lanes(L, G, e, g, out)
					      : replay(L, G, e, g, out);
		if (stopped) {
			G->next++;
			break;
		}
	}
	if (!stopped && upto == SIZE_MAX) {
		G->n = G->next = 0;
		G->cur = G->used = 0; /* (the chunks kept for what comes) */
		if (G->done && !G->merged)
			merge_locs(L, G);
	}
	return stopped;
}

void race_glog_wait_head(struct launch *S, struct race_glog *G, bool atomic)
{
	if (G->head || !S->log_poll || !S->log)
		return;
	if (atomic)
		global_rmw_end(S);
	S->log->want_drain = true;
	S->log_poll(S); /* (it shows what the cluster logged so far) */
	if (atomic)
		global_rmw_begin(S);
	G->head = true;
}

void race_glog_phantom_event(struct launch *S, struct race_glog *G, uint32_t tid)
{
	struct race_gacc e = {.insn = S->ci, .tid = tid, .what = GA_PHANTOM};
	race_glog_add(S, G, &e);
}

struct race_jobs *race_jobs_new(struct memory *mem)
{
	struct race_jobs *J = calloc(1, sizeof *J);
	if (J) {
		J->mem = mem;
		pthread_mutex_init(&J->spare_lock, NULL);
	}
	return J;
}

struct warp *race_jobs_scaffold(struct race_jobs *J, const struct race_gacc *e)
{
	struct cta *c = &J->cta;
	struct warp *w = &J->warp;
	c->linear = e->cta;
	memcpy(c->ctaid, e->ctaid, sizeof c->ctaid);
	c->rank = c->slot = e->rank;
	w->cta = c;
	w->id = e->warp;
	return w;
}
