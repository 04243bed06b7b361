#!/usr/bin/env bash
# Installs the system packages the tests need, from Debian, when they are missing:
# chromium (Playwright drives it), postgresql (initdb/pg_ctl for a throwaway cluster) and
# caddy (the HTTPS proxy of a hosted deployment; its test runs its own instance on loopback;
# on a machine with systemd, the package also enables a caddy service of its own), podman and
# debootstrap (the container image's test builds and runs the Dockerfile; its base image is
# made from Debian's mirror by scripts/container-base.sh where Docker Hub is out of reach;
# runc runs it where crun cannot, in a VM: docs/hosted.md), and stress-ng (keeps the cores
# busy while the suite runs: `make test-busy`).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v caddy >/dev/null 2>&1 || need+=(caddy)
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
command -v stress-ng >/dev/null 2>&1 || need+=(stress-ng)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing system packages: ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
echo "installing ${need[*]} (Debian packages)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
