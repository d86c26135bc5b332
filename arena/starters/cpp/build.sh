#!/bin/sh
# Builds ./bot from bot.cc and the arena's protocol in proto/, with Debian's packages (g++
# pkg-config protobuf-compiler protobuf-compiler-grpc libgrpc++-dev libprotobuf-dev) and nothing
# from the network: `arena validate` and `arena submit` run it in the bot's sandbox.
# `sh build.sh static` links statically (a bot for a machine without these libraries).
# Only what changed is rebuilt (the generated code takes minutes on two cores): the code of the
# .proto files when one of them is newer than it, an object when its source (or that code) is.
set -eu
cd "$(dirname "$0")"
stamp=gen/.generated
if [ ! -f "$stamp" ] || [ -n "$(find proto -name '*.proto' -newer "$stamp")" ]; then
  rm -rf gen
  mkdir -p gen
  protoc -I proto --cpp_out=gen --grpc_out=gen \
    --plugin=protoc-gen-grpc="$(command -v grpc_cpp_plugin)" proto/arena/bot/v1/*.proto
  touch "$stamp"
fi
CXXFLAGS="-std=c++17 -O2 -Igen $(pkg-config --cflags grpc++ protobuf)"
export CXXFLAGS
# every source on its own, on every core
ls gen/arena/bot/v1/*.cc bot.cc | xargs -P "$(nproc)" -n 1 sh -c '
  object=${1%.cc}.o
  if [ ! "$object" -nt "$1" ] || [ ! "$object" -nt gen/.generated ]; then
    g++ $CXXFLAGS -c "$1" -o "$object"
  fi' compile
if [ "${1:-}" = static ]; then
  libs="-static $(pkg-config --static --libs grpc++ protobuf)"
else
  libs="$(pkg-config --libs grpc++ protobuf)"
fi
# shellcheck disable=SC2086 # pkg-config's flags are words
g++ -o bot bot.o gen/arena/bot/v1/*.o $libs
