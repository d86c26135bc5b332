#!/bin/sh
# Builds the bot from Bot.java and the arena's protocol in proto/, with Debian's packages
# (default-jdk-headless protobuf-compiler protobuf-compiler-grpc-java-plugin libgrpc-java
# libprotobuf-java libnetty-java libperfmark-java libgeronimo-annotation-1.3-spec-java) and
# nothing from the network: `arena validate` and `arena submit` run it in the bot's sandbox.
# It writes java.args, the JVM's options and class path that bot.toml's command reads
# (`java @java.args Bot`).
set -eu
jars=/usr/share/java
cd "$(dirname "$0")"
classpath=""
for jar in grpc-api grpc-context grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite \
  grpc-stub protobuf guava perfmark-api geronimo-annotation-1.3-spec netty-buffer \
  netty-codec netty-codec-http netty-codec-http2 netty-common netty-handler netty-resolver \
  netty-transport; do
  [ -f "$jars/$jar.jar" ] || { echo "error: $jars/$jar.jar is missing: install the packages named in build.sh" >&2; exit 1; }
  classpath="${classpath:+$classpath:}$jars/$jar.jar"
done
# The protocol's code is compiled once, again only when a .proto file is newer than it.
stamp=gen/.compiled
if [ ! -f "$stamp" ] || [ -n "$(find proto -name '*.proto' -newer "$stamp")" ]; then
  rm -rf gen
  mkdir -p gen/src gen/classes
  protoc -I proto --java_out=gen/src --grpc-java_out=gen/src \
    --plugin=protoc-gen-grpc-java=/usr/bin/grpc_java_plugin proto/arena/bot/v1/*.proto
  find gen/src -name '*.java' > gen/sources.txt
  javac -nowarn -encoding UTF-8 -d gen/classes -cp "$classpath" @gen/sources.txt
  touch "$stamp"
fi
rm -rf classes
mkdir classes
javac -encoding UTF-8 -d classes -cp "gen/classes:$classpath" Bot.java
# The JVM's options: C1 only (TieredStopAtLevel=1) halves its start, which the handshake's
# 10 s limit counts, at some cost in peak speed; a bot that searches may drop it.
echo "-XX:TieredStopAtLevel=1 -cp classes:gen/classes:$classpath" > java.args
