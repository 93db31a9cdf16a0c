#!/usr/bin/env bash
# Runs every command README.md and docs/*.md print, as printed, and fails naming FILE:LINE of each one
# that fails. A command is a line of a code block, or an inline `code` span, that starts with
# build/circlesim, build/circlesim-cli or scripts/ (a trailing `# comment` is dropped, `\` lines joined).
#   scripts/check-doc-commands.sh [REPO]       (needs a build in REPO/build)
# What is not run, and says so in the output:
#   - syntax examples: a command with [optional] parts, a|b choices, ..., a * pattern or a PLACEHOLDER in
#     capitals, and the CLI's bare name in prose;
#   - commands under a marker line `<!-- doc-test: skip REASON -->` (the next block or paragraph).
# A marker `<!-- doc-test: bound OLD=>NEW[; OLD=>NEW] -->` runs the next block's commands with OLD replaced
# by NEW (a long --steps or --frames made short); the printed command is still what readers run.
# Commands run in a scratch copy of the tree (build/, scenes/, scripts/, … linked; docs/ a fresh skeleton),
# so what they write lands there, never over tracked files. A viewer command without --headless opens a
# window: it runs on SDL's offscreen driver and passes when it is still running after a few seconds.
set -uo pipefail
repo=$(cd "${1:-"$(dirname "$0")/.."}" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for d in build scenes scripts shaders assets include src bench tests fuzz; do
  [ -e "$repo/$d" ] && ln -s "$repo/$d" "$scratch/$d"
done
(cd "$repo" && find docs -type d) | while read -r d; do mkdir -p "$scratch/$d"; done
mkdir -p "$scratch/out"

# file<TAB>line<TAB>mode<TAB>command; mode: run, skip:REASON or bound:SUBS
extract() {
  awk -v file="$1" '
    function emit(cmd, line) {
      sub(/[ \t]+#.*$/, "", cmd)
      sub(/^[ \t]+/, "", cmd); sub(/[ \t]+$/, "", cmd)
      if (cmd !~ /^(build\/circlesim|scripts\/)/) return
      printf "%s\t%d\t%s\t%s\n", file, line, (mode == "" ? "run" : mode), cmd
      used = 1
    }
    /<!-- doc-test: skip/ { m = $0; sub(/.*doc-test: skip[ ]*/, "", m); sub(/[ ]*-->.*/, "", m); mode = "skip:" m; used = 0; next }
    /<!-- doc-test: bound/ { m = $0; sub(/.*doc-test: bound[ ]*/, "", m); sub(/[ ]*-->.*/, "", m); mode = "bound:" m; used = 0; next }
    /^```/ { fenced = !fenced; next }
    /^[ \t]*$/ { if (used) { mode = ""; used = 0 } ; next }
    {
      if (fenced || /^    /) {
        line = $0; start = NR
        while (line ~ /\\$/ && (getline nxt) > 0) { sub(/\\$/, "", line); line = line " " nxt }
        emit(line, start)
        next
      }
      rest = $0
      while (match(rest, /`[^`]+`/)) {
        emit(substr(rest, RSTART + 1, RLENGTH - 2), NR)
        rest = substr(rest, RSTART + RLENGTH)
      }
    }' "$2"
}

syntax_only() {
  local cmd=$1 word
  [[ $cmd == *"["* || $cmd == *"|"* || $cmd == *"..."* || $cmd == *"…"* || $cmd == *"*"* ]] && return 0
  [[ $cmd == build/circlesim-cli || $cmd == build/*.a ]] && return 0 # a binary named in prose
  for word in $cmd; do
    [[ $word =~ ^[A-Z][A-Z0-9_]*([.:=,].*)?$ ]] && return 0
  done
  return 1
}

failed=0 ran=0 skipped=0
# What a command writes must land in a git-ignored folder (build/, out/, …): the tree's changed and untracked
# files that git does not ignore, before and after each command (scratch links build/, scenes/, … to the
# tree), any file that appears in the scratch docs/ skeleton (the real docs/ is tracked), and any other new file
# in the scratch root that git would not ignore in the tree (a `--csv run.csv` written where the reader stands).
tree_state() { git -C "$repo" status --porcelain --untracked-files=all 2>/dev/null | sort; }
docs_files() { (cd "$scratch" && find docs -type f | sed 's/^/?? /' | sort); }
# Files a command wrote elsewhere in the scratch root (e.g. `--csv run.csv` in the working directory), which in
# the real tree are files git does not ignore; the linked folders are the tree's own (tree_state sees them).
root_files() {
  (cd "$scratch" && find . -mindepth 1 \( -path ./docs -o -path ./out -o -type l \) -prune -o -type f -print |
    sed 's|^\./||' | while read -r f; do git -C "$repo" check-ignore -q "$f" || echo "?? $f"; done | sort)
}
records=$( (cd "$repo" && for f in README.md docs/*.md; do [ -f "$f" ] && extract "$f" "$f"; done) )
while IFS=$'\t' read -r file line mode cmd; do
  [ -n "$cmd" ] || continue
  where="$file:$line"
  if [[ $mode == skip:* ]]; then
    echo "skip   $where: ${mode#skip:}: $cmd"; skipped=$((skipped + 1)); continue
  fi
  if syntax_only "$cmd"; then
    echo "syntax $where: $cmd"; skipped=$((skipped + 1)); continue
  fi
  run=$cmd
  if [[ $mode == bound:* ]]; then
    IFS=';' read -ra subs <<<"${mode#bound:}"
    for s in "${subs[@]}"; do
      old=${s%%=>*}; new=${s#*=>}; old=${old# }; old=${old% }; new=${new# }; new=${new% }
      run=${run//"$old"/"$new"}
    done
  fi
  before=$(tree_state)
  docs_before=$(docs_files)$'\n'$(root_files)
  interactive=0
  if [[ $run == build/circlesim\ * || $run == build/circlesim ]] && [[ $run != *--headless* && $run != *--help* ]]; then
    interactive=1
  fi
  if [ $interactive = 1 ]; then
    output=$(cd "$scratch" && SDL_VIDEODRIVER=offscreen timeout 4 bash -c "$run" 2>&1 </dev/null)
    status=$?
    [ $status = 124 ] && status=0 # still running after 4 s: the window works
  else
    # 240 s of CPU per process (a command that spins is ended however loaded the machine is) and 1 200 s
    # of wall time (one that blocks): cmake/test_limits.cmake.
    output=$(cd "$scratch" && SDL_VIDEODRIVER=offscreen timeout 1200 prlimit --cpu=240:250 -- bash -c "$run" 2>&1 </dev/null)
    status=$?
  fi
  ran=$((ran + 1))
  wrote=$(comm -13 <(printf '%s\n' "$before") <(tree_state)
    comm -13 <(printf '%s\n' "$docs_before" | sort) <( (docs_files; root_files) | sort))
  wrote=$(printf '%s\n' "$wrote" | sed '/^$/d' | sed 's/^...//' | paste -sd' ')
  if [ $status = 0 ] && [ -n "$wrote" ]; then
    status="0 but wrote outside the git-ignored folders ($wrote)"
  fi
  if [ "$status" != 0 ]; then
    failed=$((failed + 1))
    echo "FAIL   $where: exit $status: $run"
    printf '%s\n' "$output" | tail -5 | sed 's/^/         /'
  else
    echo "ok     $where: $run"
  fi
done <<<"$records"
echo "doc commands: $ran run, $failed failed, $skipped not run (syntax examples or marked skip)"
[ $failed = 0 ]
