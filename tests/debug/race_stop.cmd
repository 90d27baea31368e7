# ptxi debug ptx_samples/tutorial/read_before_wait.ptx --block 64 --arg buf:64 --seed 5
# A rule break that ends the launch (no --keep-going): the stop keeps the state the rule
# left; `run` replays the seeded schedule and stops at the same place.
continue
info warps
stepi
run
continue
continue
