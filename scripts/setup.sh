#!/usr/bin/env bash
# Sets up everything buildds and its tests need on a fresh Debian/Ubuntu machine, in the
# project's own virtual environment (.venv: stock Debian 12 / Ubuntu 24.04 refuse a
# system-wide pip install, PEP 668):
#   - system packages: python3 with venv, tesseract + Japanese data (OCR), IPA fonts (the
#     sample typesetter), poppler-utils (looking at pages), LibreOffice (.odt contracts);
#     apt-get as root or through sudo, only for what is missing;
#   - .venv with buildds installed editable with its dev extras; skipped when pyproject.toml
#     has not changed since the last install.
# Environment: PYTHON (default python3), VENV (default .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}

# libreoffice-writer-nogui: .odt contracts are converted with soffice --headless;
# tesseract-ocr-chi-tra: the Traditional Chinese scan in the contract test set;
# chromium: the tests open report.html and the review app (buildds review) in a real headless
# browser (playwright drives it, with executable_path: no browser download);
# fonts-wqy-microhei: simplified Chinese glyphs (judgments) in the review app's pages.
apt_packages=(python3 python3-venv tesseract-ocr tesseract-ocr-jpn tesseract-ocr-osd
              tesseract-ocr-chi-tra fonts-ipafont-mincho fonts-ipafont-gothic poppler-utils
              libreoffice-writer-nogui chromium fonts-wqy-microhei)
missing=()
if command -v dpkg >/dev/null 2>&1; then
  for pkg in "${apt_packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
fi
# A Python that is not Debian's (pyenv, conda) brings its own venv module.
if [ ${#missing[@]} -gt 0 ] && command -v "$PYTHON" >/dev/null 2>&1 \
   && "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  keep=()
  for pkg in "${missing[@]}"; do
    case "$pkg" in python3|python3-venv) ;; *) keep+=("$pkg") ;; esac
  done
  missing=(${keep[@]+"${keep[@]}"})
fi
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null 2>&1 || {
        echo "setup: run as root or install sudo; missing: ${missing[*]}" >&2; exit 1; }
      sudo_cmd=(sudo)
    fi
    echo "setup: apt-get install ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: no apt-get here; please install: ${missing[*]}" >&2
  fi
fi

command -v "$PYTHON" >/dev/null 2>&1 || { echo "setup: $PYTHON not found" >&2; exit 1; }
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "setup: buildds needs Python >= 3.11; $PYTHON is $("$PYTHON" -V 2>&1). Set PYTHON=..." >&2
  exit 1; }

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV" >&2
  "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.buildds-install"
want=$(cat pyproject.toml | sha256sum | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: pip install -e '.[dev]' into $VENV" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
  # torch for the hf:/peer tests, CPU-only: a wheel a local find-links folder holds (pip
  # config; no download), else PyTorch's CPU index (~190 MB), before '.[dev]' would take
  # PyPI's CUDA build (~2.6 GB of wheels with its nvidia-* deps)
  "$VENV/bin/python" -c 'import torch' >/dev/null 2>&1 \
    || "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-index --no-deps \
         'torch==2.13.0' >/dev/null 2>&1 \
    || "$VENV/bin/python" -m pip install -q --disable-pip-version-check --timeout 20 \
         --retries 1 torch --index-url https://download.pytorch.org/whl/cpu >/dev/null 2>&1 \
    || echo "setup: no CPU build of torch found; torch comes from PyPI (CUDA build)" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e '.[dev]'
  echo "$want" > "$stamp"
fi
