#!/usr/bin/env bash
# Installs the Debian 12 packages that building, testing, benchmarking and `make run` need.
# Idempotent: installs only what is missing; uses sudo when not root.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config git
  # console
  qt6-base-dev qt6-base-dev-tools qt6-websockets-dev qt6-svg-dev qtkeychain-qt6-dev
  qt6-qpa-plugins libqt6svg6 libgl-dev nlohmann-json3-dev libvterm-dev fonts-dejavu-core
  # the Files tab's collation keys, written by ICU as Qt's QCollator writes them
  libicu-dev
  # Monitor charts (Qt Charts needs the OpenGL module's CMake files, not pulled in by it)
  qt6-charts-dev libqt6opengl6-dev
  # log search: PCRE2 over UTF-8 bytes, with its JIT
  libpcre2-dev
  # translations: lupdate extracts tr() strings into resources/translations, lrelease builds the
  # .qm files through Qt6LinguistTools' CMake package (qt6-tools-dev); Qt's own strings in Chinese
  # (qtbase_zh_CN.qm); CJK glyphs for the Chinese UI and for the terminal
  qt6-l10n-tools qt6-tools-dev qt6-translations-l10n fonts-noto-cjk
  # desktop: the icon theme the package recommends; dbus-daemon gives tst_app_notifier a
  # private session bus
  breeze-icon-theme dbus-daemon
  # server
  libboost-dev libssl-dev libjwt-dev zlib1g-dev
  # server: Jupyter kernels spoken to over ZeroMQ (cppzmq is header-only), and the kernels
  # themselves; jupyter_client is the peer of bench/agent/jupyter.sh
  libzmq3-dev cppzmq-dev python3-ipykernel python3-jupyter-client
  # container engine provider; its suite runs a podman service of its own (runc, no systemd)
  libcurl4-openssl-dev podman runc conmon containernetworking-plugins
  # remote engines: ssh:// through the system ssh client; their suite puts socat (TLS) and an
  # sshd of its own in front of the podman service
  openssh-client openssh-server socat
  # Code tab tests: nbformat validates the notebooks the console writes, and writes one it opens
  python3-nbformat
  # tests, screenshots and benchmarks
  xvfb xauth imagemagick openssl curl procps wrk lnav time
  # terminal tests: a full-screen program (no local echo is guessed inside it)
  vim-tiny
  # observe tests: a child that allocates 300 MB
  python3
  # the Debian package (`make package`, tests/package): icon renders, man pages from --help, the
  # validators of the desktop entry and AppStream data, dpkg-shlibdeps, lintian
  librsvg2-bin help2man desktop-file-utils appstream dpkg-dev lintian file
  # fuzzing (`make fuzz`): libFuzzer with clang's sanitizers
  clang-14 libfuzzer-14-dev
)

# Node.js runs the peers of the benchmarks (xterm.js). A machine may already have it from another
# source (nodesource's nodejs bundles npm and conflicts with Debian's npm): then leave it alone.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=(sudo)
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
