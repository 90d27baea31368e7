# ptxi debug ptx_samples/tutorial/read_before_wait.ptx --block 64 --arg buf:64 --keep-going
# A data race under --keep-going: the debugger stops right after the instruction that broke
# the rule, with the report, and can explain the rule; then the launch goes on.
continue
info warps
print %r13
explain
continue
