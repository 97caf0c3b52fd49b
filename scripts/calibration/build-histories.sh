#!/usr/bin/env bash
# Build real code-evolution git histories from consecutive published versions of well-known
# packages (human-written code), for calibrating slopguard's guards against false alarms.
#
#   scripts/calibration/build-histories.sh [OUT_DIR]      (default /tmp/sg-histories)
#
# Environment:
#   SG_VERSIONS=40      newest N stable versions per package
#   SG_JOBS=6           parallel downloads
#   SG_PACKAGES="crates:anyhow npm:zod@15 ..."   override the package list (@N: versions for it)
#   SG_PERFILE_MAX=700  stop a per-file history after this many commits (big releases of
#                       packages that ship built files would otherwise dominate)
#
# Output:
#   OUT/downloads/<eco>/<pkg>/<ver>.<ext>   the published archives (cache; re-runs reuse them)
#   OUT/release/<eco>-<pkg>                 one commit per version ("<pkg> <version>")
#   OUT/perfile/<eco>-<pkg>                 same evolution, one commit per changed file
#                                           ("<pkg> <version>: <path>"; added files first,
#                                           then modified, then deleted, each sorted by path)
# Each repo also carries VERSIONS (in .git/sg-versions) listing the versions used.
# Idempotent: a repo whose .git/sg-done matches its version list is left alone.
#
# Sources (the ordinary download endpoints of each registry, one metadata request per package):
#   crates.io : sparse index (index.crates.io) for versions, static.crates.io for .crate files
#   PyPI      : JSON API for versions and sdist URLs, sdists only (the human-written source)
#   npm       : `npm view` for versions, `npm pack` for tarballs
# Go, Java, Ruby: not reachable from this machine (no Go proxy, Maven Central or RubyGems);
# C sources come in through PyPI sdists with C extensions (simplejson, markupsafe).
set -euo pipefail

OUT="${1:-/tmp/sg-histories}"
N="${SG_VERSIONS:-40}"
PERFILE_MAX="${SG_PERFILE_MAX:-700}"
JOBS="${SG_JOBS:-6}"
DEFAULT_PACKAGES="
crates:anyhow crates:thiserror crates:itoa crates:semver crates:log crates:once_cell crates:memchr
crates:bitflags crates:serde_json
pypi:six pypi:attrs pypi:idna pypi:packaging pypi:click pypi:simplejson pypi:markupsafe
npm:is-number npm:semver npm:commander npm:chalk npm:yargs-parser npm:zod@15 npm:ms npm:uuid@25
"
PACKAGES="${SG_PACKAGES:-$DEFAULT_PACKAGES}"

mkdir -p "$OUT/downloads" "$OUT/release" "$OUT/perfile"
export GIT_AUTHOR_NAME="Calibration" GIT_AUTHOR_EMAIL="calibration@example.invalid"
export GIT_COMMITTER_NAME="Calibration" GIT_COMMITTER_EMAIL="calibration@example.invalid"

log() { printf '[build-histories] %s\n' "$*" >&2; }

# --- version lists ---------------------------------------------------------------------------
# Prints "version<TAB>url" lines, oldest first, newest N stable versions.
list_versions() {
  local eco="$1" pkg="$2" meta
  case "$eco" in
    crates)
      local p
      case ${#pkg} in
        1) p="1/$pkg" ;; 2) p="2/$pkg" ;; 3) p="3/${pkg:0:1}/$pkg" ;;
        *) p="${pkg:0:2}/${pkg:2:2}/$pkg" ;;
      esac
      curl -fsSL --retry 3 "https://index.crates.io/$p" | N="$N" PKG="$pkg" python3 -c '
import json, os, re, sys
pkg = os.environ["PKG"]; vs = []
for line in sys.stdin:
    d = json.loads(line)
    if d.get("yanked") or "-" in d["vers"] or "+" in d["vers"]:
        continue
    vs.append(d["vers"])
key = lambda v: tuple(int(x) for x in v.split("."))
vs = sorted(set(vs), key=key)[-int(os.environ["N"]):]
for v in vs:
    print(f"{v}\thttps://static.crates.io/crates/{pkg}/{pkg}-{v}.crate")
