#!/usr/bin/env bash
# Installs FerretDB v1.24.2 (the MongoDB wire-protocol server used for tests and local runs) into
# $(go env GOPATH)/bin, unless a working copy of that version is already there.
# A plain `go install …@v1.24.2` does not work: the module proxy refuses the version list it asks for, and the
# module zip lacks build/version/version.txt, which FerretDB panics without. So we download the module, copy it
# to a scratch directory, write the version file and build it there.
set -euo pipefail
VERSION=v1.24.2
if [ -n "${MONGODB_URI:-}" ] || command -v mongod >/dev/null 2>&1; then exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-ferretdb: Go is not installed; set MONGODB_URI to a MongoDB server, or install Go" >&2
  exit 0
fi
BIN="$(go env GOPATH)/bin/ferretdb"
# Read the whole output before matching: `grep -q` closing the pipe early would kill ferretdb with SIGPIPE,
# which pipefail turns into a failure.
if [ -x "$BIN" ] && [[ "$("$BIN" --version 2>/dev/null || true)" == *"$VERSION"* ]]; then exit 0; fi
echo "install-ferretdb: building FerretDB $VERSION (about a minute, once per machine)…" >&2
work="$(mktemp -d)"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
go mod init ferretdb-build >/dev/null 2>&1
dir="$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')"
cp -r "$dir" src && chmod -R u+w src
printf '%s' "$VERSION" > src/build/version/version.txt
(cd src && GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -o "$BIN" ./cmd/ferretdb)
installed="$("$BIN" --version)"
echo "install-ferretdb: installed ${installed%%$'\n'*}" >&2
