# ptxi debug ptx_samples/deadlock/cross_wait.ptx --block 64 --arg buf:4
# A deadlock: the stop keeps the warps where they wait, with the mbarrier and the CTA
# barrier each waits on; continue ends the launch with status 3.
continue
info warps
info mbarriers
info barriers
warp 1
backtrace
explain
stepi
continue
info warps
