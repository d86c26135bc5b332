#!/bin/sh
# Builds the bot (build.sh), then BotTest.java, and runs it: choose on the requests of fixtures/.
# BotTest's classes are made outside the bot's directory: a file left there would make the next
# `arena submit` a new version.
set -eu
cd "$(dirname "$0")"
sh build.sh
classpath=$(sed 's/.* -cp //' java.args) # the class path build.sh found
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
javac -encoding UTF-8 -d "$out" -cp "$classpath" BotTest.java
java -cp "$out:$classpath" BotTest
