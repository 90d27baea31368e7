/*
 * check_wgmma.h - static checks of wgmma.* and setmaxnreg (check_wgmma.c), called by check.c
 * for every instruction of family FAM_WGMMA.
 */
#ifndef PTXI_CHECK_WGMMA_H
#define PTXI_CHECK_WGMMA_H

#include "ir.h"

/* Check one instruction; reports through m->diag and returns the number of errors. */
int check_wgmma(struct ir_module *m, const struct ir_insn *in);

#endif
