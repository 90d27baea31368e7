/*
 * cli_exec.h - `ptxi exec`: run a CUDA program on ptxi's CUDA runtime (cli_exec.c).
 */
#ifndef PTXI_EXEC_H
#define PTXI_EXEC_H

/* argv: what follows `ptxi exec`. Returns the exit status. */
int cli_exec(int argc, char **argv);

#endif
