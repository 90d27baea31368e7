/*
 * ir_tables.c - opcode, modifier and special-register tables (from the .def X-macros) and
 * their lookups by spelling, through hash tables built once.
 */

#include "ir_priv.h"

#include <pthread.h>
#include <string.h>

static const struct {
	const char *name;
	enum ir_family family;
} op_table[OP__COUNT] = {
#define OP(name, spelling, family, dests, lits, decode, exec, check) {spelling, family},
#include "ops.def"
#undef OP
};

static const struct {
	const char *name;
	enum ir_mod_kind kind;
	int arg;
} mod_table[MOD__COUNT] = {
	{"", MK_OTHER, 0},
#define MOD(name, spelling, kind, arg) {spelling, kind, arg},
#include "mods.def"
#undef MOD
};

/* Hash tables over the spellings, built once: slot = table index + 1, 0 = empty. */
enum { OP_SLOTS = 512, MOD_SLOTS = 1024 };

static uint16_t op_slots[OP_SLOTS], mod_slots[MOD_SLOTS];

static uint8_t mod_len[MOD__COUNT];

static int op_max_words;

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	for (int i = 0; i < OP__COUNT; i++) {
		const char *s = op_table[i].name;
		uint32_t h = fnv(FNV_BASIS, s, strlen(s)) & (OP_SLOTS - 1);
		while (op_slots[h])
			h = (h + 1) & (OP_SLOTS - 1);
		op_slots[h] = (uint16_t)(i + 1);
		int words = 1;
		for (const char *c = s; *c; c++)
			words += *c == '.';
		if (words > op_max_words)
			op_max_words = words;
	}
	for (int i = 1; i < MOD__COUNT; i++) {
		const char *s = mod_table[i].name;
		mod_len[i] = (uint8_t)strlen(s);
		uint32_t h = fnv(FNV_BASIS, s, strlen(s)) & (MOD_SLOTS - 1);
		while (mod_slots[h])
			h = (h + 1) & (MOD_SLOTS - 1);
		mod_slots[h] = (uint16_t)i;
	}
}

void irp_tables_init(void)
{
	pthread_once(&tables_once, build_tables);
}

const char *ir_op_name(enum ir_op op)
{
	return (unsigned)op < OP__COUNT ? op_table[op].name : "?";
}

enum ir_family ir_op_family(enum ir_op op)
{
	return (unsigned)op < OP__COUNT ? op_table[op].family : FAM_ALU;
}

const char *ir_mod_name(enum ir_mod m)
{
	return (unsigned)m < MOD__COUNT ? mod_table[m].name : "?";
}

enum ir_mod_kind ir_mod_kind(enum ir_mod m)
{
	return (unsigned)m < MOD__COUNT ? mod_table[m].kind : MK_OTHER;
}

int ir_mod_arg(enum ir_mod m)
{
	return (unsigned)m < MOD__COUNT ? mod_table[m].arg : 0;
}

/* `s` may be spelled with its leading dot (".rn") or without ("rn"). */
enum ir_mod ir_mod_lookup(const char *s, size_t len)
{
	irp_tables_init();
	uint32_t h = len && s[0] == '.' ? fnv(FNV_BASIS, s, len) : fnv(fnv(FNV_BASIS, ".", 1), s, len);
	size_t full = len && s[0] == '.' ? len : len + 1;
	const char *body = len && s[0] == '.' ? s + 1 : s;
	size_t blen = full - 1;
	for (uint32_t i = h & (MOD_SLOTS - 1);; i = (i + 1) & (MOD_SLOTS - 1)) {
		unsigned k = mod_slots[i];
		if (!k)
			return MOD_NONE;
		if (mod_len[k] == full && memcmp(mod_table[k].name + 1, body, blen) == 0)
			return (enum ir_mod)k;
	}
}

/* Does `spelling` equal words[0] . words[1] ... words[k-1]? */
static bool op_spelled(const char *spelling, const char *const *words, const size_t *lens, int k)
{
	const char *s = spelling;
	for (int i = 0; i < k; i++) {
		if (i) {
			if (*s != '.')
				return false;
			s++;
		}
		if (strncmp(s, words[i], lens[i]) != 0) /* stops at the end of `spelling` */
			return false;
		s += lens[i];
	}
	return *s == '\0';
}

enum ir_op ir_op_lookup(const char *const *words, const size_t *lens, int nwords, int *used)
{
	irp_tables_init();
	uint32_t hk[8];
	int maxk = nwords < op_max_words ? nwords : op_max_words;
	if (maxk > 8)
		maxk = 8;
	uint32_t h = FNV_BASIS;
	for (int k = 0; k < maxk; k++) {
		if (k)
			h = fnv(h, ".", 1);
		h = fnv(h, words[k], lens[k]);
		hk[k] = h;
	}
	for (int k = maxk; k >= 1; k--) {
		for (uint32_t i = hk[k - 1] & (OP_SLOTS - 1);; i = (i + 1) & (OP_SLOTS - 1)) {
			unsigned e = op_slots[i];
			if (!e)
				break;
			if (op_spelled(op_table[e - 1].name, words, lens, k)) {
				if (used)
					*used = k;
				return (enum ir_op)(e - 1);
			}
		}
	}
	if (used)
		*used = 0;
	return OP__COUNT;
}

bool ir_type_is_signed(enum ir_mod t)
{
	return t == MOD_S8 || t == MOD_S16 || t == MOD_S32 || t == MOD_S64;
}

bool ir_type_is_float(enum ir_mod t)
{
	return t == MOD_F16 || t == MOD_F16X2 || t == MOD_BF16 || t == MOD_BF16X2 || t == MOD_F32 ||
	       t == MOD_F64 || t == MOD_TF32;
}
