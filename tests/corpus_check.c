/*
 * corpus_check.c - parse PTX files and compare with what they expect (meson test "corpus").
 * Arguments are files or directories (their *.ptx files, in name order).
 * A file whose first line is `// expect error: L:C message` must produce that error first
 * (as "path:L:C: error: message"); any other file must parse with no diagnostics at all.
 * With --time, also prints the parse speed of every file (bench/parse_speed.sh uses it);
 * --repeat N parses each file N times; --warm keeps freed memory in the process, so repeats
 * measure the parser without the kernel's cost of first-touching fresh pages.
 */
#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "support/arena.h"
#include "support/diag.h"
#include "front/ir.h"

struct capture {
	char first[2048];
	unsigned n;
	int verbose;
};

static void sink(void *ctx, enum diag_level level, const char *text)
{
	struct capture *c = ctx;
	if (level == DIAG_ERROR && c->n++ == 0) {
		size_t k = strcspn(text, "\n");
		if (k >= sizeof c->first)
			k = sizeof c->first - 1;
		memcpy(c->first, text, k);
		c->first[k] = '\0';
	}
	if (c->verbose)
		fputs(text, stderr);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The expected first error of `text`, as "L:C message", or NULL. */
static char *expectation(const char *text)
{
	static const char tag[] = "// expect error: ";
	if (strncmp(text, tag, sizeof tag - 1) != 0)
		return NULL;
	const char *s = text + sizeof tag - 1;
	size_t n = strcspn(s, "\r\n");
	char *e = malloc(n + 1);
	memcpy(e, s, n);
	e[n] = '\0';
	return e;
}

static int check_file(const char *path, int timing, int verbose, int repeat)
{
	struct src_file f;
	if (src_file_read(&f, path) != 0) {
		fprintf(stderr, "FAIL %s: cannot read\n", path);
		return 1;
	}
	struct capture cap;
	struct diag d;
	struct arena *a = NULL;
	struct ir_module *m = NULL;
	double dt = 0;
	for (int r = 0; r < repeat; r++) {
		if (a)
			arena_destroy(a);
		cap = (struct capture){.verbose = verbose && r == 0};
		d = (struct diag){.sink = sink, .ctx = &cap};
		a = arena_create();
		double t0 = now();
		m = ir_parse(a, &d, &f, NULL);
		dt = now() - t0;
		if (timing && repeat > 1)
			printf("%s: run %d: %.1f MB/s\n", path, r + 1, f.len / 1e6 / dt);
	}
	int fail = 0;
	char *want = expectation(f.text);
	if (want) {
		char full[4096];
		snprintf(full, sizeof full, "%s:%s", path, want);
		/* "path:L:C message" -> "path:L:C: error: message" */
		char *sp = strchr(full + strlen(path) + 1, ' ');
		char expect[4200];
		if (sp)
			snprintf(expect, sizeof expect, "%.*s: error: %s", (int)(sp - full), full, sp + 1);
		else
			snprintf(expect, sizeof expect, "%s", full);
		if (cap.n == 0 || strcmp(cap.first, expect) != 0) {
			fprintf(stderr, "FAIL %s\n  expected: %s\n  got:      %s\n", path, expect,
				cap.n ? cap.first : "(no error)");
			fail = 1;
		}
		free(want);
	} else if (cap.n || m->nerrors || d.nwarnings) {
		fprintf(stderr, "FAIL %s: %u errors, first: %s\n", path, cap.n, cap.first);
		fail = 1;
	}
	if (timing) {
		uint64_t n = 0;
		for (struct ir_func *fn = m->funcs; fn; fn = fn->next)
			n += fn->ninsns;
		printf("%s: %.1f MB in %.3f s = %.1f MB/s, %llu instructions\n", path, f.len / 1e6, dt,
		       f.len / 1e6 / dt, (unsigned long long)n);
	}
	arena_destroy(a);
	src_file_free(&f);
	return fail;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.ptx files of a directory, sorted; NULL-terminated, malloc'd. */
static char **list_dir(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0, cap = 16;
	char **v = malloc(sizeof *v * cap);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0)
			continue;
		if (n + 2 > cap)
			v = realloc(v, sizeof *v * (cap *= 2));
		v[n] = malloc(strlen(dir) + len + 2);
		sprintf(v[n++], "%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	qsort(v, n, sizeof *v, by_name);
	v[n] = NULL;
	return v;
}

int main(int argc, char **argv)
{
	int timing = 0, verbose = 0, fails = 0, files = 0, repeat = 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			repeat = repeat < 1 ? 1 : repeat;
			continue;
		}
		if (strcmp(argv[i], "--warm") == 0) {
			mallopt(M_MMAP_THRESHOLD, 1 << 30);
			mallopt(M_TRIM_THRESHOLD, -1);
			continue;
		}
		if (strcmp(argv[i], "--time") == 0) {
			timing = 1;
			continue;
		}
		if (strcmp(argv[i], "-v") == 0) {
			verbose = 1;
			continue;
		}
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			char **v = list_dir(argv[i]);
			for (char **f = v; *f; f++) {
				fails += check_file(*f, timing, verbose, repeat);
				files++;
				free(*f);
			}
			free(v);
			continue;
		}
		fails += check_file(argv[i], timing, verbose, repeat);
		files++;
	}
	if (!timing)
		printf("%d files, %d failed\n", files, fails);
	return fails ? 1 : 0;
}
