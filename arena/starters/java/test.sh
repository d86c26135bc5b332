#!/bin/sh
# Builds the bot (build.sh), then BotTest.java, and runs it: choose on the requests of fixtures/.
set -eu
cd "$(dirname "$0")"
sh build.sh
classpath=$(sed 's/.* -cp //' java.args) # the class path build.sh found
javac -encoding UTF-8 -d classes -cp "$classpath" BotTest.java
java -cp "$classpath" BotTest
