#!/usr/bin/env bash
# The packaging tests of `make test`: the .deb that `make deb` built, the RPM, the PKGBUILD, and `make install` /
# `make uninstall` into a staging root. Each check prints "ok" or "FAIL" with what it saw; the last line counts them.
# Usage: Tests/packaging/run.sh ARTIFACTS   (after `make deb`; it builds the RPM itself)
set -uo pipefail
cd "$(dirname "$0")/../.."
artifacts=$1
version=$(.build-pkg/release/w8 --version)
arch=$(dpkg --print-architecture)
deb=$artifacts/w8trackr_${version}_${arch}.deb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

check() { # check NAME COMMAND...: passes when COMMAND exits 0
    local name=$1; shift
    local output
    if output=$("$@" 2>&1); then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"; [ -z "$output" ] || sed 's/^/     /' <<<"$output"
    fi
}
silent() { # silent COMMAND...: passes when COMMAND exits 0 and prints nothing on stdout or stderr
    local output
    output=$("$@" 2>&1) || { echo "$output"; echo "(exit $?)"; return 1; }
    [ -z "$output" ] || { echo "$output"; return 1; }
}
same() { # same EXPECTED ACTUAL
    [ "$1" = "$2" ] || { diff <(echo "$1") <(echo "$2"); return 1; }
}

# The files every package installs, as Debian lays them out. The other recipes are compared after `normalize`.
expected_files="/usr/bin/w8
/usr/lib/systemd/user/w8trackr-summary.service
/usr/lib/systemd/user/w8trackr-summary.timer
/usr/lib/systemd/user/w8trackr.service
/usr/share/applications/w8trackr.desktop
/usr/share/bash-completion/completions/w8
/usr/share/doc/w8trackr/changelog.gz
/usr/share/doc/w8trackr/copyright
/usr/share/fish/vendor_completions.d/w8.fish
/usr/share/icons/hicolor/128x128/apps/w8trackr.png
/usr/share/icons/hicolor/48x48/apps/w8trackr.png
/usr/share/icons/hicolor/scalable/apps/w8trackr.svg
/usr/share/man/man1/w8.1.gz
/usr/share/zsh/vendor-completions/_w8
$(for l in $(cat po/LINGUAS); do echo "/usr/share/locale/$l/LC_MESSAGES/w8trackr.mo"; done)"
expected_files=$(sort <<<"$expected_files")
# Maps another distribution's conventions onto Debian's: zsh's directory, a compressed man page, the license
# files (Debian's copyright and changelog; RPM's %license/%doc; Arch's licenses directory).
normalize() {
    sed -e 's|/usr/share/zsh/site-functions/|/usr/share/zsh/vendor-completions/|' \
        -e 's|/usr/share/man/man1/w8\.1$|/usr/share/man/man1/w8.1.gz|' \
        -e '\|^/usr/share/doc/|d' -e '\|^/usr/share/licenses/|d' | sort
}
deb_files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' | sort)

# --- the .deb ---------------------------------------------------------------------------------------------
check "deb is named w8trackr_${version}_${arch}.deb" test -f "$deb"
check "deb holds the binary, units, desktop file, icon, man page and completions" same "$expected_files" "$deb_files"
check "deb Depends is computed and names libnotify, SQLite, cairo, GLib and libc" bash -c '
    d=$(dpkg-deb -f "$1" Depends); echo "Depends: $d"
    for lib in libnotify4 libsqlite3-0 libcairo2 "libglib2.0-0" libc6 libstdc++6; do grep -q "$lib" <<<"$d" || exit 1; done' _ "$deb"
check "deb Version is w8 --version" same "$version" "$(dpkg-deb -f "$deb" Version)"
# lintian's own notice about running as root goes to stderr; its tags go to stdout.
check "lintian reports no errors or warnings" lintian --fail-on error,warning "$deb"

root=$work/root
dpkg -x "$deb" "$root"
w8=$root/usr/bin/w8
check "unpacked w8 --version prints $version" same "$version" "$("$w8" --version 2>&1)"
check "unpacked w8 --help lists the subcommands" bash -c '
    help=$("$1" --help) || exit 1
    for sub in add goal status log edit rm milestones config summary schedule daemon systemd doctor notify-test; do
        grep -qE "^  $sub " <<<"$help" || { echo "no $sub in --help"; exit 1; }
    done' _ "$w8"
