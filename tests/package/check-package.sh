#!/usr/bin/env bash
# Builds the .deb from the build folder's current binaries into a temporary folder (the build
# folder is not written to: no rebuild, no package or staging files there), extracts it with
# dpkg-deb -x and checks what a user of the package gets: both programs run from /usr/bin, the
# console finds the server beside itself, the desktop entry and AppStream data validate, the
# icons, man pages and Debian documents are where Debian puts them, dpkg-shlibdeps filled in
# Depends, and lintian reports no error.
#
# Usage: check-package.sh BUILD_DIR VERSION
# Exits 125 (ctest: skipped) only when a tool it needs is not installed, or was not when CMake
# configured BUILD_DIR.
set -uo pipefail

build=$1
version=$2

missing=()
for tool in cmake cpack dpkg-deb dpkg-shlibdeps desktop-file-validate appstreamcli lintian file \
  help2man rsvg-convert gzip; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "SKIP: not installed: ${missing[*]} (packaging/install-deps.sh installs them)"
  exit 125
fi

# cmake/Packaging.cmake sets up the package only where it found help2man and rsvg-convert.
if [[ ! -f "$build/CPackConfig.cmake" ]]; then
  echo "SKIP: $build was configured before the packaging tools were installed (no" \
    "CPackConfig.cmake): run cmake on it again"
  exit 125
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbx-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The build folder's install rules into a staging folder (cmake --install builds nothing), then
# cpack with the package settings of CPackConfig.cmake over that folder: `make package` runs the
# same install rules through cpack, which would first build the preinstall target.
# cmake --install always writes BUILD_DIR/install_manifest.txt: it is put back as it was.
manifest=$build/install_manifest.txt
[[ -f "$manifest" ]] && cp -p "$manifest" "$work/manifest.saved"
DESTDIR=$work/stage cmake --install "$build" --prefix /usr --strip >"$work/install.log" 2>&1
rc=$?
if [[ -f "$work/manifest.saved" ]]; then
  cp -p "$work/manifest.saved" "$manifest"
else
  rm -f "$manifest"
fi
((rc == 0)) || { cat "$work/install.log"; echo "FAIL: cmake --install"; exit 1; }
if ! cpack --config "$build/CPackConfig.cmake" -B "$work/out" -D CPACK_INSTALL_CMAKE_PROJECTS= \
  -D "CPACK_INSTALLED_DIRECTORIES=$work/stage;." >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log"
  echo "FAIL: cpack"
  exit 1
fi
debs=("$work"/out/sandbox-console_*.deb)
deb=${debs[0]}
[[ -f "$deb" ]] || { cat "$work/cpack.log"; echo "FAIL: no .deb in $work/out"; exit 1; }
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

root=$work/root
dpkg-deb -x "$deb" "$root" || { echo "FAIL: dpkg-deb -x"; exit 1; }

out=$("$root/usr/bin/sandbox-console" --version 2>&1)
[[ "$out" == "sandbox-console $version" ]] || fail "sandbox-console --version printed '$out'"

out=$("$root/usr/bin/sandbox-server" --help 2>&1)
rc=$?
((rc == 0)) || fail "sandbox-server --help exited $rc"
grep -qi '^usage: sandbox-server' <<<"$out" ||
  fail "sandbox-server --help printed no usage: $out"

# The console starts the local sandbox from its own folder: run the extracted one offscreen
# with a private home until that sandbox is online (SBX_REPORT_STARTUP=exit then quits).
home=$work/home
mkdir -p "$home"
out=$(cd "$home" && HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
  XDG_CACHE_HOME=$home/.cache XDG_STATE_HOME=$home/.local/state XDG_RUNTIME_DIR= \
  DBUS_SESSION_BUS_ADDRESS=disabled: SBX_SERVER_BINARY= QT_QPA_PLATFORM=offscreen \
  SBX_REPORT_STARTUP=exit timeout 60 "$root/usr/bin/sandbox-console" 2>&1)
rc=$?
((rc == 0)) && grep -q '^startup: sandbox online' <<<"$out" ||
  fail "the extracted console did not bring its local sandbox online (exit $rc): $out"

desktop=$root/usr/share/applications/sandbox-console.desktop
if [[ -f "$desktop" ]]; then
  desktop-file-validate "$desktop" || fail "desktop-file-validate"
else
  fail "no /usr/share/applications/sandbox-console.desktop"
fi
metainfo=$root/usr/share/metainfo/io.github.sandboxconsole.SandboxConsole.metainfo.xml
if [[ -f "$metainfo" ]]; then
  appstreamcli validate --no-net --no-color "$metainfo" >"$work/appstream.log" 2>&1 ||
    { cat "$work/appstream.log"; fail "appstreamcli validate"; }
else
  fail "no AppStream metainfo in /usr/share/metainfo"
fi

icons=$root/usr/share/icons/hicolor
[[ -f "$icons/scalable/apps/sandbox-console.svg" ]] || fail "no scalable icon"
for size in 16 32 48 64 128 256; do
  png=$icons/${size}x${size}/apps/sandbox-console.png
  file -b "$png" 2>/dev/null | grep -q "PNG image data, $size x $size" ||
    fail "icon ${size}x${size}: $(file -b "$png" 2>&1)"
done

for program in sandbox-console sandbox-server; do
  page=$root/usr/share/man/man1/$program.1.gz
  if gzip -t "$page" 2>/dev/null; then
    zcat "$page" | grep -q "^\.TH \"\?${program^^}" || fail "$program.1.gz has no .TH header"
  else
    fail "no gzipped man page $program.1.gz"
  fi
done

doc=$root/usr/share/doc/sandbox-console
head -1 "$doc/copyright" 2>/dev/null | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  fail "no machine-readable copyright file"
gzip -t "$doc/changelog.Debian.gz" 2>/dev/null || fail "no changelog.Debian.gz"

depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libqt6widgets6' <<<"$depends" || fail "Depends lacks the Qt libraries: '$depends'"
# Opened at first use, not linked, so dpkg-shlibdeps cannot see it.
grep -q 'libcurl4' <<<"$depends" || fail "Depends lacks libcurl4: '$depends'"
grep -q 'fonts-noto-cjk' <<<"$(dpkg-deb -f "$deb" Recommends)" || fail "Recommends lacks fonts"

lintian --fail-on error --tag-display-limit 0 "$deb" >"$work/lintian.log" 2>&1 ||
  fail "lintian reports errors"
sed 's/^/lintian: /' "$work/lintian.log"

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "package checks passed"
