#!/usr/bin/env bash
# Makes a Debian bookworm base image for the Dockerfile from Debian's own mirror, for a machine
# that cannot pull from Docker Hub: debootstrap (minbase) into a folder, imported into podman.
#   scripts/container-base.sh [IMAGE]      (default localhost/scopa-base:bookworm)
#   podman build --network=host --build-arg BASE=localhost/scopa-base:bookworm -t scopa .
# Needs root, debootstrap and podman. MIRROR picks the mirror; ROOTFS reuses a folder made
# already. The CA certificates in /usr/local/share/ca-certificates (a TLS-inspecting proxy's)
# go into the base, so the build can reach PyPI and npm through it.
set -euo pipefail
image=${1:-localhost/scopa-base:bookworm}
if podman image exists "$image"; then
  echo "$image exists"
  exit 0
fi
root=${ROOTFS:-}
if [ -z "$root" ]; then
  root=$(mktemp -d /var/tmp/scopa-base.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase bookworm "$root" "${MIRROR:-http://deb.debian.org/debian}"
fi
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" --numeric-owner -c . | podman import --change 'CMD ["/bin/bash"]' - "$image"
