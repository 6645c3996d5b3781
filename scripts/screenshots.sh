#!/usr/bin/env bash
# Renders report.html with headless Chromium and every PDF page with
# pdftoppm, so that a person can look at what a reader will see.
#
#   scripts/screenshots.sh [REPORT_DIR ...]      (default: every reports/*/)
#
# Needs: chromium, poppler-utils (apt-get install -y chromium poppler-utils).
# Writes $SCREENSHOTS (default target/screenshots)/<report name>/
# {html-light.png,html-dark.png,html-mobile.png,html-full.png,pdf-N.png}.
set -euo pipefail

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  dirs=(reports/*/)
fi
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "screenshots.sh: chromium not found (apt-get install -y chromium)" >&2
  exit 2
fi

shot() { # html out width height [extra flags]
  local html=$1 out=$2 w=$3 h=$4; shift 4
  local profile
  profile=$(mktemp -d)
  "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" "$@" \
    --screenshot="$out" --window-size="$w,$h" "file://$html" >/dev/null 2>&1 || true
  rm -rf "$profile"
  [ -s "$out" ] && echo "$out"
}

for d in "${dirs[@]}"; do
  d=${d%/}
  out="${SCREENSHOTS:-target/screenshots}/$(basename "$d")"
  mkdir -p "$out"
  if [ -f "$d/report.html" ]; then
    html=$(realpath "$d/report.html")
    shot "$html" "$(realpath "$out")/html-light.png" 1280 2400
    shot "$html" "$(realpath "$out")/html-dark.png" 1280 2400 --force-dark-mode --blink-settings=preferredColorScheme=0
    shot "$html" "$(realpath "$out")/html-mobile.png" 390 1600
    shot "$html" "$(realpath "$out")/html-full.png" 1280 12000
  fi
  if [ -f "$d/report.pdf" ] && command -v pdftoppm >/dev/null; then
    pdftoppm -r 60 -png "$d/report.pdf" "$out/pdf"
    ls "$out"/pdf-*.png
  fi
done
