/*
 * debug_input.c - where `ptxi debug` reads its commands: the -ex commands, then a --batch
 * file, else standard input; on a terminal with line editing and history (Debian's
 * libedit) where the build has it, else plain lines. Commands read from anything but a
 * terminal are echoed after the prompt, so a transcript reads like the session.
 */
#include "debug_priv.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef PTXI_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#define PROMPT "(ptxi) "

struct dbg_input {
	const char **ex;
	unsigned nex, next;
	FILE *batch;            /* --batch FILE, or NULL                                     */
	bool batch_mode;        /* the session ends with the script                         */
	bool tty;               /* standard input is a terminal: prompt, edit, repeat       */
	char *last;             /* the last command, which an empty line repeats (a terminal) */
};

struct dbg_input *input_new(const struct debug_script *s)
{
	struct dbg_input *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	in->ex = s->ex;
	in->nex = s->nex;
	if (s->batch) {
		in->batch_mode = true;
		in->batch = fopen(s->batch, "r");
		if (!in->batch) {
			fprintf(stderr, "ptxi: error: cannot read --batch '%s'\n", s->batch);
			free(in);
			return NULL;
		}
	}
	in->tty = !s->batch && isatty(STDIN_FILENO);
	return in;
}

/* One line of f without its newline (malloc'd), or NULL at its end. */
static char *read_line(FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = getline(&line, &cap, f);
	if (n < 0) {
		free(line);
		return NULL;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = 0;
	return line;
}

static char *terminal_line(void)
{
#ifdef PTXI_HAVE_LIBEDIT
	char *line = readline(PROMPT);
	if (line && *line)
		add_history(line);
	return line;
#else
	fputs(PROMPT, stdout);
	fflush(stdout);
	return read_line(stdin);
#endif
}

char *input_line(struct dbg_input *in, FILE *out)
{
	for (;;) {
		char *line;
		bool typed = false; /* at a terminal: echoed as typed */
		if (in->next < in->nex)
			line = strdup(in->ex[in->next++]);
		else if (in->batch_mode)
			line = in->batch ? read_line(in->batch) : NULL;
		else if (in->tty)
			line = terminal_line(), typed = true;
		else
			line = read_line(stdin);
		if (!line)
			return NULL;
		const char *p = line + strspn(line, " \t");
		if (*p == '#' || (!*p && !typed)) { /* comments; blank lines of a script */
			free(line);
			continue;
		}
		if (!*p) { /* an empty line repeats the last command, as GDB's does */
			free(line);
			if (!in->last)
				continue;
			return strdup(in->last);
		}
		if (!typed) {
			fprintf(out, PROMPT "%s\n", p);
			fflush(out);
		} else {
			free(in->last);
			in->last = strdup(p);
		}
		return line;
	}
}

void input_free(struct dbg_input *in)
{
	if (!in)
		return;
	if (in->batch)
		fclose(in->batch);
	free(in->last);
	free(in);
}
