#!/bin/sh
# Makes the chart renderer's bundled font: DejaVu Sans cut down to the characters charts print
# (printable ASCII, Latin-1, and · – — … × − σ %). Loading 40 KB instead of 760 KB for every chart
# saves tens of milliseconds per PNG. Needs fonttools (`apt-get install fonttools`) and DejaVu Sans
# (`fonts-dejavu-core`). The font's licence (Bitstream Vera terms) allows this; see LICENSE-DejaVu.txt.
set -eu
src=${1:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
out=$(dirname "$0")/../apps/server/assets/fonts/DejaVuSans-Charts.ttf
pyftsubset "$src" --output-file="$out" \
  --unicodes="U+0020-007E,U+00A0-00FF,U+00B7,U+2013,U+2014,U+2026,U+00D7,U+2212,U+03C3,U+2009" \
  --layout-features='kern,liga' --no-hinting --desubroutinize --name-IDs='*' --name-legacy
ls -l "$out"
