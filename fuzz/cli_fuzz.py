#!/usr/bin/env python3
# cli_fuzz.py PTXI [N] [SEED]: random `ptxi run` command lines (shapes, --arg forms, struct
# and tensor-map specs, --dump/--out, counts, files) against the sample kernels, through a
# sanitizer build. Every run must end within 20 s in exit 0, 1 or 3 (the launch ran) or 2
# with a message, and a usage error ("bad --OPT", "see 'ptxi --help'") in exit 2: a crash, a
# sanitizer report, a hang, a non-zero status without a message or a usage error with
# another status is printed as a finding. Not in CI.
import os, random, subprocess, sys, tempfile

ptxi = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 300
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K = os.path.join(root, 'ptx_samples', 'kernels')
kernels = [os.path.join(K, 'noop.ptx'), os.path.join(K, 'params_struct.ptx'),
           os.path.join(root, 'tests', 'cli', 'globals.ptx'),
           os.path.join(root, 'ptx_samples', 'tutorial', 'tma_pipeline.ptx'),
           os.path.join(root, 'ptx_samples', 'b128', 'b128_values.ptx'),
           '/dev/null', '/dev/zero', '/', '/nonexistent.ptx', '']

NUMS = ['0', '1', '2', '3', '7', '16', '17', '31', '32', '64', '1024', '1025', '65535', '65536',
        '2147483647', '2147483648', '4294967295', '4294967296', '18446744073709551615',
        '18446744073709551616', '-1', ' 1', '+1', '0x10', '0x', '010', '1e3', '', 'x', '1,', ',1',
        '1,,1', '1,1,1,1']

def num():
    return random.choice(NUMS)

def dims():
    return ','.join(num() for _ in range(random.randint(1, 4)))

def tmap():
    keys = {'buf': [num(), '0+' + num(), '@0', '@' + num()], 'type': ['f32', 'f16', 'u8', 'b128', ''],
            'dims': ['16x8', dims().replace(',', 'x'), '0x8', '16x8x4x2x1x1'],
            'strides': ['64', num(), '64x512'], 'box': ['16x4', num() + 'x' + num()],
            'estrides': ['1x1', num()], 'swizzle': ['128B', '32B', 'no'], 'mode': ['tile', 'im2col'],
            'lower': ['-1', num()], 'upper': ['1'], 'channels': [num()], 'pixels': [num()]}
    items = random.sample(list(keys), random.randint(0, len(keys)))
    items += random.choice([[], [random.choice(list(keys))]])  # a key given twice
    return 'tmap:' + ','.join('%s=%s' % (k, random.choice(keys[k])) for k in items)

def scalar():
    return random.choice(['u8', 'u16', 'u32', 'u64', 's8', 's32', 's64', 'f32', 'f64', 'b128',
                          'b32']) + ':' + random.choice(NUMS + ['nan', 'inf', '-0', '1.5', '0x1p3'])

def value(depth=0):
    r = random.random()
    if r < 0.3:
        return scalar()
    if r < 0.5:
        return 'buf:' + num()
    if r < 0.6:
        return 'file:' + random.choice([os.path.join(K, 'ramp.bin'), '/dev/zero', '/', '', '/nope'])
    if r < 0.75:
        return tmap()
    if depth:
        return 'bytes:' + num()
    fields = ''.join(',@%s=%s' % (random.choice(['0', '8', '16', '64', num()]), value(1))
                     for _ in range(random.randint(0, 4)))
    return 'bytes:' + random.choice(['192', '8', '32764', '32765', num()]) + fields

def option():
    o = random.choice(['grid', 'block', 'cluster', 'shared', 'arg', 'arg', 'arg', 'set', 'dump',
                       'out', 'jobs', 'max-steps', 'max-memory', 'max-errors', 'heap', 'seed',
                       'explore', 'trace-cta', 'trace-warp', 'trace-lines', 'trace-width',
                       'kernel', 'keep-going', 'no-race', 'diagnostics', 'trace'])
    v = {'grid': dims, 'block': dims, 'cluster': dims, 'trace-cta': dims, 'arg': value,
         'set': lambda: random.choice(['scale', 'table', 'counter', 'nosuch', '']) + '=' + value(),
         'dump': lambda: random.choice(['0', '1', '9', 'table', 'x']) + random.choice(['', '@0', '@8', '@' + num()]) + random.choice(['', ':u8', ':f32', ':hex', ':f128', ':']),
         'out': lambda: random.choice(['0', 'table']) + '=' + random.choice(['/', '/dev/full', '', tempfile.gettempdir() + '/cli_fuzz.bin']),
         'kernel': lambda: random.choice(['', 'scale', 'noop', 'k']),
         'keep-going': None, 'no-race': None,
         'diagnostics': lambda: random.choice(['json', 'sarif', 'text', 'xml']),
         'trace': lambda: random.choice(['all', 'mbarrier', 'none'])}.get(o, num)
    return ['--' + o] + ([v()] if v else [])

findings = 0
for i in range(runs):
    cmd = [ptxi, 'run', random.choice(kernels)]
    for _ in range(random.randint(0, 6)):
        cmd += option()
    if 'all' in cmd:  # a traced launch of many CTAs is slow, not hung
        cmd += ['--max-steps', '20000']
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=20, stdin=subprocess.DEVNULL,
                           env=dict(os.environ, ASAN_OPTIONS='detect_leaks=0'))
    except subprocess.TimeoutExpired:
        print('HANG:', cmd); findings += 1; continue
    err = p.stderr.decode(errors='replace')
    usage = err.startswith('ptxi: error: bad --') or 'see \'ptxi --help\'' in err
    bad = (p.returncode < 0 or p.returncode not in (0, 1, 2, 3) or 'Sanitizer' in err or
           'runtime error' in err or (p.returncode != 0 and 'error' not in err) or
           (usage and p.returncode != 2))
    if bad:
        findings += 1
        print('FINDING (exit %d):' % p.returncode, cmd, '\n', err[-1500:])
print('cli_fuzz: %d runs, %d findings' % (runs, findings))
sys.exit(1 if findings else 0)
