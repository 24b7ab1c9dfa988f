#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prints the version of the Rust compiler given as $1 as one number (1.54.0 -> 15400),
# the form the 2021 layout's Kconfig compares.
set -e
"$@" --version | sed -n 's/^[^ ]* \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\).*/\1 \2 \3/p' |
	{ read -r a b c; printf '%d%02d%02d\n' "$a" "$b" "$c"; }
