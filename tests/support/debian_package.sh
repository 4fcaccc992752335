#!/usr/bin/env bash
# Install a Debian package a group of tests needs, when its program is missing and the machine
# allows it (root, or sudo without a password); never start its service.
#   tests/support/debian_package.sh WHAT PACKAGE PROGRAM
# e.g. `browser tests` chromium /usr/bin/chromium. When it cannot be installed, says why: those
# tests are then skipped, and under CI=true this exits 1 instead.
set -uo pipefail
what=$1 package=$2 program=$3

if [ ! -x "$program" ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"
  else sudo="none"; fi
  if [ "$sudo" = none ]; then
    echo "$what: $program is missing and this user may not install $package" \
      "(not root, no sudo without a password): they will be skipped"
  elif ! command -v apt-get >/dev/null; then
    echo "$what: $program is missing and there is no apt-get: they will be skipped"
  else
    echo "$what: installing Debian's $package (apt-get)"
    # RUNLEVEL=1: the package's service is not started
    $sudo apt-get update -q && RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive $sudo \
      apt-get install -y -q "$package" \
      || echo "$what: apt-get could not install $package: they will be skipped"
  fi
fi
if [ -n "${CI:-}" ] && [ "${CI}" != false ] && [ ! -x "$program" ]; then
  echo "CI is set and $program is missing" >&2
  exit 1
fi
exit 0
