# The score sheet in a container: `podman build -t scopa .` (or docker build), then
# `podman run -p 8000:8000 -v scopa-data:/data scopa` (see README, "In a container"); build with
# --format=docker under podman, or the HEALTHCHECK is dropped (OCI images have none).
# BASE: any Debian bookworm image (python3 3.11); without Docker Hub, make one from the Debian
# mirror with scripts/container-base.sh and pass --build-arg BASE=localhost/scopa-base:bookworm.
ARG BASE=docker.io/library/debian:bookworm-slim

FROM ${BASE} AS build
# pip and npm trust the system's certificates (with any a TLS-inspecting proxy needs)
ENV DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    npm_config_cafile=/etc/ssl/certs/ca-certificates.crt
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends python3 python3-venv python3-dev gcc libc6-dev ca-certificates \
      clang lld wasi-libc libclang-rt-14-dev-wasm32 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The dependencies first, in a layer of their own read from pyproject.toml alone: a change to
# the code rebuilds only the layers below (the project and its kernel), not the downloads.
COPY pyproject.toml .
RUN python3 -m venv /opt/scopa \
 && python3 -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres']))" > /tmp/requirements.txt \
 && /opt/scopa/bin/pip install --quiet --no-cache-dir -r /tmp/requirements.txt
COPY . .
# The offline sheet's files come from npm when the context lacks them (a clean clone; after
# `make setup` they are in place and npm is not needed). The native kernel is compiled here,
# and built to WebAssembly for the phones (clang, lld and wasi-libc above): without it a phone
# with no signal would play with the pure engine.
RUN if [ ! -f src/scopa/web/static/vendor/pyodide/pyodide.asm.wasm ]; then \
      apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm; fi \
 && /opt/scopa/bin/pip install --quiet --no-cache-dir --no-deps . \
 && /opt/scopa/bin/python -c "import scopa.engine.native._kernel" \
 && /opt/scopa/bin/python -c "from importlib.resources import files; \
assert (files('scopa') / 'engine/native/kernel.wasm').is_file(), 'kernel.wasm was not built'" \
 && /opt/scopa/bin/scopa --version

FROM ${BASE}
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends python3 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --create-home scopa
COPY --from=build /opt/scopa /opt/scopa
ENV PATH=/opt/scopa/bin:$PATH \
    SCOPA_DATABASE_URL=sqlite:////data/scopa.db \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
USER scopa
WORKDIR /data
VOLUME /data
EXPOSE 8000
# GET /healthz (SCOPA_HEALTH_URL: where, when the command serves on another port)
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen(os.environ.get('SCOPA_HEALTH_URL', 'http://127.0.0.1:8000/healthz'), timeout=4)"]
ENTRYPOINT ["scopa"]
# Hosted mode: devices join a group with its code (`scopa groups create NAME` in the
# container); --insecure-open or --lan instead for a table at home.
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--hosted"]