' ;;
    pypi)
      curl -fsSL --retry 3 "https://pypi.org/pypi/$pkg/json" | N="$N" python3 -c '
import json, os, sys
from pip._vendor.packaging.version import Version, InvalidVersion
d = json.load(sys.stdin); out = []
for v, files in d["releases"].items():
    try:
        pv = Version(v)
    except InvalidVersion:
        continue
    if pv.is_prerelease or pv.is_devrelease:
        continue
    sd = [f for f in files if f["packagetype"] == "sdist" and not f.get("yanked")
          and (f["filename"].endswith(".tar.gz") or f["filename"].endswith(".zip"))]
    if sd:
        out.append((pv, v, sd[0]["url"]))
out.sort()
for _, v, u in out[-int(os.environ["N"]):]:
    if not u.startswith("http"):  # some index mirrors answer with relative file URLs
        u = "https://files.pythonhosted.org/packages/" + u.split("packages/")[-1]
    print(f"{v}\t{u}")
' ;;
    npm)
      npm view "$pkg" versions --json 2>/dev/null | N="$N" python3 -c '
import json, os, re, sys
vs = json.load(sys.stdin)
vs = [v for v in vs if re.fullmatch(r"\d+\.\d+\.\d+", v)]
vs.sort(key=lambda v: tuple(int(x) for x in v.split(".")))
for v in vs[-int(os.environ["N"]):]:
    print(f"{v}\tnpm")
' ;;
  esac
}

