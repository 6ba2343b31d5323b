"""A throwaway PostgreSQL server for tests and benches, started from the OS binaries.

`TempPostgres().start()` runs initdb into a temporary directory and starts `postgres` in the
foreground as a child process listening on a free loopback port; `stop()` shuts it down
and deletes the directory. It is also stopped at interpreter exit, and (Linux) killed by
the kernel if the process that started it dies, so no test run leaves a server behind.

initdb refuses to run as root: as root, the directory is given to the unprivileged user
`nobody` and both programs run as that user.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BIN_DIRS = ("/usr/local/bin", "/usr/lib/postgresql/15/bin")
PR_SET_PDEATHSIG = 1


def find_binary(name: str) -> str | None:
    for d in BIN_DIRS:
        p = Path(d) / name
        if p.exists():
            return str(p)
    return shutil.which(name)


def available() -> str | None:
    """None when initdb and postgres are present, else a sentence saying what is missing."""
    missing = [n for n in ("initdb", "postgres") if find_binary(n) is None]
    if missing:
        return (f"PostgreSQL binaries not found ({', '.join(missing)} in {BIN_DIRS[0]} or PATH):"
                " PostgreSQL tests skipped")
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class TempPostgres:
    def __init__(self, *, fsync: bool = False) -> None:
        # tests run with fsync off (speed); a bench that reports commit times may turn it on
        self.fsync = fsync
        self.dir: Path | None = None
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._user: dict[str, int] = {}

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 30.0) -> TempPostgres:
        problem = available()
        if problem:
            raise RuntimeError(problem)
        self.dir = Path(tempfile.mkdtemp(prefix="sw-pg-"))
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self._user = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        data = self.dir / "data"
        init = subprocess.run(
            [find_binary("initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
             "-E", "UTF8", "--no-sync", "--locale=C"],
            capture_output=True, timeout=120, **self._user)
        if init.returncode != 0:
            self._remove()
            raise RuntimeError(f"initdb failed: {init.stderr.decode(errors='replace')[-500:]}")
        self.port = _free_port()
        atexit.register(self.stop)
        self.proc = subprocess.Popen(
            [find_binary("postgres"), "-D", str(data), "-p", str(self.port),
             "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.dir}",
             "-c", f"fsync={'on' if self.fsync else 'off'}", "-c", "synchronous_commit=on",
             "-c", f"full_page_writes={'on' if self.fsync else 'off'}",
             "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "server.log", "wb"),  # noqa: SIM115
            preexec_fn=_die_with_parent, **self._user)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                log = (self.dir / "server.log").read_text(errors="replace")[-800:]
                self.stop()
                raise RuntimeError(f"postgres exited at start: {log}")
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.2):
                if self._ready():
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("postgres did not accept connections in time")

    def _ready(self) -> bool:
        """The server answers queries (not only the port: it may still be starting up)."""
        import asyncio

        import asyncpg

        async def ping() -> bool:
            try:
                conn = await asyncpg.connect(self.admin_url, timeout=2)
            except Exception:
                return False
            await conn.close()
            return True

        # in a thread of its own: start() may be called from a running event loop
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(lambda: asyncio.run(ping())).result()

    async def create_database(self, name: str) -> str:
        """A new empty database on the server; -> its URL."""
        import asyncpg

        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # fast shutdown
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=15)
        self._remove()

    def _remove(self) -> None:
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
