#!/bin/sh
# Builds ./bot from bot.go and the arena's protocol in proto/, with Debian's Go packages
# (golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev
# golang-github-golang-protobuf-1-5-dev: not the 1.3 one, see docs/bots.md) and
# nothing from the network: `arena validate` and `arena submit` run it in the bot's sandbox.
set -eu
rm -rf gen
mkdir -p gen/src
protoc -I proto --go_out=gen/src --go-grpc_out=gen/src proto/arena/bot/v1/*.proto
# GOPATH mode: the generated package (import "arena/bot/v1") and Debian's Go libraries.
GO111MODULE=off GOPATH="$PWD/gen:/usr/share/gocode" go build -o bot .
