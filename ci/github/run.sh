#!/usr/bin/env bash
# The svc GitHub Action's one step (action.yml passes its inputs as SVC_* variables): install the
# CLI from the hub, then compare (pull requests) or push (the push branch).
set -uo pipefail

for name in SVC_API SVC_FILE SVC_API_ORIGIN SVC_HUB_TOKEN; do
  if [ -z "${!name:-}" ]; then
    echo "::error title=svc::The action needs its ${name} input (api, file, hub-url, token)."
    exit 2
  fi
done
fail_on="${SVC_FAIL_ON:-breaking}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/svc-action"
mkdir -p "$work/cli"

echo "::group::Install the svc CLI from ${SVC_API_ORIGIN%/}"
if ! npm install --prefix "$work/cli" --no-save --no-package-lock --no-audit --no-fund \
  --loglevel=error "${SVC_API_ORIGIN%/}/downloads/svc-cli.tgz"; then
  echo "::endgroup::"
  echo "::error title=svc::Could not install the CLI from ${SVC_API_ORIGIN%/}/downloads/svc-cli.tgz."
  exit 1
fi
svc="$work/cli/node_modules/.bin/svc"
"$svc" --version
echo "::endgroup::"

waivers=()
if [ -n "${SVC_WAIVERS:-}" ]; then waivers=(--waivers "$SVC_WAIVERS"); fi

branch="${GITHUB_REF#refs/heads/}"
if [ "${GITHUB_EVENT_NAME:-}" = push ] && [ -n "${SVC_PUSH_BRANCH:-}" ] &&
  [ "$branch" = "$SVC_PUSH_BRANCH" ]; then
  version="${GITHUB_SHA:-}"
  "$svc" api push "$SVC_API" "$SVC_FILE" ${version:+--version "${version::7}"} \
    --fail-on "$fail_on" --format github ${waivers[@]+"${waivers[@]}"}
  exit $?
fi

# Anything else (a pull request, another branch, a manual run) compares and stores nothing. The
# annotations come from one run, the comment from a second: each format is its own output.
report="$work/changelog.md"
"$svc" api diff "$SVC_API" "$SVC_FILE" --fail-on "$fail_on" --format github \
  ${waivers[@]+"${waivers[@]}"}
status=$?
if "$svc" api diff "$SVC_API" "$SVC_FILE" --fail-on "$fail_on" --format markdown \
  ${waivers[@]+"${waivers[@]}"} >"$report" || [ -s "$report" ]; then
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$report" >>"$GITHUB_STEP_SUMMARY"; fi
  case "${GITHUB_EVENT_NAME:-}" in
  pull_request | pull_request_target)
    if [ "${SVC_COMMENT:-true}" = true ]; then node "$here/pr-comment.mjs" "$report"; fi
    ;;
  esac
fi
exit "$status"
