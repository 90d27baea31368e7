src = open('/work/shared/conformance/tensor/ptx/tma.ptx').read()
def kernel(name):
    s = src.index('.visible .entry %s(' % name)
    e = src.index('\n}\n\t// .globl', s) + 3
    return src[s:e]
def ren(k, n):
    return k.replace('_ZZ9load_dumpILi%dEEvPKvPhPjiiiiijjjE3bar' % n, 'bar_X').replace('_ZZ9load_dumpILi%dEEvPKvPhPjiiiiijjjE7missing' % n, 'miss_X')
k3 = ren(kernel('tma_load_3d'), 3); k4 = ren(kernel('tma_load_4d'), 4)
out = ['// tests/hw_tma/ptx/probes.ptx: the load-and-dump kernels of',
       '// ../shared/conformance/tensor/ptx/tma.ptx (nvcc 13.0 output), with im2col twins and',
       '// tensor prefetches, for the TMA probes of tests/hw_tma (gen.py).',
       '.version 9.0', '.target sm_90a', '.address_size 64', '',
       '.extern .shared .align 1024 .b8 dsmem[];', '']
out.append(k3.replace('_X', '_l3'))
regs = '\t.reg .b64 \t%rd<14>;\n\t.reg .b16 \t%rs<4>;\n\t.reg .b32 \t%ro<4>;'
i3 = k3.replace('tma_load_3d', 'tma_im2col_3d').replace('_X', '_i3').replace('\t.reg .b64 \t%rd<14>;', regs)
a = '.global.tile.mbarrier::complete_tx::bytes [%r29], [%rd6, {%r13, %r14, %r15}], [%r27];'
assert a in i3
i3 = i3.replace(a, a.replace('tile', 'im2col')[:-1] + ', {%rs1};')
a = '\tld.param.u32 \t%r16, [tma_im2col_3d_param_9];'
assert a in i3
i3 = i3.replace(a, a + '\n\tld.param.u32 \t%ro1, [tma_im2col_3d_param_7];\n\tcvt.u16.u32 \t%rs1, %ro1;')
out.append(i3)
i4 = k4.replace('tma_load_4d', 'tma_im2col_4d').replace('_X', '_i4').replace('\t.reg .b64 \t%rd<14>;', regs)
a = '.global.tile.mbarrier::complete_tx::bytes [%r30], [%rd6, {%r13, %r14, %r15, %r16}], [%r28];'
assert a in i4
i4 = i4.replace(a, a.replace('tile', 'im2col')[:-1] + ', {%rs1, %rs2};')
a = '\tld.param.u32 \t%r17, [tma_im2col_4d_param_9];'
assert a in i4
i4 = i4.replace(a, a + '\n\tld.param.u32 \t%ro1, [tma_im2col_4d_param_8];\n\tmov.b32 \t{%rs1, %rs2}, %ro1;')
out.append(i4)
pf = '''// A tensor prefetch of the box at the coordinates, then 0x600D in out[0] (not on a fault).
.visible .entry tma_prefetch_ND(
	.param .align 128 .b8 tma_prefetch_ND_param_0[128],
	.param .u64 tma_prefetch_ND_param_1,
	.param .u32 tma_prefetch_ND_param_2,
	.param .u32 tma_prefetch_ND_param_3,
	.param .u32 tma_prefetch_ND_param_4,
	.param .u64 tma_prefetch_ND_param_5
)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;

	mov.b64 	%rd1, tma_prefetch_ND_param_0;
	cvta.param.u64 	%rd2, %rd1;
	ld.param.u64 	%rd3, [tma_prefetch_ND_param_1];
	ld.param.u32 	%r1, [tma_prefetch_ND_param_2];
	ld.param.u32 	%r2, [tma_prefetch_ND_param_3];
	ld.param.u32 	%r4, [tma_prefetch_ND_param_4];
	cp.async.bulk.prefetch.tensor.ND.L2.global.tile [%rd2, {COORDS}];
	cvta.to.global.u64 	%rd4, %rd3;
	mov.u32 	%r3, 24589;
	st.global.u32 	[%rd4], %r3;
	ret;
}
'''
out.append(pf.replace('ND', '2d').replace('COORDS', '%r1, %r2'))
out.append(pf.replace('ND', '3d').replace('COORDS', '%r1, %r2, %r4'))


def pf5(name, insn):
    """A prefetch kernel of five coordinates: (map, out, c0..c4, tensor)."""
    ps = ",\n".join(["\t.param .align 128 .b8 %s_param_0[128]" % name,
                     "\t.param .u64 %s_param_1" % name] +
                    ["\t.param .u32 %s_param_%d" % (name, 2 + i) for i in range(5)] +
                    ["\t.param .u64 %s_param_7" % name])
    body = ["\tmov.b64 \t%%rd1, %s_param_0;" % name, "\tcvta.param.u64 \t%rd2, %rd1;",
            "\tld.param.u64 \t%%rd3, [%s_param_1];" % name]
    body += ["\tld.param.u32 \t%%r%d, [%s_param_%d];" % (1 + i, name, 2 + i) for i in range(5)]
    body += ["\tmov.b16 \t%h1, 0;", "\tmov.b64 \t%rd5, 0;", "\t" + insn,
             "\tcvta.to.global.u64 \t%rd4, %rd3;", "\tmov.u32 \t%r7, 24589;",
             "\tst.global.u32 \t[%rd4], %r7;", "\tret;"]
    return ("// A tensor prefetch at coordinates c0..c4 (as many as it takes), then 0x600D in "
            "out[0] (not on a fault).\n.visible .entry %s(\n%s\n)\n{\n\t.reg .b16 \t%%h<4>;\n"
            "\t.reg .b32 \t%%r<8>;\n\t.reg .b64 \t%%rd<8>;\n\n%s\n}\n"
            % (name, ps, "\n".join(body)))


C5 = ["%r1", "%r2", "%r3", "%r4", "%r5"]
for n in range(1, 6):
    out.append(pf5("tma_prefetch_%dd5" % n, "cp.async.bulk.prefetch.tensor.%dd.L2.global.tile "
                   "[%%rd2, {%s}];" % (n, ", ".join(C5[:n]))))
out.append(pf5("tma_prefetch_3d_im2col5", "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col "
               "[%rd2, {%r1, %r2, %r3}], {%h1};"))
out.append(pf5("tma_prefetch_2d_hint5", "cp.async.bulk.prefetch.tensor.2d.L2.global.tile"
               ".L2::cache_hint [%rd2, {%r1, %r2}], %rd5;"))
open('ptx/probes.ptx', 'w').write('\n'.join(out))
