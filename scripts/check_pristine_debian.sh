#!/usr/bin/env bash
# Proves the README's two commands on a pristine Debian 12 (bookworm) root, as a new user's
# fresh machine would run them:
#   1. debootstrap --variant=minbase from Debian's packages (no python3, no make, nothing
#      of ours);
#   2. the committed repository (git archive HEAD; no ../shared) copied in;
#   3. inside the root, with an empty environment: ./scripts/sample, then ./scripts/test;
#   4. a plain `pip install <repo>` (no extras) in a second venv, then every command's main
#      path on the bundled sample (jbe, validate, eval with an offline baseline, contracts on
#      the sample .docx, judgments without statute files -> its clear usage message).
# Needs root, debootstrap (apt-get install debootstrap) and the Debian and PyPI registries.
# Usage: sudo bash scripts/check_pristine_debian.sh [ROOT]   (default /var/tmp/buildds-debian12)
# Writes the whole log to ROOT.log and ends with one line per step and its exit code.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/buildds-debian12}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
log="$root.log"
[ "$(id -u)" -eq 0 ] || { echo "run as root (debootstrap and chroot need it)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "apt-get install debootstrap first" >&2; exit 2; }

unmount_all() {
  for m in dev/pts dev proc sys; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" || true
  done
}
trap unmount_all EXIT
unmount_all
if grep -q " $root/" /proc/mounts; then  # never delete through a mount (a bind of /dev!)
  echo "something is still mounted under $root; unmount it first" >&2; exit 2
fi
rm -rf --one-file-system "$root"
: > "$log"
say() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }

say "debootstrap bookworm ($mirror) into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >> "$log" 2>&1
# The network of this machine, nothing else: its resolver, its proxy variables, and its CA
# bundle for pip (networks that intercept TLS sign with their own CA).
cp /etc/resolv.conf "$root/etc/resolv.conf"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$root/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca-bundle.crt"
  printf '[global]\ncert = /etc/ssl/certs/host-ca-bundle.crt\n' > "$root/etc/pip.conf"
fi
proxies=$(env | grep -iE '^(https?|no)_proxy=' | tr '\n' ' ' || true)
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

mkdir -p "$root/root/buildds"
ref=${REF:-HEAD}  # REF=<commit> checks another commit
git -C "$repo" archive "$ref" | tar -x -C "$root/root/buildds"
say "repository at $(git -C "$repo" rev-parse --short "$ref") copied to /root/buildds"

in_root() {  # an empty environment, as a fresh login would have
  # shellcheck disable=SC2086
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb $proxies \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "$1" >> "$log" 2>&1
}
results=()
step() {
  local name=$1 cmd=$2 t0 rc
  t0=$(date +%s)
  say "$name: $cmd"
  set +e; in_root "$cmd"; rc=$?; set -e
  results+=("$name: exit $rc in $(( $(date +%s) - t0 )) s")
  say "$name: exit $rc"
}
step "pristine: no python3, pip or make yet" \
  '! command -v python3 && ! command -v pip3 && ! command -v make'
step sample 'cd /root/buildds && ./scripts/sample'
step test 'cd /root/buildds && ./scripts/test'
step "plain pip install (no extras)" \
  'python3 -m venv /root/plain && /root/plain/bin/pip install -q /root/buildds'
step "plain: buildds jbe" \
  'cd /tmp && /root/plain/bin/buildds jbe --years 2025 --raw /root/buildds/buildds/sample/pdf --out /tmp/plain -q'
step "plain: buildds validate" '/root/plain/bin/buildds validate /tmp/plain'
step "plain: buildds eval (majority)" \
  '/root/plain/bin/buildds eval /tmp/plain --task jbe --model majority --out /tmp/plain-eval -q'
step "plain: buildds eval tfidf names the extra" \
  'out=$(/root/plain/bin/buildds eval /tmp/plain --task jbe --model tfidf --out /tmp/plain-eval2 -q 2>&1); echo "$out"; grep -F "pip install '"'"'buildds[eval]'"'"'" <<<"$out"'
step "plain: buildds contracts" \
  '/root/plain/bin/buildds contracts /root/buildds/buildds/sample/highbar/*/documents/*.docx --out /tmp/plain-contracts -q'
step "plain: buildds judgments names the statute files" \
  'echo "{}" > /tmp/j.json; out=$(/root/plain/bin/buildds judgments /tmp/j.json --out /tmp/plain-j 2>&1); echo "$out"; grep -F "the statute files are required" <<<"$out"'
say "summary"
printf '%s\n' "${results[@]}" | tee -a "$log"
