# ptxi debug ptx_samples/tutorial/tma_pipeline.ptx --block 64 --arg tmap:buf=1,type=u32,dims=32x16,strides=128,box=32x4 --arg buf:2048 --arg buf:128
# A TMA pipeline: the producer's expect-tx, the tensor copy in flight toward full[0] with
# its complete-tx, the consumer parked on it, and the phase flipping when the copy lands.
break 101 if thread == 0
continue
info mbarriers
stepi
info copies
info mbarriers
info warps
delete
break 121
continue
info mbarriers
info copies
x/4uw shared 0x80
quit
