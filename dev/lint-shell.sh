#!/usr/bin/env bash
# The shell lint gate (`dev/test.sh lint`, second in `make test`): ShellCheck, Debian's, with the
# repository's .shellcheckrc, finds nothing in any shell script git knows (*.sh, and files whose
# first line runs sh or bash: .ci/run).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=lint
cd "$ROOT"
ensure_packages shellcheck

scripts=()
while IFS= read -r -d '' f; do
  case $f in
    *.sh) scripts+=("$f") ;;
    *) [ -f "$f" ] && head -n1 "$f" | grep -qE '^#!.*[/ ](ba)?sh( |$)' && scripts+=("$f") ;;
  esac
done < <(git ls-files -z --cached --others --exclude-standard)
[ ${#scripts[@]} -gt 0 ] || die "no shell scripts found"
shellcheck --version | sed -n 2p >&2
shellcheck "${scripts[@]}" || die "shellcheck found the problems above in the ${#scripts[@]} scripts"
log "shellcheck: nothing found in ${#scripts[@]} scripts"
