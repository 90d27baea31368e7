# ptxi debug ptx_samples/mbarrier/producer_consumer.ptx --block 64 --arg buf:64
# What the commands say to what they cannot do.
help
frobnicate
s
info
info nonsense
break
break 9999
break nosuch.cu:3
break nosuch_kernel
break 40 if bogus == 3
break 40 if warp = 1
delete 7
print
print %nosuch
print/q %r1
print nosuch
print %r1 @40
x/4zw shared 0
x/4xw shared 0x100000
x/4xw nosuch
watch shared 2
watch local 0
finish
cta 1,0,0
warp 5
thread 64
continue
continue
print %r1
info warps
stepi
run
quit
