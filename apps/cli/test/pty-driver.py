#!/usr/bin/env python3
"""Drives a command under a pseudo-terminal for the chat tests (no tmux needed).

Usage: pty-driver.py STEPS_JSON COMMAND [ARG...]

STEPS_JSON is a JSON list of steps, run in order:
  {"send": "text"}                      write text to the terminal ("\r" is Enter, "\u0003" Ctrl-C)
  {"expect": "regex", "timeout": 30}    wait until the output after the previous match matches
  {"sleep": 0.5}                        wait
  {"exit": 0, "timeout": 30}            wait for the command to exit with this code
  {"resize": [100, 30]}                 resize the terminal (the command gets SIGWINCH)
  {"signal": "TERM"}                    send the command a signal
  {"file": "path", "timeout": 30}       wait until the file exists and is not empty
  {"touch": "path"}                     create the file (e.g. a scripted model's releaseFile)
  {"hangup": true}                      close the terminal, as closing its window does (the command
                                        gets SIGHUP, its terminal I/O fails with EIO)
Expectations match the output with ANSI escape sequences and carriage returns removed. The
driver prints one JSON object: {"ok", "failed", "transcript" (raw output), "exitCode", "cooked"
(after the command ended: true when the terminal is back in line mode with echo on)}; it exits 1
when a step failed. The command inherits the driver's environment; the terminal is 120x40.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

# Seconds an expect, exit or file step waits when it names no timeout: a hang guard, generous for
# a loaded machine (a passing step returns as soon as its condition holds).
DEFAULT_TIMEOUT = 30

ANSI = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b_[^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


def main():
    steps = json.loads(sys.argv[1])
    command = sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    state = {"raw": b"", "cursor": 0, "status": None}

    def plain():
        return ANSI.sub("", state["raw"].decode("utf-8", "replace")).replace("\r", "")

    def pump(timeout):
        """Reads what is available within timeout; False once the terminal is closed."""
        if state.get("hung_up"):
            time.sleep(timeout)
            return False
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(fd, 65536)
        except OSError:
            # EIO: the child closed its side of the terminal (it exited).
            return False
        if not data:
            return False
        state["raw"] += data
        return True

    def reap(block):
        if state["status"] is None:
            done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
            if done == pid:
                state["status"] = os.waitstatus_to_exitcode(status)
        return state["status"]

    failed = None
    for index, step in enumerate(steps):
        if "send" in step:
            os.write(fd, step["send"].encode("utf-8"))
        elif "sleep" in step:
            end = time.monotonic() + step["sleep"]
            while time.monotonic() < end and pump(max(0.0, end - time.monotonic())):
                pass
        elif "expect" in step:
            pattern = re.compile(step["expect"])
            end = time.monotonic() + step.get("timeout", DEFAULT_TIMEOUT)
            open_ = True
            while True:
                match = pattern.search(plain(), state["cursor"])
                if match:
                    state["cursor"] = match.end()
                    break
                if time.monotonic() >= end or not open_:
                    failed = {"step": index, "expect": step["expect"], "after": plain()[state["cursor"]:]}
                    break
                open_ = pump(min(0.1, max(0.0, end - time.monotonic())))
        elif "resize" in step:
            cols, rows = step["resize"]
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        elif "signal" in step:
            os.kill(pid, getattr(signal, "SIG" + step["signal"]))
        elif "file" in step:
            end = time.monotonic() + step.get("timeout", DEFAULT_TIMEOUT)
            while not (os.path.exists(step["file"]) and os.path.getsize(step["file"]) > 0):
                if time.monotonic() >= end:
                    failed = {"step": index, "file": step["file"]}
                    break
                pump(0.05)
        elif "touch" in step:
            with open(step["touch"], "a", encoding="utf-8"):
                pass
        elif "hangup" in step:
            pump(0.05)
            os.close(fd)
            state["hung_up"] = True
        elif "exit" in step:
            end = time.monotonic() + step.get("timeout", DEFAULT_TIMEOUT)
            while reap(False) is None and time.monotonic() < end:
                pump(0.05)
            if reap(False) != step["exit"]:
                failed = {"step": index, "exit": step["exit"], "got": state["status"]}
        if failed:
            break
    end = time.monotonic() + 0.3
    while time.monotonic() < end and pump(0.05):
        pass
    if reap(False) is None:
        os.kill(pid, signal.SIGKILL)
        reap(True)
    try:
        lflag = termios.tcgetattr(fd)[3]
        cooked = bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO)
    except (termios.error, OSError):
        # The terminal is already gone: nothing to report.
        cooked = None
    print(json.dumps({"ok": failed is None, "failed": failed, "transcript": state["raw"].decode("utf-8", "replace"), "exitCode": state["status"], "cooked": cooked}))
    sys.exit(0 if failed is None else 1)


if __name__ == "__main__":
    main()
