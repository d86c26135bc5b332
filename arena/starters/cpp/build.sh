#!/bin/sh
# Builds ./bot from bot.cc and the arena's protocol in proto/, with Debian's packages (g++
# pkg-config protobuf-compiler protobuf-compiler-grpc libgrpc++-dev libprotobuf-dev) and nothing
# from the network: `arena validate` and `arena submit` run it in the bot's sandbox.
# `sh build.sh static` links statically (a bot for a machine without these libraries).
set -eu
rm -rf gen
mkdir -p gen
protoc -I proto --cpp_out=gen --grpc_out=gen \
  --plugin=protoc-gen-grpc="$(command -v grpc_cpp_plugin)" proto/arena/bot/v1/*.proto
if [ "${1:-}" = static ]; then
  libs="-static $(pkg-config --static --libs grpc++ protobuf)"
else
  libs="$(pkg-config --libs grpc++ protobuf)"
fi
# shellcheck disable=SC2046,SC2086 # pkg-config's flags are words
g++ -std=c++17 -O2 -Igen $(pkg-config --cflags grpc++ protobuf) -o bot bot.cc \
  gen/arena/bot/v1/*.cc $libs