fetch_one() { # eco pkg ver url dest
  local eco="$1" pkg="$2" ver="$3" url="$4" dest="$5"
  [ -s "$dest" ] && return 0
  if [ "$eco" = npm ]; then
    local tmp; tmp=$(mktemp -d)
    (cd "$tmp" && npm pack "$pkg@$ver" --silent >/dev/null 2>&1) || { log "npm pack $pkg@$ver failed"; rm -rf "$tmp"; return 0; }
    mv "$tmp"/*.tgz "$dest.part" && mv "$dest.part" "$dest"
    rm -rf "$tmp"
  else
    curl -fsSL --retry 3 -o "$dest.part" "$url" && mv "$dest.part" "$dest" || log "download $url failed"
  fi
}
export -f fetch_one log

# Unpack an archive into DIR with its single top-level folder stripped.
unpack() { # archive dir
  local a="$1" d="$2" tmp; tmp=$(mktemp -d)
  case "$a" in
    *.zip) (cd "$tmp" && python3 -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall()' "$a") ;;
    *) tar -xzf "$a" -C "$tmp" --no-same-owner --no-same-permissions 2>/dev/null || true ;;
  esac
  local entries=("$tmp"/* "$tmp"/.[!.]*)
  local top=()
  for e in "${entries[@]}"; do [ -e "$e" ] && top+=("$e"); done
  if [ ${#top[@]} -eq 1 ] && [ -d "${top[0]}" ]; then
    cp -a "${top[0]}"/. "$d"/
  else
    cp -a "$tmp"/. "$d"/
  fi
  chmod -R u+rwX "$d"
  rm -rf "$tmp"
}

commit_all() { # repo msg index
  local repo="$1" msg="$2" i="$3"
  local date=$((1577836800 + i * 3600))   # 2020-01-01 + i hours: deterministic
  GIT_AUTHOR_DATE="@$date +0000" GIT_COMMITTER_DATE="@$date +0000" \
    git -C "$repo" commit -q --allow-empty --no-verify -m "$msg"
}

build_pkg() { # eco pkg [n]
  local eco="$1" pkg="$2" name="$1-$2" N="${3:-$N}"
  local dl="$OUT/downloads/$eco/$pkg"; mkdir -p "$dl"
  local list="$dl/versions-$N.tsv"
  if [ ! -s "$list" ]; then
    list_versions "$eco" "$pkg" > "$list.part" || { log "no versions for $name"; return 0; }
    mv "$list.part" "$list"
  fi
  local ext=tar.gz; [ "$eco" = crates ] && ext=crate; [ "$eco" = npm ] && ext=tgz
  while IFS=$'\t' read -r ver url; do
    local e="$ext"; case "$url" in *.zip) e=zip ;; esac
    printf '%s\0%s\0%s\0%s\0%s\0' "$eco" "$pkg" "$ver" "$url" "$dl/$ver.$e"
  done < "$list" | xargs -0 -n5 -P "$JOBS" bash -c 'fetch_one "$@"' _

  local rel="$OUT/release/$name" per="$OUT/perfile/$name"
  local stamp; stamp="$(sha1sum "$list" | cut -c1-12)-$PERFILE_MAX"
  if [ -f "$rel/.git/sg-done" ] && [ "$(cat "$rel/.git/sg-done")" = "$stamp" ] \
     && [ -f "$per/.git/sg-done" ] && [ "$(cat "$per/.git/sg-done")" = "$stamp" ]; then
    log "$name up to date"; return 0
  fi
  rm -rf "$rel" "$per"; mkdir -p "$rel" "$per"
  git -C "$rel" init -q -b main; git -C "$per" init -q -b main
  for r in "$rel" "$per"; do
    git -C "$r" config core.autocrlf false; git -C "$r" config gc.auto 0
    git -C "$r" config core.fileMode true
  done

  local i=0 pi=0 prev=""
  while IFS=$'\t' read -r ver url; do
    local a; a=$(ls "$dl/$ver".* 2>/dev/null | grep -v '\.part$' | head -1 || true)
    [ -n "$a" ] || continue
    # release history: replace the whole tree with this version
    find "$rel" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    unpack "$a" "$rel"
    # keep the archive's own ignore files from hiding real content
    git -C "$rel" add -A -f .
    commit_all "$rel" "$pkg $ver" "$i"; i=$((i + 1))
    local cur; cur=$(git -C "$rel" rev-parse HEAD)
    # per-file history: replay the release diff one file at a time
    if [ -z "$prev" ]; then
      git -C "$per" fetch -q "$rel" "$cur" && git -C "$per" reset -q --hard FETCH_HEAD
      pi=$((pi + 1))
    elif [ "$pi" -lt "$PERFILE_MAX" ]; then
      local st path
      # take each file from the release commit itself: keeps modes and symlinks exact
      git -C "$per" fetch -q "$rel" "$cur"
      while IFS=$'\t' read -r st path; do
        if [ "$st" = D ]; then
          git -C "$per" rm -q -- "$path"
        else
          git -C "$per" checkout -q FETCH_HEAD -- "$path"
        fi
        commit_all "$per" "$pkg $ver: $path" "$pi"; pi=$((pi + 1))
      done < <(git -C "$rel" -c core.quotePath=false diff --no-renames --name-status "$prev" "$cur" \
                 | awk -F'\t' '{o=($1=="A")?0:($1=="D")?2:1; print o"\t"$1"\t"$2}' \
                 | sort -t$'\t' -k1,1n -k3,3 | cut -f2-)
    fi
    prev="$cur"
  done < "$list"
  # sanity: the per-file history ends at the same tree as the release history
  if [ "$pi" -lt "$PERFILE_MAX" ] && [ "$(git -C "$rel" rev-parse 'HEAD^{tree}')" != "$(git -C "$per" rev-parse 'HEAD^{tree}')" ]; then
    log "WARNING: $name per-file tree differs from release tree"
  fi
  cut -f1 "$list" > "$rel/.git/sg-versions"; cp "$rel/.git/sg-versions" "$per/.git/sg-versions"
  echo "$stamp" > "$rel/.git/sg-done"; echo "$stamp" > "$per/.git/sg-done"
  log "$name: $i release commits, $pi per-file commits ($(head -1 "$list" | cut -f1) .. $(tail -1 "$list" | cut -f1))"
}

for spec in $PACKAGES; do
  pkgn="${spec#*:}"; n=""
  case "$pkgn" in *@*) n="${pkgn#*@}"; pkgn="${pkgn%@*}" ;; esac
  build_pkg "${spec%%:*}" "$pkgn" $n || log "failed: $spec"
done
log "done: $OUT"