check "w8 links no Swift library (static Swift runtime)" same 0 "$(ldd "$w8" | grep -c swift)"
check "w8 has full RELRO and BIND_NOW" bash -c '
    readelf -lW "$1" | grep -q GNU_RELRO && readelf -dW "$1" | grep -q "FLAGS.*BIND_NOW"' _ "$w8"
check "w8 is stripped" bash -c '! readelf -SW "$1" | grep -q "\.symtab"' _ "$w8"
check "w8's relative relocations are packed (DT_RELR), not a table of RELA entries" bash -c '
    readelf -dW "$1" | grep -q "(RELR)" && [ "$(readelf -dW "$1" | awk "/RELACOUNT/ {print \$3}")" = "" ]' _ "$w8"
check "w8 is a position-independent executable (ASLR)" bash -c 'readelf -hW "$1" | grep -q "DYN (Position-Independent"' \
    _ "$w8"
check "w8 exports no dynamic symbols (the loader searches them at every start)" same 0 \
    "$(nm -D --defined-only "$w8" | wc -l)"
check "w8 loads neither libnotify, GLib nor cairo until it posts or draws" same 0 \
    "$(ldd "$w8" | grep -c -E 'notify|glib|gio|gobject|cairo|X11')"
desktop=$root/usr/share/applications/w8trackr.desktop
check "desktop-file-validate accepts the desktop file" silent desktop-file-validate "$desktop"
check "desktop file is hidden from menus and declares notifications" bash -c '
    grep -qx NoDisplay=true "$1" && grep -qx X-GNOME-UsesNotifications=true "$1" && grep -qx Icon=w8trackr "$1"' _ \
    "$desktop"
check "icon is an SVG" bash -c 'head -c 400 "$1" | grep -q "<svg"' _ \
    "$root/usr/share/icons/hicolor/scalable/apps/w8trackr.svg"
check "icon PNGs are 48x48 and 128x128 renderings" bash -c '
    [ "$(identify -format "%m %wx%h" "$1/48x48/apps/w8trackr.png")" = "PNG 48x48" ] &&
    [ "$(identify -format "%m %wx%h" "$1/128x128/apps/w8trackr.png")" = "PNG 128x128" ]' _ \
    "$root/usr/share/icons/hicolor"

# systemd checks that ExecStart= names an executable, so the unpacked /usr/bin is laid over the real one in a
# mount namespace of this test's own; the units are verified as installed, ExecStart=/usr/bin/w8 and all. verify
# loads every user unit on its search path, and two this machine's packages install (mako's and swaync's) claim the
# same bus name, which it reports: its path is the package's units and copies of the system's targets they name.
verify_units() {
    local userns=()
    [ "$(id -u)" -eq 0 ] || userns=(--map-root-user)
    unshare "${userns[@]}" --mount bash -c '
        mount -t overlay overlay -o "lowerdir=$1/usr/bin:/usr/bin" /usr/bin || exit 1
        units=$(mktemp -d)
        cp "$1"/usr/lib/systemd/user/* /usr/lib/systemd/user/*.target "$units"/
        XDG_RUNTIME_DIR=$(mktemp -d) SYSTEMD_UNIT_PATH=$units systemd-analyze --user verify --man=no \
            "$units"/w8trackr*' _ "$1"
}
check "systemd-analyze --user verify passes the units with no output" silent verify_units "$root"
check "units run /usr/bin/w8" bash -c '
    grep -qx "ExecStart=/usr/bin/w8 daemon" "$1/w8trackr.service" &&
    grep -qx "ExecStart=/usr/bin/w8 summary --send --if-due" "$1/w8trackr-summary.service"' _ \
    "$root/usr/lib/systemd/user"
man_warnings() { MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$1" 2>&1 >/dev/null; }
check "man page renders with no warnings" silent man_warnings "$root/usr/share/man/man1/w8.1.gz"
check "man page documents every subcommand, config key and exit code" \
    ./Tests/packaging/man-coverage.py "$root/usr/share/man/man1/w8.1.gz" "$w8" Sources/W8Core/Settings.swift

# The bash completion loads and completes: `w8 su<TAB>` offers summary, `w8 add --n<TAB>` offers --note.
complete_bash() {
    bash -c 'source /usr/share/bash-completion/bash_completion && source "$1" || exit 1
        complete -p w8 >/dev/null || exit 1
        reply() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                  COMPREPLY=(); "$(complete -p w8 | sed "s/.*-F \([^ ]*\) .*/\1/")" w8 "${!#}" "${@: -2:1}"
                  echo "${COMPREPLY[*]}"; }
        PATH="$2:$PATH"
        [[ " $(reply w8 su) " == *" summary "* ]] || { echo "w8 su: $(reply w8 su)"; exit 1; }
        [[ " $(reply w8 add --n) " == *" --note "* ]] || { echo "w8 add --n: $(reply w8 add --n)"; exit 1; }' \
        _ "$1" "$2"
}
check "bash completion loads and completes subcommands and options" \
    complete_bash "$root/usr/share/bash-completion/completions/w8" "$root/usr/bin"
