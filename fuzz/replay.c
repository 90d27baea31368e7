/*
 * replay.c - runs a fuzz harness over files, once each, without libFuzzer: `make test`
 * replays the seed corpus and every input fuzzing found through the sanitizer build (gcc
 * or clang), deterministic and fast. Usage: replay FILE|DIR...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *nb = n < (64u << 20) ? realloc(buf, cap *= 2) : NULL;
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	replayed++;
	return 0;
}

static int replay_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort), bad = 0;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, names[i]->d_name);
			bad |= replay_path(sub);
		}
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad |= replay_path(argv[i]);
	printf("replay: %u inputs\n", replayed);
	return bad;
}
