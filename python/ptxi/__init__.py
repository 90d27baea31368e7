"""ptxi: run CUDA PTX kernels on the ptxi interpreter, from Python, with no GPU.

    import ptxi
    m = ptxi.load("saxpy.ptx")
    x = array.array("f", range(256)); y = array.array("f", [1.0] * 256)
    r = m.launch("saxpy", grid=2, block=128, args=[ptxi.f32(2.0), x, y, ptxi.u32(256)])
    assert r.status == 0, r.diagnostics

A thin layer (ctypes) over the shared library libptxi and its C API (include/ptxi/ptxi.h);
no third-party module is needed. docs/python.md describes it all.
"""
import ctypes
import ctypes.util
import linecache
import os
import struct
import threading

__all__ = ["Error", "Module", "Result", "Diagnostic", "Kernel", "Parameter", "load", "loads",
           "check", "version", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f32",
           "f64"]

# exit statuses, as the ptxi program's
OK, RULE, INVALID, DEADLOCK, INTERRUPTED = 0, 1, 2, 3, 130


class Error(Exception):
    """A usage error (bad argument spec, no such kernel, bad launch shape), an unreadable
    file or a module with errors: the words are the ptxi program's. .status is 2;
    .diagnostics holds the diagnostics behind it."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.status = INVALID
        self.diagnostics = list(diagnostics)


# ---- the shared library ---------------------------------------------------------------------

def _find_library():
    env = os.environ.get("PTXI_LIBRARY")
    if env:
        return env
    try:
        from . import _libpath
    except ImportError:  # the source tree: no install has written it
        _libpath = None
    if _libpath:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), _libpath.FROM_MODULE)
        if os.path.exists(here):
            return here
        if os.path.exists(_libpath.LIBRARY):
            return _libpath.LIBRARY
    return ctypes.util.find_library("ptxi") or "libptxi.so.0"


class _Config(ctypes.Structure):  # struct ptxi_config
    _fields_ = [
        ("kernel", ctypes.c_char_p),
        ("grid", ctypes.c_uint32 * 3), ("block", ctypes.c_uint32 * 3),
        ("cluster", ctypes.c_uint32 * 3),
        ("cluster_given", ctypes.c_bool),
        ("dyn_shared", ctypes.c_uint32),
        ("max_steps", ctypes.c_uint64), ("max_memory", ctypes.c_uint64),
        ("seed", ctypes.c_uint64),
        ("keep_going", ctypes.c_bool), ("no_race", ctypes.c_bool),
        ("trace_mbarrier", ctypes.c_bool), ("trace_all", ctypes.c_bool),
        ("heap_bytes", ctypes.c_uint64),
        ("max_errors", ctypes.c_uint32),
        ("trace_out", ctypes.c_void_p),
        ("trace_cta_given", ctypes.c_bool), ("trace_cta", ctypes.c_uint32 * 3),
        ("trace_warp_given", ctypes.c_bool), ("trace_warp", ctypes.c_uint32),
        ("trace_lines", ctypes.c_uint32 * 2), ("trace_lines_file", ctypes.c_char_p),
        ("trace_width", ctypes.c_uint32),
        ("timeline_out", ctypes.c_void_p),
        ("sets", ctypes.c_void_p), ("nsets", ctypes.c_uint),
        ("buffers", ctypes.c_void_p), ("nbuffers", ctypes.c_uint),
        ("progress", ctypes.c_void_p), ("progress_ctx", ctypes.c_void_p),
        ("interrupt", ctypes.c_void_p),
        ("jobs", ctypes.c_uint),
        ("ctas", ctypes.c_char_p),
        ("debugger", ctypes.c_void_p),
        ("severities", ctypes.c_void_p),
        ("sink", ctypes.c_void_p), ("sink_ctx", ctypes.c_void_p),
        ("cooperative", ctypes.c_bool),
        ("no_jit", ctypes.c_bool),
    ]


class _Diag(ctypes.Structure):  # struct ptxi_diagnostic
    _fields_ = [
        ("level", ctypes.c_int), ("rule", ctypes.c_char_p), ("message", ctypes.c_char_p),
        ("file", ctypes.c_char_p),
        ("line", ctypes.c_uint), ("column", ctypes.c_uint), ("length", ctypes.c_uint),
        ("threads", ctypes.c_char_p), ("notes", ctypes.c_char_p),
        ("source_file", ctypes.c_char_p),
        ("source_line", ctypes.c_uint), ("source_column", ctypes.c_uint),
    ]


class _KernelInfo(ctypes.Structure):  # struct ptxi_kernel_info
    _fields_ = [
        ("name", ctypes.c_char_p), ("demangled", ctypes.c_char_p), ("nparams", ctypes.c_uint),
        ("reqntid", ctypes.c_uint32 * 3), ("maxntid", ctypes.c_uint32 * 3),
        ("reqnctapercluster", ctypes.c_uint32 * 3), ("maxclusterrank", ctypes.c_uint32),
        ("explicitcluster", ctypes.c_bool), ("static_shared", ctypes.c_uint32),
    ]


class _ParamInfo(ctypes.Structure):  # struct ptxi_param_info
    _fields_ = [
        ("name", ctypes.c_char_p), ("type", ctypes.c_char_p),
        ("size", ctypes.c_uint64), ("align", ctypes.c_uint64),
        ("pointer", ctypes.c_bool), ("note", ctypes.c_char_p), ("spec", ctypes.c_char_p),
    ]


_DiagFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Diag))
_p = ctypes.c_void_p


def _bind(lib):
    sig = {
        "ptxi_version": (ctypes.c_char_p, []),
        "ptxi_report_callback": (_p, [_DiagFn, _p]),
        "ptxi_report_finish": (ctypes.c_int, [_p]),
        "ptxi_module_load_report": (_p, [ctypes.c_char_p, _p]),
        "ptxi_module_load_string_report": (_p, [ctypes.c_char_p, ctypes.c_char_p, _p]),
        "ptxi_check_report": (ctypes.c_int, [ctypes.c_char_p, _p]),
        "ptxi_module_errors": (ctypes.c_uint, [_p]),
        "ptxi_module_free": (None, [_p]),
        "ptxi_kernel_count": (ctypes.c_int, [_p]),
        "ptxi_kernel_describe": (ctypes.c_int, [_p, ctypes.c_uint, ctypes.POINTER(_KernelInfo),
                                                ctypes.POINTER(_ParamInfo), ctypes.c_uint]),
        "ptxi_args_new": (_p, []),
        "ptxi_args_free": (None, [_p]),
        "ptxi_args_add_spec": (ctypes.c_int, [_p, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.c_size_t]),
        "ptxi_args_add_scalar": (ctypes.c_int, [_p, ctypes.c_uint, ctypes.c_bool,
                                                ctypes.c_uint64]),
        "ptxi_args_add_buffer": (ctypes.c_int, [_p, _p, ctypes.c_size_t]),
        "ptxi_args_list": (_p, [_p, ctypes.POINTER(ctypes.c_uint)]),
        "ptxi_args_add_set": (ctypes.c_int, [_p, ctypes.c_char_p, ctypes.c_char_p,
                                             ctypes.c_char_p, ctypes.c_size_t]),
        "ptxi_args_sets": (_p, [_p, ctypes.POINTER(ctypes.c_uint)]),
        "ptxi_launch": (ctypes.c_int, [_p, ctypes.POINTER(_Config), _p, ctypes.c_uint,
                                       ctypes.POINTER(_p)]),
        "ptxi_run_buffer": (_p, [_p, ctypes.c_uint, ctypes.POINTER(ctypes.c_size_t)]),
        "ptxi_run_symbol": (_p, [_p, _p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]),
        "ptxi_run_stats": (None, [_p, ctypes.POINTER(ctypes.c_uint64),
                                  ctypes.POINTER(ctypes.c_uint64)]),
        "ptxi_run_peak_memory": (ctypes.c_uint64, [_p]),
        "ptxi_run_free": (None, [_p]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


_lib = _bind(ctypes.CDLL(_find_library()))


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return _lib.ptxi_version().decode()


__version__ = version()


def _str(b):
    return b.decode("utf-8", "replace") if b is not None else None


# ---- diagnostics ----------------------------------------------------------------------------

_LEVELS = ("error", "warning", "note")


class Diagnostic:
    """One diagnostic, as the ptxi program shows it.

    level ("error", "warning", "note"), rule (the rule or check broken: docs/rules.md,
    docs/static-checks.md; "deadlock", "step-limit"; "ptx-invalid" for a usage error),
    message, file, line, column (the PTX position; file None: no position), threads ("CTA
    (0,0,0) thread 3 (3,0,0)" or None), notes (the note lines), source_file, source_line,
    source_column (where the module's .loc puts it: the CUDA or Triton source, or None) and
    source_text (that source line, when the file can be read)."""

    __slots__ = ("level", "rule", "message", "file", "line", "column", "threads", "notes",
                 "source_file", "source_line", "source_column")

    def __init__(self, d):
        self.level = _LEVELS[d.level] if 0 <= d.level < 3 else str(d.level)
        self.rule = _str(d.rule)
        self.message = _str(d.message)
        self.file = _str(d.file)
        self.line, self.column = d.line, d.column
        self.threads = _str(d.threads)
        self.notes = _str(d.notes).splitlines() if d.notes else []
        self.source_file = _str(d.source_file)
        self.source_line, self.source_column = d.source_line, d.source_column

    @property
    def source_text(self):
        if not self.source_file or not self.source_line:
            return None
        text = linecache.getline(self.source_file, self.source_line)
        return text.rstrip("\n") if text else None

    def __str__(self):
        where = f"{self.file}:{self.line}:{self.column}: " if self.file else "ptxi: "
        if self.source_file:
            where = f"{self.source_file}:{self.source_line}:{self.source_column}: "
        rule = f" [{self.rule}]" if self.rule and self.level != "note" else ""
        return "\n".join([f"{where}{self.level}: {self.message}{rule}"] +
                         ["    " + n for n in self.notes])

    def __repr__(self):
        return f"<ptxi.Diagnostic {self}>"


class _Collector:
    """The diagnostics a report hands over, kept until taken."""

    def __init__(self):
        self.items = []
        self.fn = _DiagFn(self._take)  # kept alive as long as the report
        self.report = _lib.ptxi_report_callback(self.fn, None)
        if not self.report:
            raise MemoryError("ptxi: out of memory")

    def _take(self, ctx, d):
        self.items.append(Diagnostic(d.contents))

    def drain(self):
        items, self.items = self.items, []
        return items

    def close(self):
        if self.report:
            _lib.ptxi_report_finish(self.report)
            self.report = None


def _error_text(diags):
    return "\n".join(d.message for d in diags if d.level == "error") or "ptxi: error"


# ---- typed scalars --------------------------------------------------------------------------

class _Scalar:
    size, is_float, fmt = 0, False, ""

    def __init__(self, value):
        try:
            packed = struct.pack("<" + self.fmt, value)
        except (struct.error, TypeError) as e:
            raise Error(f"'{type(self).__name__}:{value}': not a {type(self).__name__} value "
                        f"({e})") from None
        self.value = value
        self.bits = int.from_bytes(packed, "little")

    def __repr__(self):
        return f"ptxi.{type(self).__name__}({self.value!r})"


def _scalar(name, size, fmt, is_float=False):
    return type(name, (_Scalar,), {"size": size, "fmt": fmt, "is_float": is_float,
                                   "__doc__": f"A .{name} kernel argument."})


u8, u16, u32, u64 = (_scalar("u8", 1, "B"), _scalar("u16", 2, "H"), _scalar("u32", 4, "I"),
                     _scalar("u64", 8, "Q"))
s8, s16, s32, s64 = (_scalar("s8", 1, "b"), _scalar("s16", 2, "h"), _scalar("s32", 4, "i"),
                     _scalar("s64", 8, "q"))
f32, f64 = _scalar("f32", 4, "f", True), _scalar("f64", 8, "d", True)


# ---- kernels --------------------------------------------------------------------------------

class Parameter:
    """A kernel parameter: name, type (".u32", ".u64 .ptr", ".b8[128]"), size and align in
    bytes, pointer, note (Triton's hidden scratch pointers, a likely CUtensorMap) and spec
    (the argument spec to start from, as `ptxi info` suggests)."""

    def __init__(self, p):
        self.name, self.type = _str(p.name), _str(p.type)
        self.size, self.align, self.pointer = p.size, p.align, p.pointer
        self.note, self.spec = _str(p.note), _str(p.spec)

    def __repr__(self):
        return f"<ptxi.Parameter {self.name} {self.type} ({self.size} bytes)>"


class Kernel:
    """A kernel of a module: name (its PTX name), demangled (its C++ name or None), params
    (Parameter list), reqntid, maxntid, reqnctapercluster (tuples, None when not given),
    maxclusterrank, explicitcluster and static_shared (bytes of the module's static shared
    memory)."""

    def __init__(self, k, params):
        self.name, self.demangled = _str(k.name), _str(k.demangled)
        self.params = [Parameter(p) for p in params]
        dims = lambda d: tuple(x or 1 for x in d) if d[0] else None
        self.reqntid, self.maxntid = dims(k.reqntid), dims(k.maxntid)
        self.reqnctapercluster = dims(k.reqnctapercluster)
        self.maxclusterrank = k.maxclusterrank or None
        self.explicitcluster = k.explicitcluster
        self.static_shared = k.static_shared

    def __repr__(self):
        return f"<ptxi.Kernel {self.demangled or self.name}: {len(self.params)} parameters>"


# ---- launches -------------------------------------------------------------------------------

def _dims(v, what):
    t = (v,) if isinstance(v, int) else tuple(v)
    if not 1 <= len(t) <= 3 or not all(isinstance(x, int) and 1 <= x <= 0x7fffffff for x in t):
        raise Error(f"bad {what} {v!r} (want X[,Y[,Z]], each 1 to 2147483647)")
    return t + (1,) * (3 - len(t))


def _count(v, what, hi=2**64 - 1):
    if not isinstance(v, int) or not 0 <= v <= hi:
        raise Error(f"bad {what} {v!r}")
    return v


class Result:
    """What a launch did: status (0, 1 a rule was broken, 3 deadlock or step limit, as the
    ptxi program exits), diagnostics (Diagnostic list), rules (the rules broken, in order),
    warp_insns, thread_insns, peak_memory; buffer(i) and symbol(name) read device memory
    after the launch."""

    def __init__(self, module, status, diagnostics, run):
        self.module, self.status, self.diagnostics = module, status, diagnostics
        self._run = run
        w, t = ctypes.c_uint64(), ctypes.c_uint64()
        if run:
            _lib.ptxi_run_stats(run, ctypes.byref(w), ctypes.byref(t))
        self.warp_insns, self.thread_insns = w.value, t.value
        self.peak_memory = _lib.ptxi_run_peak_memory(run) if run else 0

    @property
    def rules(self):
        return [d.rule for d in self.diagnostics if d.level != "note"]

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.level == "error"]

    def _bytes(self, p, n):
        return ctypes.string_at(p, n.value) if p else None

    def buffer(self, i):
        """The bytes of buffer argument i after the launch (None: not a buffer)."""
        n = ctypes.c_size_t()
        return self._bytes(self._run and _lib.ptxi_run_buffer(self._run, i, ctypes.byref(n)), n)

    def symbol(self, name):
        """The bytes of module variable `name` (.global or .const) after the launch."""
        n = ctypes.c_size_t()
        m = self.module._m
        return self._bytes(self._run and m and _lib.ptxi_run_symbol(
            m, self._run, name.encode(), ctypes.byref(n)), n)

    def close(self):
        if getattr(self, "_run", None):
            _lib.ptxi_run_free(self._run)
            self._run = None

    __del__ = close

    def __repr__(self):
        return f"<ptxi.Result status {self.status}: {', '.join(self.rules) or 'no reports'}>"


def _writable_bytes(obj):
    """A writable buffer's bytes as a ctypes array over the same memory, or None."""
    try:
        mv = memoryview(obj)
    except TypeError:
        return None, None
    if not mv.c_contiguous:
        raise Error(f"a buffer argument must be contiguous ({type(obj).__name__})")
    mv = mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
    if mv.readonly:
        return mv, (ctypes.c_char * mv.nbytes).from_buffer_copy(mv) if mv.nbytes else None
    return mv, (ctypes.c_char * mv.nbytes).from_buffer(mv) if mv.nbytes else None


def _interruptible(call, cfg):
    """call() on a thread of its own, so that Ctrl-C (KeyboardInterrupt) in the main thread
    stops the launch as it stops `ptxi run`: cfg.interrupt is set, the launch reports where
    every warp stands and returns INTERRUPTED."""
    flag = ctypes.c_int(0)  # the sig_atomic_t the launch polls
    cfg.interrupt = ctypes.addressof(flag)
    out, done = [], threading.Event()

    def work():
        try:
            out.append(call())
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    while not done.is_set():
        try:
            done.wait(0.05)  # a timed wait lets the main thread see Ctrl-C
        except KeyboardInterrupt:
            flag.value = 1  # and wait for the launch to stop
    return out[0]


_BY_TYPE = {".u8": u8, ".u16": u16, ".u32": u32, ".u64": u64, ".s8": s8, ".s16": s16,
            ".s32": s32, ".s64": s64, ".b8": u8, ".b16": u16, ".b32": u32, ".b64": u64,
            ".f32": f32, ".f64": f64}


def _typed(a, i, params):
    """A plain int or float as the scalar type of parameter i (".u32": ptxi.u32(a)); the
    value unchanged when that type is no plain scalar (then _add_arg refuses it)."""
    t = _BY_TYPE.get(params[i].type) if i < len(params) else None
    if t is None or (isinstance(a, float) and not t.is_float):
        return a
    return t(float(a) if t.is_float else a)


class Module:
    """A loaded PTX module (ptxi.load, ptxi.loads). .diagnostics holds the warnings of its
    load. Close it (or use `with`) to free it at once."""

    def __init__(self, path=None, text=None, name=None):
        self._m = None
        self._diags = _Collector()
        if text is not None:
            self.path = name or "<string>"
            self._text = text.encode()  # the module reads it for as long as it lives
            self._m = _lib.ptxi_module_load_string_report(self.path.encode(), self._text,
                                                          self._diags.report)
        else:
            self.path = os.fspath(path)
            self._m = _lib.ptxi_module_load_report(self.path.encode(), self._diags.report)
        self.diagnostics = self._diags.drain()
        if not self._m or _lib.ptxi_module_errors(self._m):
            self.close()
            raise Error(_error_text(self.diagnostics), self.diagnostics)

    def close(self):
        if getattr(self, "_m", None):
            _lib.ptxi_module_free(self._m)
            self._m = None
        if getattr(self, "_diags", None):  # after the module: its launches report there
            self._diags.close()
            self._diags = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def info(self):
        """The module's kernels (Kernel list), in the module's order."""
        if not self._m:
            raise Error("the module is closed")
        n = _lib.ptxi_kernel_count(self._m)
        self._diags.drain()
        out = []
        for k in range(max(n, 0)):
            ki = _KernelInfo()
            if _lib.ptxi_kernel_describe(self._m, k, ctypes.byref(ki), None, 0) != OK:
                break
            params = (_ParamInfo * max(ki.nparams, 1))()
            _lib.ptxi_kernel_describe(self._m, k, ctypes.byref(ki), params, ki.nparams)
            out.append(Kernel(ki, params[:ki.nparams]))
        return out

    @property
    def kernels(self):
        """The kernels' PTX names."""
        return [k.name for k in self.info()]

    def launch(self, kernel=None, grid=1, block=1, args=(), cluster=None, shared=0,
               race=True, keep_going=False, seed=None, max_steps=None, max_memory=None,
               max_errors=None, jobs=None, sets=None, cooperative=False):
        """Launch `kernel` (its PTX name, its C++ name or a part of either; None: the only
        one) as `ptxi run` would, and return a Result. Each of `args` is, in the kernel's
        parameter order: a buffer (bytearray, memoryview, array.array, a numpy array, any
        contiguous buffer-protocol object: its bytes are copied in, and back after the
        launch when it is writable), a typed scalar (ptxi.u32(5), ptxi.f32(1.5), ...), a
        plain int or float (of the parameter's type: .u32 makes 5 a ptxi.u32(5)), or
        an argument spec string as --arg takes it ("u32:5", "buf:1024", "file:in.bin",
        "tmap:buf=0,type=f16,...", "bytes:16,@0=u32:1"). grid, block, cluster: an int or
        (x, y, z); cluster None: the kernel's .reqnctapercluster, else 1. seed: None for
        the default schedule, else --seed's. max_errors: None for 50, 0 for no limit.
        sets: {symbol: value} sets module .global/.const variables first, as --set does
        (a typed scalar or a spec string). cooperative: a cooperative launch, as
        --cooperative (this_grid().sync() works). Raises Error (with the program's words)
        for usage errors."""
        if not self._m:
            raise Error("the module is closed")
        cfg = _Config()
        kname = kernel.encode() if kernel is not None else None
        cfg.kernel = kname
        cfg.grid[:] = _dims(grid, "grid")
        cfg.block[:] = _dims(block, "block")
        if cluster is not None:
            cfg.cluster[:] = _dims(cluster, "cluster")
            cfg.cluster_given = True
        cfg.dyn_shared = _count(shared, "shared", 0x7fffffff)
        cfg.no_race = not race
        cfg.keep_going = bool(keep_going)
        cfg.cooperative = bool(cooperative)
        if seed is not None:
            cfg.seed = _count(seed, "seed")
        if max_steps is not None:
            cfg.max_steps = _count(max_steps, "max_steps")
        if max_memory is not None:
            cfg.max_memory = _count(max_memory, "max_memory")
        if max_errors is not None:
            cfg.max_errors = 0xffffffff if max_errors == 0 else _count(max_errors, "max_errors",
                                                                        0xfffffffe)
        if jobs is not None:
            cfg.jobs = _count(jobs, "jobs", 256)
        alist = _lib.ptxi_args_new()
        if not alist:
            raise MemoryError("ptxi: out of memory")
        keep, back = [], []  # ctypes arrays the launch reads; buffers to copy back
        try:
            params = None
            for i, a in enumerate(args):
                if isinstance(a, (int, float)) and not isinstance(a, bool):
                    params = self._params(kernel) if params is None else params
                    a = _typed(a, i, params)
                self._add_arg(alist, i, a, keep, back)
            for sym, v in (sets or {}).items():
                spec = f"{type(v).__name__}:{v.value!r}" if isinstance(v, _Scalar) else v
                if not isinstance(spec, str):
                    raise Error(f"--set {sym}: give a typed scalar or a spec string")
                why = ctypes.create_string_buffer(600)
                if _lib.ptxi_args_add_set(alist, sym.encode(), spec.encode(), why, len(why)):
                    raise Error(why.value.decode("utf-8", "replace"))
            ns = ctypes.c_uint()
            cfg.sets = _lib.ptxi_args_sets(alist, ctypes.byref(ns))
            cfg.nsets = ns.value
            n = ctypes.c_uint()
            lst = _lib.ptxi_args_list(alist, ctypes.byref(n))
            run = _p()
            self._diags.drain()
            status = _interruptible(lambda: _lib.ptxi_launch(
                self._m, ctypes.byref(cfg), lst, n.value, ctypes.byref(run)), cfg)
            diags = self._diags.drain()
        finally:
            _lib.ptxi_args_free(alist)
        result = Result(self, status, diags, run.value)
        if status == INTERRUPTED:
            raise KeyboardInterrupt(result)
        if status == INVALID:
            result.close()
            raise Error(_error_text(diags), diags)
        for i, mv in back:
            n = ctypes.c_size_t()
            p = _lib.ptxi_run_buffer(run.value, i, ctypes.byref(n)) if run.value else None
            if p and n.value == mv.nbytes:
                ctypes.memmove((ctypes.c_char * mv.nbytes).from_buffer(mv), p, n.value)
        return result

    def _params(self, kernel):
        """The parameters of the kernel `kernel` names as the library would pick it (its
        PTX name, C++ name with or without the parameter list, else a part of one that
        names one kernel only), or [] when it names none or several."""
        ks = self.info()
        if kernel is None:
            return ks[0].params if len(ks) == 1 else []
        for match in (lambda k: kernel == k.name, lambda k: kernel == k.demangled,
                      lambda k: kernel == (k.demangled or "").split("(")[0],
                      lambda k: kernel in k.name or kernel in (k.demangled or "")):
            found = [k for k in ks if match(k)]
            if found:
                return found[0].params if len(found) == 1 else []
        return []

    @staticmethod
    def _add_arg(alist, i, a, keep, back):
        if isinstance(a, _Scalar):
            if _lib.ptxi_args_add_scalar(alist, a.size, a.is_float, a.bits) != OK:
                raise MemoryError("ptxi: out of memory")
            return
        if isinstance(a, str):
            why = ctypes.create_string_buffer(600)
            if _lib.ptxi_args_add_spec(alist, a.encode(), why, len(why)) != OK:
                raise Error(why.value.decode("utf-8", "replace"))
            return
        if isinstance(a, (int, float, bool)):
            raise Error(f"argument {i} ({a!r}): give a typed scalar (ptxi.u32({a!r}), "
                        f"ptxi.f32(...)) or a spec string ('u32:{a!r}'): the parameter's "
                        f"type says no scalar size")
        mv, arr = _writable_bytes(a)
        if mv is None:
            raise Error(f"argument {i}: a {type(a).__name__} is not a buffer, typed scalar or "
                        f"spec string")
        keep.append(arr)
        addr = ctypes.addressof(arr) if arr is not None else None
        if _lib.ptxi_args_add_buffer(alist, addr, mv.nbytes) != OK:
            raise Error(f"argument {i}: a buffer of {mv.nbytes} bytes is more than ptxi takes")
        if not mv.readonly and mv.nbytes:
            back.append((i, mv))


def load(path):
    """Read, parse and check a PTX file; raises Error when it cannot be read or has errors
    (the diagnostics in Error.diagnostics)."""
    return Module(path=path)


def loads(text, name="<string>"):
    """Module from PTX text; `name` stands for the file in diagnostics."""
    return Module(text=text, name=name)


class CheckResult:
    """What `ptxi check` says of a file: status (0, or 2 with errors) and diagnostics."""

    def __init__(self, status, diagnostics):
        self.status, self.diagnostics = status, diagnostics

    @property
    def rules(self):
        return [d.rule for d in self.diagnostics if d.level != "note"]

    def __repr__(self):
        return f"<ptxi.CheckResult status {self.status}: {', '.join(self.rules) or 'clean'}>"


def check(path):
    """Check a PTX file as `ptxi check` does (status 0 or 2, with its diagnostics)."""
    c = _Collector()
    try:
        status = _lib.ptxi_check_report(os.fspath(path).encode(), c.report)
        return CheckResult(status, c.drain())
    finally:
        c.close()
