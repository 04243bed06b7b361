#!/usr/bin/env bash
# Installs the system packages the tests need, from Debian, when they are missing:
# chromium and its headless shell (Playwright drives the shell in the tests, the whole browser
# in the benches), postgresql (initdb/pg_ctl for a throwaway cluster) and
# caddy (the HTTPS proxy of a hosted deployment; its test runs its own instance on loopback;
# on a machine with systemd, the package also enables a caddy service of its own), podman and
# debootstrap (the container image's test builds and runs the Dockerfile; its base image is
# made from Debian's mirror by scripts/container-base.sh where Docker Hub is out of reach;
# runc runs it where crun cannot, in a VM: docs/hosted.md), and stress-ng (keeps the cores
# busy while the suite runs: `make test-busy`), clang, lld and wasi-libc (the kernel built to
# WebAssembly for the phone: scripts/build-wasm.py).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v caddy >/dev/null 2>&1 || need+=(caddy)
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
command -v stress-ng >/dev/null 2>&1 || need+=(stress-ng)
# the kernel built to WebAssembly (scripts/build-wasm.py): clang, lld and wasi-libc
command -v clang >/dev/null 2>&1 || need+=(clang)
command -v wasm-ld >/dev/null 2>&1 || need+=(lld)
[ -d /usr/include/wasm32-wasi ] || need+=(wasi-libc)
compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/wasi" >/dev/null || need+=(libclang-rt-14-dev-wasm32)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing system packages: ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
echo "installing ${need[*]} (Debian packages)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
