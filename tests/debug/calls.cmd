# ptxi debug tests/debug/calls.ptx --grid 2 --cluster 2 --block 64 --arg buf:512
# Calls: step into a .func, backtrace, finish back out, next over the second call; a .func
# parameter, a .local variable, a kernel parameter, global memory by a register's address;
# info threads and info barriers while warp 1 waits at bar.sync; break on a function; const
# and param memory; a cluster of two CTAs, the other one selected.
break twice
info breakpoints
continue
backtrace
print x
print/x %r2
step
step
finish
print %r1 @0-2
delete
next
print %r2
thread 1
print scratch
x/2xw local scratch
print/x out
print factor
x/2dw const factor
x/xg out
break 24 if warp == 1 && cta == 0,0,0
continue
info barriers
info threads
info warps
cta 1,0,0
info barriers
cta 0,0,0
delete
break 29
continue
print/x %rd2
x/2dw %rd2
stepi
x/2dw %rd2
stepi
continue
