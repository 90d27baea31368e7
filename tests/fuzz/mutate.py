# mutate.py [SEED] [N]: mutate the samples, rule programs and H100 cases, and run each
# mutant through the sanitizer build (build-asan/ptxi: run, then check); report crashes,
# sanitizer findings and hangs. Not in CI.
import random, subprocess, os, re, sys, glob
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
shared = os.path.join(os.path.dirname(root), 'shared', 'conformance', 'cases')
ptxi = os.path.join(root, 'build-asan', 'ptxi')
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
cases = glob.glob(shared + '/*.ptx') + glob.glob(root + '/ptx_samples/**/*.ptx', recursive=True) + glob.glob(root + '/tests/rules/**/*.ptx', recursive=True)
manifest = {l.split()[0]: l.split() for l in open(shared + '/MANIFEST') if l.strip()} if os.path.exists(shared + '/MANIFEST') else {}
# the conformance input: byte i = (i*7+3) & 0xff
open('/tmp/in.bin', 'wb').write(bytes((i * 7 + 3) & 0xff for i in range(1 << 16)))
crashes = 0
for it in range(int(sys.argv[2]) if len(sys.argv) > 2 else 300):
    f = random.choice(cases)
    src = open(f).read()
    lines = src.split('\n')
    for _ in range(random.randint(1, 4)):
        i = random.randrange(len(lines))
        l = lines[i]
        op = random.random()
        if op < 0.3:
            l = re.sub(r'\b\d+\b', lambda m: str(random.choice([0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 64, 255, 4096, 65535, 1048575, 1048576, 2**31, 2**32-1])), l, count=1)
        elif op < 0.5:
            l = l.replace('%r', '%rd', 1) if random.random() < 0.5 else l.replace('%rd', '%r', 1)
        elif op < 0.6:
            l = ''
        elif op < 0.8:
            j = random.randrange(len(lines)); lines[j], l = l, lines[j]
        else:
            l = l.replace('shared::cta', random.choice(['shared::cluster', 'shared', 'global', '']), 1)
        lines[i] = l
    open('/tmp/fz.ptx', 'w').write('\n'.join(lines))
    name = os.path.basename(f)[:-4]
    m = manifest.get(name)
    args = ['--grid', m[1], '--block', m[2], '--cluster', m[3], '--arg', 'buf:%d' % (int(m[4]) * 4), '--arg', 'file:/tmp/in.bin'] if m else ['--block', '64', '--arg', 'buf:64']
    args += random.choice([[], ['--keep-going'], ['--seed', '3']])
    bad = False
    for cmd in (['run', '/tmp/fz.ptx'] + args + ['--max-steps', '2000000'], ['check', '/tmp/fz.ptx']):
        try:
            p = subprocess.run([ptxi] + cmd, capture_output=True, timeout=60)
            bad = p.returncode not in (0, 1, 2, 3) or b'Sanitizer' in p.stderr or b'runtime error' in p.stderr
        except subprocess.TimeoutExpired:
            bad = True; p = None
        if bad:
            args = cmd
            break
    if bad:
        crashes += 1
        os.system('cp /tmp/fz.ptx /tmp/crash_%d.ptx' % crashes)
        print('CRASH', crashes, f, args, p.returncode if p else 'timeout', (p.stderr[-600:] if p else b'').decode(errors='replace'))
print('done, crashes:', crashes)
