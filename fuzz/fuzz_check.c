/*
 * fuzz_check.c - libFuzzer harness: parse and statically check one PTX module (what
 * `ptxi check` does). Any input must end in diagnostics, never a crash, a sanitizer report,
 * a hang or unbounded memory.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi/ptxi.h"

static void quiet(void *ctx, int level, const char *text)
{
	(void)ctx;
	(void)level;
	(void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ptxi_module *m = ptxi_module_load_string("fuzz.ptx", text, quiet, NULL);
	ptxi_module_free(m);
	free(text);
	return 0;
}
