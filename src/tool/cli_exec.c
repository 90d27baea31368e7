/*
 * cli_exec.c - `ptxi exec [OPTION]... [--] PROGRAM [ARG]...`: run a CUDA program with its kernels
 * on the interpreter. ptxi's libcudart.so.13 goes first on the program's library path and
 * the run options reach it through the environment; the program's exit status is passed on,
 * but an error ptxi reported makes it 1 (--error-exitcode). A program whose runtime ptxi
 * cannot stand in for (linked statically, another CUDA's) is told how to rebuild.
 */
#include "cli_exec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PTXI_CUDART_INSTALL_DIR
#define PTXI_CUDART_INSTALL_DIR ""
#endif

static const char exec_help[] =
	"usage: ptxi exec [OPTION]... [--] PROGRAM [ARG]...\n"
	"Run a CUDA program built with `nvcc -cudart shared -arch=sm_90a` with its kernels on\n"
	"the interpreter: every launch is checked as `ptxi run` checks it.\n"
	"  --no-race             turn the data-race detector off\n"
	"  --keep-going          carry on after a rule is broken, where the hardware does\n"
	"  --max-steps N         warp-instructions a cluster runs before it is called endless\n"
	"  --max-errors N        reports shown per launch (0: all)\n"
	"  --jobs N              run each launch's clusters on N threads (default: one per\n"
	"                        CPU where the output does not depend on it)\n"
	"  --diagnostics F       text, json (one object a line) or sarif (one log for the run)\n"
	"  --trace mbarrier|all  trace the launches --launch picks (all without it)\n"
	"  --timeline FILE.html  picture the first launch --launch picks\n"
	"  --ctas LIST|sample:N  run only these CTAs of the launches --launch picks (all\n"
	"                        without it): indices and ranges (0,5,9 or 0-15) or an\n"
	"                        even spread of N; a CTA runs its whole cluster\n"
	"  --launch N|KERNEL     the launches --trace, --timeline and --ctas apply to: the\n"
	"                        Nth, or those of kernels whose name holds KERNEL\n"
	"  --error-exitcode N    the exit status when ptxi reported an error (default 1)\n";

static int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ptxi exec: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return status;
}

/* The directory holding ptxi's libcudart.so.13: $PTXI_CUDART_DIR, the build tree beside
 * this program, or the install's. */
static bool cudart_dir(char *dir, size_t size)
{
	const char *e = getenv("PTXI_CUDART_DIR");
	char self[4096], probe[4200];
	if (e && *e) {
		snprintf(dir, size, "%s", e);
		return true;
	}
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		snprintf(probe, sizeof probe, "%s/src/host/cudart/libcudart.so.13", self);
		if (access(probe, R_OK) == 0 && strlen(self) + 17 < size) {
			memcpy(dir, self, strlen(self));
			memcpy(dir + strlen(self), "/src/host/cudart", 17);
			return true;
		}
	}
	snprintf(probe, sizeof probe, "%s/libcudart.so.13", PTXI_CUDART_INSTALL_DIR);
	if (*PTXI_CUDART_INSTALL_DIR && access(probe, R_OK) == 0) {
		snprintf(dir, size, "%s", PTXI_CUDART_INSTALL_DIR);
		return true;
	}
	return false;
}

