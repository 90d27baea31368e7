/*
 * embed.c - a C program built against the installed libptxi with pkg-config alone
 * (test_ptxi.py's install test): it loads a kernel from a string, launches it with
 * arguments from specs and data, and checks what it wrote. "layout" prints the sizes and
 * offsets of the public structs that the Python module mirrors with ctypes.
 */
#include <ptxi/ptxi.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry scale(.param .u64 out, .param .u32 k)\n{\n"
	"  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
	"  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [k];\n  mov.u32 %r2, %tid.x;\n"
	"  mad.lo.u32 %r3, %r2, 3, %r1;\n  cvta.to.global.u64 %rd2, %rd1;\n"
	"  mul.wide.u32 %rd3, %r2, 4;\n  add.u64 %rd2, %rd2, %rd3;\n"
	"  st.global.u32 [%rd2], %r3;\n  ret;\n}\n";

#define FIELD(s, f) printf(#s "." #f " %zu\n", offsetof(struct s, f))

static int layout(void)
{
	printf("ptxi_config %zu\n", sizeof(struct ptxi_config));
	FIELD(ptxi_config, dyn_shared);
	FIELD(ptxi_config, seed);
	FIELD(ptxi_config, max_errors);
	FIELD(ptxi_config, trace_lines);
	FIELD(ptxi_config, timeline_out);
	FIELD(ptxi_config, interrupt);
	FIELD(ptxi_config, jobs);
	printf("ptxi_diagnostic %zu\n", sizeof(struct ptxi_diagnostic));
	FIELD(ptxi_diagnostic, threads);
	FIELD(ptxi_diagnostic, source_column);
	printf("ptxi_kernel_info %zu\n", sizeof(struct ptxi_kernel_info));
	FIELD(ptxi_kernel_info, static_shared);
	printf("ptxi_param_info %zu\n", sizeof(struct ptxi_param_info));
	FIELD(ptxi_param_info, spec);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "layout") == 0)
		return layout();
	ptxi_module *m = ptxi_module_load_string("scale.ptx", ptx, NULL, NULL);
	if (!m || ptxi_module_errors(m))
		return 2;
	ptxi_args *a = ptxi_args_new();
	char why[300];
	uint32_t init[32] = {0};
	if (ptxi_args_add_buffer(a, init, sizeof init) || ptxi_args_add_scalar(a, 4, false, 7))
		return 2;
	if (ptxi_args_add_spec(a, "u32:x", why, sizeof why) != PTXI_INVALID)
		return 2;
	printf("%s\n", why);
	struct ptxi_config cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
	unsigned n;
	const struct ptxi_arg *args = ptxi_args_list(a, &n);
	ptxi_run *run;
	int st = ptxi_launch(m, &cfg, args, n, &run);
	size_t bytes = 0;
	const uint32_t *out = ptxi_run_buffer(run, 0, &bytes);
	int bad = st != PTXI_OK || !out || bytes != sizeof init;
	for (unsigned i = 0; !bad && i < 32; i++)
		bad = out[i] != i * 3 + 7;
	printf("%s: status %d, out[31] %u; header %d.%d.%d, library %s\n", bad ? "FAIL" : "ok", st,
	       out ? out[31] : 0, PTXI_VERSION_MAJOR, PTXI_VERSION_MINOR, PTXI_VERSION_PATCH,
	       ptxi_version());
	ptxi_run_free(run);
	ptxi_args_free(a);
	ptxi_module_free(m);
	return bad;
}
