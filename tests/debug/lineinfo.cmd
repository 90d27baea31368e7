# ptxi debug ptx_samples/lineinfo/ws_pipeline.ptx --block 64 --arg buf:256
# A module with .loc: a breakpoint on a CUDA line stops once per warp arrival (not at each
# of the line's instructions), the stop names both lines, and `step` moves by CUDA line.
break ws_pipeline.cu:42
continue
step
step
info warps
continue
info mbarriers