check "bash completion has no hashbang" bash -c '! head -1 "$1" | grep -q "^#!"' _ \
    "$root/usr/share/bash-completion/completions/w8"
check "zsh completion parses" zsh -n "$root/usr/share/zsh/vendor-completions/_w8"
check "fish completion parses" fish --no-execute "$root/usr/share/fish/vendor_completions.d/w8.fish"

# --- the RPM and the PKGBUILD install the same files ----------------------------------------------------------
rpm_file=$(./packaging/rpm/build-rpm "$artifacts" 2>"$work/rpm.err" | head -1)
check "make rpm builds w8trackr-$version" bash -c '[ -f "$1" ] || { cat "$2"; exit 1; }' _ "$rpm_file" "$work/rpm.err"
if [ -f "$rpm_file" ]; then
    check "RPM installs the files the .deb does" same "$(normalize <<<"$deb_files")" \
        "$(rpm -qlp "$rpm_file" 2>/dev/null | normalize)"
    check "RPM requires libnotify, SQLite and cairo" bash -c '
        r=$(rpm -qp --requires "$1" 2>/dev/null); grep -q "libnotify.so.4" <<<"$r" && grep -q "libsqlite3.so.0" <<<"$r" && grep -q "libcairo.so.2" <<<"$r"' \
        _ "$rpm_file"
fi
check "PKGBUILD is valid bash" bash -n packaging/arch/PKGBUILD
check "PKGBUILD pkgver is w8 --version" same "$version" "$(bash -c 'source packaging/arch/PKGBUILD; echo "$pkgver"')"
# makepkg's package() runs in a tree called $pkgname-$pkgver under $srcdir: give it this one.
arch_files() {
    mkdir -p "$work/arch/src" "$work/arch/pkg"
    ln -sfn "$PWD" "$work/arch/src/w8trackr-$version"
    (source packaging/arch/PKGBUILD && srcdir=$work/arch/src pkgdir=$work/arch/pkg &&
        cd "$srcdir" && package >/dev/null) || return 1
    (cd "$work/arch/pkg" && find . ! -type d | sed 's/^\.//')
}
check "PKGBUILD package() installs the files the .deb does" same "$(normalize <<<"$deb_files")" \
    "$(arch_files | normalize)"

# --- make install / make uninstall ------------------------------------------------------------------------
stage=$work/stage
make --no-print-directory install-files DESTDIR="$stage" PREFIX=/home/u/.local HOME=/home/u >/dev/null
check "make install as a user puts the units where systemd --user reads them" bash -c '
    test -f "$1/home/u/.local/share/systemd/user/w8trackr.service" &&
    grep -qx "ExecStart=/home/u/.local/bin/w8 daemon" "$1/home/u/.local/share/systemd/user/w8trackr.service"' _ "$stage"
default_prefix=$HOME/.local; [ "$(id -u)" -ne 0 ] || default_prefix=/usr/local
check "make install defaults to PREFIX=$default_prefix for $(id -un)" bash -c '
    make --no-print-directory -n install-files | grep -q "install -Dm755 .* $1/bin/w8$"' _ "$default_prefix"
files=$((12 + $(wc -l <po/LINGUAS)))
check "make install installs $files files (12 and a catalog per language)" same "$files" "$(find "$stage" -type f | wc -l)"
make --no-print-directory uninstall DESTDIR="$stage" PREFIX=/home/u/.local HOME=/home/u >/dev/null
check "make uninstall removes every installed file" same "" "$(find "$stage" -type f)"

echo "packaging: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
