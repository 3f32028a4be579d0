# Shared set-up for scripts/run-main.sh and scripts/run-tests.sh: installs what is
# missing (Debian packages, the Python venv for test peers) and nothing else.
# Source it; it defines `ensure_packages` and `ensure_venv`.

set -euo pipefail

# The C libraries rtcswarm links (see Package.swift's systemLibrary targets).
RTCSWARM_BUILD_PACKAGES=(pkg-config libssl-dev libsrtp2-dev libopus-dev libvpx-dev libopenh264-dev libx265-dev libde265-dev libaom-dev)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# ensure_packages PKG...: installs the Debian packages that are not installed yet.
ensure_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    as_root apt-get update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# ensure_venv DIR REQUIREMENTS: a Python venv at DIR with the pinned requirements.
ensure_venv() {
    local dir=$1 requirements=$2
    if [ ! -x "$dir/bin/python" ]; then
        ensure_packages python3-venv
        python3 -m venv "$dir"
    fi
    if ! cmp -s "$requirements" "$dir/.installed-requirements"; then
        "$dir/bin/pip" install -q -r "$requirements"
        cp "$requirements" "$dir/.installed-requirements"
    fi
}

require_swift() {
    if ! command -v swift >/dev/null; then
        echo "error: no Swift toolchain on PATH. rtcswarm needs Swift 6 (https://www.swift.org/install/linux/)." >&2
        exit 3
    fi
}
