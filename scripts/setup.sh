#!/usr/bin/env bash
# Installs everything buildds and its tests need on a fresh Debian/Ubuntu machine:
# system packages (tesseract + Japanese data for OCR, IPA fonts for the sample typesetter,
# poppler-utils for looking at pages) and the Python package with its extras.
set -euo pipefail
cd "$(dirname "$0")/.."
# libreoffice-writer-nogui: .odt contracts are converted with soffice --headless;
# tesseract-ocr-chi-tra: the Traditional Chinese scan in the contract test set.
apt_packages=(tesseract-ocr tesseract-ocr-jpn tesseract-ocr-osd tesseract-ocr-chi-tra
              fonts-ipafont-mincho fonts-ipafont-gothic poppler-utils libreoffice-writer-nogui)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: please install: ${missing[*]} (tesseract with Japanese data, IPA fonts)" >&2
  fi
fi
python3 -m pip install -q --disable-pip-version-check -e '.[dev]'
