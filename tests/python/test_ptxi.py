"""Tests of the Python module ptxi (python/ptxi) over the built libptxi.so, and of the
installed library: exports, pkg-config, the installed module. pytest runs it; without
pytest, `python3 test_ptxi.py` runs the same functions with unittest.

meson test runs it with PTXI_LIBRARY (the built libptxi.so), PYTHONPATH (python/),
PTXI_SOURCE_ROOT and PTXI_BUILD_ROOT set, and PTXI_PREFIX, PTXI_LIBDIR, PTXI_PYDIR (where
`meson install` puts things) for the install test.
"""
import array
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import ptxi

SRC = os.path.abspath(os.environ.get("PTXI_SOURCE_ROOT", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")))
BUILD = os.path.abspath(os.environ.get("PTXI_BUILD_ROOT", os.path.join(SRC, "build")))
SAMPLES = os.path.join(SRC, "ptx_samples")
TRITON = os.path.join(os.path.dirname(SRC), "shared", "conformance", "triton")

SCALE = """.version 8.0
.target sm_90
.address_size 64
.visible .entry scale(.param .u64 out, .param .u32 k)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [k];
  mov.u32 %r2, %tid.x;
  mad.lo.u32 %r3, %r2, 3, %r1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r3;
  ret;
}
"""


def raises(fn, *args, **kw):
    """The ptxi.Error fn raises (the test fails if it raises none)."""
    try:
        fn(*args, **kw)
    except ptxi.Error as e:
        return e
    raise AssertionError(f"{fn.__name__} raised no ptxi.Error")


# ---- buffers, scalars, results ----------------------------------------------------------

def test_buffers_copied_in_and_back():
    m = ptxi.loads(SCALE, "scale.ptx")
    out = bytearray(128)
    r = m.launch("scale", grid=1, block=32, args=[out, ptxi.u32(7)])
    assert r.status == 0 and r.diagnostics == [] and r.rules == []
    assert list(array.array("I", bytes(out))) == [i * 3 + 7 for i in range(32)]
    assert r.buffer(0) == bytes(out) and r.buffer(1) is None
    assert r.warp_insns == 9 and r.thread_insns == 288
    a = array.array("I", [0] * 32)
    assert m.launch(block=32, args=[a, "u32:100"]).status == 0  # the only kernel; a spec
    assert list(a) == [i * 3 + 100 for i in range(32)]
    assert m.launch("sca", block=32, args=[a, 9]).status == 0  # an int as the .u32 parameter
    assert list(a) == [i * 3 + 9 for i in range(32)]
    mv = memoryview(bytearray(256))[64:192]  # a window of a larger buffer
    assert m.launch("scale", block=(8, 4), args=[mv, ptxi.u32(1)]).status == 0
    assert mv.tobytes() == array.array("I", [i * 3 + 1 for i in range(8)] + [0] * 24).tobytes()
    assert mv.obj[:64] == bytes(64)
    ro = bytes(array.array("I", [5] * 32))  # read-only: copied in, not back
    r = m.launch("scale", block=16, args=[ro, ptxi.u32(0)])
    assert ro == bytes(array.array("I", [5] * 32))
    assert list(array.array("I", r.buffer(0))) == [i * 3 for i in range(16)] + [5] * 16


def test_numpy_buffers_if_present():
    try:
        import numpy as np
    except ImportError:
        return  # numpy is optional
    m = ptxi.loads(SCALE)
    out = np.zeros(32, dtype=np.uint32)
    assert m.launch(block=32, args=[out, ptxi.u32(2)]).status == 0
    assert out.tolist() == [i * 3 + 2 for i in range(32)]


def test_scalars():
    assert ptxi.u32(5).bits == 5 and ptxi.s8(-1).bits == 0xff and ptxi.s64(-2).bits == 2**64 - 2
    assert ptxi.f32(1.5).bits == 0x3fc00000 and ptxi.f64(-2.0).bits == 0xc000000000000000
    assert str(raises(ptxi.u8, 256)).startswith("'u8:256': not a u8 value")
    assert str(raises(ptxi.u32, "x")).startswith("'u32:x': not a u32 value")


# ---- usage errors: the program's words ------------------------------------------------

def test_usage_errors():
    m = ptxi.loads(SCALE, "scale.ptx")
    out = bytearray(128)
    e = raises(m.launch, "scale", block=32, args=[out, "u32:x"])
    assert str(e) == "'u32:x': not a u32 value" and e.status == 2
    e = raises(m.launch, "scale", block=32, args=[out, "f16:1"])
    assert str(e).startswith("'f16:1': want TYPE:VALUE (u8 u16 u32 u64")
    e = raises(m.launch, "nope", block=32, args=[out, ptxi.u32(1)])
    assert str(e) == "no kernel named 'nope' (kernels: scale)"
    assert e.diagnostics[0].rule == "ptx-invalid" and e.diagnostics[0].file is None
    e = raises(m.launch, "scale", block=2000, args=[out, ptxi.u32(1)])
    assert str(e) == "a block has at most 1024 threads (asked for 2000)"
    e = raises(m.launch, "scale", block=32, args=[out])
    assert str(e) == "kernel 'scale' takes 2 parameters; 1 --arg given"
    e = raises(m.launch, "scale", block=32, args=[out, 1.5])  # the parameter is .u32
    assert str(e) == "argument 1 (1.5): give a typed scalar (ptxi.u32(1.5), ptxi.f32(...)) " \
                     "or a spec string ('u32:1.5'): the parameter's type says no scalar size"
    tma = ptxi.load(os.path.join(SAMPLES, "tma", "pipeline_tma_async.ptx"))
    e = raises(tma.launch, block=96, args=[5, out, out])  # a .b8[128] map: no plain int
    assert str(e).startswith("argument 0 (5): give a typed scalar"), str(e)
    e = raises(m.launch, "scale", block=32, args=[out, -1])
    assert str(e).startswith("'u32:-1': not a u32 value"), str(e)
    e = raises(m.launch, "scale", grid=0, args=[out, ptxi.u32(1)])
    assert str(e) == "bad grid 0 (want X[,Y[,Z]], each 1 to 2147483647)"
    e = raises(m.launch, "scale", block=32, args=[out, "file:/nonexistent/x.bin"])
    assert str(e) == "cannot read '/nonexistent/x.bin': No such file or directory"


def test_load_errors():
    e = raises(ptxi.load, "/nonexistent/k.ptx")
    assert str(e) == "cannot read '/nonexistent/k.ptx': No such file or directory"
    e = raises(ptxi.loads, SCALE.replace("mad.lo.u32", "mad.lo.u33"), "bad.ptx")
    d = [x for x in e.diagnostics if x.level == "error"][0]
    assert (d.file, d.line, d.column, d.rule) == ("bad.ptx", 11, 9, "modifier-not-allowed"), d
    assert d.message == "unknown modifier '.u33' on 'mad'"


def test_check():
    bad = os.path.join(SAMPLES, "checks", "operand-type.ptx")
    r = ptxi.check(bad)
    assert r.status == 2 and r.rules and r.rules[0] == "operand-type", r
    assert r.diagnostics[0].file == bad and r.diagnostics[0].line > 0
    assert ptxi.check(os.path.join(SAMPLES, "checks", "ok", "operand-type.ptx")).status == 0


# ---- broken rules, deadlock, source lines ---------------------------------------------

def test_broken_rule():
    m = ptxi.loads(SCALE, "scale.ptx")
    out = bytearray(16)  # 4 words for 32 threads
    r = m.launch("scale", block=32, args=[out, ptxi.u32(0)])
    assert r.status == 1 and r.rules == ["memory-out-of-bounds"], r
    d = r.diagnostics[0]
    assert (d.level, d.file, d.line, d.column) == ("error", "scale.ptx", 15, 3)
    assert d.message.startswith("4-byte access at global address 0x700000010 is outside every "
                                "allocation"), d.message
    assert d.threads == "CTA (0,0,0) thread 4 (4,0,0)", d.threads
    assert d.notes[1] == "rule (PTX ISA 5.1): a memory access must fall inside an allocation " \
                         "of its state space"
    assert str(d).startswith("scale.ptx:15:3: error: 4-byte access")
    assert str(d).split("\n")[0].endswith("[memory-out-of-bounds]")
    assert list(array.array("I", bytes(out))) == [0, 3, 6, 9]


def test_source_line_from_loc():
    m = ptxi.load(os.path.join(SAMPLES, "lineinfo", "oob_inlined.ptx"))
    cwd = os.getcwd()
    os.chdir(os.path.join(SAMPLES, "lineinfo"))
    try:
        r = m.launch(block=4, args=["buf:16", "file:in4.bin", ptxi.s32(4)])
    finally:
        os.chdir(cwd)
    assert r.status == 1 and r.rules == ["memory-out-of-bounds"]
    d = r.diagnostics[0]
    assert os.path.basename(d.source_file) == "oob_inlined.cu", d.source_file
    assert (d.source_line, d.source_column) == (5, 3)
    assert d.source_text == "  out[i] = v;", (d.source_file, d.source_text)
    assert d.threads == "CTA (0,0,0) thread 3 (3,0,0)"
    assert "in function 'put(int*, int, int)'" in d.notes


def test_deadlock():
    m = ptxi.load(os.path.join(SAMPLES, "deadlock", "cross_wait.ptx"))
    run = sample_runs(os.path.join(SAMPLES, "deadlock", "cross_wait.ptx"))[0]
    r = m.launch(**launch_kwargs(run)[0])
    assert r.status == 3 and "deadlock" in r.rules, r


def test_cooperative_grid_sync():
    """cooperative=True runs nvcc's this_grid().sync() (tests/cooperative/grid_sync.ptx);
    without it the kernel traps, having no grid-sync workspace."""
    m = ptxi.load(os.path.join(SRC, "tests", "cooperative", "grid_sync.ptx"))
    words = array.array("i", [3 * i + 1 for i in range(8)])
    out = array.array("i", [0] * 9)
    args = [words, bytearray(32), out, ptxi.s32(-1)]
    r = m.launch(grid=8, block=64, args=args, cooperative=True)
    assert r.status == 0 and list(out) == [184, 8, 14, 20, 26, 32, 38, 44, 2], (r, list(out))
    r = m.launch(grid=8, block=64, args=args)
    assert r.status == 1 and "trap" in r.rules, r


def test_ctrl_c_stops_a_launch():
    """KeyboardInterrupt during a launch stops it as Ctrl-C stops `ptxi run`: the launch
    reports where each warp stands and KeyboardInterrupt carries that Result."""
    import _thread
    import threading
    # a loop that counts: its state changes, so it runs until interrupted (a loop that
    # repeats its state is called a deadlock at once)
    spin = SCALE.replace("mad.lo.u32", "SPIN:\n  add.u32 %r2, %r2, 1; bra SPIN;\n  mad.lo.u32")
    m = ptxi.loads(spin, "spin.ptx")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        m.launch(block=32, args=[bytearray(128), 1], max_steps=10**12)
    except KeyboardInterrupt as e:
        r = e.args[0]
    else:
        raise AssertionError("the launch was not interrupted")
    finally:
        timer.cancel()
    assert r.status == 130, r
    assert r.rules == ["interrupted"], [str(d) for d in r.diagnostics]
    assert r.errors[0].message.startswith("interrupted after ")
    assert r.diagnostics[0].message == "interrupted here: running"
    assert (r.diagnostics[0].line, r.diagnostics[0].threads) == (12, "CTA (0,0,0) threads 0-31")


# ---- tensor maps, Triton ----------------------------------------------------------------

def test_tensor_map_argument():
    path = os.path.join(SAMPLES, "tma", "pipeline_tma_async.ptx")
    m = ptxi.load(path)
    out, tensor = bytearray(256), bytearray(8192)
    r = m.launch(block=96, args=["tmap:buf=2,type=u32,dims=32x64,strides=128,box=32x8", out,
                                 tensor])
    assert r.status == 0, r.diagnostics
    want = [int(w, 16) for w in re.findall(r"^// expect: (\w+)$", open(path).read(), re.M)]
    assert list(array.array("I", bytes(out))) == want and len(want) == 64
    assert list(array.array("I", bytes(tensor))) == list(range(2048))
    broken = ptxi.load(os.path.join(SAMPLES, "tma", "pipeline_tma_async_wrong_barrier.ptx"))
    r = broken.launch(block=96, race=False, args=[
        "tmap:buf=2,type=u32,dims=32x64,strides=128,box=32x8", bytearray(256), bytearray(8192)])
    assert r.status == 1 and r.rules == ["async-copy-race"], r
    assert (r.diagnostics[0].line, r.diagnostics[0].column) == (119, 3)
    e = raises(m.launch, block=96, args=["tmap:buf=2,type=u33", out, tensor])
    assert str(e).startswith("tensor map 'tmap:buf=2,type=u33': "), str(e)


def test_triton_kernel():
    name = "triton_matmul"
    if not os.path.exists(os.path.join(TRITON, name + ".ptx")):
        return  # ../shared is not here
    import json
    meta = json.load(open(os.path.join(TRITON, name + ".json")))
    m = ptxi.load(os.path.join(TRITON, name + ".ptx"))
    (k,) = m.info()
    assert k.name == "matmul_kernel" and len(k.params) == 8
    assert [p.type for p in k.params[:4]] == [".u64 .ptr", ".u64 .ptr", ".u64 .ptr", ".u32"]
    assert k.params[6].note == "Triton's hidden global-scratch pointer"
    bufs = [bytearray(open(os.path.join(TRITON, a["file"]), "rb").read())
            for a in meta["args"][:3]]
    a, b, c = bufs
    a0 = bytes(a)
    args = bufs + [x["value"] for x in meta["args"][3:]] + ["buf:0", ptxi.u64(0)]  # ints: .u32
    r = m.launch(meta["name"], grid=tuple(meta["grid"]), block=32 * meta["num_warps"],
                 shared=meta["shared"], args=args)
    assert r.status == 0, r.diagnostics
    assert bytes(c) == open(os.path.join(TRITON, name + ".out2.bin"), "rb").read()
    assert bytes(a) == a0


def test_sets_module_variables():
    cli = os.path.join(SRC, "tests", "cli")
    m = ptxi.load(os.path.join(cli, "globals.ptx"))
    cwd = os.getcwd()
    os.chdir(cli)
    try:
        r = m.launch(block=4, sets={"scale": ptxi.u32(10), "table": "file:table.bin"})
    finally:
        os.chdir(cwd)
    assert r.status == 0, r.diagnostics
    assert r.symbol("counter") == (100).to_bytes(4, "little")
    assert r.symbol("scale") == (10).to_bytes(4, "little") and r.symbol("nosuch") is None
    e = raises(m.launch, block=4, sets={"nosuch": ptxi.u32(1)})
    assert str(e) == "--set nosuch: the module has no .global or .const variable of that name"
    e = raises(m.launch, block=4, sets={"scale": ptxi.u64(1)})
    assert str(e) == "--set scale: 'u64:1' (8 bytes) does not fit variable 'scale' (4 bytes)"


# ---- module.info ------------------------------------------------------------------------

def test_info():
    m = ptxi.load(os.path.join(SAMPLES, "tma", "pipeline_tma_async.ptx"))
    (k,) = m.info()
    assert k.name == "pipeline_tma_async" and k.demangled is None
    assert [(p.name, p.type, p.size, p.align) for p in k.params] == [
        ("map", ".b8[128]", 128, 64), ("out", ".u64", 8, 8), ("tensor", ".u64", 8, 8)]
    assert k.params[0].note == "a CUtensorMap (__grid_constant__)?"
    assert k.params[0].spec.startswith("tmap:") and k.params[1].spec == "buf:BYTES"
    assert m.kernels == ["pipeline_tma_async"]


# ---- the samples, through the module ----------------------------------------------------

def sample_runs(path):
    return re.findall(r"^// run: *(.*)$", open(path).read(), re.M)


def launch_kwargs(run):
    """launch()'s arguments for a `// run:` line and its --dump N, or None when it uses an
    option the module leaves to the program (traces, --dump formats, --set, ...)."""
    kw, dump, args = {"args": []}, None, shlex.split(run)
    opts = {"--kernel": "kernel", "--grid": "grid", "--block": "block", "--cluster": "cluster",
            "--shared": "shared", "--seed": "seed", "--max-steps": "max_steps"}
    i = 0
    while i < len(args):
        o, v = args[i], args[i + 1] if i + 1 < len(args) else None
        if o in opts:
            if o in ("--grid", "--block", "--cluster"):
                v = tuple(int(x) for x in v.split(","))
            elif o != "--kernel":
                v = int(v, 0)
            kw[opts[o]] = v
            i += 2
        elif o == "--arg":
            kw["args"].append(v)
            i += 2
        elif o == "--dump" and re.fullmatch(r"\d+", v or "") and dump is None:
            dump = int(v)
            i += 2
        elif o == "--no-race":
            kw["race"] = False
            i += 1
        elif o == "--keep-going":
            kw["keep_going"] = True
            i += 1
        else:
            return None
    return kw, dump


def run_programs(top):
    """Every run of a program under `top` (ptx_samples/, tests/rules/) that the module can
    express gives the exit status, the dumped words and the errors (file:line:col, message
    and rule) that its comments promise (tests/run_samples.sh reads them for the program).
    Returns the number of runs."""
    ran, failed = 0, []
    cwd = os.getcwd()
    for root, _, files in sorted(os.walk(top)):
        for f in sorted(files):
            if not f.endswith(".ptx"):
                continue
            path = os.path.join(root, f)
            text = open(path).read()
            want_exit = int((re.findall(r"^// expect-exit: *(\d+)", text, re.M) or [0])[0])
            want_out = re.findall(r"^// expect: *(.*)$", text, re.M)
            want_errs = re.findall(r"^// expect error: *(\d+):(\d+) ?(.*)$", text, re.M)
            for run in sample_runs(path):
                parsed = launch_kwargs(run)
                if not parsed:
                    continue
                kw, dump = parsed
                if want_out and (dump is None or not all(re.fullmatch("[0-9a-f]{8}", w)
                                                         for w in want_out)):
                    continue  # device printf's lines, other formats: the program's
                os.chdir(root)
                try:
                    m = ptxi.load(f)
                    r = m.launch(**kw)
                    status, diags = r.status, r.diagnostics
                    got = (r.buffer(dump) if dump is not None else b"") or b""
                    r.close()
                    m.close()
                except ptxi.Error as e:
                    status, diags, got = e.status, e.diagnostics, b""
                finally:
                    os.chdir(cwd)
                ran += 1
                why = None
                words = ["%08x" % w for w in array.array("I", got[:len(got) // 4 * 4])]
                if status != want_exit:
                    why = f"status {status}, expected {want_exit}: {[str(d) for d in diags][:2]}"
                elif want_out and words != want_out:
                    why = f"dump differs: {words[:4]} vs {want_out[:4]}"
                for line, col, msg in want_errs:
                    if why:
                        break
                    if not any(d.level == "error" and d.file == f and (d.line, d.column) ==
                               (int(line), int(col)) and msg in f"{d.message} [{d.rule}]"
                               for d in diags):
                        why = f"no error at {line}:{col} holding '{msg}': " \
                              f"{[str(d) for d in diags][:2]}"
                if why:
                    failed.append(f"{os.path.relpath(path, top)} [{run}]: {why}")
    assert not failed, "\n".join(failed)
    return ran


def test_samples():
    assert run_programs(SAMPLES) >= 70


def test_rule_programs():
    assert run_programs(os.path.join(SRC, "tests", "rules")) >= 100


# ---- the library as installed -----------------------------------------------------------

def public_functions():
    header = open(os.path.join(SRC, "include", "ptxi", "ptxi.h")).read()
    header = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    return set(re.findall(r"\b(ptxi_\w+)\s*\(", header)) - {"ptxi_sink", "ptxi_progress_fn",
                                                             "ptxi_diag_fn"}


def test_exports_only_the_public_api():
    lib = os.path.join(BUILD, "libptxi.so")
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True,
                        check=True).stdout
    exported = {l.split()[-1].split("@")[0] for l in nm.splitlines() if l.split()[1] in "TDBRW"}
    exported -= {"_init", "_fini", "PTXI_0"}
    assert exported == public_functions(), (sorted(exported - public_functions()),
                                            sorted(public_functions() - exported))
    soname = subprocess.run(["objdump", "-p", lib], capture_output=True, text=True).stdout
    assert re.search(r"SONAME\s+libptxi\.so\.\d+\n", soname), soname


def test_install_pkg_config_and_module():
    """meson install --destdir, then a C program built with pkg-config alone (shared and
    static), and the installed Python module imported from there."""
    if not shutil.which("pkg-config") or not shutil.which("cc"):
        raise AssertionError("pkg-config and cc are needed")
    prefix, libdir = os.environ["PTXI_PREFIX"], os.environ["PTXI_LIBDIR"]
    pydir = os.environ["PTXI_PYDIR"]
    with tempfile.TemporaryDirectory() as d:
        dest = os.path.join(d, "dest")
        subprocess.run([os.environ.get("MESON", "meson"), "install", "-C", BUILD, "--no-rebuild",
                        "--destdir", dest, "--quiet"], check=True, capture_output=True)
        lib = dest + os.path.join(prefix, libdir)
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"),
                   PKG_CONFIG_SYSROOT_DIR=dest, PKG_CONFIG_LIBDIR=os.path.join(lib, "pkgconfig"))
        env.pop("PTXI_LIBRARY", None)
        env.pop("PYTHONPATH", None)
        pc = lambda *a: shlex.split(subprocess.run(["pkg-config", *a, "ptxi"], env=env, check=True,
                                                   capture_output=True, text=True).stdout)
        src = os.path.join(SRC, "tests", "python", "embed.c")
        exe, static = os.path.join(d, "embed"), os.path.join(d, "embed-static")
        subprocess.run(["cc", "-Wall", "-Werror", src, "-o", exe, *pc("--cflags", "--libs")],
                       check=True, env=env)
        out = subprocess.run([exe], env=dict(env, LD_LIBRARY_PATH=lib), capture_output=True,
                             text=True)
        want = "'u32:x': not a u32 value\nok: status 0, out[31] 100; header %s, library %s\n" % (
            ptxi.version(), ptxi.version())
        assert out.returncode == 0 and out.stdout == want, (out.stdout, out.stderr)
        linked = subprocess.run(["ldd", exe], env=dict(env, LD_LIBRARY_PATH=lib),
                                capture_output=True, text=True).stdout
        assert re.search(r"libptxi\.so\.\d+ => " + re.escape(lib), linked), linked
        if os.environ.get("PTXI_SANITIZE"):  # ASan cannot link statically
            print("sanitizer build: the static link is not tried")
            static = exe
        else:
            subprocess.run(["cc", "-static", src, "-o", static,
                            *pc("--static", "--cflags", "--libs")], check=True, env=env,
                           capture_output=True)
            out = subprocess.run([static], capture_output=True, text=True)
            assert out.returncode == 0 and out.stdout == want, (out.stdout, out.stderr)
        # the installed module finds the installed library by itself
        code = ("import ptxi, sys; m = ptxi.loads(sys.argv[1]); b = bytearray(128); "
                "r = m.launch(block=32, args=[b, ptxi.u32(1)]); "
                "print(ptxi.__file__, ptxi._lib._name, r.status, b[124], ptxi.version())")
        site = os.path.normpath(dest + pydir)
        out = subprocess.run([sys.executable, "-c", code, SCALE], capture_output=True, text=True,
                             env=dict(env, PYTHONPATH=site), cwd=d)
        assert out.returncode == 0, out.stderr
        here, libfile, rest = out.stdout.split(" ", 2)
        assert here == os.path.join(site, "ptxi", "__init__.py"), here
        assert os.path.realpath(libfile) == os.path.realpath(os.path.join(lib, "libptxi.so.0"))
        assert rest == f"0 94 {ptxi.version()}\n", rest
        # the structs the module mirrors with ctypes have the header's layout
        layout = subprocess.run([static, "layout"], capture_output=True, text=True,
                                env=dict(env, LD_LIBRARY_PATH=lib)).stdout
        assert layout == ctypes_layout(), (layout, ctypes_layout())


def ctypes_layout():
    import ctypes
    off = lambda s, f: getattr(s, f).offset
    rows = [("ptxi_config", ptxi._Config, ["dyn_shared", "seed", "max_errors", "trace_lines",
                                           "timeline_out", "interrupt", "jobs"]),
            ("ptxi_diagnostic", ptxi._Diag, ["threads", "source_column"]),
            ("ptxi_kernel_info", ptxi._KernelInfo, ["static_shared"]),
            ("ptxi_param_info", ptxi._ParamInfo, ["spec"])]
    out = ""
    for name, s, fields in rows:
        out += f"{name} {ctypes.sizeof(s)}\n"
        out += "".join(f"{name}.{f} {off(s, f)}\n" for f in fields)
    return out


if __name__ == "__main__":
    try:
        import pytest
    except ImportError:
        pytest = None
    if pytest:
        sys.exit(pytest.main([__file__, "-q"] + sys.argv[1:]))
    import unittest
    names = [n for n in sorted(globals()) if n.startswith("test_")]
    names = [n for n in names if not sys.argv[1:] or n in sys.argv[1:]]
    suite = unittest.TestSuite(unittest.FunctionTestCase(globals()[n], description=n)
                               for n in names)
    sys.exit(not unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful())
