# ptxi debug ptx_samples/mbarrier/producer_consumer.ptx --block 64 --arg buf:64 -ex "info breakpoints"
# The producer/consumer ring: a conditional breakpoint on the consumer's wait, the warps and
# mbarriers there, registers of one thread and of lanes, stepping, memory, a watchpoint on
# the stage the producer fills, and `run` again stopping at the same places.
info warps
break 75 if warp == 1 && %r2 == 1
info breakpoints
continue
info warps
info mbarriers
print %r2
print %r5
print/x %r7
print %r11 @0-3,31
print %tid.x
thread 40
print %tid.x
print/x %r11
stepi
next
step
x/8dw shared buf
x/2xg full
print empty
print/x out
backtrace
delete 2
watch shared buf
continue
info breakpoints
continue
delete
break producer_consumer.ptx:69
run
info warps
run
continue
continue