/* The program's path as execvp would find it. */
static bool find_program(const char *name, char *path, size_t size)
{
	if (strchr(name, '/')) {
		snprintf(path, size, "%s", name);
		return access(path, X_OK) == 0;
	}
	const char *p = getenv("PATH");
	for (p = p ? p : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(path, size, "%.*s/%s", (int)n, p, name);
		if (access(path, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

enum runtime { RT_UNKNOWN, RT_SHARED13, RT_SHARED_OTHER, RT_STATIC };

/* Which CUDA runtime an ELF program uses: its DT_NEEDED entries, and an .nv_fatbin section
 * without libcudart among them (the static runtime). `other` gets another libcudart's name. */
static enum runtime elf_runtime(const char *path, char *other, size_t size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		if (fd >= 0)
			close(fd);
		return RT_UNKNOWN;
	}
	size_t len = (size_t)st.st_size;
	const uint8_t *f = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f == MAP_FAILED)
		return RT_UNKNOWN;
	enum runtime rt = RT_UNKNOWN;
	const Elf64_Ehdr *eh = (const void *)f;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff > len || eh->e_shnum > (len - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    eh->e_shstrndx >= eh->e_shnum)
		goto out;
	const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
	const Elf64_Shdr *names = &sh[eh->e_shstrndx];
	bool fatbin = false, needs = false;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (names->sh_offset + sh[i].sh_name < len &&
		    !strncmp((const char *)f + names->sh_offset + sh[i].sh_name, ".nv_fatbin", 11))
			fatbin = true;
		if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
			continue;
		const Elf64_Shdr *str = &sh[sh[i].sh_link];
		const Elf64_Dyn *d = (const void *)(f + sh[i].sh_offset);
		for (size_t k = 0; k < sh[i].sh_size / sizeof *d && d[k].d_tag != DT_NULL; k++) {
			if (d[k].d_tag != DT_NEEDED || str->sh_offset + d[k].d_un.d_val >= len)
				continue;
			const char *lib = (const char *)f + str->sh_offset + d[k].d_un.d_val;
			if (!strncmp(lib, "libcudart.so", 12)) {
				needs = true;
				if (!strcmp(lib, "libcudart.so.13"))
					rt = RT_SHARED13;
				else if (rt != RT_SHARED13) {
					rt = RT_SHARED_OTHER;
					snprintf(other, size, "%s", lib);
				}
			}
		}
	}
	if (!needs && fatbin)
		rt = RT_STATIC;
out:
	munmap((void *)f, len);
	return rt;
}

struct exec_opts {
	int error_exitcode;
	char **argv;
};

static bool is_num(const char *v)
{
	char *end;
	return v && *v && (strtoull(v, &end, 10), !*end);
}

/* Parse the options into the environment the runtime reads. Returns 0, or an exit status. */
static int parse(int argc, char **argv, struct exec_opts *o)
{
	static const struct { const char *name, *env; bool value; } opts[] = {
		{"no-race", "PTXI_NO_RACE", false},     {"keep-going", "PTXI_KEEP_GOING", false},
		{"max-steps", "PTXI_MAX_STEPS", true},  {"max-errors", "PTXI_MAX_ERRORS", true},
		{"jobs", "PTXI_JOBS", true},            {"diagnostics", "PTXI_DIAGNOSTICS", true},
		{"trace", "PTXI_TRACE", true},          {"timeline", "PTXI_TIMELINE", true},
		{"launch", "PTXI_LAUNCH", true},        {"error-exitcode", NULL, true},
		{"ctas", "PTXI_CTAS", true},
	};
	o->error_exitcode = 1;
	int i = 0;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(exec_help, stdout);
			return -1;
		}
		if (strncmp(a, "--", 2))
			break;
		size_t n = strcspn(a + 2, "=");
		const char *v = a[2 + n] == '=' ? a + 3 + n : NULL;
		size_t k = 0;
		while (k < sizeof opts / sizeof opts[0] &&
		       (strlen(opts[k].name) != n || strncmp(opts[k].name, a + 2, n)))
			k++;
		if (k == sizeof opts / sizeof opts[0])
			return fail(2, "unknown option '%s' (ptxi exec --help lists them)", a);
		if (opts[k].value && !v) {
			if (i + 1 >= argc)
				return fail(2, "option '%s' needs a value", a);
			v = argv[++i];
		}
		if (!opts[k].value && v)
			return fail(2, "option '--%s' takes no value", opts[k].name);
		const char *name = opts[k].name;
		if ((!strcmp(name, "max-steps") || !strcmp(name, "max-errors") ||
		     !strcmp(name, "jobs") || !strcmp(name, "error-exitcode")) && !is_num(v))
			return fail(2, "--%s needs a number, not '%s'", name, v);
		if (!strcmp(name, "diagnostics") && strcmp(v, "text") && strcmp(v, "json") &&
		    strcmp(v, "sarif"))
			return fail(2, "bad --diagnostics '%s' (text, json or sarif)", v);
		if (!strcmp(name, "trace") && strcmp(v, "mbarrier") && strcmp(v, "all"))
			return fail(2, "bad --trace '%s' (mbarrier or all)", v);
		if (!strcmp(name, "error-exitcode"))
			o->error_exitcode = atoi(v);
		else
			setenv(opts[k].env, v ? v : "1", 1);
	}
	if (i >= argc)
		return fail(2, "no program to run (ptxi exec [OPTION]... [--] PROGRAM [ARG]...)");
	o->argv = argv + i;
	return 0;
}

