#!/usr/bin/env python3
"""ptxi debug at a terminal (a pty): the prompt, line editing (a backspace), an empty line
repeating the last command, Ctrl-C stopping a running launch, and quit. usage:
debug_tty.py PTXI"""
import os, pty, select, shutil, sys, tempfile, time

ptxi = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp()
os.chdir(tmp)
with open("spin.ptx", "w") as f: # a loop that runs until Ctrl-C stops it
    f.write(""".version 8.0
.target sm_90
.address_size 64
.visible .entry spin()
{
  .reg .b32 %r<2>;
  mov.u32 %r0, 0;
L:
  add.u32 %r0, %r0, 1;
  bra.uni L;
}
""")
pid, fd = pty.fork()
if pid == 0:
    os.environ["NO_COLOR"] = "1"
    os.environ["TERM"] = "dumb"
    os.execv(ptxi, [ptxi, "debug", "spin.ptx", "--block", "64"])

seen = b""
pos = 0  # where the last read_until's match ended

def read_until(what, timeout=60):
    """Read the terminal until `what` shows after the last match; what came up to it."""
    global seen, pos
    start, end = pos, time.time() + timeout
    while what.encode() not in seen[start:]:
        left = end - time.time()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            fail("timed out waiting for %r" % what)
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            fail("the session ended waiting for %r" % what)
        if not chunk:
            fail("the session ended waiting for %r" % what)
        seen += chunk
    pos = seen.index(what.encode(), start) + len(what)
    return seen[start:pos].decode(errors="replace")

def fail(why):
    print("FAIL: " + why)
    print(seen.decode(errors="replace")[-3000:])
    sys.exit(1)

def send(line):
    os.write(fd, line.encode())

read_until("(ptxi) ")
send("stepx\x7fi\n")                    # a typo erased: stepi
# libedit redraws the prompt when the backspace erases: read past the step's own output
out = read_until("\n") + read_until("(ptxi) ")
if "spin.ptx" not in out or "Undefined command" in out:
    fail("stepi after a backspace: %r" % out)
first = out
send("\n")                              # repeats stepi: the next instruction
out = read_until("(ptxi) ")
if "spin.ptx" not in out or out.split("spin.ptx:")[1][:4] == first.split("spin.ptx:")[1][:4]:
    fail("an empty line did not repeat stepi: %r then %r" % (first, out))
send("info warps\n")
if "warp  lanes" not in read_until("(ptxi) "):
    fail("info warps")
send("continue\n")
time.sleep(1)
send("\x03")                            # Ctrl-C while the launch runs
if "Interrupted, CTA" not in read_until("(ptxi) "):
    fail("Ctrl-C did not stop the launch")
send("quit\n")
end = time.time() + 30
while time.time() < end:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    try:
        select.select([fd], [], [], 0.2) and os.read(fd, 4096)
    except OSError:
        pass
else:
    fail("quit did not end the session")
if os.waitstatus_to_exitcode(status) != 0:
    fail("exit status %d" % os.waitstatus_to_exitcode(status))
shutil.rmtree(tmp)
print("debug-tty: prompt, editing, repeat, Ctrl-C and quit as expected")
