// Shared helpers for the H100-compared programs. Every kernel takes (unsigned *out,
// const unsigned char *in); the launcher fills in[i] = (i*7+3) & 0xff, so in[0] == 3 and
// Z(in) is a zero the compiler cannot see through (it keeps test values opaque).
#pragma once
#include <climits>
#define ZERO(in) ((unsigned)(in)[0] - 3u)
#define KERNEL extern "C" __global__ void
