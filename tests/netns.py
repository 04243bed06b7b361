"""A network namespace for a test's server that listens on every address (``--lan``,
``--host 0.0.0.0``): inside it, every address is the namespace's own, so nothing the test
starts is reachable from the machine's real networks."""

from __future__ import annotations

import ctypes
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@contextmanager
def namespace() -> Iterator[str]:
    """A network namespace of its own with loopback only (its name): a server listening on
    every address there is reachable from that namespace alone (:func:`socket_in`)."""
    if os.geteuid() != 0:
        pytest.skip("creating a network namespace needs root")
    if shutil.which("ip") is None:
        pytest.skip("the `ip` command (iproute2) is not installed")
    name = f"scopa{os.getpid() % 100000}"
    try:
        _ip("netns", "add", name)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"cannot create a network namespace here: {error.stderr!r}")
    try:
        _ip("netns", "exec", name, "ip", "link", "set", "lo", "up")
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


@contextmanager
def network_namespace() -> Iterator[tuple[str, str, str]]:
    """:func:`namespace` joined to this one by a veth pair: (its name, the address on our
    side, the address inside). Test traffic goes over that pair only, never a real network."""
    tag = f"{os.getpid() % 100000}"
    outside, inside = f"vso{tag}", f"vsi{tag}"
    net = f"10.213.{os.getpid() % 250}"
    with namespace() as name:
        try:
            _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            _ip("link", "set", inside, "netns", name)
            _ip("addr", "add", f"{net}.1/24", "dev", outside)
            _ip("link", "set", outside, "up")
            _ip("netns", "exec", name, "ip", "addr", "add", f"{net}.2/24", "dev", inside)
            _ip("netns", "exec", name, "ip", "link", "set", inside, "up")
            yield name, f"{net}.1", f"{net}.2"
        finally:
            subprocess.run(["ip", "link", "del", outside], capture_output=True)


CLONE_NEWNET = 0x40000000
"""setns(2)'s flag for a network namespace."""


def socket_in(namespace: str, family: int) -> socket.socket:
    """A TCP socket of the network namespace ``namespace`` (by name, as ``ip netns`` made it):
    made in a thread of its own that joins the namespace (setns(2) moves the calling thread
    only), as a socket belongs to the namespace it was made in, whichever thread uses it."""
    made: list[socket.socket | BaseException] = []

    def make() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            with open(f"/var/run/netns/{namespace}", "rb") as handle:
                if libc.setns(handle.fileno(), CLONE_NEWNET) != 0:
                    errno = ctypes.get_errno()
                    raise OSError(errno, f"setns into {namespace}: {os.strerror(errno)}")
            made.append(socket.socket(family, socket.SOCK_STREAM))
        except BaseException as error:  # handed to the caller's thread
            made.append(error)

    thread = threading.Thread(target=make, name=f"netns {namespace}")
    thread.start()
    thread.join()
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]
