#!/bin/sh
# Builds the bot (build.sh), then bot_test from bot_test.cc, and runs it: choose on the requests
# of fixtures/. bot_test is made outside the bot's directory: a file left there would make the
# next `arena submit` a new version.
set -eu
cd "$(dirname "$0")"
sh build.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2046 # pkg-config's flags are words
g++ -std=c++17 -O2 -Igen $(pkg-config --cflags grpc++ protobuf) -o "$out/bot_test" bot_test.cc \
  gen/arena/bot/v1/*.o $(pkg-config --libs grpc++ protobuf)
"$out/bot_test"
