#!/bin/sh
# Builds the bot (build.sh), then runs bot_test.go: choose on the requests of fixtures/.
set -eu
cd "$(dirname "$0")"
sh build.sh
GO111MODULE=off GOPATH="$PWD/gen:/usr/share/gocode" go test .