/* Whether the program can run on ptxi's runtime; else why not, and how to rebuild. */
static int check_program(const char *prog, char *path, size_t size)
{
	if (!find_program(prog, path, size))
		return fail(2, "cannot run '%s': %s", prog, strchr(prog, '/') ? strerror(errno)
								      : "not found on PATH");
	char other[64] = "";
	switch (elf_runtime(path, other, sizeof other)) {
	case RT_STATIC:
		return fail(2, "'%s' links the CUDA runtime statically (nvcc's default), so ptxi "
			    "cannot stand in for it: rebuild it with `nvcc -cudart shared "
			    "-arch=sm_90a ...`", prog);
	case RT_SHARED_OTHER:
		return fail(2, "'%s' needs %s; ptxi provides CUDA 13's libcudart.so.13: rebuild it "
			    "with CUDA 13's nvcc (`nvcc -cudart shared -arch=sm_90a ...`)", prog,
			    other);
	default:
		return 0;
	}
}

int cli_exec(int argc, char **argv)
{
	struct exec_opts o = {1, NULL};
	int st = parse(argc, argv, &o);
	if (st)
		return st < 0 ? 0 : st;
	char path[4096], dir[4096];
	if ((st = check_program(o.argv[0], path, sizeof path)))
		return st;
	if (!cudart_dir(dir, sizeof dir))
		return fail(2, "cannot find ptxi's libcudart.so.13 (set PTXI_CUDART_DIR to its "
			    "directory)");
	const char *old = getenv("LD_LIBRARY_PATH");
	char *lib = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
	if (!lib)
		return fail(2, "out of memory");
	sprintf(lib, "%s%s%s", dir, old && *old ? ":" : "", old ? old : "");
	setenv("LD_LIBRARY_PATH", lib, 1);
	free(lib);
	int fds[2];
	if (pipe(fds))
		return fail(2, "pipe: %s", strerror(errno));
	char fd[16];
	snprintf(fd, sizeof fd, "%d", fds[1]);
	setenv("PTXI_STATUS_FD", fd, 1);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return fail(2, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		execv(path, o.argv);
		fprintf(stderr, "ptxi exec: cannot run '%s': %s\n", path, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	/* the program may ignore SIGINT; ptxi waits for it either way */
	signal(SIGINT, SIG_IGN);
	int ws;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	char buf[64];
	ssize_t n = read(fds[0], buf, sizeof buf - 1);
	close(fds[0]);
	unsigned long long errors = 0;
	bool told = n > 0;
	if (told) {
		buf[n] = '\0';
		errors = strtoull(buf, NULL, 10);
	}
	int status;
	if (WIFSIGNALED(ws)) {
		fprintf(stderr, "ptxi exec: the program was killed by signal %d (%s)\n",
			WTERMSIG(ws), strsignal(WTERMSIG(ws)));
		status = 128 + WTERMSIG(ws);
	} else {
		status = WEXITSTATUS(ws);
		if (!told && status != 127)
			fprintf(stderr, "ptxi exec: the program ended without ptxi's CUDA runtime "
				"saying how it went (it never loaded it, or ended by _exit)\n");
	}
	return errors ? o.error_exitcode : status;
}
